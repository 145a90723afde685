//! The THeader info headers of the call being served, for handlers.
//!
//! Handler methods take the call's arguments only; a handler that wants the headers a client
//! sent (a trace id, a caller name) reads them here while it runs, blocking or async.

use std::cell::RefCell;

use super::message::Headers;

thread_local! {
    static CURRENT: RefCell<Option<Headers>> = const { RefCell::new(None) };
}

/// The info headers of the call being served on this thread (or by this task while it is
/// polled); empty outside a handler and for transports other than THeader.
///
/// ```
/// let trace = thrift_runtime::rpc::context::header("trace-id");
/// assert_eq!(trace, None); // not inside a handler
/// ```
pub fn headers() -> Vec<(String, String)> {
    CURRENT.with(|c| c.borrow().as_deref().map(<[_]>::to_vec).unwrap_or_default())
}

/// The value of one info header of the call being served.
pub fn header(key: &str) -> Option<String> {
    CURRENT.with(|c| {
        c.borrow()
            .as_deref()
            .and_then(|h| h.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()))
    })
}

/// Runs `f` with `headers` as the current call's headers (restored afterwards, also on panic).
pub(crate) fn scope<R>(headers: Option<&Headers>, f: impl FnOnce() -> R) -> R {
    if headers.is_none() && CURRENT.with(|c| c.borrow().is_none()) {
        return f();
    }
    struct Restore(Option<Headers>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|c| c.replace(headers.cloned()));
    let _restore = Restore(previous);
    f()
}
