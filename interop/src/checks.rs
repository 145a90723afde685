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

/// Runs every check with `$client` (`.await` appended to each call when given `await`).
#[macro_export]
macro_rules! run_checks {
    ($report:expr, $client:expr, $uuid:expr $(, $aw:tt)?) => {{
        use $crate::checks::*;
        use $crate::types::*;
        use std::collections::{BTreeMap, BTreeSet};
        let r: &mut Report = $report;
        let c = $client;
        r.check("testVoid", c.test_void()$(.$aw)?.map_err(|e| e.to_string()));
        r.check("testString", expect(c.test_string("Test".into())$(.$aw)?, "Test".to_string()));
        let unicode = "Afrikaans, Alemannisch, Aragonés, العربية, مصرى, Asturianu, Aymar aru, Azərbaycan, Башҡорт, Boarisch, Žemaitėška, Беларуская, Български, বাংলা, Brezhoneg, Bosanski, Català, Нохчийн, Cebuano, ᏣᎳᎩ, Česky, 中文, 日本語, 한국어, 🦀 emoji";
        r.check("testString(unicode)", expect(c.test_string(unicode.into())$(.$aw)?, unicode.to_string()));
        r.check("testString(empty)", expect(c.test_string(String::new())$(.$aw)?, String::new()));
        r.check("testBool(true)", expect(c.test_bool(true)$(.$aw)?, true));
        r.check("testBool(false)", expect(c.test_bool(false)$(.$aw)?, false));
        r.check("testByte(1)", expect(c.test_byte(1)$(.$aw)?, 1));
        r.check("testByte(-1)", expect(c.test_byte(-1)$(.$aw)?, -1));
        r.check("testI32(-1)", expect(c.test_i32(-1)$(.$aw)?, -1));
        r.check("testI32(min)", expect(c.test_i32(i32::MIN)$(.$aw)?, i32::MIN));
        r.check("testI64(-34359738368)", expect(c.test_i64(-34359738368)$(.$aw)?, -34359738368));
        r.check("testI64(max)", expect(c.test_i64(i64::MAX)$(.$aw)?, i64::MAX));
        r.check("testDouble(-5.2098523)", expect(c.test_double(-5.2098523)$(.$aw)?, -5.2098523));
        r.check("testDouble(-0.000_341_012_439_638_598_3)", expect(c.test_double(-0.000_341_012_439_638_598_3)$(.$aw)?, -0.000_341_012_439_638_598_3));
        let binary: Vec<u8> = (0..=255u8).collect();
        r.check("testBinary", expect(c.test_binary(binary.clone())$(.$aw)?, binary));
        r.check("testBinary(empty)", expect(c.test_binary(Vec::new())$(.$aw)?, Vec::new()));
        if $uuid {
            let uuid = *b"\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff";
            r.check("testUuid", expect(c.test_uuid(uuid)$(.$aw)?, uuid));
        }
        r.check("testStruct", expect(c.test_struct(xtruct())$(.$aw)?, xtruct()));
        let nest = Xtruct2 { byte_thing: 1, struct_thing: xtruct(), i32_thing: 5 };
        r.check("testNest", expect(c.test_nest(nest.clone())$(.$aw)?, nest));
        let map: BTreeMap<i32, i32> = (0..5).map(|i| (i, i - 10)).collect();
        r.check("testMap", expect(c.test_map(map.clone())$(.$aw)?, map));
        let string_map: BTreeMap<String, String> = [("a", "2"), ("b", "blah"), ("some", "thing"), ("🦀", "crab")]
            .into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        r.check("testStringMap", expect(c.test_string_map(string_map.clone())$(.$aw)?, string_map));
        let set: BTreeSet<i32> = (-2..3).collect();
        r.check("testSet", expect(c.test_set(set.clone())$(.$aw)?, set));
        let list: Vec<i32> = (-2..3).collect();
        r.check("testList", expect(c.test_list(list.clone())$(.$aw)?, list));
        r.check("testList(empty)", expect(c.test_list(Vec::new())$(.$aw)?, Vec::new()));
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
    }};
}
