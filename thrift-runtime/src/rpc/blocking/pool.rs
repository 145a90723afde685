//! A blocking connection pool: a bound on live connections, reconnecting after a broken
//! one, failover across endpoints (see [`rpc::pool`](crate::rpc::pool)).

use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Instant;

use super::{Connect, Connection};
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, Result};
use crate::rpc::TcpConnector;
use crate::rpc::options::ClientOptions;
use crate::rpc::pool::{Endpoints, PoolOptions, first_answer, retry};
use crate::rpc::service::Channel;

type ConnectFn<C> = Box<dyn Fn(&str) -> Result<C> + Send + Sync>;

/// A pool of blocking connections to one service behind one or more endpoints: a
/// [`Channel`] for generated clients, shared by every thread that clones it. Each call takes
/// a connection (an idle one, or a new one while fewer than
/// [`PoolOptions::max_connections`] are open, or waits for one), makes the call, and gives
/// the connection back; a connection a failure left unusable is closed instead, and the next
/// call connects anew. Connecting tries the endpoints in failover order.
///
/// ```no_run
/// use thrift_runtime::rpc::blocking::Pool;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{PoolOptions, ProtocolKind, Framing};
///
/// let client = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
/// let pool = Pool::new(["metastore-1:9083", "metastore-2:9083"], client, PoolOptions::default())?;
/// // let mut client = hive_metastore::ThriftHiveMetastoreClient::new(pool.clone());
/// // Or hold one connection for several calls:
/// // let mut client = hive_metastore::ThriftHiveMetastoreClient::new(pool.get()?);
/// # Ok::<(), thrift_runtime::Error>(())
/// ```
///
/// Other transports (TLS, SASL, Unix sockets) come through [`Pool::with_connector`].
pub struct Pool<C = Connection> {
    inner: Arc<Inner<C>>,
}

struct Inner<C> {
    endpoints: Endpoints,
    options: PoolOptions,
    connect: ConnectFn<C>,
    state: Mutex<State<C>>,
    freed: Condvar,
}

struct State<C> {
    /// Connections given back, the most recent last, with when.
    idle: Vec<(C, Instant)>,
    /// Connections open: idle, in use, or being made.
    live: usize,
}

impl<C> Clone for Pool<C> {
    fn clone(&self) -> Self {
        Pool {
            inner: Arc::clone(&self.inner),
        }
    }
}

impl<C> std::fmt::Debug for Pool<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.inner.lock();
        f.debug_struct("Pool")
            .field("endpoints", &self.inner.endpoints.list())
            .field("options", &self.inner.options)
            .field("live", &state.live)
            .field("idle", &state.idle.len())
            .finish()
    }
}

impl Pool<Connection> {
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
}

impl<S: Read + Write + Send + 'static> Pool<Connection<S>> {
    /// A pool of connections that `connector` opens (TLS, SASL, a Unix domain socket, a
    /// stack of them, or a connector of yours) to `endpoints` (in failover order), with
    /// `client` options. Nothing is connected until the first call. An error when
    /// `endpoints` is empty.
    ///
    /// ```no_run
    /// use thrift_runtime::rpc::blocking::Pool;
    /// use thrift_runtime::rpc::sasl::SaslConnector;
    /// use thrift_runtime::rpc::TcpConnector;
    /// use thrift_runtime::rpc::sasl::Plain;
    /// use thrift_runtime::rpc::{ClientOptions, PoolOptions, ProtocolKind};
    ///
    /// let connector = SaslConnector::new(TcpConnector, Plain::new("hive", "s3cret"));
    /// let client = ClientOptions::new(ProtocolKind::Binary);
    /// let endpoints = ["metastore-1:9083", "metastore-2:9083"];
    /// let pool = Pool::with_connector(connector, endpoints, client, PoolOptions::default())?;
    /// // let mut client = hive_metastore::ThriftHiveMetastoreClient::new(pool.get()?);
    /// # Ok::<(), thrift_runtime::Error>(())
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
        K: Connect<Stream = S>,
    {
        Pool::from_fn(endpoints, options, move |endpoint| {
            Connection::connect_with(&connector, endpoint, client.clone())
        })
    }
}

impl<C: Channel> Pool<C> {
    /// A pool whose channels `connect` makes from an endpoint: any [`Channel`] (an HTTP
    /// client, a connection set up your way). For connections a connector opens,
    /// [`Pool::with_connector`] says less.
    pub fn from_fn<I, F>(endpoints: I, options: PoolOptions, connect: F) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<String>,
        F: Fn(&str) -> Result<C> + Send + Sync + 'static,
    {
        Ok(Pool {
            inner: Arc::new(Inner {
                endpoints: Endpoints::new(endpoints)?,
                options,
                connect: Box::new(connect),
                state: Mutex::new(State {
                    idle: Vec::new(),
                    live: 0,
                }),
                freed: Condvar::new(),
            }),
        })
    }

    /// Takes a connection for as long as the guard lives: an idle one, a new one, or (when
    /// [`PoolOptions::max_connections`] are in use) the first one given back within
    /// [`PoolOptions::wait`]. Connecting fails over across the endpoints; the error is the
    /// last endpoint's [`ErrorKind::Connect`](crate::ErrorKind::Connect).
    pub fn get(&self) -> Result<Pooled<C>> {
        let inner = &self.inner;
        let deadline = inner
            .options
            .wait
            .and_then(|wait| Instant::now().checked_add(wait));
        // Connections closed here are dropped after the lock is released (closing a TLS
        // connection writes to it).
        let mut closed = Vec::new();
        let mut state = inner.lock();
        loop {
            while let Some((connection, since)) = state.idle.pop() {
                let stale = inner
                    .options
                    .idle_timeout
                    .is_some_and(|limit| since.elapsed() >= limit);
                if stale || !connection.is_usable() {
                    state.live -= 1;
                    closed.push(connection);
                    continue;
                }
                return Ok(self.guard(connection));
            }
            if state.live < inner.options.max_connections.max(1) {
                state.live += 1;
                drop(state);
                // Counted while being made; uncounted again if connecting fails or the
                // connector panics.
                let mut opening = Opening { inner, made: false };
                let connection = first_answer(&inner.endpoints, &inner.connect)?;
                opening.made = true;
                return Ok(self.guard(connection));
            }
            if !closed.is_empty() {
                // Close them before waiting, outside the lock, then look again.
                drop(state);
                closed.clear();
                state = inner.lock();
                continue;
            }
            state = match deadline {
                None => inner
                    .freed
                    .wait(state)
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(Error::timed_out(
                            "no pooled connection was free within PoolOptions::wait",
                        ));
                    }
                    inner
                        .freed
                        .wait_timeout(state, left)
                        .unwrap_or_else(|poisoned| poisoned.into_inner())
                        .0
                }
            };
        }
    }

    /// Connections open now (idle, in use, or being made).
    pub fn live(&self) -> usize {
        self.inner.lock().live
    }

    /// The endpoints, in the order given.
    pub fn endpoints(&self) -> &[String] {
        self.inner.endpoints.list()
    }

    fn guard(&self, connection: C) -> Pooled<C> {
        Pooled {
            connection: Some(connection),
            pool: Arc::clone(&self.inner),
        }
    }
}

/// A connection being made, counted in `live`: uncounted on drop unless it was made.
struct Opening<'a, C> {
    inner: &'a Inner<C>,
    made: bool,
}

impl<C> Drop for Opening<'_, C> {
    fn drop(&mut self) {
        if !self.made {
            self.inner.lock().live -= 1;
            self.inner.freed.notify_one();
        }
    }
}

impl<C> Inner<C> {
    fn lock(&self) -> MutexGuard<'_, State<C>> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Closes every idle connection.
    fn close_idle(&self) {
        let mut state = self.lock();
        let idle = std::mem::take(&mut state.idle);
        state.live -= idle.len();
        drop(state);
        drop(idle);
        self.freed.notify_all();
    }
}

impl<C: Channel> Channel for Pool<C> {
    /// Calls on a pooled connection; a call whose connection closed under it is sent again
    /// on another up to [`PoolOptions::retries`] times.
    fn call<A, R>(&mut self, method: &'static str, args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>,
    {
        let mut attempt = 0;
        loop {
            let mut connection = self.get()?;
            match connection.call(method, args) {
                Err(e) if retry(&e, attempt, &self.inner.options) => {
                    // The server went away (restarted, or failed over): the idle
                    // connections to it are as dead as this one.
                    self.inner.close_idle();
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }

    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()> {
        let mut attempt = 0;
        loop {
            let mut connection = self.get()?;
            match connection.call_oneway(method, args) {
                Err(e) if retry(&e, attempt, &self.inner.options) => {
                    // The server went away (restarted, or failed over): the idle
                    // connections to it are as dead as this one.
                    self.inner.close_idle();
                    attempt += 1;
                }
                outcome => return outcome,
            }
        }
    }
}

/// A connection taken from a [`Pool`]; given back when dropped (or closed, when a failure
/// left it unusable). A [`Channel`] itself, and derefs to the connection.
pub struct Pooled<C: Channel> {
    connection: Option<C>,
    pool: Arc<Inner<C>>,
}

impl<C: Channel + std::fmt::Debug> std::fmt::Debug for Pooled<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Pooled").field(&self.connection).finish()
    }
}

impl<C: Channel> std::ops::Deref for Pooled<C> {
    type Target = C;

    fn deref(&self) -> &C {
        // Some until dropped.
        self.connection.as_ref().expect("a pooled connection")
    }
}

impl<C: Channel> std::ops::DerefMut for Pooled<C> {
    fn deref_mut(&mut self) -> &mut C {
        self.connection.as_mut().expect("a pooled connection")
    }
}

impl<C: Channel> Channel for Pooled<C> {
    fn call<A, R>(&mut self, method: &'static str, args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>,
    {
        (**self).call(method, args)
    }

    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()> {
        (**self).call_oneway(method, args)
    }

    fn is_usable(&self) -> bool {
        (**self).is_usable()
    }
}

impl<C: Channel> Drop for Pooled<C> {
    fn drop(&mut self) {
        let Some(connection) = self.connection.take() else {
            return;
        };
        let mut state = self.pool.lock();
        // A connection a panic unwound through may be in the middle of a call.
        if connection.is_usable() && !std::thread::panicking() {
            state.idle.push((connection, Instant::now()));
        } else {
            state.live -= 1;
            drop(state);
            drop(connection);
        }
        self.pool.freed.notify_one();
    }
}
