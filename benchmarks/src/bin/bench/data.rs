//! The benchmark values (deterministic), built once with our generated types; every other
//! contender gets the same value by decoding our encoding of it (and is checked against it).

use std::collections::{BTreeMap, BTreeSet};

use crate::gen::ours::bench::{Element, Inner, Kind, Large, Scaling, Small};

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    fn word(&mut self, min: usize, max: usize) -> String {
        const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789-_ ";
        let len = min + self.below((max - min + 1) as u64) as usize;
        (0..len)
            .map(|_| ALPHABET[self.below(ALPHABET.len() as u64) as usize] as char)
            .collect()
    }

    /// Doubles that JSON round-trips exactly (multiples of 1/4), so every contender agrees.
    fn double(&mut self) -> f64 {
        (self.below(1 << 20) as f64) * 0.25 - 1000.0
    }
}

fn small_with(rng: &mut Rng, i: u64) -> Small {
    Small {
        id: 1_000_000_000_000 + i as i64 * 7919,
        version: 3 + (i % 5) as i32,
        name: rng.word(8, 24),
        enabled: !i.is_multiple_of(3),
        score: rng.double(),
        code: i.is_multiple_of(2).then_some(404),
        kind: Kind((i % 4) as i32),
    }
}

pub fn small() -> Small {
    small_with(&mut Rng(0x5eed), 1)
}

fn element(rng: &mut Rng, i: u64) -> Element {
    Element {
        id: (i as i64) * 1_000_003 - 500,
        name: rng.word(10, 30),
        payload: rng.bytes(32),
        value: rng.double(),
        labels: (0..3).map(|_| rng.word(4, 12)).collect(),
    }
}

pub fn large() -> Large {
    let mut rng = Rng(0x1a7e_ba5e);
    Large {
        id: 42,
        title: "a large nested struct with lists, maps, sets and a 64 KiB blob".into(),
        elements: (0..200).map(|i| element(&mut rng, i)).collect(),
        inners: (0..50)
            .map(|i| Inner {
                index: i,
                label: rng.word(6, 20),
                digest: rng.bytes(32),
                samples: (0..16)
                    .map(|_| rng.next() as i64 >> (rng.below(60)))
                    .collect(),
                attributes: (0..4)
                    .map(|k| (format!("attr-{k}"), rng.word(5, 15)))
                    .collect::<BTreeMap<_, _>>(),
            })
            .collect(),
        counters: (0..100)
            .map(|i| {
                (
                    format!("counter.{i}.{}", rng.word(3, 8)),
                    rng.next() as i64 >> 20,
                )
            })
            .collect(),
        by_id: (0..50)
            .map(|i| (i as i32 * 17, element(&mut rng, 1000 + i)))
            .collect(),
        tags: (0..100)
            .map(|i| format!("tag-{i}-{}", rng.word(2, 10)))
            .collect::<BTreeSet<_>>(),
        ids: (0..200).map(|_| rng.next() as i64 >> 3).collect(),
        blob: rng.bytes(64 * 1024),
        smalls: (0..100).map(|i| small_with(&mut rng, i)).collect(),
        note: Some("optional note".into()),
    }
}

pub fn scaling(n: usize) -> Scaling {
    let mut rng = Rng(0x5ca1e + n as u64);
    Scaling {
        elements: (0..n as u64).map(|i| element(&mut rng, i)).collect(),
    }
}

/// serde mirrors of the same values (binaries are JSON arrays of numbers, serde's default).
#[cfg(feature = "json")]
pub mod json {
    use std::collections::{BTreeMap, BTreeSet};

    use serde::{Deserialize, Serialize};

    use crate::gen::ours::bench as o;

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Small {
        pub id: i64,
        pub version: i32,
        pub name: String,
        pub enabled: bool,
        pub score: f64,
        pub code: Option<i16>,
        pub kind: i32,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Element {
        pub id: i64,
        pub name: String,
        pub payload: Vec<u8>,
        pub value: f64,
        pub labels: Vec<String>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Inner {
        pub index: i32,
        pub label: String,
        pub digest: Vec<u8>,
        pub samples: Vec<i64>,
        pub attributes: BTreeMap<String, String>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Large {
        pub id: i64,
        pub title: String,
        pub elements: Vec<Element>,
        pub inners: Vec<Inner>,
        pub counters: BTreeMap<String, i64>,
        pub by_id: BTreeMap<i32, Element>,
        pub tags: BTreeSet<String>,
        pub ids: BTreeSet<i64>,
        pub blob: Vec<u8>,
        pub smalls: Vec<Small>,
        pub note: Option<String>,
    }

    #[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
    pub struct Scaling {
        pub elements: Vec<Element>,
    }

    impl From<&o::Small> for Small {
        fn from(v: &o::Small) -> Small {
            Small {
                id: v.id,
                version: v.version,
                name: v.name.clone(),
                enabled: v.enabled,
                score: v.score,
                code: v.code,
                kind: v.kind.0,
            }
        }
    }

    impl From<&o::Element> for Element {
        fn from(v: &o::Element) -> Element {
            Element {
                id: v.id,
                name: v.name.clone(),
                payload: v.payload.clone(),
                value: v.value,
                labels: v.labels.clone(),
            }
        }
    }

    impl From<&o::Inner> for Inner {
        fn from(v: &o::Inner) -> Inner {
            Inner {
                index: v.index,
                label: v.label.clone(),
                digest: v.digest.clone(),
                samples: v.samples.clone(),
                attributes: v.attributes.clone(),
            }
        }
    }

    impl From<&o::Large> for Large {
        fn from(v: &o::Large) -> Large {
            Large {
                id: v.id,
                title: v.title.clone(),
                elements: v.elements.iter().map(Into::into).collect(),
                inners: v.inners.iter().map(Into::into).collect(),
                counters: v.counters.clone(),
                by_id: v.by_id.iter().map(|(k, e)| (*k, e.into())).collect(),
                tags: v.tags.clone(),
                ids: v.ids.clone(),
                blob: v.blob.clone(),
                smalls: v.smalls.iter().map(Into::into).collect(),
                note: v.note.clone(),
            }
        }
    }

    impl From<&o::Scaling> for Scaling {
        fn from(v: &o::Scaling) -> Scaling {
            Scaling {
                elements: v.elements.iter().map(Into::into).collect(),
            }
        }
    }
}
