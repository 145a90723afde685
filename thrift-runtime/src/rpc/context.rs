//! What a handler may know of the call being served: the THeader info headers the client
//! sent, and who the client is (its SASL identity).
//!
//! Handler methods take the call's arguments only; a handler that wants the headers a client
//! sent (a trace id, a caller name) or the identity it authenticated as reads them here while
//! it runs, blocking or async.

use std::cell::RefCell;
use std::sync::Arc;

use super::identity::Identity;
use super::message::Headers;

/// What the call being served carries: `None` when a field is absent.
struct Current {
    headers: Option<Headers>,
    identity: Option<Arc<Identity>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Current>> = const { RefCell::new(None) };
}

/// The info headers of the call being served on this thread (or by this task while it is
/// polled); empty outside a handler and for transports other than THeader.
///
/// ```
/// let trace = thrift_runtime::rpc::context::header("trace-id");
/// assert_eq!(trace, None); // not inside a handler
/// ```
pub fn headers() -> Vec<(String, String)> {
    CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|c| c.headers.as_deref())
            .map(<[_]>::to_vec)
            .unwrap_or_default()
    })
}

/// The value of one info header of the call being served.
pub fn header(key: &str) -> Option<String> {
    CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|c| c.headers.as_deref())
            .and_then(|h| h.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()))
    })
}

/// Who the client of the call being served is: its identity where its connection
/// authenticated (a `SaslListener`'s), `None` otherwise and outside a handler.
///
/// ```
/// use thrift_runtime::rpc::context;
///
/// // In a handler of a server behind a SaslListener:
/// let caller = context::identity().map(|who| who.authorized().to_owned());
/// assert_eq!(caller, None); // not inside a handler
/// ```
pub fn identity() -> Option<Identity> {
    CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .and_then(|c| c.identity.as_deref().cloned())
    })
}

/// Runs `f` with a call's headers and its client's identity as the current call's (restored
/// afterwards, also on panic).
pub(crate) fn scope<R>(
    headers: Option<&Headers>,
    identity: Option<&Arc<Identity>>,
    f: impl FnOnce() -> R,
) -> R {
    if headers.is_none() && identity.is_none() && CURRENT.with(|c| c.borrow().is_none()) {
        return f();
    }
    struct Restore(Option<Current>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let current = (headers.is_some() || identity.is_some()).then(|| Current {
        headers: headers.cloned(),
        identity: identity.cloned(),
    });
    let previous = CURRENT.with(|c| c.replace(current));
    let _restore = Restore(previous);
    f()
}
