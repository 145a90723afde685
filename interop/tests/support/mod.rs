//! What the interop tests share: certificates made with rcgen, an address where nothing
//! listens.
#![allow(dead_code)]

use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::sync::Arc;

use rcgen::{
    BasicConstraints, Certificate, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair,
};
use thrift_runtime::rpc::tls;

/// The HTTP tests' servers, client options and hand-written requests.
pub mod http_servers;

/// A CA, a server certificate for `localhost` and `127.0.0.1` and a client certificate it
/// signed, and a second CA that signed nothing here; PEM files in a directory of their own.
pub struct Certs {
    dir: PathBuf,
}

impl Certs {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("thrift-tls-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (ca, ca_key) = authority("thrift test CA");
        let (other, _) = authority("another CA");
        let leaf = |names: Vec<String>, usage, name: &str| {
            let key = KeyPair::generate().unwrap();
            let mut params = CertificateParams::new(names).unwrap();
            params.distinguished_name.push(DnType::CommonName, name);
            params.extended_key_usages = vec![usage];
            let cert = params.signed_by(&key, &ca, &ca_key).unwrap();
            (cert.pem(), key.serialize_pem())
        };
        let (server, server_key) = leaf(
            vec!["localhost".into(), "127.0.0.1".into()],
            ExtendedKeyUsagePurpose::ServerAuth,
            "localhost",
        );
        let (client, client_key) = leaf(
            vec![],
            ExtendedKeyUsagePurpose::ClientAuth,
            "thrift test client",
        );
        for (file, pem) in [
            ("ca.pem", ca.pem()),
            ("other-ca.pem", other.pem()),
            ("server.pem", server),
            ("server.key", server_key),
            ("client.pem", client),
            ("client.key", client_key),
        ] {
            std::fs::write(dir.join(file), pem).unwrap();
        }
        Certs { dir }
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// The server's configuration; with `mutual`, clients need a certificate of the CA.
    pub fn server(&self, mutual: bool) -> Arc<tls::rustls::ServerConfig> {
        let ca = self.path("ca.pem");
        tls::server_config(
            self.path("server.pem"),
            self.path("server.key"),
            mutual.then_some(ca.as_path()),
        )
        .unwrap()
    }

    /// A client trusting `ca` (a file here), presenting the client certificate if `identity`.
    pub fn client(&self, ca: &str, identity: bool) -> Arc<tls::rustls::ClientConfig> {
        let (cert, key) = (self.path("client.pem"), self.path("client.key"));
        tls::client_config(
            self.path(ca),
            identity.then_some((cert.as_path(), key.as_path())),
        )
        .unwrap()
    }
}

impl Drop for Certs {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn authority(name: &str) -> (Certificate, KeyPair) {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::new(Vec::<String>::new()).unwrap();
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.distinguished_name.push(DnType::CommonName, name);
    let cert = params.self_signed(&key).unwrap();
    (cert, key)
}

/// An address where nothing listens (bound, then closed).
pub fn refusing() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    addr
}

/// A tokio runtime of two worker threads with IO and timers, for the async servers of a test.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// A tokio listener on a free loopback port, bound in `runtime`, and its address.
pub fn tokio_listener(runtime: &tokio::runtime::Runtime) -> (tokio::net::TcpListener, SocketAddr) {
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}
