//! Any bytes as what a server receives: framed, THeader (zlib and info headers too) or
//! unframed messages, split off by `frame::decode` with the default limits, then parsed
//! as a call. Errors, never a panic, and never more than the limits allow.
#![no_main]

use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use thrift_runtime::rpc::frame::{self, FrameLimits};

fuzz_target!(|data: &[u8]| {
    let limits = FrameLimits::default();
    let mut buf = BytesMut::from(data);
    // Every message the bytes hold, as a server's loop would take them.
    for _ in 0..64 {
        match frame::decode(&mut buf, None, &limits) {
            Ok(Some(received)) => {
                let _ = received.message.name();
                let _ = received.message.split_service();
            }
            Ok(None) | Err(_) => break,
        }
    }
});
