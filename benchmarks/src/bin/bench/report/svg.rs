//! The chart of the scaling series (benchmarks/scaling.svg): four panels (binary/compact ×
//! decode/encode), log-scale time per operation against N, a line per contender.

use std::fmt::Write as _;

use super::format::fmt_ns;
use super::scaling::ScalingSeries;
use crate::contenders::{Op, Proto};

const COLORS: &[(&str, &str)] = &[
    ("ours", "#d62728"),
    ("ours-borrowed", "#ff7f0e"),
    ("ours-arena", "#ffbb78"),
    ("ours-arena-reused", "#c49c94"),
    ("ours-bytes", "#e377c2"),
    ("ours-hash", "#8c564b"),
    ("ours-bytes-hash", "#bcbd22"),
    ("ours-compact-hash", "#17becf"),
    ("apache", "#1f77b4"),
    ("pilota", "#2ca02c"),
    ("serde_json", "#9467bd"),
    ("memcpy", "#7f7f7f"),
    ("alloc-floor", "#c7c7c7"),
    ("bytes-floor", "#dbdb8d"),
];

/// A contender's color (black for those without one).
fn color(name: &str) -> &'static str {
    COLORS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| *c)
        .unwrap_or("black")
}

/// The size of a panel, the left and top margins and the gap between panels, in pixels.
const PANEL_WIDTH: f64 = 420.0;
const PANEL_HEIGHT: f64 = 260.0;
const MARGIN_LEFT: f64 = 70.0;
const MARGIN_TOP: f64 = 40.0;
const GAP: f64 = 60.0;
/// The whole picture: two panels by two, and room below them for the legend.
const WIDTH: f64 = MARGIN_LEFT + 2.0 * PANEL_WIDTH + GAP + 20.0;
const HEIGHT: f64 = MARGIN_TOP + 2.0 * PANEL_HEIGHT + GAP + 90.0;

/// The panels, left to right and top to bottom.
const PANELS: [(Proto, Op); 4] = [
    (Proto::Binary, Op::Decode),
    (Proto::Binary, Op::Encode),
    (Proto::Compact, Op::Decode),
    (Proto::Compact, Op::Encode),
];

/// Four panels (binary/compact × decode/encode): log-scale time per operation against N.
pub fn scaling_chart(scaling: &ScalingSeries) -> String {
    let decades = Decades::of(scaling);
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(o, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        o,
        r#"<text x="{}" y="20" font-size="14" text-anchor="middle">Scaling series: median time per operation (log scale) against the number of elements</text>"#,
        WIDTH / 2.0
    );
    for (pi, (proto, op)) in PANELS.into_iter().enumerate() {
        let panel = Panel {
            x0: MARGIN_LEFT + (pi % 2) as f64 * (PANEL_WIDTH + GAP),
            y0: MARGIN_TOP + (pi / 2) as f64 * (PANEL_HEIGHT + GAP),
            sizes: scaling.sizes.len(),
            decades,
        };
        panel.frame(&mut o, proto, op, &scaling.sizes);
        for name in &scaling.names {
            panel.line(&mut o, scaling, proto, op, name);
        }
    }
    legend(&mut o, &scaling.names);
    o.push_str("</svg>\n");
    o
}

/// The powers of ten the time axis spans (`lo` to `hi`): from the decade of the fastest time
/// to that of the slowest, one decade at least.
#[derive(Clone, Copy)]
struct Decades {
    lo: f64,
    hi: f64,
}

impl Decades {
    fn of(scaling: &ScalingSeries) -> Decades {
        let all: Vec<f64> = scaling
            .scenarios
            .iter()
            .flat_map(|s| {
                s.contenders
                    .iter()
                    .filter(|c| c.failed.is_none())
                    .map(|c| c.stats.median_ns)
            })
            .filter(|x| x.is_finite() && *x > 0.0)
            .collect();
        // No time at all starts the scale at 1 ns: an infinite lowest decade would never end the
        // grid's loop.
        let min = all.iter().cloned().fold(f64::INFINITY, f64::min);
        let lo = if min.is_finite() { min.max(1.0) } else { 1.0 }
            .log10()
            .floor();
        let hi = all
            .iter()
            .cloned()
            .fold(0.0, f64::max)
            .max(10.0)
            .log10()
            .ceil()
            .max(lo + 1.0);
        Decades { lo, hi }
    }
}

/// One panel: where it sits (its top left corner) and how it places a point.
struct Panel {
    x0: f64,
    y0: f64,
    /// How many numbers of elements the horizontal axis shows.
    sizes: usize,
    decades: Decades,
}

impl Panel {
    /// The horizontal position of the `i`-th number of elements.
    fn x(&self, i: usize) -> f64 {
        self.x0 + PANEL_WIDTH * i as f64 / (self.sizes.max(2) - 1) as f64
    }

    /// The vertical position of a time (log scale).
    fn y(&self, ns: f64) -> f64 {
        let Decades { lo, hi } = self.decades;
        self.y0 + PANEL_HEIGHT - PANEL_HEIGHT * (ns.max(1.0).log10() - lo) / (hi - lo)
    }

    /// The panel's box and title, a grid line per decade and the numbers of elements below.
    fn frame(&self, o: &mut String, proto: Proto, op: Op, sizes: &[usize]) {
        let Panel { x0, y0, .. } = *self;
        let _ = writeln!(
            o,
            r##"<rect x="{x0}" y="{y0}" width="{PANEL_WIDTH}" height="{PANEL_HEIGHT}" fill="none" stroke="#888"/>"##
        );
        let _ = writeln!(
            o,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="12">{} {}</text>"#,
            x0 + PANEL_WIDTH / 2.0,
            y0 - 6.0,
            proto.name(),
            op.name()
        );
        let Decades { lo, hi } = self.decades;
        let mut d = lo;
        while d <= hi {
            let yy = self.y(10f64.powf(d));
            let _ = writeln!(
                o,
                r##"<line x1="{x0}" x2="{}" y1="{yy}" y2="{yy}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
                x0 + PANEL_WIDTH,
                x0 - 4.0,
                yy + 4.0,
                fmt_ns(10f64.powf(d))
            );
            d += 1.0;
        }
        for (i, n) in sizes.iter().enumerate() {
            let _ = writeln!(
                o,
                r#"<text x="{}" y="{}" text-anchor="middle">{n}</text>"#,
                self.x(i),
                y0 + PANEL_HEIGHT + 14.0
            );
        }
    }

    /// The contender `name`'s line and points in this panel, when it has any.
    fn line(&self, o: &mut String, scaling: &ScalingSeries, proto: Proto, op: Op, name: &str) {
        let color = color(name);
        let pts: Vec<String> = scaling
            .sizes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let s = scaling.scenario(*n, proto, op)?;
                let c = s
                    .contenders
                    .iter()
                    .find(|c| c.name == name && c.failed.is_none())?;
                // Nothing to draw on a log scale for no time (`alloc-floor` with no
                // allocations).
                (c.stats.median_ns > 0.0)
                    .then(|| format!("{:.1},{:.1}", self.x(i), self.y(c.stats.median_ns)))
            })
            .collect();
        if pts.is_empty() {
            return;
        }
        let _ = writeln!(
            o,
            r#"<polyline fill="none" stroke="{color}" stroke-width="2" points="{}"/>"#,
            pts.join(" ")
        );
        for p in &pts {
            let (px, py) = p.split_once(',').unwrap();
            let _ = writeln!(o, r#"<circle cx="{px}" cy="{py}" r="2.5" fill="{color}"/>"#);
        }
    }
}

/// The axis title under the panels and a legend entry per contender.
fn legend(o: &mut String, names: &[&str]) {
    let ly = MARGIN_TOP + 2.0 * PANEL_HEIGHT + GAP + 30.0;
    let _ = writeln!(
        o,
        r#"<text x="{}" y="{}" text-anchor="middle">elements (N)</text>"#,
        WIDTH / 2.0,
        ly - 8.0
    );
    for (i, name) in names.iter().enumerate() {
        let color = color(name);
        // As many 130-pixel entries per row as fit, further rows 20 pixels down.
        let per_row = ((WIDTH - MARGIN_LEFT) / 130.0) as usize;
        let lx = MARGIN_LEFT + (i % per_row) as f64 * 130.0;
        let row_y = ly + (i / per_row) as f64 * 20.0;
        let _ = writeln!(
            o,
            r#"<line x1="{lx}" x2="{}" y1="{}" y2="{}" stroke="{color}" stroke-width="3"/><text x="{}" y="{}">{name}</text>"#,
            lx + 24.0,
            row_y + 16.0,
            row_y + 16.0,
            lx + 30.0,
            row_y + 20.0
        );
    }
}
