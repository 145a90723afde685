//! The RPC framing, sans IO: every prefix of a message is "incomplete", never an error or a
//! panic; THeader round trips with info headers and zlib; limits hold.

use bytes::BytesMut;
use proptest::prelude::*;

use crate::FrameLimits;
use crate::rpc::frame::{self, Framing, WireFormat};
use crate::rpc::{Message, ProtocolKind};
use crate::{ApplicationException, ApplicationExceptionKind, ErrorKind, Limit, MessageType};

const PROTOCOLS: [ProtocolKind; 3] = ProtocolKind::ALL;
const TRANSPORTS: [Framing; 4] = [
    Framing::Buffered,
    Framing::Framed,
    Framing::Header,
    Framing::FramedHeader,
];

/// A call whose body is an `ApplicationException` with a long message (a string longer than
/// one read).
fn call_bytes(framing: WireFormat, message_len: usize, headers: &[(String, String)]) -> Vec<u8> {
    let body = ApplicationException::new(ApplicationExceptionKind(7), "x".repeat(message_len));
    let mut out = Vec::new();
    let start = frame::begin_frame(&mut out, framing, 41, headers);
    framing
        .protocol
        .write_message(&mut out, "method", MessageType::Call, 41, &body)
        .unwrap();
    frame::end_frame(&mut out, start, crate::limits::DEFAULT_MAX_FRAME_SIZE).unwrap();
    out
}

fn all_framings() -> Vec<WireFormat> {
    let mut framings = Vec::new();
    for transport in TRANSPORTS {
        for protocol in PROTOCOLS {
            for zlib in [false, true] {
                if zlib && !transport.is_header() {
                    continue;
                }
                framings.push(WireFormat {
                    framing: transport,
                    protocol,
                    zlib,
                });
            }
        }
    }
    framings
}

#[test]
fn every_prefix_is_incomplete_and_the_whole_decodes() {
    let headers = vec![("trace".to_owned(), "abc".to_owned())];
    for framing in all_framings() {
        let bytes = call_bytes(framing, 300, &headers);
        for cut in 0..bytes.len() {
            let mut buf = BytesMut::from(&bytes[..cut]);
            let got = frame::decode(&mut buf, None, &FrameLimits::default());
            assert!(
                matches!(got, Ok(None)),
                "{framing:?}: prefix of {cut} bytes gave {got:?}"
            );
        }
        let mut buf = BytesMut::from(&bytes[..]);
        buf.extend_from_slice(b"next");
        let received = frame::decode(&mut buf, None, &FrameLimits::default())
            .unwrap()
            .unwrap();
        assert_eq!(&buf[..], b"next", "{framing:?}: the rest stays buffered");
        assert_eq!(received.format, framing);
        let message = &received.message;
        assert_eq!(
            (message.name(), message.kind(), message.seq()),
            ("method", MessageType::Call, 41)
        );
        let body: ApplicationException = message.body().unwrap();
        assert_eq!(body.message.len(), 300);
        let expected: &[(String, String)] = if framing.framing.is_header() {
            &headers
        } else {
            &[]
        };
        assert_eq!(message.headers(), expected);
    }
}

/// An old-style (non-strict) binary call: the name's length, the name, the type, the sequence
/// id, and an empty struct, as Apache's `TBinaryProtocol(strictWrite=false)` writes it.
fn old_style_call(name: &str, seq: i32) -> Vec<u8> {
    let mut out = (name.len() as i32).to_be_bytes().to_vec();
    out.extend_from_slice(name.as_bytes());
    out.push(MessageType::Call as u8);
    out.extend_from_slice(&seq.to_be_bytes());
    out.push(0);
    out
}

#[test]
fn old_style_binary_messages_are_detected_framed_and_unframed() {
    for name in ["testVoid", "ThriftTest:testVoid", "a", "get_all.tables2"] {
        let unframed = old_style_call(name, 7);
        let mut framed = (unframed.len() as u32).to_be_bytes().to_vec();
        framed.extend_from_slice(&unframed);
        for (bytes, transport) in [(&unframed, Framing::Buffered), (&framed, Framing::Framed)] {
            for cut in 0..bytes.len() {
                let got = frame::decode(
                    &mut BytesMut::from(&bytes[..cut]),
                    None,
                    &FrameLimits::default(),
                );
                assert!(
                    matches!(got, Ok(None)),
                    "{name} {transport:?}: {cut} bytes gave {got:?}"
                );
            }
            let received = frame::decode(
                &mut BytesMut::from(&bytes[..]),
                None,
                &FrameLimits::default(),
            )
            .unwrap()
            .unwrap();
            assert_eq!(
                (received.format.framing, received.format.protocol),
                (transport, ProtocolKind::Binary),
                "{name}"
            );
            let m = &received.message;
            assert_eq!((m.name(), m.kind(), m.seq()), (name, MessageType::Call, 7));
            // The reply is strict binary, as Apache's servers write it by default.
            let mut out = Vec::new();
            m.reply_unknown_method(&mut out).unwrap();
            assert_eq!(&out[..2], [0x80, 0x01]);
        }
        // A whole message (an HTTP body, a datagram).
        assert_eq!(
            ProtocolKind::detect(&unframed).unwrap(),
            Some(ProtocolKind::Binary)
        );
    }
    // What does not start like a method name is no old-style message.
    for bytes in [
        &b"\x00\x00\x00\x081estVoid\x01\x00\x00\x00\x01\x00"[..],
        b"\x00\x00\x00\x08te tVoid\x01\x00\x00\x00\x01\x00",
        b"\x00\x01\x00\x08testVoid\x01\x00\x00\x00\x01\x00",
        b"\x00\x00\x00\x00\x01\x00\x00\x00\x01\x00",
        b"GET / HTTP/1.1\r\n",
        b"abcdefghijklmnop",
    ] {
        let got = frame::decode(&mut BytesMut::from(bytes), None, &FrameLimits::default());
        assert!(got.is_err(), "{bytes:?}: {got:?}");
        assert!(ProtocolKind::detect(bytes).is_err(), "{bytes:?}");
    }
}

/// Apache's `THeaderProtocol` over a `TFramedTransport`: the THeader frame, its own length
/// word included, inside a framed-transport frame.
#[test]
fn framed_header_is_a_header_frame_inside_a_frame() {
    let framing = |transport| WireFormat {
        framing: transport,
        protocol: ProtocolKind::Compact,
        zlib: false,
    };
    let header = call_bytes(framing(Framing::Header), 10, &[]);
    let framed = call_bytes(framing(Framing::FramedHeader), 10, &[]);
    assert_eq!(&framed[4..], &header[..]);
    assert_eq!(
        u32::from_be_bytes(framed[..4].try_into().unwrap()) as usize,
        header.len()
    );
    let mut buf = BytesMut::from(&framed[..]);
    let received = frame::decode(&mut buf, None, &FrameLimits::default())
        .unwrap()
        .unwrap();
    assert_eq!(received.format, framing(Framing::FramedHeader));
    assert_eq!(received.header_seq, 41);
    assert!(buf.is_empty());
    // An inner length that disagrees with the outer frame's is refused.
    let mut bad = framed.clone();
    bad[7] ^= 1;
    let err =
        frame::decode(&mut BytesMut::from(&bad[..]), None, &FrameLimits::default()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidData), "{err}");
}

#[test]
fn oversized_frames_are_refused_before_buffering() {
    for transport in [Framing::Framed, Framing::Header] {
        let framing = WireFormat {
            framing: transport,
            protocol: ProtocolKind::Binary,
            zlib: false,
        };
        let bytes = call_bytes(framing, 2000, &[]);
        let limits = FrameLimits {
            max_frame_size: 1000,
            ..FrameLimits::default()
        };
        // Only the length word and the first bytes are there: refused already.
        let mut buf = BytesMut::from(&bytes[..8]);
        let err = frame::decode(&mut buf, None, &limits).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::LimitExceeded(Limit::FrameSize)),
            "{transport:?}: {err}"
        );
    }
}

#[test]
fn unframed_messages_are_bounded_by_the_message_size() {
    let framing = WireFormat::default();
    let bytes = call_bytes(framing, 5000, &[]);
    let mut limits = FrameLimits::default();
    limits.read.max_message_size = 1000;
    let mut buf = BytesMut::from(&bytes[..2000]);
    let err = frame::decode(&mut buf, None, &limits).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::LimitExceeded(Limit::MessageSize)),
        "{err}"
    );
}

#[test]
fn a_zlib_bomb_is_a_decompressed_size_error() {
    let framing = WireFormat {
        framing: Framing::Header,
        protocol: ProtocolKind::Compact,
        zlib: true,
    };
    // 4 MB of one byte compresses to a few KB.
    let bytes = call_bytes(framing, 4 << 20, &[]);
    assert!(bytes.len() < 64 * 1024, "{}", bytes.len());
    let mut limits = FrameLimits::default();
    let mut buf = BytesMut::from(&bytes[..]);
    assert!(frame::decode(&mut buf, None, &limits).is_ok());
    limits.max_decompressed_size = 1 << 20;
    let mut buf = BytesMut::from(&bytes[..]);
    let err = frame::decode(&mut buf, None, &limits).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::LimitExceeded(Limit::DecompressedSize)
        ),
        "{err}"
    );
}

#[test]
fn unknown_protocols_and_transforms_are_errors() {
    let mut bytes = call_bytes(
        WireFormat {
            framing: Framing::Header,
            ..WireFormat::default()
        },
        10,
        &[],
    );
    // The protocol id is the first byte of the variable header (offset 14).
    bytes[14] = 1; // JSON
    let err = frame::decode(
        &mut BytesMut::from(&bytes[..]),
        None,
        &FrameLimits::default(),
    );
    assert!(matches!(err, Err(e) if matches!(e.kind(), ErrorKind::InvalidData)));
    bytes[14] = 0;
    bytes[15] = 1; // one transform
    bytes[16] = 2; // HMAC
    let err = frame::decode(
        &mut BytesMut::from(&bytes[..]),
        None,
        &FrameLimits::default(),
    );
    assert!(matches!(err, Err(e) if matches!(e.kind(), ErrorKind::InvalidData)));
    let garbage = frame::decode(
        &mut BytesMut::from(&b"GET / HTTP/1.1\r\n"[..]),
        None,
        &FrameLimits::default(),
    );
    assert!(garbage.is_err());
}

#[test]
fn replies_are_checked_against_the_call() {
    let body = ApplicationException::default();
    let mut out = Vec::new();
    ProtocolKind::Compact
        .write_message(&mut out, "svc:ping", MessageType::Reply, 5, &body)
        .unwrap();
    let reply = Message::parse(out.into(), ProtocolKind::Compact, Default::default()).unwrap();
    assert!(reply.reply_body::<ApplicationException>("ping", 5).is_ok());
    let kind = |e: crate::error::Error| match e.into_kind() {
        ErrorKind::Application(a) => a.kind,
        other => panic!("{other:?}"),
    };
    let wrong_seq = reply
        .reply_body::<ApplicationException>("ping", 6)
        .unwrap_err();
    assert_eq!(kind(wrong_seq), ApplicationExceptionKind::BAD_SEQUENCE_ID);
    let wrong_name = reply
        .reply_body::<ApplicationException>("pong", 5)
        .unwrap_err();
    assert_eq!(
        kind(wrong_name),
        ApplicationExceptionKind::WRONG_METHOD_NAME
    );
    let (service, inner) = reply.split_service().unwrap();
    assert_eq!((service, inner.name()), ("svc", "ping"));
}

#[test]
fn unframed_ends_are_looked_for_when_the_buffer_grew_by_half_or_went_quiet() {
    let mut probe = frame::UnframedProbe::default();
    let message = [0x80u8; 100_000];
    assert!(probe.due(&message[..10], false), "the first attempt is due");
    probe.failed(&message[..1000]);
    assert!(!probe.due(&message[..1001], false));
    assert!(!probe.due(&message[..1499], false));
    assert!(probe.due(&message[..1500], false), "grown by half");
    assert!(probe.due(&message[..1001], true), "quiet");
    assert_eq!(
        probe.window(&message[..1000]),
        None,
        "nothing new: no window"
    );
    let window = probe.window(&message[..1001]).unwrap();
    assert!(
        window >= std::time::Duration::from_millis(1)
            && window <= std::time::Duration::from_millis(50)
    );
    // Framed input is not held back.
    assert!(probe.due(&[0, 0, 0, 9], false));
}

proptest! {
    #[test]
    fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), prefix in 0usize..4) {
        // Start with a plausible frame header now and then, so the fuzz reaches THeader.
        let mut input = match prefix {
            0 => vec![],
            1 => vec![0, 0, 0, 60, 0x0F, 0xFF, 0, 0, 0, 0, 0, 1, 9],
            2 => vec![0, 0, 0, 60, 0x80, 0x01, 0, 1],
            _ => vec![0x82, 0x21],
        };
        input.extend_from_slice(&bytes);
        let mut buf = BytesMut::from(&input[..]);
        if let Ok(Some(received)) = frame::decode(&mut buf, None, &FrameLimits::default()) {
            let _ = received.message.body::<ApplicationException>();
        }
    }

    #[test]
    fn truncated_or_mutated_frames_never_panic(cut in 0usize..400, flip in 0usize..400, bit in 0u8..8) {
        for framing in all_framings() {
            let mut bytes = call_bytes(framing, 50, &[("k".into(), "v".into())]);
            let flip = flip % bytes.len();
            bytes[flip] ^= 1 << bit;
            bytes.truncate(cut.min(bytes.len()));
            let mut buf = BytesMut::from(&bytes[..]);
            if let Ok(Some(received)) = frame::decode(&mut buf, None, &FrameLimits::default()) {
                let _ = received.message.body::<ApplicationException>();
            }
        }
    }
}

#[test]
fn a_truncated_zlib_payload_is_an_error_not_a_hang() {
    let framing = WireFormat {
        framing: Framing::Header,
        protocol: ProtocolKind::Binary,
        zlib: true,
    };
    let whole = call_bytes(framing, 10_000, &[]);
    // Cut the compressed stream short at many points, keeping the frame length right.
    for cut in [1, 2, 4, 8, 16, whole.len() / 2] {
        let mut bytes = whole[..whole.len() - cut].to_vec();
        let len = (bytes.len() - 4) as u32;
        bytes[..4].copy_from_slice(&len.to_be_bytes());
        let mut buf = BytesMut::from(&bytes[..]);
        match frame::decode(&mut buf, None, &FrameLimits::default()) {
            Err(e) => assert!(matches!(e.kind(), ErrorKind::InvalidData), "{e}"),
            Ok(r) => panic!(
                "cut {cut}: decoded {:?}",
                r.map(|r| r.message.name().to_owned())
            ),
        }
    }
    // And the same state decodes a whole frame afterwards.
    let mut buf = BytesMut::from(&whole[..]);
    assert!(
        frame::decode(&mut buf, None, &FrameLimits::default())
            .unwrap()
            .is_some()
    );
}
