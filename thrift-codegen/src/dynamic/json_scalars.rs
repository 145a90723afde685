//! Doubles and byte strings in JSON, both ways.

use serde_json::{Number, Value as Json};

/// The bits of the NaN that `"NaN"` stands for (Rust's `f64::NAN`, Apache's writers' NaN).
const QUIET_NAN: u64 = 0x7ff8_0000_0000_0000;

/// A double as JSON: a number, or `"Infinity"`, `"-Infinity"`, `"NaN"`, and for any other NaN
/// its bits, `"NaN:0x7ff80000000abcbc"`, so that encoding gives the same bytes back.
pub(super) fn double_to_json(d: f64) -> Json {
    match Number::from_f64(d) {
        Some(n) => Json::Number(n),
        None if d.is_nan() && d.to_bits() == QUIET_NAN => Json::String("NaN".into()),
        None if d.is_nan() => Json::String(format!("NaN:{:#018x}", d.to_bits())),
        None if d > 0.0 => Json::String("Infinity".into()),
        None => Json::String("-Infinity".into()),
    }
}

/// [`double_to_json`]'s strings.
pub(super) fn double_from_text(text: &str) -> Option<f64> {
    match text {
        "NaN" => Some(f64::from_bits(QUIET_NAN)),
        "Infinity" => Some(f64::INFINITY),
        "-Infinity" => Some(f64::NEG_INFINITY),
        _ => {
            let bits = u64::from_str_radix(text.strip_prefix("NaN:0x")?, 16).ok()?;
            Some(f64::from_bits(bits)).filter(|d| d.is_nan())
        }
    }
}

pub(super) fn bytes_to_json(bytes: &[u8]) -> Json {
    Json::Array(bytes.iter().map(|&b| Json::from(b)).collect())
}

pub(super) fn bytes_from_json(json: &Json) -> Option<Vec<u8>> {
    json.as_array()?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect()
}
