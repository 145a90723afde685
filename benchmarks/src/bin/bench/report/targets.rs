//! Targets: the project's goals (ratios of one contender's time over another's, allocations
//! per operation) checked against a run's results, for the console, the JSON file and
//! BENCHMARKS.md.

use super::format::fmt_count;
use super::{Scenario, State};
use crate::contenders::Op;

pub struct Target {
    pub what: String,
    pub scenario: String,
    /// Measured value (a ratio, or a count for allocations).
    pub measured: Option<f64>,
    pub goal: f64,
    /// For ratios: met when measured >= goal; for allocations: met when measured <= goal.
    pub at_most: bool,
    pub note: String,
}

impl Target {
    pub fn status(&self) -> &'static str {
        match self.measured {
            None => "not measured",
            Some(m) if (self.at_most && m <= self.goal) || (!self.at_most && m >= self.goal) => {
                "met"
            }
            Some(_) => "missed",
        }
    }

    pub fn measured_text(&self) -> String {
        match self.measured {
            None => "-".into(),
            Some(m) if self.at_most => fmt_count(m),
            Some(m) => format!("{m:.2}x"),
        }
    }
}

fn find<'a>(results: &'a [Scenario], id: &str) -> Option<&'a Scenario> {
    results.iter().find(|s| s.id() == id)
}

fn why_missing(s: Option<&Scenario>, names: &[&str]) -> String {
    let Some(s) = s else {
        return "scenario not run".into();
    };
    for n in names {
        match s.contenders.iter().find(|c| c.name == *n) {
            None => return format!("`{n}` not in this run"),
            Some(c) => {
                if let Some(r) = &c.failed {
                    return format!("`{n}` failed verification: {r}");
                }
            }
        }
    }
    String::new()
}

/// A speed goal: the contender `ours` at least `goal` times faster than `rival` (the ratio of
/// `rival`'s time over `ours`'s, paired round by round: [`Scenario::paired`]).
struct SpeedGoal {
    what: &'static str,
    ours: &'static str,
    rival: &'static str,
    goal: f64,
}

/// The decodes of the large struct, in every heap state (hot, busy, cold).
const LARGE_DECODE_IN_EVERY_STATE: &[SpeedGoal] = &[
    SpeedGoal {
        what: "owned decode with reuse (`decode_into`) ≥3x faster than Apache",
        ours: "ours-decode_into",
        rival: "apache",
        goal: 3.0,
    },
    SpeedGoal {
        what: "borrowed decode ≥6x faster than Apache",
        ours: "ours-borrowed",
        rival: "apache",
        goal: 6.0,
    },
    SpeedGoal {
        what: "(arena, sized from the last value) borrowed decode ≥6x faster than Apache",
        ours: "ours-arena",
        rival: "apache",
        goal: 6.0,
    },
    SpeedGoal {
        what: "owned decode ≥3x faster than Apache",
        ours: "ours",
        rival: "apache",
        goal: 3.0,
    },
];

/// The decodes of the large struct, hot.
const LARGE_DECODE: &[SpeedGoal] = &[
    SpeedGoal {
        what: "owned decode ≥2x faster than pilota",
        ours: "ours",
        rival: "pilota",
        goal: 2.0,
    },
    SpeedGoal {
        what: "(Strings::Bytes) owned decode ≥3x faster than Apache",
        ours: "ours-bytes",
        rival: "apache",
        goal: 3.0,
    },
    SpeedGoal {
        what: "(Strings::Bytes) owned decode ≥2x faster than pilota",
        ours: "ours-bytes",
        rival: "pilota",
        goal: 2.0,
    },
    SpeedGoal {
        what: "(Strings::Bytes, Collections::Hash + foldhash) owned decode ≥2x faster than pilota",
        ours: "ours-bytes-hash",
        rival: "pilota",
        goal: 2.0,
    },
    SpeedGoal {
        what:
            "(Strings::Compact, Collections::Hash + foldhash) owned decode ≥3x faster than Apache",
        ours: "ours-compact-hash",
        rival: "apache",
        goal: 3.0,
    },
    SpeedGoal {
        what:
            "(Strings::Compact, Collections::Hash + foldhash) owned decode ≥2x faster than pilota",
        ours: "ours-compact-hash",
        rival: "pilota",
        goal: 2.0,
    },
];

/// The encodes of the large struct.
const LARGE_ENCODE: &[SpeedGoal] = &[
    SpeedGoal {
        what: "encode ≥5x faster than Apache",
        ours: "ours",
        rival: "apache",
        goal: 5.0,
    },
    SpeedGoal {
        what: "encode ≥1.5x faster than pilota",
        ours: "ours",
        rival: "pilota",
        goal: 1.5,
    },
];

/// The decodes of every Parquet footer, in every heap state.
const FOOTER_DECODE: &[SpeedGoal] = &[
    SpeedGoal {
        what: "Parquet footer decode at least as fast as the parquet crate",
        ours: "ours",
        rival: "parquet-crate",
        goal: 1.0,
    },
    SpeedGoal {
        what: "owned decode with reuse (`decode_into`) at least as fast as the parquet crate",
        ours: "ours-decode_into",
        rival: "parquet-crate",
        goal: 1.0,
    },
    SpeedGoal {
        what: "(Strings::Bytes) Parquet footer decode vs the parquet crate",
        ours: "ours-bytes",
        rival: "parquet-crate",
        goal: 1.0,
    },
    SpeedGoal {
        what: "(Strings::Compact) Parquet footer decode vs the parquet crate",
        ours: "ours-compact-hash",
        rival: "parquet-crate",
        goal: 1.0,
    },
    SpeedGoal {
        what: "(borrowed) Parquet footer decode ≥1.3x the parquet crate's speed",
        ours: "ours-borrowed",
        rival: "parquet-crate",
        goal: 1.3,
    },
    SpeedGoal {
        what: "(arena, sized from the last footer) Parquet footer decode ≥1.3x the parquet crate's speed",
        ours: "ours-arena",
        rival: "parquet-crate",
        goal: 1.3,
    },
    SpeedGoal {
        what: "(arena, reset between footers) Parquet footer decode ≥1.3x the parquet crate's speed",
        ours: "ours-arena-reused",
        rival: "parquet-crate",
        goal: 1.3,
    },
];

/// Every target, checked against `results`, in the order of the tables.
pub fn targets(results: &[Scenario]) -> Vec<Target> {
    let mut out = Vec::new();
    let mut speed = |goals: &[SpeedGoal], id: &str| {
        out.extend(goals.iter().map(|goal| speed_target(results, goal, id)));
    };
    // Decode targets hold in every heap state (hot, busy, cold).
    for (p, state) in ["binary", "compact"]
        .into_iter()
        .flat_map(|p| [State::Hot, State::Busy, State::Cold].map(|s| (p, s)))
    {
        speed(
            LARGE_DECODE_IN_EVERY_STATE,
            &format!("large/{p}/decode{}", state.suffix()),
        );
    }
    for p in ["binary", "compact"] {
        speed(LARGE_DECODE, &format!("large/{p}/decode"));
        speed(LARGE_ENCODE, &format!("large/{p}/encode"));
    }
    for s in results
        .iter()
        .filter(|s| s.workload.starts_with("parquet-") && s.op == Op::Decode)
    {
        speed(FOOTER_DECODE, &s.id());
    }
    out.extend(footer_bytes_targets(results));
    out.push(decode_into_allocations_target(results));
    out.push(encode_allocations_target(results));
    out
}

/// The speed goal `goal` on the scenario `id`. Where `ours` (or `ours-bytes`) misses, the
/// note says how far the allocations alone let it go.
fn speed_target(results: &[Scenario], goal: &SpeedGoal, id: &str) -> Target {
    let &SpeedGoal {
        what,
        ours: base,
        rival: other,
        goal,
    } = goal;
    let s = find(results, id);
    let measured = s.and_then(|s| s.paired(base, other));
    // Where `ours` (or `ours-bytes`) misses, how far the allocations alone (and the
    // reference counts of the shared buffer's slices) let it go: `other`'s time over the
    // time of replaying them without decoding.
    let floor = match base {
        "ours" => Some(("alloc-floor", "ours's heap calls")),
        "ours-bytes" => Some((
            "bytes-floor",
            "ours-bytes's heap calls and `Bytes` clones and drops",
        )),
        _ => None,
    };
    let bound = floor
        .filter(|_| measured.is_some_and(|m| m < goal))
        .and_then(|(floor, what)| Some((s?.paired(floor, other)?, floor, what)));
    Target {
        what: what.into(),
        scenario: id.into(),
        measured,
        goal,
        at_most: false,
        note: match (measured, bound) {
            (None, _) => why_missing(s, &[base, other]),
            (Some(_), Some((bound, floor, what))) => format!(
                "allocations alone: `{other}` takes {bound:.2}x the time of {what} \
                 replayed without decoding (`{floor}`), the most any decoder making them \
                 could reach"
            ),
            (Some(_), None) => String::new(),
        },
    }
}

/// Bytes a decoded footer takes (what the decode allocates), borrowed against the parquet
/// crate's.
fn footer_bytes_targets(results: &[Scenario]) -> Vec<Target> {
    let mut out = Vec::new();
    for s in results.iter().filter(|s| {
        s.workload.starts_with("parquet-") && s.op == Op::Decode && s.state == State::Hot
    }) {
        let bytes = |name: &str| {
            s.contenders
                .iter()
                .find(|c| c.name == name && c.failed.is_none())
                .map(|c| c.bytes)
        };
        // `ours-arena` allocates one block of the value's bytes per decode.
        for (form, name) in [
            ("borrowed", "ours-borrowed"),
            ("arena", "ours-arena"),
            (
                "arena, meta_data and statistics inline",
                "ours-arena-inline",
            ),
        ] {
            let measured = bytes(name)
                .zip(bytes("parquet-crate"))
                .map(|(ours, theirs)| ours / theirs);
            out.push(Target {
                what: format!("({form}) bytes per decoded footer ≤ the parquet crate's (ratio)"),
                scenario: s.id(),
                measured,
                goal: 1.0,
                at_most: true,
                note: match measured {
                    None => why_missing(Some(s), &[name, "parquet-crate"]),
                    Some(_) => String::new(),
                },
            });
        }
    }
    out
}

/// Steady state of `decode_into`: the most allocations any decode of the large struct or a
/// footer makes.
fn decode_into_allocations_target(results: &[Scenario]) -> Target {
    let most = most_allocs(results, "ours-decode_into", |s| {
        s.op == Op::Decode
            && s.state == State::Hot
            && (s.workload == "large" || s.workload.starts_with("parquet-"))
    });
    Target {
        what: "0 allocations per `decode_into` in steady state (large struct, footers)".into(),
        scenario: most
            .as_ref()
            .map(|(_, id)| format!("max over those decodes ({id})"))
            .unwrap_or_default(),
        note: if most.as_ref().is_some_and(|(a, _)| *a > 0.0) {
            "sets and maps are built again (docs/src/reference/generating.md, `decode_into`): their entries are read over \
             the old ones, but std's B-trees allocate their nodes again (the large struct: 5 maps \
             and sets, 50 more in its `inners`)"
                .into()
        } else {
            String::new()
        },
        measured: most.map(|(a, _)| a),
        goal: 0.0,
        at_most: true,
    }
}

/// No allocation in any encode of ours: the most any encode scenario makes.
fn encode_allocations_target(results: &[Scenario]) -> Target {
    let worst = most_allocs(results, "ours", |s| s.op == Op::Encode);
    Target {
        what: "0 allocations per encode (`encode` into a reused Vec)".into(),
        scenario: worst
            .as_ref()
            .map(|(_, id)| format!("max over every encode scenario ({id})"))
            .unwrap_or_default(),
        measured: worst.map(|(a, _)| a),
        goal: 0.0,
        at_most: true,
        note: String::new(),
    }
}

/// The most allocations per operation `name` makes in the scenarios `wanted` picks, and where.
fn most_allocs(
    results: &[Scenario],
    name: &str,
    wanted: impl Fn(&Scenario) -> bool,
) -> Option<(f64, String)> {
    let mut most: Option<(f64, String)> = None;
    for s in results.iter().filter(|s| wanted(s)) {
        if let Some(c) = s
            .contenders
            .iter()
            .find(|c| c.name == name && c.failed.is_none())
        {
            if most.as_ref().is_none_or(|(a, _)| c.allocs > *a) {
                most = Some((c.allocs, s.id()));
            }
        }
    }
    most
}

/// The targets on the console.
pub fn print_targets(targets: &[Target]) {
    println!("\nTargets:");
    for t in targets {
        println!(
            "  {:<8} {:<62} {:<28} {:>8} {}",
            t.status(),
            t.what,
            t.scenario,
            t.measured_text(),
            t.note
        );
    }
}
