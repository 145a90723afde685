//! What a new user copies: `build.rs` generates Rust from `idl/tutorial.thrift` (and
//! `idl/shared.thrift`, which it includes), and this crate uses it: the types (`main.rs`) and
//! the `Places` service, served and called blocking and async (`src/bin`).
//!
//! A server in the same process, on a port the kernel chooses, stopped by dropping its
//! handle (as the guide's services reference shows it):
//!
//! ```
//! use thrift_examples::idl::tutorial::{PlacesClient, PlacesProcessor};
//! use thrift_examples::{lighthouse, PlaceBook};
//! use thrift_runtime::rpc::blocking::{Connection, Server};
//! use thrift_runtime::rpc::{ClientOptions, ProtocolKind, ServerOptions, Framing};
//!
//! let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
//! let handle = Server::new(ServerOptions::default()).spawn(listener, PlacesProcessor::new(PlaceBook::default()))?;
//! let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
//! let addr = handle.local_addr();
//! let mut places = PlacesClient::new(Connection::connect(addr, options.clone())?);
//! places.put(lighthouse())?;
//! assert_eq!(places.get("Lighthouse".into())?.name, "Lighthouse");
//! drop(handle); // stops the server: it no longer accepts
//! assert!(Connection::connect(addr, options).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// ANCHOR: idl
/// The generated code: `pub mod shared` and `pub mod tutorial`, one per IDL file.
pub mod idl {
    include!(concat!(env!("OUT_DIR"), "/thrift.rs"));
}
// ANCHOR_END: idl

// ANCHOR: handler
use std::collections::BTreeMap;
use std::sync::Mutex;

use idl::tutorial::{NotFound, Place, Places, PlacesAsync, PlacesGetError};

/// The address the example servers listen on and the clients call.
pub const ADDR: &str = "127.0.0.1:9090";

/// A `Places` handler keeping places in memory. One handler serves the blocking and the
/// async server: the async methods call the blocking ones, which never wait.
#[derive(Debug, Default)]
pub struct PlaceBook {
    places: Mutex<BTreeMap<String, Place>>,
}

impl Places for PlaceBook {
    fn get(&self, name: String) -> Result<Place, PlacesGetError> {
        let places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        match places.get(&name) {
            Some(place) => Ok(place.clone()),
            // A declared exception: the client receives it as `PlacesGetError::Missing`.
            None => Err(NotFound { name }.into()),
        }
    }

    fn put(&self, place: Place) -> thrift_runtime::Result<()> {
        let mut places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        places.insert(place.name.clone(), place);
        Ok(())
    }

    fn forget(&self, name: String) -> thrift_runtime::Result<()> {
        let mut places = self.places.lock().unwrap_or_else(|e| e.into_inner());
        places.remove(&name);
        Ok(())
    }
}
// ANCHOR_END: handler

// ANCHOR: async-handler
impl PlacesAsync for PlaceBook {
    async fn get(&self, name: String) -> Result<Place, PlacesGetError> {
        Places::get(self, name)
    }

    async fn put(&self, place: Place) -> thrift_runtime::Result<()> {
        Places::put(self, place)
    }

    async fn forget(&self, name: String) -> thrift_runtime::Result<()> {
        Places::forget(self, name)
    }
}
// ANCHOR_END: async-handler

/// The place both example clients store and read back.
pub fn lighthouse() -> Place {
    Place {
        name: "Lighthouse".to_string(),
        location: idl::shared::Point {
            lat: 48.383,
            lon: -4.495,
        },
        kind: idl::tutorial::Kind::WORK,
        tags: Some(vec!["coast".into()]),
        attachments: BTreeMap::new(),
    }
}

/// A CA, and a certificate for `localhost` it signed, written to `dir` as PEM files (`ca.pem`,
/// `server.pem`, `server.key`), for the TLS examples' stand-in servers: made for each run, none
/// is checked in. A real service has its certificates from its operator.
pub fn stand_in_certificates(dir: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let ca_key = KeyPair::generate()?;
    let mut ca = CertificateParams::new(Vec::<String>::new())?;
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = ca.self_signed(&ca_key)?;
    let key = KeyPair::generate()?;
    let cert =
        CertificateParams::new(vec!["localhost".to_owned()])?.signed_by(&key, &ca, &ca_key)?;
    std::fs::write(dir.join("ca.pem"), ca.pem())?;
    std::fs::write(dir.join("server.pem"), cert.pem())?;
    std::fs::write(dir.join("server.key"), key.serialize_pem())?;
    Ok(())
}
