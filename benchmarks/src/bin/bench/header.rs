//! The THeader scenarios of Apache's protocol benchmark: the small and the large struct as a
//! message read (and written) through a THeader frame with a binary payload, a compact
//! payload, and the zlib transform, beside the same message in a framed transport and the bare
//! struct. Apache's Rust crate has no THeader transport (and pilota's TTHeader is another
//! format), so the rows are ours only: what THeader costs over the plain protocols.
//!
//! A decode is what a server does per request once the bytes arrived: copy them into the
//! connection's buffer (the socket read), split the frame off (`frame::decode`: header,
//! inflate for zlib), and decode the message's body. An encode writes the frame into a reused
//! buffer (`begin_frame`, the message, `end_frame`: lengths, deflate for zlib).

use std::hint::black_box;

use bytes::BytesMut;
use thrift_runtime::rpc::frame::{self, WireFormat, Framing};
use thrift_runtime::FrameLimits;
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::wire::MessageType;
use thrift_runtime::{ThriftRead, ThriftWrite};

use crate::contenders::{decode_ours, encode_ours, Contender, Op, Proto};
use crate::measure::Runner;

/// One workload through one payload protocol, with or without zlib.
pub struct HeaderCase<T> {
    pub workload: String,
    pub proto: Proto,
    value: T,
    /// The bare struct.
    bare: Vec<u8>,
    /// The message in a THeader frame.
    header: Vec<u8>,
    /// The message in a framed transport.
    framed: Vec<u8>,
    header_framing: WireFormat,
    framed_framing: WireFormat,
}

fn kind(proto: Proto) -> ProtocolKind {
    match proto {
        Proto::Binary => ProtocolKind::Binary,
        Proto::Compact => ProtocolKind::Compact,
    }
}

fn write_frame<T: ThriftWrite>(out: &mut Vec<u8>, framing: WireFormat, value: &T) {
    out.clear();
    let start = frame::begin_frame(out, framing, 1, &[]);
    framing
        .protocol
        .write_message(out, "echo", MessageType::Reply, 1, value)
        .expect("our encoder");
    frame::end_frame(out, start, usize::MAX).expect("within the frame limit");
}

/// Splits the frame in `bytes` off `buf` (after copying it there) and decodes its body.
fn read_frame<T: for<'de> ThriftRead<'de>>(
    buf: &mut BytesMut,
    bytes: &[u8],
    limits: &FrameLimits,
) -> Result<T, String> {
    buf.extend_from_slice(bytes);
    let received = frame::decode(buf, None, limits)
        .map_err(|e| e.to_string())?
        .ok_or("the frame is incomplete")?;
    received.message.body().map_err(|e| e.to_string())
}

impl<T> HeaderCase<T>
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug + 'static,
{
    pub fn new(workload: &str, proto: Proto, zlib: bool, value: T) -> HeaderCase<T> {
        let header_framing = WireFormat {
            framing: Framing::Header,
            protocol: kind(proto),
            zlib,
        };
        let framed_framing = WireFormat {
            framing: Framing::Framed,
            protocol: kind(proto),
            zlib: false,
        };
        let mut header = Vec::new();
        write_frame(&mut header, header_framing, &value);
        let mut framed = Vec::new();
        write_frame(&mut framed, framed_framing, &value);
        HeaderCase {
            workload: format!(
                "{}{workload}",
                if zlib { "header-zlib-" } else { "header-" }
            ),
            proto,
            bare: encode_ours(proto, &value),
            value,
            header,
            framed,
            header_framing,
            framed_framing,
        }
    }

    /// The bytes the scenario's input size reports: the THeader frame.
    pub fn bytes(&self) -> usize {
        self.header.len()
    }

    fn check(&self, bytes: &[u8]) -> Result<(), String> {
        let back: T = read_frame(&mut BytesMut::new(), bytes, &FrameLimits::default())?;
        if back != self.value {
            return Err("the frame decodes to a different value".into());
        }
        Ok(())
    }

    fn frame_decoder<'a>(&'a self, name: &'static str, bytes: &'a [u8]) -> Contender<'a> {
        let runner = self.check(bytes).map(|()| {
            let limits = FrameLimits::default();
            let mut buf = BytesMut::with_capacity(bytes.len());
            Box::new(move |n: u64| {
                for _ in 0..n {
                    let value: T = read_frame(&mut buf, black_box(bytes), &limits).unwrap();
                    black_box(value);
                }
            }) as Runner<'a>
        });
        Contender { name, runner }
    }

    fn frame_encoder<'a>(&'a self, name: &'static str, framing: WireFormat) -> Contender<'a> {
        let mut out = Vec::new();
        write_frame(&mut out, framing, &self.value);
        let runner = self.check(&out).map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    write_frame(&mut out, framing, black_box(&self.value));
                    black_box(&out);
                }
            }) as Runner<'a>
        });
        Contender { name, runner }
    }

    pub fn contenders(&self, op: Op) -> Vec<Contender<'_>> {
        match op {
            Op::Decode => vec![
                self.frame_decoder("ours", &self.header),
                self.frame_decoder("framed", &self.framed),
                Contender {
                    name: "bare-struct",
                    runner: decode_ours::<T>(self.proto, &self.bare).and_then(|v| {
                        if v != self.value {
                            return Err("decodes to a different value".into());
                        }
                        let bare = &self.bare;
                        let proto = self.proto;
                        Ok(Box::new(move |n: u64| {
                            for _ in 0..n {
                                black_box(decode_ours::<T>(proto, black_box(bare)).unwrap());
                            }
                        }) as Runner<'_>)
                    }),
                },
            ],
            Op::Encode => vec![
                self.frame_encoder("ours", self.header_framing),
                self.frame_encoder("framed", self.framed_framing),
                Contender {
                    name: "bare-struct",
                    runner: {
                        let mut out = Vec::with_capacity(self.bare.len());
                        let proto = self.proto;
                        Ok(Box::new(move |n: u64| {
                            for _ in 0..n {
                                out.clear();
                                match proto {
                                    Proto::Binary => {
                                        self.value.encode::<thrift_runtime::Binary>(&mut out)
                                    }
                                    Proto::Compact => {
                                        self.value.encode::<thrift_runtime::Compact>(&mut out)
                                    }
                                }
                                .unwrap();
                                black_box(&out);
                            }
                        }) as Runner<'_>)
                    },
                },
            ],
        }
    }
}
