//! The checks Apache's cross-language test clients make, for the blocking and the async
//! client (one macro, so that both run exactly the same calls).

use std::collections::BTreeMap;

use thrift_runtime::ErrorKind;

use crate::types::*;

/// The outcome of one check.
pub type Outcome = Result<(), String>;

/// Tallies and prints checks as `PASS name` / `FAIL name: reason`.
#[derive(Debug, Default)]
pub struct Report {
    /// Checks passed.
    pub passed: usize,
    /// Checks failed.
    pub failed: usize,
}

impl Report {
    /// Records one check.
    pub fn check(&mut self, name: &str, outcome: Outcome) {
        match outcome {
            Ok(()) => {
                self.passed += 1;
                println!("PASS {name}");
            }
            Err(reason) => {
                self.failed += 1;
                println!("FAIL {name}: {reason}");
            }
        }
    }
}

/// `Ok` when `got` is `Ok(expected)`.
pub fn expect<T: PartialEq + std::fmt::Debug, E: std::fmt::Display>(
    got: Result<T, E>,
    expected: T,
) -> Outcome {
    match got {
        Ok(value) if value == expected => Ok(()),
        Ok(value) => Err(format!("got {value:?}, expected {expected:?}")),
        Err(e) => Err(format!("error: {e}")),
    }
}

/// The test values.
pub fn xtruct() -> Xtruct {
    Xtruct {
        string_thing: "Zero".into(),
        byte_thing: 1,
        i32_thing: -3,
        i64_thing: -5,
    }
}

/// `testInsanity`'s argument in Apache's clients.
pub fn insane() -> Insanity {
    Insanity {
        user_map: BTreeMap::from([(Numberz::FIVE, 5000), (Numberz::EIGHT, 8)]),
        xtructs: vec![
            Xtruct {
                string_thing: "Goodbye4".into(),
                byte_thing: 4,
                i32_thing: 4,
                i64_thing: 4,
            },
            Xtruct {
                string_thing: "Hello2".into(),
                byte_thing: 2,
                i32_thing: 2,
                i64_thing: 2,
            },
        ],
    }
}

/// Whether `e` is a received `TApplicationException`.
pub fn is_application_error(e: &thrift_runtime::Error) -> bool {
    matches!(e.kind(), ErrorKind::Application(_))
}

/// `Ok` when `got` is the `UNKNOWN_METHOD` exception a server answers a method it does not
/// have with.
pub fn unknown_method<T: std::fmt::Debug>(got: thrift_runtime::Result<T>) -> Outcome {
    match got {
        Err(e) => match e.kind() {
            ErrorKind::Application(ae)
                if ae.kind == thrift_runtime::ApplicationExceptionKind::UNKNOWN_METHOD =>
            {
                Ok(())
            }
            _ => Err(format!("expected UNKNOWN_METHOD, got {e}")),
        },
        Ok(value) => Err(format!("expected UNKNOWN_METHOD, got {value:?}")),
    }
}

/// The method no ThriftTest server has.
pub const NO_SUCH_METHOD: &str = "noSuchMethod";

/// What the checks send beyond Apache's ThriftTest calls.
#[derive(Clone, Copy, Debug)]
pub struct CheckOptions {
    /// `testUuid` (Apache 0.19 and later).
    pub uuid: bool,
    /// Strings with NUL (U+0000) in them, which Apache's C++ 0.17 JSON reader drops.
    pub nul: bool,
}

/// Runs every check with `$client` (`.await` appended to each call when given `await`).
#[macro_export]
macro_rules! run_checks {
    ($report:expr, $client:expr, $options:expr $(, $aw:tt)?) => {{
        use $crate::checks::*;
        use $crate::types::*;
        use std::collections::{BTreeMap, BTreeSet};
        let r: &mut Report = $report;
        let options: CheckOptions = $options;
        // Strings with NUL, or (`--no-nul-strings`) the same without it.
        let nul = |s: &str| if options.nul { s.to_owned() } else { s.replace('\u{0}', "") };
        let c = $client;
        r.check("testVoid", c.test_void()$(.$aw)?.map_err(|e| e.to_string()));
        r.check("testString", expect(c.test_string("Test".into())$(.$aw)?, "Test".to_string()));
        let unicode = "Afrikaans, Alemannisch, Aragonés, العربية, مصرى, Asturianu, Aymar aru, Azərbaycan, Башҡорт, Boarisch, Žemaitėška, Беларуская, Български, বাংলা, Brezhoneg, Bosanski, Català, Нохчийн, Cebuano, ᏣᎳᎩ, Česky, 中文, 日本語, 한국어, 🦀 emoji";
        r.check("testString(unicode)", expect(c.test_string(unicode.into())$(.$aw)?, unicode.to_string()));
        r.check("testString(empty)", expect(c.test_string(String::new())$(.$aw)?, String::new()));
        // Every UTF-8 length (1 to 4 bytes) at its boundaries, NUL and the characters JSON
        // escapes, an astral-plane emoji sequence; then a long string of many scripts.
        let edges = &nul("\u{0}\u{1}\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff} \"\\/\u{8}\u{c}\n\r\t 👩‍👩‍👧‍👦 🏳️‍🌈");
        r.check("testString(edges)", expect(c.test_string(edges.into())$(.$aw)?, edges.to_string()));
        let long: String = unicode.chars().cycle().take(300_000).collect();
        r.check("testString(long, 1 MiB)", expect(c.test_string(long.clone())$(.$aw)?, long));
        r.check("testBool(true)", expect(c.test_bool(true)$(.$aw)?, true));
        r.check("testBool(false)", expect(c.test_bool(false)$(.$aw)?, false));
        r.check("testByte(1)", expect(c.test_byte(1)$(.$aw)?, 1));
        r.check("testByte(-1)", expect(c.test_byte(-1)$(.$aw)?, -1));
        for value in [i8::MIN, i8::MAX, 0] {
            r.check(&format!("testByte({value})"), expect(c.test_byte(value)$(.$aw)?, value));
        }
        r.check("testI32(-1)", expect(c.test_i32(-1)$(.$aw)?, -1));
        r.check("testI32(min)", expect(c.test_i32(i32::MIN)$(.$aw)?, i32::MIN));
        // Compact's zigzag varints change length at these.
        for value in [i32::MAX, 0, 63, 64, -64, -65, 8191, 8192, -8193, 1_048_575, 1_048_576, 134_217_727, 134_217_728] {
            r.check(&format!("testI32({value})"), expect(c.test_i32(value)$(.$aw)?, value));
        }
        r.check("testI64(-34359738368)", expect(c.test_i64(-34359738368)$(.$aw)?, -34359738368));
        r.check("testI64(max)", expect(c.test_i64(i64::MAX)$(.$aw)?, i64::MAX));
        for value in [i64::MIN, 0, 1 << 31, -(1 << 31) - 1, 1 << 53, (1 << 53) + 1, -(1 << 62)] {
            r.check(&format!("testI64({value})"), expect(c.test_i64(value)$(.$aw)?, value));
        }
        r.check("testDouble(-5.2098523)", expect(c.test_double(-5.2098523)$(.$aw)?, -5.2098523));
        r.check("testDouble(-0.000_341_012_439_638_598_3)", expect(c.test_double(-0.000_341_012_439_638_598_3)$(.$aw)?, -0.000_341_012_439_638_598_3));
        // Compared bit for bit: -0.0 is not 0.0, and NaN is NaN.
        for value in [-0.0, 0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 5e-324, 1e-300, 0.1, std::f64::consts::PI * 1e8] {
            r.check(&format!("testDouble({value:e})"), match c.test_double(value)$(.$aw)? {
                Ok(got) if got.to_bits() == value.to_bits() || (got.is_nan() && value.is_nan()) => Ok(()),
                Ok(got) => Err(format!("got {got:e} ({:#x}), expected {value:e} ({:#x})", got.to_bits(), value.to_bits())),
                Err(e) => Err(format!("error: {e}")),
            });
        }
        let binary: Vec<u8> = (0..=255u8).collect();
        r.check("testBinary", expect(c.test_binary(binary.clone())$(.$aw)?, binary));
        r.check("testBinary(empty)", expect(c.test_binary(Vec::new())$(.$aw)?, Vec::new()));
        let large: Vec<u8> = (0..1 << 20).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        r.check("testBinary(1 MiB)", expect(c.test_binary(large.clone())$(.$aw)?, large));
        if options.uuid {
            let uuid = *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff";
            r.check("testUuid", expect(c.test_uuid(uuid)$(.$aw)?, uuid));
        }
        r.check("testStruct", expect(c.test_struct(xtruct())$(.$aw)?, xtruct()));
        let extremes = Xtruct { string_thing: nul("\u{0}🦀"), byte_thing: i8::MIN, i32_thing: i32::MAX, i64_thing: i64::MIN };
        r.check("testStruct(extremes)", expect(c.test_struct(extremes.clone())$(.$aw)?, extremes.clone()));
        let nest = Xtruct2 { byte_thing: 1, struct_thing: xtruct(), i32_thing: 5 };
        r.check("testNest", expect(c.test_nest(nest.clone())$(.$aw)?, nest));
        let nest = Xtruct2 { byte_thing: -128, struct_thing: extremes, i32_thing: i32::MIN };
        r.check("testNest(extremes)", expect(c.test_nest(nest.clone())$(.$aw)?, nest));
        let map: BTreeMap<i32, i32> = (0..5).map(|i| (i, i - 10)).collect();
        r.check("testMap", expect(c.test_map(map.clone())$(.$aw)?, map));
        let string_map: BTreeMap<String, String> = [("a", "2"), ("b", "blah"), ("some", "thing"), ("🦀", "crab")]
            .into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        r.check("testStringMap", expect(c.test_string_map(string_map.clone())$(.$aw)?, string_map));
        let map: BTreeMap<i32, i32> = [(i32::MIN, i32::MAX), (-1, 0), (i32::MAX, i32::MIN)].into();
        r.check("testMap(extremes)", expect(c.test_map(map.clone())$(.$aw)?, map));
        let set: BTreeSet<i32> = (-2..3).collect();
        r.check("testSet", expect(c.test_set(set.clone())$(.$aw)?, set));
        let set: BTreeSet<i32> = (0..10_000).map(|i| i * 31 - 150_000).collect();
        r.check("testSet(10,000)", expect(c.test_set(set.clone())$(.$aw)?, set));
        let list: Vec<i32> = (-2..3).collect();
        r.check("testList", expect(c.test_list(list.clone())$(.$aw)?, list));
        r.check("testList(empty)", expect(c.test_list(Vec::new())$(.$aw)?, Vec::new()));
        let long_list: Vec<i32> = (0..100_000).map(|i| i * 7919 - 300_000).collect();
        r.check("testList(100,000)", expect(c.test_list(long_list.clone())$(.$aw)?, long_list));
        r.check("testMap(empty)", expect(c.test_map(BTreeMap::new())$(.$aw)?, BTreeMap::new()));
        r.check("testSet(empty)", expect(c.test_set(BTreeSet::new())$(.$aw)?, BTreeSet::new()));
        let big_map: BTreeMap<String, String> = (0..2_000).map(|i| (format!("k{i}é"), "v".repeat(i % 50))).collect();
        r.check("testStringMap(2,000)", expect(c.test_string_map(big_map.clone())$(.$aw)?, big_map));
        for value in [Numberz::ONE, Numberz::TWO, Numberz::FIVE, Numberz::EIGHT] {
            r.check(&format!("testEnum({})", value.0), expect(c.test_enum(value)$(.$aw)?, value));
        }
        r.check("testTypedef", expect(c.test_typedef(309858235082523)$(.$aw)?, 309858235082523));
        r.check("testMapMap", expect(c.test_map_map(1)$(.$aw)?, $crate::handler::map_map()));
        r.check("testInsanity", expect(c.test_insanity(insane())$(.$aw)?, $crate::handler::insanity(insane())));
        let multi = Xtruct { string_thing: "Hello2".into(), byte_thing: 9, i32_thing: 11, i64_thing: 12 };
        let arg3 = BTreeMap::from([(1i16, "2".to_string()), (2, "3".to_string())]);
        r.check("testMulti", expect(c.test_multi(9, 11, 12, arg3, Numberz::FIVE, 13)$(.$aw)?, multi));
        r.check("testException(Xception)", match c.test_exception("Xception".into())$(.$aw)? {
            Err(ThriftTestTestExceptionError::Err1(e)) if e.error_code == 1001 && e.message == "Xception" => Ok(()),
            other => Err(format!("expected Xception(1001, \"Xception\"), got {other:?}")),
        });
        r.check("testException(TException)", match c.test_exception("TException".into())$(.$aw)? {
            Err(ThriftTestTestExceptionError::Thrift(e)) if is_application_error(&e) => Ok(()),
            other => Err(format!("expected a TApplicationException, got {other:?}")),
        });
        r.check("testException(success)", c.test_exception("success".into())$(.$aw)?.map_err(|e| e.to_string()));
        r.check("testMultiException(Xception)", match c.test_multi_exception("Xception".into(), "test 1".into())$(.$aw)? {
            Err(ThriftTestTestMultiExceptionError::Err1(e)) if e.error_code == 1001 && e.message == "This is an Xception" => Ok(()),
            other => Err(format!("expected Xception(1001), got {other:?}")),
        });
        r.check("testMultiException(Xception2)", match c.test_multi_exception("Xception2".into(), "test 2".into())$(.$aw)? {
            Err(ThriftTestTestMultiExceptionError::Err2(e)) if e.error_code == 2002 && e.struct_thing.string_thing == "This is an Xception2" => Ok(()),
            other => Err(format!("expected Xception2(2002), got {other:?}")),
        });
        r.check("testMultiException(success)", match c.test_multi_exception("success".into(), "test 3".into())$(.$aw)? {
            Ok(x) if x.string_thing == "test 3" => Ok(()),
            other => Err(format!("expected Xtruct(\"test 3\"), got {other:?}")),
        });
        let started = std::time::Instant::now();
        let oneway = c.test_oneway(1)$(.$aw)?;
        let took = started.elapsed();
        r.check("testOneway", match oneway {
            Ok(()) if took < std::time::Duration::from_millis(500) => Ok(()),
            Ok(()) => Err(format!("took {took:?}: a oneway call must not wait for the server")),
            Err(e) => Err(e.to_string()),
        });
        r.check("testI32(after oneway)", expect(c.test_i32(-42)$(.$aw)?, -42));
        let oneway = c.test_oneway(0)$(.$aw)?;
        r.check("testOneway(0)", oneway.map_err(|e| e.to_string()));
        r.check("testString(after oneway)", expect(c.test_string("after".into())$(.$aw)?, "after".to_string()));

    }};
}
