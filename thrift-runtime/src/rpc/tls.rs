//! TLS configurations for the blocking and async transports (feature `tls`), on
//! [`rustls`] with its `ring` provider.
//!
//! The transports take a `rustls` configuration ([`rustls::ServerConfig`] for a
//! `TlsListener`, [`rustls::ClientConfig`] for `Connection::connect_tls`): build one with the
//! functions here from PEM files, or with `rustls` itself (re-exported as
//! [`rustls`]) for anything else: other roots, a certificate resolver, ALPN,
//! session resumption, key logging.
//!
//! ```no_run
//! use std::path::Path;
//! use thrift_runtime::rpc::tls;
//!
//! // A server with its certificate chain and key; clients need no certificate.
//! let server = tls::server_config("server.pem", "server.key", None)?;
//! // Mutual TLS: only clients with a certificate signed by `clients-ca.pem` get in.
//! let mutual = tls::server_config("server.pem", "server.key", Some(Path::new("clients-ca.pem")))?;
//! // A client trusting `ca.pem`, with a certificate of its own for mutual TLS.
//! let client = tls::client_config(
//!     "ca.pem",
//!     Some((Path::new("client.pem"), Path::new("client.key"))),
//! )?;
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! Every error names the file it is about. TLS 1.2 and 1.3 are on (rustls' defaults);
//! `ring` is the provider whatever other providers the build holds, so nothing depends on a
//! process-wide default.

use std::io;
use std::path::Path;
use std::sync::Arc;

pub use rustls;
use rustls::crypto::CryptoProvider;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};
use rustls::server::WebPkiClientVerifier;
use rustls::{ClientConfig, RootCertStore, ServerConfig};

/// The crypto provider of every configuration made here: `ring`'s.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The certificates of a PEM file (a chain: the leaf first), at least one.
pub fn load_certs(path: impl AsRef<Path>) -> io::Result<Vec<CertificateDer<'static>>> {
    let path = path.as_ref();
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
        .map_err(|e| pem_error(path, e))?;
    if certs.is_empty() {
        return Err(invalid(path, "no CERTIFICATE in the file"));
    }
    Ok(certs)
}

/// The private key of a PEM file: PKCS #8, PKCS #1 (RSA) or SEC1 (EC), the first one.
pub fn load_private_key(path: impl AsRef<Path>) -> io::Result<PrivateKeyDer<'static>> {
    let path = path.as_ref();
    PrivateKeyDer::from_pem_file(path).map_err(|e| pem_error(path, e))
}

/// Root certificates from a PEM file of CA certificates, all of which must parse.
pub fn load_roots(path: impl AsRef<Path>) -> io::Result<RootCertStore> {
    let path = path.as_ref();
    let mut roots = RootCertStore::empty();
    for cert in load_certs(path)? {
        roots
            .add(cert)
            .map_err(|e| invalid(path, &format!("not a usable CA certificate: {e}")))?;
    }
    Ok(roots)
}

/// A server configuration presenting the certificate chain of `cert_chain` with the key of
/// `key` (PEM files). With `client_ca`, mutual TLS: every client must present a certificate
/// signed by one of the CA certificates in that file, or the handshake fails.
pub fn server_config(
    cert_chain: impl AsRef<Path>,
    key: impl AsRef<Path>,
    client_ca: Option<&Path>,
) -> io::Result<Arc<ServerConfig>> {
    let cert_path = cert_chain.as_ref();
    let certs = load_certs(cert_path)?;
    let key = load_private_key(key.as_ref())?;
    let builder = ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(rustls::DEFAULT_VERSIONS)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let builder = match client_ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let verifier =
                WebPkiClientVerifier::builder_with_provider(Arc::new(load_roots(ca)?), provider())
                    .build()
                    .map_err(|e| invalid(ca, &e.to_string()))?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let config = builder
        .with_single_cert(certs, key)
        .map_err(|e| invalid(cert_path, &format!("the certificate and key: {e}")))?;
    Ok(Arc::new(config))
}

/// A client configuration trusting the CA certificates of `ca` (a PEM file) to sign the
/// server's certificate. With `identity` (a certificate chain's PEM file and its key's),
/// the client presents it to servers that ask for one (mutual TLS).
pub fn client_config(
    ca: impl AsRef<Path>,
    identity: Option<(&Path, &Path)>,
) -> io::Result<Arc<ClientConfig>> {
    let roots = load_roots(ca.as_ref())?;
    let builder = ClientConfig::builder_with_provider(provider())
        .with_protocol_versions(rustls::DEFAULT_VERSIONS)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?
        .with_root_certificates(roots);
    let config = match identity {
        None => builder.with_no_client_auth(),
        Some((cert_path, key_path)) => builder
            .with_client_auth_cert(load_certs(cert_path)?, load_private_key(key_path)?)
            .map_err(|e| invalid(cert_path, &format!("the certificate and key: {e}")))?,
    };
    Ok(Arc::new(config))
}

/// The name a client checks the server's certificate against: a DNS name or an IP address
/// (`"localhost"`, `"hive.example.com"`, `"10.0.0.7"`).
pub fn server_name(name: &str) -> io::Result<ServerName<'static>> {
    ServerName::try_from(name.to_owned()).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("not a server name for TLS: {name:?}: {e}"),
        )
    })
}

/// A TLS failure as the I/O error the transports return.
#[cfg_attr(not(feature = "blocking"), allow(dead_code))]
pub(crate) fn tls_error(e: rustls::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("TLS: {e}"))
}

fn pem_error(path: &Path, e: rustls::pki_types::pem::Error) -> io::Error {
    match e {
        rustls::pki_types::pem::Error::Io(e) => {
            io::Error::new(e.kind(), format!("{}: {e}", path.display()))
        }
        e => invalid(path, &e.to_string()),
    }
}

fn invalid(path: &Path, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: {what}", path.display()),
    )
}

/// A connector whose streams are TLS client sessions over another connector's (TCP by
/// default), for the blocking and the async clients alike (`blocking::Connect`,
/// `asynchronous::Connect`): the server's certificate is checked against the endpoint's host,
/// or the name given to [`server_name`](TlsConnector::server_name).
#[cfg(any(feature = "blocking", feature = "async"))]
#[derive(Clone, Debug)]
pub struct TlsConnector<C = crate::rpc::TcpConnector> {
    pub(crate) inner: C,
    pub(crate) config: Arc<ClientConfig>,
    server_name: Option<String>,
}

#[cfg(any(feature = "blocking", feature = "async"))]
impl<C> TlsConnector<C> {
    /// TLS with `config` ([`client_config`], or one of yours) over the streams of `inner`.
    pub fn new(inner: C, config: Arc<ClientConfig>) -> Self {
        TlsConnector {
            inner,
            config,
            server_name: None,
        }
    }

    /// Checks the server's certificate against `name` (a DNS name or an IP address) rather
    /// than the endpoint's host (for an endpoint given by address, say).
    pub fn server_name(mut self, name: impl Into<String>) -> Self {
        self.server_name = Some(name.into());
        self
    }

    /// The name the certificate of `endpoint`'s server is checked against.
    pub(crate) fn name_for<'a>(&'a self, endpoint: &'a str) -> &'a str {
        self.server_name
            .as_deref()
            .unwrap_or_else(|| endpoint_host(endpoint))
    }
}

/// The host of an endpoint (`host:port`, `[v6-address]:port`, or a bare host): the name a
/// client checks the server's certificate against unless it is given another.
#[cfg(any(feature = "blocking", feature = "async"))]
pub(crate) fn endpoint_host(endpoint: &str) -> &str {
    if let Some(rest) = endpoint.strip_prefix('[') {
        if let Some(end) = rest.find(']') {
            return &rest[..end];
        }
    }
    match endpoint.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') && port.parse::<u16>().is_ok() => host,
        _ => endpoint,
    }
}

#[cfg(all(test, any(feature = "blocking", feature = "async")))]
mod tests {
    use super::endpoint_host;

    #[test]
    fn the_host_of_an_endpoint() {
        assert_eq!(endpoint_host("hive.example.com:9083"), "hive.example.com");
        assert_eq!(endpoint_host("10.0.0.1:9090"), "10.0.0.1");
        assert_eq!(endpoint_host("[::1]:9090"), "::1");
        assert_eq!(endpoint_host("::1"), "::1");
        assert_eq!(endpoint_host("localhost"), "localhost");
    }
}
