//! The flags of Apache's cross-language test clients and servers.

use std::path::Path;
use std::sync::Arc;

use thrift_runtime::rpc::ClientOptions;
use thrift_runtime::rpc::{Framing, ProtocolKind, tls};

/// Parsed flags.
#[derive(Clone, Debug)]
pub struct Flags {
    /// `--host`.
    pub host: String,
    /// `--port`.
    pub port: u16,
    /// `--protocol binary|compact|json|header`.
    pub protocol: String,
    /// `--transport buffered|framed|http|udp`.
    pub transport: String,
    /// `--header-payload binary|compact|json`: the payload protocol with `--protocol header`.
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
    /// `--sasl plain`: SASL PLAIN below the protocol (every message then framed).
    pub sasl: bool,
    /// `--sasl-user U` (default `thrift`).
    pub sasl_user: String,
    /// `--sasl-password P` (default `thrift`).
    pub sasl_password: String,
    /// `--sasl-authzid A`: the client asks to act as `A` (PLAIN's authorization identity).
    pub sasl_authzid: String,
    /// `--expect-refusal`: the server must refuse this client (its credentials, authzid or
    /// certificate): the client connects and calls `testVoid`, and passes when that fails.
    pub expect_refusal: bool,
    /// `--header KEY=VALUE` (repeatable, THeader): info headers a client sends with every call.
    pub headers: Vec<(String, String)>,
    /// `--expect-header KEY=VALUE` (repeatable): a server answers a call that does not carry
    /// these info headers with an exception instead of serving it.
    pub expect_headers: Vec<(String, String)>,
    /// `--no-nul-strings`: the checks' strings carry no NUL (U+0000), for a server whose
    /// library drops it (Apache's C++ 0.17 JSON reader).
    pub no_nul_strings: bool,
    /// `--ssl`: TLS below the transport.
    pub ssl: bool,
    /// `--ssl-cert FILE`: the server's certificate chain (PEM), or the client's for mutual
    /// TLS.
    pub ssl_cert: Option<String>,
    /// `--ssl-key FILE`: the private key of `--ssl-cert` (PEM).
    pub ssl_key: Option<String>,
    /// `--ssl-ca FILE`: CA certificates (PEM). A client trusts them to sign the server's
    /// certificate; a server given them requires client certificates they signed.
    pub ssl_ca: Option<String>,
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
            sasl: false,
            sasl_user: "thrift".into(),
            sasl_password: "thrift".into(),
            sasl_authzid: String::new(),
            expect_refusal: false,
            no_nul_strings: false,
            headers: Vec::new(),
            expect_headers: Vec::new(),
            ssl: false,
            ssl_cert: None,
            ssl_key: None,
            ssl_ca: None,
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
                "--sasl" => match value()?.as_str() {
                    "plain" => flags.sasl = true,
                    other => return Err(format!("--sasl: unknown mechanism {other} (plain)")),
                },
                "--sasl-user" => flags.sasl_user = value()?,
                "--sasl-password" => flags.sasl_password = value()?,
                "--sasl-authzid" => flags.sasl_authzid = value()?,
                "--expect-refusal" => flags.expect_refusal = true,
                "--no-nul-strings" => flags.no_nul_strings = true,
                "--header" => flags.headers.push(key_value(&value()?)?),
                "--expect-header" => flags.expect_headers.push(key_value(&value()?)?),
                "--ssl" => flags.ssl = true,
                "--ssl-cert" => flags.ssl_cert = Some(value()?),
                "--ssl-key" => flags.ssl_key = Some(value()?),
                "--ssl-ca" => flags.ssl_ca = Some(value()?),
                other => return Err(format!("unknown flag {other}")),
            }
        }
        if !flags.ssl
            && (flags.ssl_cert.is_some() || flags.ssl_key.is_some() || flags.ssl_ca.is_some())
        {
            return Err("--ssl-cert, --ssl-key and --ssl-ca need --ssl".into());
        }
        if flags.ssl_cert.is_some() != flags.ssl_key.is_some() {
            return Err("--ssl-cert and --ssl-key go together".into());
        }
        Ok(flags)
    }

    /// What the checks send beyond Apache's calls.
    pub fn checks(&self) -> crate::checks::CheckOptions {
        crate::checks::CheckOptions {
            uuid: self.uuid,
            nul: !self.no_nul_strings,
        }
    }

    /// `--transport http`: Thrift over HTTP POST.
    pub fn http(&self) -> bool {
        self.transport == "http"
    }

    /// `--transport udp`: one oneway call per datagram, as Jaeger's agent takes them (a
    /// client sends [`UDP_ONEWAY_SECONDS`] `testOneway` calls; a server prints
    /// `received testOneway(N)` for each).
    pub fn udp(&self) -> bool {
        self.transport == "udp"
    }

    /// The URL of an HTTP server (`--transport http`; https with `--ssl`).
    pub fn url(&self) -> String {
        let scheme = if self.ssl { "https" } else { "http" };
        format!("{scheme}://{}:{}/", self.host, self.port)
    }

    /// With `--ssl`: the server's TLS configuration (`--ssl-cert`, `--ssl-key`, and
    /// `--ssl-ca` for mutual TLS).
    pub fn server_tls(&self) -> Result<Option<Arc<tls::rustls::ServerConfig>>, String> {
        if !self.ssl {
            return Ok(None);
        }
        let (Some(cert), Some(key)) = (&self.ssl_cert, &self.ssl_key) else {
            return Err("--ssl needs --ssl-cert and --ssl-key on a server".into());
        };
        tls::server_config(cert, key, self.ssl_ca.as_deref().map(Path::new))
            .map(Some)
            .map_err(|e| e.to_string())
    }

    /// With `--ssl`: the client's TLS configuration (`--ssl-ca`, and `--ssl-cert` with
    /// `--ssl-key` for mutual TLS).
    pub fn client_tls(&self) -> Result<Option<Arc<tls::rustls::ClientConfig>>, String> {
        if !self.ssl {
            return Ok(None);
        }
        let Some(ca) = &self.ssl_ca else {
            return Err("--ssl needs --ssl-ca on a client".into());
        };
        let identity = match (&self.ssl_cert, &self.ssl_key) {
            (Some(cert), Some(key)) => Some((Path::new(cert), Path::new(key))),
            _ => None,
        };
        tls::client_config(ca, identity)
            .map(Some)
            .map_err(|e| e.to_string())
    }

    /// The client options these flags describe.
    pub fn client_options(&self) -> Result<ClientOptions, String> {
        let parse_protocol = |p: &str| match p {
            "binary" => Ok(ProtocolKind::Binary),
            "compact" => Ok(ProtocolKind::Compact),
            "json" => Ok(ProtocolKind::Json),
            other => Err(format!("unknown protocol {other}")),
        };
        let (protocol, transport) = match self.protocol.as_str() {
            // THeader inside framed-transport frames, as Apache's `THeaderProtocol` over a
            // `TFramedTransport`.
            "header" => (
                parse_protocol(&self.header_payload)?,
                match self.transport.as_str() {
                    "buffered" => Framing::Header,
                    "framed" => Framing::FramedHeader,
                    other => return Err(format!("unknown transport {other}")),
                },
            ),
            p => (
                parse_protocol(p)?,
                match self.transport.as_str() {
                    // HTTP: one POST per message, UDP one datagram, no framing (the
                    // options' transport is unused).
                    "buffered" | "http" | "udp" => Framing::Buffered,
                    "framed" => Framing::Framed,
                    other => return Err(format!("unknown transport {other}")),
                },
            ),
        };
        // SASL frames every message, whatever `--transport` says.
        let transport = if self.sasl {
            Framing::Framed
        } else {
            transport
        };
        let mut options = ClientOptions::new(protocol).with_framing(transport);
        options.zlib = self.zlib;
        options.headers = self.headers.clone();
        options.timeout = Some(std::time::Duration::from_secs(30));
        Ok(options)
    }
}

/// `KEY=VALUE` of `--header` and `--expect-header`.
fn key_value(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
        _ => Err(format!("not KEY=VALUE: {text}")),
    }
}

/// The `testOneway` arguments a `--transport udp` client sends, one datagram each; a server
/// prints `received testOneway(N)` for each, which the matrix looks for.
pub const UDP_ONEWAY_SECONDS: [i32; 3] = [0, 1, 2];
