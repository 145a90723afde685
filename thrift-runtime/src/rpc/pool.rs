//! Connection management shared by the blocking and async pools: the endpoints and the order
//! in which failover tries them, the settings, and when a failed call may be sent again. The
//! pools themselves are `blocking::Pool` (feature `blocking`) and `asynchronous::Pool` (feature
//! `async`).
//!
//! **Failover** is sticky, as Hive Metastore clients do it by hand: connections go to the
//! first endpoint that answers and stay there while it does; when connecting to it fails, the
//! next one in the list is tried, and so on around the list, and the one that answers becomes
//! the first to try.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::error::{Error, Result};

/// Settings of a connection pool (blocking or async).
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// The most connections open at once. A blocking pool makes a caller wait (up to
    /// [`PoolOptions::wait`]) when all are in use; an async pool shares its connections,
    /// each pipelining many calls, and spreads calls over them in turn. Default: 8 for a
    /// blocking pool's callers, and for an async pool 8 connections.
    pub max_connections: usize,
    /// Blocking pool: how long a caller waits for a connection when all are in use; then
    /// [`ErrorKind::TimedOut`](crate::ErrorKind::TimedOut). Default 30 s.
    pub wait: Option<Duration>,
    /// Blocking pool: an idle connection older than this is closed rather than reused, so
    /// that a server's idle timeout (60 s in Apache's servers, Hive's and this crate's) does
    /// not hand a caller a connection the server has closed. Default 50 s.
    pub idle_timeout: Option<Duration>,
    /// How many times a call is sent again, on another connection, when its connection
    /// closed under it ([`ErrorKind::Closed`](crate::ErrorKind::Closed)). Default 0: the
    /// server may have run the call before the connection went, so only turn this on for
    /// idempotent methods (reads, or writes safe to repeat), as Hive's `RetryingMetaStoreClient`
    /// does. A failed connect is never counted: nothing was sent, and every endpoint is tried.
    pub retries: u32,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            max_connections: 8,
            wait: Some(Duration::from_secs(30)),
            idle_timeout: Some(Duration::from_secs(50)),
            retries: 0,
        }
    }
}

/// The endpoints of a pool and which one to try first.
#[derive(Debug)]
pub(crate) struct Endpoints {
    list: Vec<String>,
    first: AtomicUsize,
}

impl Endpoints {
    /// The endpoints, tried in this order; an error when there are none.
    pub(crate) fn new<I>(endpoints: I) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<String>,
    {
        let list: Vec<String> = endpoints.into_iter().map(Into::into).collect();
        if list.is_empty() {
            return Err(Error::connect(
                "",
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a pool needs at least one endpoint",
                ),
            ));
        }
        Ok(Endpoints {
            list,
            first: AtomicUsize::new(0),
        })
    }

    /// Every endpoint once, the one to try first first: `(index, address)`.
    pub(crate) fn in_order(&self) -> impl Iterator<Item = (usize, &str)> {
        let first = self.first.load(Ordering::Relaxed) % self.list.len();
        (0..self.list.len()).map(move |i| {
            let index = (first + i) % self.list.len();
            (index, self.list[index].as_str())
        })
    }

    /// Connecting to `index` worked: it is the first to try from now on.
    pub(crate) fn answered(&self, index: usize) {
        self.first.store(index, Ordering::Relaxed);
    }

    /// The addresses, in the order given.
    pub(crate) fn list(&self) -> &[String] {
        &self.list
    }
}

/// Connects with `connect` to the first endpoint that answers, in failover order; the error
/// is the last endpoint's (a connect error naming it). The async pool walks the same order
/// with `.await` between tries.
#[cfg(any(feature = "blocking", test))]
pub(crate) fn first_answer<C>(
    endpoints: &Endpoints,
    mut connect: impl FnMut(&str) -> Result<C>,
) -> Result<C> {
    let mut last = None;
    for (index, address) in endpoints.in_order() {
        match connect(address) {
            Ok(connection) => {
                endpoints.answered(index);
                return Ok(connection);
            }
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| Error::closed("no endpoint")))
}

/// Whether a call that failed with `error` on attempt `attempt` (0 for the first) is sent
/// again.
pub(crate) fn retry(error: &Error, attempt: u32, options: &PoolOptions) -> bool {
    attempt < options.retries && matches!(error.kind(), crate::error::ErrorKind::Closed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failover_is_sticky_and_goes_round() {
        let endpoints = Endpoints::new(["a", "b", "c"]).unwrap();
        let order = |e: &Endpoints| e.in_order().map(|(_, a)| a.to_owned()).collect::<Vec<_>>();
        assert_eq!(order(&endpoints), ["a", "b", "c"]);
        let mut tried = Vec::new();
        let got = first_answer(&endpoints, |a| {
            tried.push(a.to_owned());
            if a == "b" {
                Ok(a.to_owned())
            } else {
                Err(Error::connect(
                    a,
                    std::io::ErrorKind::ConnectionRefused.into(),
                ))
            }
        })
        .unwrap();
        assert_eq!(
            (got.as_str(), tried.as_slice()),
            ("b", &["a".to_owned(), "b".to_owned()][..])
        );
        assert_eq!(order(&endpoints), ["b", "c", "a"]);
        let err = first_answer(&endpoints, |a| -> Result<()> {
            Err(Error::connect(
                a,
                std::io::ErrorKind::ConnectionRefused.into(),
            ))
        })
        .unwrap_err();
        assert!(
            matches!(err.kind(), crate::error::ErrorKind::Connect { address, .. } if address == "a")
        );
        assert!(Endpoints::new(Vec::<String>::new()).is_err());
    }

    #[test]
    fn only_closed_connections_are_retried_and_only_when_asked() {
        let closed = Error::closed("x");
        let timed_out = Error::timed_out("x");
        let mut options = PoolOptions::default();
        assert!(!retry(&closed, 0, &options));
        options.retries = 2;
        assert!(retry(&closed, 0, &options) && retry(&closed, 1, &options));
        assert!(!retry(&closed, 2, &options));
        assert!(!retry(&timed_out, 0, &options));
    }
}
