//! serde for generated types (feature `serde`, code generated with `Builder::serde(true)`):
//! what the derives cannot do alone.
//!
//! - IDL enums serialize as their IDL name, or as their number when the IDL does not name it
//!   (a value from a newer peer), and deserialize from either ([`serialize_enum`],
//!   [`deserialize_enum`]);
//! - maps whose keys are not strings, numbers, bools or enums (structs, lists, binaries…), which
//!   formats such as JSON cannot hold as object keys, serialize as a sequence of `[key, value]`
//!   pairs ([`pairs`]);
//! - [`OrderedF64`](crate::OrderedF64) is a plain number.
//!
//! Generated code names serde through this crate (`thrift_runtime::serde`), so a crate using
//! the derives needs no `serde` dependency of its own.

use std::fmt;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

impl Serialize for crate::float::OrderedF64 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.0)
    }
}

impl<'de> Deserialize<'de> for crate::float::OrderedF64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        f64::deserialize(deserializer).map(crate::float::OrderedF64)
    }
}

/// An IDL enum's value: its `name` when the IDL names it, else the number.
pub fn serialize_enum<S: Serializer>(
    value: i32,
    name: Option<&'static str>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match name {
        Some(name) => serializer.serialize_str(name),
        None => serializer.serialize_i32(value),
    }
}

/// An IDL enum's value from its name (`from_name`, which knows the IDL's names: an unknown one
/// is an error) or from a number (any `i32`, named or not; also as a string, as JSON writes
/// a number that is an object key).
pub fn deserialize_enum<'de, D: Deserializer<'de>>(
    deserializer: D,
    enum_name: &'static str,
    from_name: fn(&str) -> Option<i32>,
) -> Result<i32, D::Error> {
    struct EnumVisitor {
        enum_name: &'static str,
        from_name: fn(&str) -> Option<i32>,
    }

    impl Visitor<'_> for EnumVisitor {
        type Value = i32;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(
                f,
                "a value of the enum {} (a name or an i32)",
                self.enum_name
            )
        }

        fn visit_str<E: de::Error>(self, name: &str) -> Result<i32, E> {
            // A number as a string: an unnamed value as a JSON object key.
            (self.from_name)(name)
                .or_else(|| name.parse().ok())
                .ok_or_else(|| {
                    E::custom(format_args!(
                        "unknown name `{name}` for the enum {}",
                        self.enum_name
                    ))
                })
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i32, E> {
            i32::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i32, E> {
            i32::try_from(v).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
        }
    }

    deserializer.deserialize_any(EnumVisitor {
        enum_name,
        from_name,
    })
}

/// `#[serde(with = "thrift_runtime::serde_support::pairs")]`: a map (or an `Option` of one) as
/// a sequence of `[key, value]` pairs, for keys a format cannot hold as object keys. Generated
/// code puts it on fields whose map keys are structs, unions, exceptions, lists, sets, maps,
/// binaries, uuids or doubles.
pub mod pairs {
    use std::collections::{BTreeMap, HashMap};
    use std::hash::{BuildHasher, Hash};

    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Maps (and options of maps) that serialize as pairs.
    pub trait Pairs {
        /// Serializes as pairs.
        fn serialize_pairs<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error>;
    }

    /// Maps (and options of maps) that deserialize from pairs.
    pub trait FromPairs<'de>: Sized {
        /// Deserializes from pairs.
        fn deserialize_pairs<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
    }

    fn serialize_iter<'a, K, V, S>(
        len: usize,
        entries: impl Iterator<Item = (&'a K, &'a V)>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>
    where
        K: Serialize + 'a,
        V: Serialize + 'a,
        S: Serializer,
    {
        let mut seq = serializer.serialize_seq(Some(len))?;
        for entry in entries {
            seq.serialize_element(&entry)?;
        }
        seq.end()
    }

    impl<K: Serialize, V: Serialize> Pairs for BTreeMap<K, V> {
        fn serialize_pairs<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_iter(self.len(), self.iter(), serializer)
        }
    }

    impl<K: Serialize, V: Serialize, H> Pairs for HashMap<K, V, H> {
        fn serialize_pairs<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            serialize_iter(self.len(), self.iter(), serializer)
        }
    }

    impl<T: Pairs> Pairs for Option<T> {
        fn serialize_pairs<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            match self {
                Some(map) => map.serialize_pairs(serializer),
                None => serializer.serialize_none(),
            }
        }
    }

    impl<'de, K, V> FromPairs<'de> for BTreeMap<K, V>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
    {
        fn deserialize_pairs<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let pairs = Vec::<(K, V)>::deserialize(deserializer)?;
            Ok(pairs.into_iter().collect())
        }
    }

    impl<'de, K, V, H> FromPairs<'de> for HashMap<K, V, H>
    where
        K: Deserialize<'de> + Eq + Hash,
        V: Deserialize<'de>,
        H: BuildHasher + Default,
    {
        fn deserialize_pairs<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let pairs = Vec::<(K, V)>::deserialize(deserializer)?;
            Ok(pairs.into_iter().collect())
        }
    }

    impl<'de, T: FromPairs<'de>> FromPairs<'de> for Option<T> {
        fn deserialize_pairs<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            /// `T` through its pairs, for `Option`'s own `Deserialize`.
            struct Wrapped<T>(T);
            impl<'de, T: FromPairs<'de>> Deserialize<'de> for Wrapped<T> {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    T::deserialize_pairs(d).map(Wrapped)
                }
            }
            Ok(Option::<Wrapped<T>>::deserialize(deserializer)?.map(|w| w.0))
        }
    }

    /// For `#[serde(with = …)]`.
    pub fn serialize<T: Pairs, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize_pairs(serializer)
    }

    /// For `#[serde(with = …)]`.
    pub fn deserialize<'de, T: FromPairs<'de>, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        T::deserialize_pairs(deserializer)
    }
}
