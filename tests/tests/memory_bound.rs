//! The memory bound: decoding any input of `n` bytes allocates at most `c·n + k` bytes in
//! total (every allocation and every reallocation's new size added up, whether or not it is
//! freed again), for each mapping, over random, mutated and hand-made adversarial inputs:
//! huge lengths, deep nesting, many empty containers, repeated maps, truncated varints,
//! 10-byte varints with overflow bits, and zlib bombs for THeader.
//!
//! Why the bound is linear: a length prefix is checked against the remaining input before
//! anything is allocated for it, a container's count too (each element takes at least one
//! byte), and a pre-allocation is capped at `MAX_PREALLOCATION`. So every allocated byte is
//! paid for by input bytes, at a rate `c` set by the mapping: the largest in-memory size of
//! an element over its smallest encoding (a 24-byte `Vec` from a 1-byte empty list; a
//! `BTreeMap` leaf of 11 slots from a 1-entry map of 4 bytes; a `HashMap`'s buckets at up to
//! twice the entries). `k` covers the fixed cost: the error box, the first node of a map.
//!
//! The constants are the ones docs/src/reference/security.md gives.

use bytes::BytesMut;
use thrift_runtime::FrameLimits;
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::frame::{self, Framing, WireFormat};
use thrift_runtime::{
    ApplicationException, ApplicationExceptionKind, Arena, Binary, Compact, Json, MessageType,
    Protocol, ProtocolWriter, Result, TType, ThriftRead,
};
use thrift_tests::alloc::{Counting, allocated_bytes};
use thrift_tests::golden::fixture_base_types::base_types::{BaseTypes, BaseTypesRef};
use thrift_tests::golden::fixture_base_types_bytes::base_types::BaseTypes as SharedBaseTypes;
use thrift_tests::golden::fixture_containers::containers::{Containers, ContainersRef, UsesKeys};
use thrift_tests::golden::fixture_containers_bytes::containers::Containers as SharedContainers;
use thrift_tests::golden::fixture_containers_compact::containers::Containers as CompactContainers;
use thrift_tests::golden::fixture_containers_hash::containers::{
    Containers as HashContainers, UsesKeys as HashUsesKeys,
};
use thrift_tests::golden::fixture_recursion::recursion::{Node, Tree};
use thrift_tests::golden::fixture_unions::unions::{Expr, HasUnion, HasUnionRef};
use thrift_tests::golden::fixture_unknown_fields::unknown_fields::{Kept, KeptRef, Nothing};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A decoder under test, with its bound.
struct Mapping {
    name: &'static str,
    /// Bytes allocated per input byte, at most.
    c: usize,
    /// Fixed bytes, at most.
    k: usize,
    decode: fn(&[u8]),
}

/// The fixed part of every bound: an error box, a first map node, a little slack.
const K: usize = 4096;

fn mappings() -> Vec<Mapping> {
    fn both<T: for<'de> ThriftRead<'de>>(bytes: &[u8]) {
        let _ = T::decode::<Binary>(bytes);
        let _ = T::decode::<Compact>(bytes);
        let _ = T::decode::<Json>(bytes);
    }
    fn both_borrowed<'a, T: ThriftRead<'a>>(bytes: &'a [u8]) {
        let _ = T::decode::<Binary>(bytes);
        let _ = T::decode::<Compact>(bytes);
        let _ = T::decode::<Json>(bytes);
    }
    fn in_arena<'a, T: ThriftRead<'a>>(bytes: &'a [u8], arena: &'a Arena) {
        let _ = T::decode_in::<Binary>(bytes, arena);
        let _ = T::decode_in::<Compact>(bytes, arena);
        let _ = T::decode_in::<Json>(bytes, arena);
    }
    vec![
        // Owned, the default mapping: `Vec`, `BTreeMap`/`BTreeSet`, `String`, `Vec<u8>`.
        Mapping {
            name: "owned BaseTypes",
            c: 2,
            k: K,
            decode: both::<BaseTypes>,
        },
        Mapping {
            name: "owned Containers",
            c: 96,
            k: K,
            decode: both::<Containers>,
        },
        Mapping {
            name: "owned UsesKeys",
            c: 128,
            k: K,
            decode: both::<UsesKeys>,
        },
        Mapping {
            name: "owned Tree, Node (recursion)",
            c: 96,
            k: K,
            decode: |b| {
                both::<Tree>(b);
                both::<Node>(b);
            },
        },
        Mapping {
            name: "owned HasUnion, Expr (unions)",
            c: 96,
            k: K,
            decode: |b| {
                both::<HasUnion>(b);
                both::<Expr>(b);
            },
        },
        // `Collections::Hash`.
        Mapping {
            name: "hash Containers, UsesKeys",
            c: 192,
            k: K,
            decode: |b| {
                both::<HashContainers>(b);
                both::<HashUsesKeys>(b);
            },
        },
        // `Strings::Compact`.
        Mapping {
            name: "compact-string Containers",
            c: 96,
            k: K,
            decode: both::<CompactContainers>,
        },
        // `Strings::Bytes`, decoding from a `Bytes` (the input copied once, then sliced).
        Mapping {
            name: "shared-bytes BaseTypes, Containers",
            c: 96,
            k: K,
            decode: |b| {
                let buffer = thrift_runtime::Bytes::copy_from_slice(b);
                let _ = SharedBaseTypes::decode_bytes::<Binary>(&buffer);
                let _ = SharedBaseTypes::decode_bytes::<Compact>(&buffer);
                let _ = SharedContainers::decode_bytes::<Binary>(&buffer);
                let _ = SharedContainers::decode_bytes::<Compact>(&buffer);
                let _ = SharedBaseTypes::decode_bytes::<Json>(&buffer);
                let _ = SharedContainers::decode_bytes::<Json>(&buffer);
            },
        },
        // Unknown fields kept (`Builder::keep_unknown_fields`): every field of `Nothing` is
        // one, read into a tree of `unknown::Value`s (32 bytes each, 40 with a field id; a
        // list of empty lists takes 32 bytes per input byte, and growing past the 1 MiB
        // pre-allocation cap doubles that).
        Mapping {
            name: "unknown fields kept: Nothing",
            c: 96,
            k: K,
            decode: both::<Nothing>,
        },
        Mapping {
            name: "unknown fields kept: Kept",
            c: 96,
            k: K,
            decode: both::<Kept>,
        },
        Mapping {
            name: "unknown fields kept: KeptRef",
            c: 96,
            k: K,
            decode: |b| both_borrowed::<KeptRef<'_>>(b),
        },
        // Borrowing forms: strings and binaries point into the input; maps and sets are
        // `Vec`s of pairs.
        // Arena mode: the arena's blocks (one arena for the three protocols' decodes, as a
        // reader that does not reset it between messages).
        Mapping {
            name: "arena ContainersRef, HasUnionRef, TreeRef, NodeRef",
            c: 96,
            k: K,
            decode: |b| {
                use thrift_tests::golden::fixture_containers_arena::containers as c;
                use thrift_tests::golden::fixture_recursion_arena::recursion as r;
                use thrift_tests::golden::fixture_unions_arena::unions as u;
                let arena = Arena::new();
                in_arena::<c::ContainersRef<'_>>(b, &arena);
                in_arena::<u::HasUnionRef<'_>>(b, &arena);
                in_arena::<r::TreeRef<'_>>(b, &arena);
                in_arena::<r::NodeRef<'_>>(b, &arena);
            },
        },
        Mapping {
            name: "borrowed BaseTypesRef, ContainersRef, HasUnionRef",
            c: 96,
            k: K,
            decode: |b| {
                both_borrowed::<BaseTypesRef<'_>>(b);
                both_borrowed::<ContainersRef<'_>>(b);
                both_borrowed::<HasUnionRef<'_>>(b);
            },
        },
    ]
}

/// A small deterministic generator (xorshift64*), so that a failure can be rerun.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A byte that is often meaningful on the wire: a type id, a small count, a stop, an
    /// all-ones or sign byte.
    fn wire_byte(&mut self) -> u8 {
        const INTERESTING: [u8; 12] = [0, 1, 2, 3, 8, 11, 12, 13, 14, 15, 0x7f, 0xff];
        match self.below(3) {
            0 => INTERESTING[self.below(INTERESTING.len())],
            _ => self.next() as u8,
        }
    }
}

fn encoded<P: Protocol>(f: impl FnOnce(&mut P::Writer<&mut Vec<u8>>) -> Result<()>) -> Vec<u8> {
    let mut out = Vec::new();
    f(&mut P::writer(&mut out)).unwrap();
    out
}

/// Hand-made inputs, each aimed at one way to make a decoder allocate more than the input
/// pays for.
fn adversarial() -> Vec<Vec<u8>> {
    let mut out = huge_length_prefixes();
    out.extend(huge_compact_counts());
    out.extend(deep_nesting());
    out.extend(many_empty_containers());
    out.extend(repeated_maps());
    out.extend(bad_varints());
    out
}

/// Huge and negative length prefixes on every string, binary and container field (binary
/// protocol).
fn huge_length_prefixes() -> Vec<Vec<u8>> {
    // What comes before the 4-byte big-endian length or count.
    const BEFORE_LENGTH: [&[u8]; 6] = [
        &[11, 0, 8],         // field 8 string
        &[15, 0, 1, 15],     // field 1 list of lists
        &[15, 0, 9, 11],     // field 9 list of binaries
        &[13, 0, 3, 11, 13], // field 3 map of string to map
        &[14, 0, 2, 11],     // field 2 set of strings
        &[15, 0, 1, 12],     // field 1 list of structs
    ];
    let mut out = Vec::new();
    for len in [i32::MAX, i32::MAX / 2, 1 << 24, -1, i32::MIN] {
        for before in BEFORE_LENGTH {
            let mut bytes = before.to_vec();
            bytes.extend_from_slice(&len.to_be_bytes());
            out.push(bytes);
        }
    }
    out
}

/// The same in compact: a varint count up to 2^31 - 1, or over.
fn huge_compact_counts() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for count in [
        &[0xff, 0xff, 0xff, 0xff, 0x07][..],
        &[0xff, 0xff, 0xff, 0xff, 0x0f],
        &[0x80, 0x80, 0x80, 0x80, 0x08],
        &[0xff, 0xff, 0xff, 0x7f],
    ] {
        for header in [
            &[0x88][..],   // field 8 string, then its length
            &[0x19, 0xf9], // field 1 list of lists, long form
            &[0x99, 0xf8], // field 9 list of binaries
            &[0x2a, 0xf8], // field 2 set of strings
            &[0x3b],       // field 3 map, then count, then key/value types
            &[0x19, 0xfc], // field 1 list of structs
        ] {
            let mut bytes = header.to_vec();
            bytes.extend_from_slice(count);
            bytes.push(0x88);
            out.push(bytes);
        }
    }
    out
}

/// Deep nesting: far past the depth limit, in both protocols, through lists, structs, unions
/// and boxes.
fn deep_nesting() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for depth in [63, 64, 65, 1000, 100_000] {
        let mut tree = Vec::new();
        for _ in 0..depth {
            tree.extend_from_slice(&[15, 0, 1, 12, 0, 0, 0, 1]); // children: list of 1 struct
        }
        out.push(tree);
        out.push([0x19, 0x1c].repeat(depth)); // compact: children: list of 1 struct
        out.push([12, 0, 2].repeat(depth)); // Node.next / Expr.negate
        out.push([0x2c].repeat(depth));
        let mut lists = vec![15, 0, 1]; // matrix: lists in lists
        lists.extend([15, 0, 0, 0, 1].repeat(depth));
        out.push(lists);
    }
    out
}

/// Many empty containers: the cheapest element on the wire for the largest in memory.
fn many_empty_containers() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in [1usize, 10, 1000, 100_000] {
        let count = (n as u32).to_be_bytes();
        // matrix: list of n empty list<i32>.
        let mut b = vec![15, 0, 1, 15];
        b.extend_from_slice(&count);
        b.extend(std::iter::repeat_n([8, 0, 0, 0, 0], n).flatten());
        out.push(b);
        // compact: the same, one byte per empty list.
        let mut c = vec![0x19, 0xf9];
        c.extend(varint(n as u64));
        c.extend(std::iter::repeat_n(0x05, n));
        out.push(c);
        // sets_of_doubles: list of n empty sets (compact).
        let mut c = vec![0x69, 0xfa];
        c.extend(varint(n as u64));
        c.extend(std::iter::repeat_n(0x07, n));
        out.push(c);
        // Tree: n empty children (one stop byte each), in both protocols.
        let mut b = vec![15, 0, 1, 12];
        b.extend_from_slice(&count);
        b.extend(std::iter::repeat_n(0, n));
        out.push(b);
        let mut c = vec![0x19, 0xfc];
        c.extend(varint(n as u64));
        c.extend(std::iter::repeat_n(0, n));
        out.push(c);
        // nested: n one-entry maps of one empty list, under distinct keys (a BTreeMap leaf
        // for each 4 to 6 bytes).
        let mut c = vec![0x3b];
        c.extend(varint(n as u64));
        c.push(0x8b);
        for i in 0..n {
            let key = i.to_string();
            c.extend(varint(key.len() as u64));
            c.extend_from_slice(key.as_bytes());
            c.extend_from_slice(&[0x01, 0x59, 0x00, 0x08]);
        }
        out.push(c);
        // UsesKeys.deep: a list of n one-entry maps (compact).
        let mut c = vec![0x3b, 0x01, 0x89, 0x01, b'd'];
        c.push(0xfb);
        c.extend(varint(n as u64));
        for _ in 0..n {
            c.extend_from_slice(&[0x01, 0x58, 0x00, 0x00]);
        }
        out.push(c);
    }
    out
}

/// Repeated maps: the same map field again and again (each one replaces the last).
fn repeated_maps() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for n in [10usize, 1000] {
        // by_bytes = {[1, 2]: true}; again as field 7 after field 7 (the long form).
        let map = [0x01, 0x81, 0x02, 1, 2, 0x01];
        let mut c = vec![0x7b];
        c.extend_from_slice(&map);
        for _ in 1..n {
            c.extend_from_slice(&[0x0b, 0x0e]);
            c.extend_from_slice(&map);
        }
        c.push(0);
        out.push(c);
        let one = encoded::<Binary>(|w| {
            w.write_field_begin(TType::Map, 7)?;
            w.write_map_begin(TType::String, TType::Bool, 1)?;
            w.write_binary(&[1, 2])?;
            w.write_bool(true)
        });
        let mut b = one.repeat(n);
        b.push(0);
        out.push(b);
    }
    out
}

/// Truncated varints, and 10-byte varints with overflow bits, as field values, lengths and
/// counts.
fn bad_varints() -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for varint in [
        &[0x80][..],
        &[0xff, 0xff, 0xff],
        &[0xff; 9],
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
        &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
        &[
            0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
        ],
    ] {
        for header in [&[0x55][..], &[0x66], &[0x88], &[0x19, 0xf5], &[0x3b]] {
            let mut bytes = header.to_vec();
            bytes.extend_from_slice(varint);
            out.push(bytes.clone());
            bytes.extend_from_slice(&[0x00, 0x00]);
            out.push(bytes);
        }
    }
    out
}

fn varint(mut n: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        if n < 0x80 {
            out.push(n as u8);
            return out;
        }
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
}

/// Mutations of the encodings: flipped, inserted and deleted bytes, spliced copies, and
/// every truncation.
fn mutated(rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for seed in thrift_tests::samples::encodings() {
        for end in 0..seed.len() {
            out.push(seed[..end].to_vec());
        }
        for _ in 0..400 {
            let mut bytes = seed.clone();
            for _ in 0..1 + rng.below(4) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if at < bytes.len() => bytes[at] = rng.wire_byte(),
                    1 => bytes.insert(at, rng.wire_byte()),
                    2 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    _ => {
                        let from = rng.below(bytes.len() + 1);
                        let piece = bytes[from..].to_vec();
                        bytes.splice(at..at, piece.into_iter().take(64));
                    }
                }
            }
            out.push(bytes);
        }
    }
    out
}

fn random(rng: &mut Rng) -> Vec<Vec<u8>> {
    (0..3000)
        .map(|_| {
            let len = rng.below(600);
            (0..len).map(|_| rng.wire_byte()).collect()
        })
        .collect()
}

/// Checks every mapping against every input; returns the largest `(allocated - k) / n` seen
/// per mapping, to show how close the inputs come to the bound.
fn check(inputs: &[Vec<u8>]) -> Vec<(&'static str, f64)> {
    let mut closest = Vec::new();
    let mut over = Vec::new();
    for mapping in mappings() {
        let mut worst = 0f64;
        for input in inputs {
            let n = input.len();
            let allocated = allocated_bytes(|| (mapping.decode)(input));
            let bound = mapping.c * n + mapping.k;
            if allocated > bound {
                over.push(format!(
                    "{}: {allocated} bytes allocated for an input of {n} bytes, over {} * n + {} \
                     = {bound}; input starts {:02x?}",
                    mapping.name,
                    mapping.c,
                    mapping.k,
                    &input[..n.min(24)],
                ));
            }
            if n > 0 {
                worst = worst.max(allocated.saturating_sub(mapping.k) as f64 / n as f64);
            }
        }
        closest.push((mapping.name, worst));
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
    closest
}

#[test]
fn decoding_allocates_at_most_c_n_plus_k_on_adversarial_inputs() {
    let closest = check(&adversarial());
    eprintln!("adversarial, largest (allocated - k) / n: {closest:?}");
    // The inputs do reach into the bound: the many-empty-containers cases cost more than
    // ten bytes per input byte in the owned mapping (so a bound of a few bytes per byte
    // would be wrong, and the test measures something).
    let owned = closest.iter().find(|(name, _)| *name == "owned Containers");
    assert!(owned.is_some_and(|(_, worst)| *worst > 10.0), "{closest:?}");
}

#[test]
fn decoding_allocates_at_most_c_n_plus_k_on_mutated_inputs() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let closest = check(&mutated(&mut rng));
    eprintln!("mutated, largest (allocated - k) / n: {closest:?}");
}

#[test]
fn decoding_allocates_at_most_c_n_plus_k_on_random_inputs() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let closest = check(&random(&mut rng));
    eprintln!("random, largest (allocated - k) / n: {closest:?}");
}

/// What `frame::decode` reserves at most for a frame not yet whole.
const RESERVE_STEP: usize = 64 * 1024;

/// What a thread's zlib decompressor takes, once (about 43 KiB), rounded up.
const ZLIB_STATE: usize = 64 * 1024;

/// A THeader frame of a call with a `len`-byte string argument of one repeated byte.
fn call_frame(framing: WireFormat, len: usize) -> Vec<u8> {
    let body = ApplicationException::new(ApplicationExceptionKind(7), "x".repeat(len));
    thrift_tests::samples::framed(framing, 41, |out| {
        framing
            .protocol
            .write_message(out, "method", MessageType::Call, 41, &body)
            .unwrap();
    })
}

/// Telling a message's framing from its first bytes allocates nothing, in every framing (a
/// frame's length word is tried as a protocol's first bytes first, on every framed message).
#[test]
fn detecting_a_framing_allocates_nothing() {
    let transports = [
        Framing::Buffered,
        Framing::Framed,
        Framing::Header,
        Framing::FramedHeader,
    ];
    for transport in transports {
        for protocol in ProtocolKind::ALL {
            let framing = WireFormat {
                framing: transport,
                protocol,
                zlib: false,
            };
            let bytes = call_frame(framing, 16);
            let (detected, count) = thrift_tests::alloc::allocations(|| frame::detect(&bytes));
            assert!(
                matches!(detected, Ok(Some((t, _))) if t == transport),
                "{framing:?}: {detected:?}"
            );
            assert_eq!(count, 0, "{framing:?}: {count} allocations to detect");
        }
    }
}

/// Frames (framed, THeader with and without zlib, unframed) as a server splits them: at most
/// `c·n + k` without zlib; a zlib bomb stops at `max_decompressed_size`, with at most twice
/// that allocated (the output doubles as it inflates).
#[test]
fn frames_and_zlib_bombs_are_bounded() {
    let zlib = WireFormat {
        framing: Framing::Header,
        protocol: ProtocolKind::Compact,
        zlib: true,
    };
    // 16 MiB of one byte: about 16 KiB compressed, a ratio of 1000.
    let bomb = call_frame(zlib, 16 << 20);
    assert!(bomb.len() < 32 * 1024, "{}", bomb.len());
    let mut limits = FrameLimits::default();
    for max in [1 << 16, 1 << 20, 8 << 20] {
        limits.max_decompressed_size = max;
        limits.max_frame_size = usize::MAX;
        let mut result = None;
        let allocated = allocated_bytes(|| {
            let mut buf = BytesMut::from(&bomb[..]);
            result = Some(frame::decode(&mut buf, None, &limits).map(|_| ()));
        });
        assert!(result.unwrap().is_err(), "a bomb past {max} bytes decoded");
        // The input buffer itself (n), the first output buffer (4n), the output doubling
        // up to the limit (2 * max) and then set to it (max), the zlib state (under 64 KiB).
        assert!(
            allocated <= 5 * bomb.len() + 3 * (max + 1) + ZLIB_STATE,
            "{allocated} bytes allocated for a bomb stopped at {max}"
        );
    }

    // Everything else: mutated frames of each transport, at most c·n + k.
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut inputs = Vec::new();
    for transport in [Framing::Buffered, Framing::Framed, Framing::Header] {
        for protocol in ProtocolKind::ALL {
            for zlib in [false, true] {
                if zlib && transport != Framing::Header {
                    continue;
                }
                let framing = WireFormat {
                    framing: transport,
                    protocol,
                    zlib,
                };
                let seed = call_frame(framing, 40);
                for _ in 0..500 {
                    let mut bytes = seed.clone();
                    for _ in 0..1 + rng.below(3) {
                        let at = rng.below(bytes.len());
                        bytes[at] = rng.wire_byte();
                    }
                    inputs.push((bytes, zlib));
                }
                for end in 0..seed.len() {
                    inputs.push((seed[..end].to_vec(), zlib));
                }
            }
        }
    }
    let limits = FrameLimits::default();
    let mut worst = [0f64; 2];
    for (input, zlib) in &inputs {
        let n = input.len();
        let allocated = allocated_bytes(|| {
            let mut buf = BytesMut::from(&input[..]);
            while let Ok(Some(_)) = frame::decode(&mut buf, None, &limits) {}
        });
        // The input copied into the buffer, the message's name and headers, and for a
        // frame not yet whole the room reserved for what its length announces (at most
        // 64 KiB at a time); a zlib frame may inflate up to deflate's ratio (1032:1) and its
        // output doubles as it grows.
        let (c, k) = if *zlib {
            (3 * 1032, K + RESERVE_STEP + ZLIB_STATE)
        } else {
            (4, K + RESERVE_STEP)
        };
        assert!(
            allocated <= c * n + k,
            "{allocated} bytes allocated for a frame of {n} bytes; starts {:02x?}",
            &input[..n.min(48)]
        );
        let ratio = allocated.saturating_sub(k) as f64 / n.max(1) as f64;
        worst[usize::from(*zlib)] = worst[usize::from(*zlib)].max(ratio);
    }
    eprintln!(
        "frames, largest (allocated - k) / n: plain {}, zlib {}",
        worst[0], worst[1]
    );
}
