//! An async connection pool: a bound on connections, reconnecting after a closed one,
//! failover across endpoints (see [`rpc::pool`](crate::rpc::pool)).

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Connect, Connection};
use crate::error::{Error, Result};
use crate::rpc::TcpConnector;
use crate::rpc::message::ProtocolKind;
use crate::rpc::options::ClientOptions;
use crate::rpc::pool::{Endpoints, PoolOptions, retry};
use crate::rpc::service::{AsyncChannel, ClientRequest, Reply};

type ConnectFn =
    Box<dyn Fn(String) -> Pin<Box<dyn Future<Output = Result<Connection>> + Send>> + Send + Sync>;

/// A pool of async connections to one service behind one or more endpoints: an
/// [`AsyncChannel`] for generated async clients, cheap to clone. It keeps up to
/// [`PoolOptions::max_connections`] connections, each pipelining many calls, and gives each
/// call the next in turn; a connection that has closed is replaced on its next turn,
/// connecting in failover order. With `max_connections: 1` it is one connection that
/// reconnects and fails over.
///
/// ```no_run
/// # async fn run() -> thrift_runtime::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Pool;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{PoolOptions, ProtocolKind, Framing};
///
/// let client = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
/// let pool = Pool::new(["10.0.0.1:9090", "10.0.0.2:9090"], client, PoolOptions::default())?;
/// // let client = idl::calculator::CalculatorAsyncClient::new(pool);
/// # Ok(()) }
/// ```
///
/// Other carriers (TLS, SASL, Unix sockets) come through [`Pool::with_connector`]. For
/// balancing by load across endpoints at once, tower's `balance` over [`Connection`]s and a
/// `rpc::layers::ServiceChannel` (feature `tower`) fits better (see the `tower`
/// example); this pool is what Hive-style clients need: one service, failover, reconnects.
#[derive(Clone)]
pub struct Pool {
    inner: Arc<Inner>,
}

struct Inner {
    endpoints: Endpoints,
    options: PoolOptions,
    protocol: ProtocolKind,
    connect: ConnectFn,
    slots: Vec<::tokio::sync::Mutex<Option<Connection>>>,
    turn: AtomicUsize,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("endpoints", &self.inner.endpoints.list())
            .field("options", &self.inner.options)
            .field("protocol", &self.inner.protocol)
            .finish_non_exhaustive()
    }
}

impl Pool {
    /// A pool of TCP connections made with `client` options to `endpoints` (in failover
    /// order). Nothing is connected until the first call. An error when `endpoints` is
    /// empty.
    pub fn new<I>(endpoints: I, client: ClientOptions, options: PoolOptions) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        Pool::with_connector(TcpConnector, endpoints, client, options)
    }

    /// A pool of connections that `connector` opens (TLS, SASL, a Unix domain socket, a
    /// stack of them, or a connector of yours) to `endpoints` (in failover order), with
    /// `client` options. Nothing is connected until the first call. An error when
    /// `endpoints` is empty.
    ///
    /// ```no_run
    /// # async fn run() -> thrift_runtime::Result<()> {
    /// use thrift_runtime::rpc::asynchronous::Pool;
    /// use thrift_runtime::rpc::sasl::SaslConnector;
    /// use thrift_runtime::rpc::TcpConnector;
    /// use thrift_runtime::rpc::tls::TlsConnector;
    /// use thrift_runtime::rpc::sasl::Plain;
    /// use thrift_runtime::rpc::{tls, ClientOptions, PoolOptions, ProtocolKind};
    ///
    /// let tls = TlsConnector::new(TcpConnector, tls::client_config("ca.pem", None)?);
    /// let connector = SaslConnector::new(tls, Plain::new("hive", "s3cret"));
    /// let client = ClientOptions::new(ProtocolKind::Binary);
    /// let endpoints = ["hs2-1.example.com:10000", "hs2-2.example.com:10000"];
    /// let pool = Pool::with_connector(connector, endpoints, client, PoolOptions::default())?;
    /// // let client = hive::TCLIServiceAsyncClient::new(pool);
    /// # Ok(()) }
    /// ```
    pub fn with_connector<I, K>(
        connector: K,
        endpoints: I,
        client: ClientOptions,
        options: PoolOptions,
    ) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<String>,
        K: Connect,
    {
        let protocol = client.protocol;
        let shared = Arc::new((connector, client));
        Pool::from_fn(endpoints, protocol, options, move |endpoint| {
            let shared = Arc::clone(&shared);
            async move {
                let (connector, client) = &*shared;
                Connection::connect_with(connector, &endpoint, client.clone()).await
            }
        })
    }

    /// A pool whose connections `connect` makes from an endpoint, speaking `protocol`: a
    /// connection set up your way. For connections a connector opens,
    /// [`Pool::with_connector`] says less.
    pub fn from_fn<I, F, Fut>(
        endpoints: I,
        protocol: ProtocolKind,
        options: PoolOptions,
        connect: F,
    ) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<String>,
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Connection>> + Send + 'static,
    {
        let slots = (0..options.max_connections.max(1))
            .map(|_| ::tokio::sync::Mutex::new(None))
            .collect();
        Ok(Pool {
            inner: Arc::new(Inner {
                endpoints: Endpoints::new(endpoints)?,
                options,
                protocol,
                connect: Box::new(move |address| Box::pin(connect(address))),
                slots,
                turn: AtomicUsize::new(0),
            }),
        })
    }

    /// The endpoints, in the order given.
    pub fn endpoints(&self) -> &[String] {
        self.inner.endpoints.list()
    }

    /// Connections open now (a connection being made, or whose slot is busy connecting,
    /// is not counted).
    pub fn live(&self) -> usize {
        self.inner
            .slots
            .iter()
            .filter(|slot| {
                slot.try_lock()
                    .is_ok_and(|slot| slot.as_ref().is_some_and(|c| !c.is_closed()))
            })
            .count()
    }

    /// The connection in `slot` (by default the one whose turn it is), connected (in
    /// failover order) if it has closed or never was; and the slot.
    async fn connection(&self, slot: Option<usize>) -> Result<(usize, Connection)> {
        let inner = &*self.inner;
        let turn =
            slot.unwrap_or_else(|| inner.turn.fetch_add(1, Ordering::Relaxed)) % inner.slots.len();
        let mut slot = inner.slots[turn].lock().await;
        if let Some(connection) = slot.as_ref().filter(|c| !c.is_closed()) {
            return Ok((turn, connection.clone()));
        }
        *slot = None;
        let mut last = None;
        for (index, address) in inner.endpoints.in_order() {
            match (inner.connect)(address.to_owned()).await {
                Ok(connection) => {
                    inner.endpoints.answered(index);
                    *slot = Some(connection.clone());
                    return Ok((turn, connection));
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| Error::closed("no endpoint")))
    }
}

impl AsyncChannel for Pool {
    fn protocol(&self) -> ProtocolKind {
        self.inner.protocol
    }

    /// Calls on the connection whose turn it is; a call whose connection closed under it is
    /// sent again on another up to [`PoolOptions::retries`] times.
    async fn send(&self, request: ClientRequest) -> Result<Option<Reply>> {
        let mut attempt = 0;
        let mut slot = None;
        loop {
            let (turn, connection) = self.connection(slot).await?;
            if attempt >= self.inner.options.retries {
                return connection.send(request).await;
            }
            match connection.send(request.clone()).await {
                Err(e) if retry(&e, attempt, &self.inner.options) => {
                    // Again in the same slot, whose connection has closed: on a new
                    // connection, not on another one to the server that went away and that
                    // may not have noticed yet.
                    slot = Some(turn);
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }
}
