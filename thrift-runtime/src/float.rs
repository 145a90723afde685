//! [`OrderedF64`]: an `f64` that can be a set element or a map key.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};

/// An `f64` with a total order (IEEE 754 `totalOrder`, as [`f64::total_cmp`]): generated code
/// uses it for `double`s inside set elements and map keys, which must be `Ord`. Equality is
/// the same order's: `-0.0 != 0.0`, and a NaN equals a NaN with the same bits.
#[derive(Debug, Clone, Copy, Default)]
pub struct OrderedF64(pub f64);

impl PartialEq for OrderedF64 {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for OrderedF64 {}

impl PartialOrd for OrderedF64 {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedF64 {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl Hash for OrderedF64 {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Equal under total_cmp means equal bits.
        self.0.to_bits().hash(state);
    }
}

impl From<f64> for OrderedF64 {
    fn from(value: f64) -> Self {
        OrderedF64(value)
    }
}

impl From<OrderedF64> for f64 {
    fn from(value: OrderedF64) -> Self {
        value.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn total_order() {
        let set: BTreeSet<OrderedF64> = [1.0, -0.0, 0.0, f64::NAN, f64::NEG_INFINITY, 1.0]
            .into_iter()
            .map(OrderedF64)
            .collect();
        let values: Vec<f64> = set.iter().map(|v| v.0).collect();
        assert_eq!(values.len(), 5);
        assert_eq!(values[0], f64::NEG_INFINITY);
        assert!(values[1] == 0.0 && values[1].is_sign_negative());
        assert!(values[4].is_nan());
        assert_ne!(OrderedF64(0.0), OrderedF64(-0.0));
        assert_eq!(OrderedF64(f64::NAN), OrderedF64(f64::NAN));
    }
}
