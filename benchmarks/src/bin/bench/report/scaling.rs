//! The scaling series of a run (`Scaling { list<Element> }` with N elements): what its tables in
//! BENCHMARKS.md and its SVG chart are drawn from.

use super::Scenario;
use crate::contenders::{Op, Proto};

pub struct ScalingSeries<'r> {
    /// The scenarios of the series, in the order they ran.
    pub scenarios: Vec<&'r Scenario>,
    /// Every contender of any of them, in the order they first appear.
    pub names: Vec<&'static str>,
    /// The numbers of elements, ascending.
    pub sizes: Vec<usize>,
}

impl<'r> ScalingSeries<'r> {
    /// The scenarios of `results` that have a number of elements.
    pub fn new(results: &'r [Scenario]) -> ScalingSeries<'r> {
        let scenarios: Vec<&Scenario> = results.iter().filter(|s| s.elements.is_some()).collect();
        let mut names: Vec<&'static str> = Vec::new();
        for s in &scenarios {
            for c in &s.contenders {
                if !names.contains(&c.name) {
                    names.push(c.name);
                }
            }
        }
        let mut sizes: Vec<usize> = scenarios.iter().filter_map(|s| s.elements).collect();
        sizes.sort();
        sizes.dedup();
        ScalingSeries {
            scenarios,
            names,
            sizes,
        }
    }

    /// The scenario of `n` elements in this protocol and operation, when it ran.
    pub fn scenario(&self, n: usize, proto: Proto, op: Op) -> Option<&'r Scenario> {
        self.scenarios
            .iter()
            .find(|s| s.elements == Some(n) && s.proto == proto && s.op == op)
            .copied()
    }
}
