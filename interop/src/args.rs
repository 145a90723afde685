//! The flags of Apache's cross-language test clients and servers.

use thrift_runtime::rpc::blocking::ClientOptions;
use thrift_runtime::rpc::{ProtocolKind, Transport};

/// Parsed flags.
#[derive(Clone, Debug)]
pub struct Flags {
    /// `--host`.
    pub host: String,
    /// `--port`.
    pub port: u16,
    /// `--protocol binary|compact|header`.
    pub protocol: String,
    /// `--transport buffered|framed`.
    pub transport: String,
    /// `--header-payload binary|compact`: the payload protocol with `--protocol header`.
    pub header_payload: String,
    /// `--multiplexed`.
    pub multiplexed: bool,
    /// `--zlib` (with `--protocol header`).
    pub zlib: bool,
    /// `--async`: the tokio client or server instead of the blocking one.
    pub asynchronous: bool,
    /// `--uuid`: also call `testUuid` (Apache 0.17's compiler cannot generate it).
    pub uuid: bool,
    /// `--domain-socket PATH`: a Unix domain socket instead of TCP (`--host` and `--port`
    /// are then unused).
    pub domain_socket: Option<String>,
}

impl Flags {
    /// Parses `std::env::args`, or explains the usage.
    pub fn parse() -> Result<Flags, String> {
        let mut flags = Flags {
            host: "127.0.0.1".into(),
            port: 9090,
            protocol: "binary".into(),
            transport: "buffered".into(),
            header_payload: "binary".into(),
            multiplexed: false,
            zlib: false,
            asynchronous: false,
            uuid: false,
            domain_socket: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            let (name, inline) = match arg.split_once('=') {
                Some((n, v)) => (n.to_owned(), Some(v.to_owned())),
                None => (arg.clone(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            match name.as_str() {
                "--host" => flags.host = value()?,
                "--port" => flags.port = value()?.parse().map_err(|e| format!("--port: {e}"))?,
                "--protocol" => flags.protocol = value()?,
                "--transport" => flags.transport = value()?,
                "--header-payload" => flags.header_payload = value()?,
                "--multiplexed" => flags.multiplexed = true,
                "--zlib" => flags.zlib = true,
                "--async" => flags.asynchronous = true,
                "--uuid" => flags.uuid = true,
                "--domain-socket" => flags.domain_socket = Some(value()?),
                other => return Err(format!("unknown flag {other}")),
            }
        }
        Ok(flags)
    }

    /// The client options these flags describe.
    pub fn client_options(&self) -> Result<ClientOptions, String> {
        let parse_protocol = |p: &str| match p {
            "binary" => Ok(ProtocolKind::Binary),
            "compact" => Ok(ProtocolKind::Compact),
            other => Err(format!("unknown protocol {other}")),
        };
        let (protocol, transport) = match self.protocol.as_str() {
            // THeader inside framed-transport frames, as Apache's `THeaderProtocol` over a
            // `TFramedTransport`.
            "header" => (
                parse_protocol(&self.header_payload)?,
                match self.transport.as_str() {
                    "buffered" => Transport::Header,
                    "framed" => Transport::FramedHeader,
                    other => return Err(format!("unknown transport {other}")),
                },
            ),
            p => (
                parse_protocol(p)?,
                match self.transport.as_str() {
                    "buffered" => Transport::Buffered,
                    "framed" => Transport::Framed,
                    other => return Err(format!("unknown transport {other}")),
                },
            ),
        };
        let mut options = ClientOptions::new(protocol, transport);
        options.zlib = self.zlib;
        options.timeout = Some(std::time::Duration::from_secs(30));
        Ok(options)
    }
}
