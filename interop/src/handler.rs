//! The ThriftTest handler with the semantics of Apache's reference test servers, blocking and
//! async (the async one delegates to the blocking one, except `testOneway`, which sleeps).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use thrift_runtime::{ApplicationException, ApplicationExceptionKind, Error};

use crate::types::*;

/// Serves `ThriftTest` as Apache's test servers do.
#[derive(Clone, Debug, Default)]
pub struct TestHandler;

type R<T> = Result<T, Error>;

impl ThriftTest for TestHandler {
    fn test_void(&self) -> R<()> {
        Ok(())
    }
    fn test_string(&self, thing: String) -> R<String> {
        Ok(thing)
    }
    fn test_bool(&self, thing: bool) -> R<bool> {
        Ok(thing)
    }
    fn test_byte(&self, thing: i8) -> R<i8> {
        Ok(thing)
    }
    fn test_i32(&self, thing: i32) -> R<i32> {
        Ok(thing)
    }
    fn test_i64(&self, thing: i64) -> R<i64> {
        Ok(thing)
    }
    fn test_double(&self, thing: f64) -> R<f64> {
        Ok(thing)
    }
    fn test_binary(&self, thing: Vec<u8>) -> R<Vec<u8>> {
        Ok(thing)
    }
    fn test_uuid(&self, thing: [u8; 16]) -> R<[u8; 16]> {
        Ok(thing)
    }
    fn test_struct(&self, thing: Xtruct) -> R<Xtruct> {
        Ok(thing)
    }
    fn test_nest(&self, thing: Xtruct2) -> R<Xtruct2> {
        Ok(thing)
    }
    fn test_map(&self, thing: BTreeMap<i32, i32>) -> R<BTreeMap<i32, i32>> {
        Ok(thing)
    }
    fn test_string_map(&self, thing: BTreeMap<String, String>) -> R<BTreeMap<String, String>> {
        Ok(thing)
    }
    fn test_set(&self, thing: BTreeSet<i32>) -> R<BTreeSet<i32>> {
        Ok(thing)
    }
    fn test_list(&self, thing: Vec<i32>) -> R<Vec<i32>> {
        Ok(thing)
    }
    fn test_enum(&self, thing: Numberz) -> R<Numberz> {
        Ok(thing)
    }
    fn test_typedef(&self, thing: UserId) -> R<UserId> {
        Ok(thing)
    }
    fn test_map_map(&self, _hello: i32) -> R<BTreeMap<i32, BTreeMap<i32, i32>>> {
        Ok(map_map())
    }
    fn test_insanity(
        &self,
        argument: Insanity,
    ) -> R<BTreeMap<UserId, BTreeMap<Numberz, Insanity>>> {
        Ok(insanity(argument))
    }
    fn test_multi(
        &self,
        arg0: i8,
        arg1: i32,
        arg2: i64,
        _arg3: BTreeMap<i16, String>,
        _arg4: Numberz,
        _arg5: UserId,
    ) -> R<Xtruct> {
        Ok(Xtruct {
            string_thing: "Hello2".into(),
            byte_thing: arg0,
            i32_thing: arg1,
            i64_thing: arg2,
        })
    }
    fn test_exception(&self, arg: String) -> Result<(), ThriftTestTestExceptionError> {
        match arg.as_str() {
            "Xception" => Err(Xception {
                error_code: 1001,
                message: arg,
            }
            .into()),
            "TException" => Err(ApplicationException::new(
                ApplicationExceptionKind::INTERNAL_ERROR,
                "This is a TException",
            )
            .into()),
            _ => Ok(()),
        }
    }
    fn test_multi_exception(
        &self,
        arg0: String,
        arg1: String,
    ) -> Result<Xtruct, ThriftTestTestMultiExceptionError> {
        match arg0.as_str() {
            "Xception" => Err(Xception {
                error_code: 1001,
                message: "This is an Xception".into(),
            }
            .into()),
            "Xception2" => Err(Xception2 {
                error_code: 2002,
                struct_thing: Xtruct {
                    string_thing: "This is an Xception2".into(),
                    ..Xtruct::default()
                },
            }
            .into()),
            _ => Ok(Xtruct {
                string_thing: arg1,
                ..Xtruct::default()
            }),
        }
    }
    fn test_oneway(&self, seconds_to_sleep: i32) -> R<()> {
        std::thread::sleep(Duration::from_secs(seconds_to_sleep.clamp(0, 10) as u64));
        Ok(())
    }
}

/// `testMapMap`'s answer in Apache's servers.
pub fn map_map() -> BTreeMap<i32, BTreeMap<i32, i32>> {
    BTreeMap::from([
        (-4, (-4..=-1).map(|i| (i, i)).collect()),
        (4, (1..=4).map(|i| (i, i)).collect()),
    ])
}

/// `testInsanity`'s answer in Apache's servers.
pub fn insanity(argument: Insanity) -> BTreeMap<UserId, BTreeMap<Numberz, Insanity>> {
    BTreeMap::from([
        (
            1,
            BTreeMap::from([(Numberz::TWO, argument.clone()), (Numberz::THREE, argument)]),
        ),
        (2, BTreeMap::from([(Numberz::SIX, Insanity::default())])),
    ])
}

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        $(
            async fn $name(&self, $($arg: $ty),*) -> $ret {
                ThriftTest::$name(self, $($arg),*)
            }
        )*
    };
}

impl ThriftTestAsync for TestHandler {
    delegate! {
        test_void() -> R<()>;
        test_string(thing: String) -> R<String>;
        test_bool(thing: bool) -> R<bool>;
        test_byte(thing: i8) -> R<i8>;
        test_i32(thing: i32) -> R<i32>;
        test_i64(thing: i64) -> R<i64>;
        test_double(thing: f64) -> R<f64>;
        test_binary(thing: Vec<u8>) -> R<Vec<u8>>;
        test_uuid(thing: [u8; 16]) -> R<[u8; 16]>;
        test_struct(thing: Xtruct) -> R<Xtruct>;
        test_nest(thing: Xtruct2) -> R<Xtruct2>;
        test_map(thing: BTreeMap<i32, i32>) -> R<BTreeMap<i32, i32>>;
        test_string_map(thing: BTreeMap<String, String>) -> R<BTreeMap<String, String>>;
        test_set(thing: BTreeSet<i32>) -> R<BTreeSet<i32>>;
        test_list(thing: Vec<i32>) -> R<Vec<i32>>;
        test_enum(thing: Numberz) -> R<Numberz>;
        test_typedef(thing: UserId) -> R<UserId>;
        test_map_map(hello: i32) -> R<BTreeMap<i32, BTreeMap<i32, i32>>>;
        test_insanity(argument: Insanity) -> R<BTreeMap<UserId, BTreeMap<Numberz, Insanity>>>;
        test_multi(arg0: i8, arg1: i32, arg2: i64, arg3: BTreeMap<i16, String>, arg4: Numberz, arg5: UserId) -> R<Xtruct>;
        test_exception(arg: String) -> Result<(), ThriftTestTestExceptionError>;
        test_multi_exception(arg0: String, arg1: String) -> Result<Xtruct, ThriftTestTestMultiExceptionError>;
    }

    async fn test_oneway(&self, seconds_to_sleep: i32) -> R<()> {
        let seconds = seconds_to_sleep.clamp(0, 10) as u64;
        tokio::time::sleep(Duration::from_secs(seconds)).await;
        Ok(())
    }
}

/// `SecondService` as Apache's test servers serve it.
#[derive(Clone, Debug, Default)]
pub struct SecondHandler;

impl SecondService for SecondHandler {
    fn secondtest_string(&self, thing: String) -> R<String> {
        Ok(format!("testString(\"{thing}\")"))
    }
}

impl SecondServiceAsync for SecondHandler {
    async fn secondtest_string(&self, thing: String) -> R<String> {
        SecondService::secondtest_string(self, thing)
    }
}
