//! The JSON file of a run's results (benchmarks/results/latest.json by default).

use std::fmt::Write as _;

use super::targets::Target;
use super::{machine, Scenario};
use crate::Opts;

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number (`null` when not finite).
fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        "null".into()
    }
}

/// A JSON number, or `null`.
fn json_option<T: std::fmt::Display>(x: Option<T>) -> String {
    x.map(|x| x.to_string()).unwrap_or_else(|| "null".into())
}

/// The results file: every statistic of every scenario and contender (with its speed-up
/// against every other one), and the targets.
pub fn json(results: &[Scenario], targets: &[Target], opts: &Opts) -> String {
    let mut o = String::new();
    o.push_str("{\n  \"version\": 1,\n");
    let _ = writeln!(
        o,
        "  \"args\": [{}],",
        opts.args
            .iter()
            .map(|a| json_string(a))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let _ = writeln!(o, "  \"quick\": {},", opts.quick);
    let _ = writeln!(o, "  \"machine\": {},", json_string(&machine()));
    o.push_str("  \"scenarios\": [\n");
    for (i, s) in results.iter().enumerate() {
        let _ = write!(
            o,
            "    {{\"id\": {}, \"workload\": {}, \"elements\": {}, \"protocol\": {}, \"op\": {}, \"input_bytes\": {}, \"json_bytes\": {},\n      \"contenders\": [\n",
            json_string(&s.id()),
            json_string(&s.workload),
            json_option(s.elements),
            json_string(s.proto.name()),
            json_string(s.op.name()),
            s.bytes,
            json_option(s.json_bytes)
        );
        for (j, c) in s.contenders.iter().enumerate() {
            let ratios: Vec<String> = s
                .contenders
                .iter()
                .filter(|d| d.name != c.name)
                .filter_map(|d| {
                    let r = s.paired(c.name, d.name)?;
                    Some(format!("{}: {}", json_string(d.name), json_number(r)))
                })
                .collect();
            let _ = writeln!(
                o,
                "        {{\"name\": {}, \"failed\": {}, \"median_ns\": {}, \"p25_ns\": {}, \"p75_ns\": {}, \"p90_ns\": {}, \"samples\": {}, \"iters_per_sample\": {}, \"allocs_per_op\": {}, \"bytes_per_op\": {}, \"peak_heap_bytes\": {}, \"peak_rss_growth_kib\": {}, \"faults_per_op\": {}, \"speedup_vs\": {{{}}}}}{}",
                json_string(c.name),
                c.failed.as_deref().map(json_string).unwrap_or_else(|| "null".into()),
                json_number(c.stats.median_ns),
                json_number(c.stats.p25_ns),
                json_number(c.stats.p75_ns),
                json_number(c.stats.p90_ns),
                c.stats.samples,
                c.stats.iters_per_sample,
                json_number(c.allocs),
                json_number(c.bytes),
                json_option(c.peak_heap),
                json_option(c.peak_rss_kib),
                c.faults.map(json_number).unwrap_or_else(|| "null".into()),
                ratios.join(", "),
                if j + 1 < s.contenders.len() { "," } else { "" }
            );
        }
        let _ = writeln!(
            o,
            "      ]}}{}",
            if i + 1 < results.len() { "," } else { "" }
        );
    }
    o.push_str("  ],\n  \"targets\": [\n");
    for (i, t) in targets.iter().enumerate() {
        let _ = writeln!(
            o,
            "    {{\"target\": {}, \"scenario\": {}, \"measured\": {}, \"goal\": {}, \"status\": {}, \"note\": {}}}{}",
            json_string(&t.what),
            json_string(&t.scenario),
            t.measured.map(json_number).unwrap_or_else(|| "null".into()),
            json_number(t.goal),
            json_string(t.status()),
            json_string(&t.note),
            if i + 1 < targets.len() { "," } else { "" }
        );
    }
    o.push_str("  ]\n}\n");
    o
}
