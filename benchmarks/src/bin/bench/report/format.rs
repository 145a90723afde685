//! Numbers as the tables print them: times, counts, bytes and ratios.

/// A time in nanoseconds, in the unit that suits it (`-` when there is none).
pub fn fmt_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "-".into()
    } else if ns < 1e3 {
        format!("{ns:.1} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

/// A count per operation: whole, or with two decimals when it is an average.
pub fn fmt_count(x: f64) -> String {
    if x == x.trunc() {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// A number of bytes, in B, KiB or MiB.
pub fn fmt_bytes(x: f64) -> String {
    if x < 1024.0 {
        format!("{x:.0} B")
    } else if x < 1024.0 * 1024.0 {
        format!("{:.1} KiB", x / 1024.0)
    } else {
        format!("{:.2} MiB", x / 1024.0 / 1024.0)
    }
}

/// A ratio of times as `1.23x` (`-` when there is none).
pub fn fmt_ratio(r: Option<f64>) -> String {
    r.map(|r| format!("{r:.2}x")).unwrap_or_else(|| "-".into())
}
