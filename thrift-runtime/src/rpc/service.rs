//! The traits generated code implements and calls: processors (server side) and channels
//! (client side), and the helpers that serve one call.

use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::pin;
use std::sync::Arc;
use std::task::Poll;

use super::context;
use super::message::{Message, ProtocolKind};
use crate::application::{ApplicationException, ApplicationExceptionKind};
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, ErrorKind, Result};

/// Serves calls: decodes a call's arguments, runs the handler, and appends the reply message
/// to `out` (nothing for a oneway call). Generated per service (`FooProcessor<H>`), and
/// combined by [`MultiplexedProcessor`].
pub trait Processor: Send + Sync {
    /// Serves one call. An error means the reply could not be written (the connection is
    /// closed); everything a client should hear about is written as a reply or exception.
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> Result<()>;
}

impl<P: Processor + ?Sized> Processor for Arc<P> {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> Result<()> {
        (**self).process(call, out)
    }
}

impl<P: Processor + ?Sized> Processor for Box<P> {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> Result<()> {
        (**self).process(call, out)
    }
}

/// The async [`Processor`]: generated per service (`FooAsyncProcessor<H>`) over the async
/// handler trait.
pub trait AsyncProcessor: Send + Sync {
    /// Serves one call (see [`Processor::process`]).
    fn process<'a>(
        &'a self,
        call: &'a Message,
        out: &'a mut Vec<u8>,
    ) -> impl Future<Output = Result<()>> + Send + 'a;
}

impl<P: AsyncProcessor + ?Sized> AsyncProcessor for Arc<P> {
    fn process<'a>(
        &'a self,
        call: &'a Message,
        out: &'a mut Vec<u8>,
    ) -> impl Future<Output = Result<()>> + Send + 'a {
        (**self).process(call, out)
    }
}

/// The exception sent for a handler's error that is not a declared exception: a received or
/// returned [`ApplicationException`] as it is, anything else as `INTERNAL_ERROR` with the
/// error's text.
pub fn undeclared_exception(e: &Error) -> ApplicationException {
    match e.kind() {
        ErrorKind::Application(ae) => (**ae).clone(),
        _ => ApplicationException::new(ApplicationExceptionKind::INTERNAL_ERROR, e.to_string()),
    }
}

fn panic_exception(panic: &(dyn std::any::Any + Send)) -> ApplicationException {
    let text = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("handler panicked");
    ApplicationException::new(
        ApplicationExceptionKind::INTERNAL_ERROR,
        format!("handler panicked: {text}"),
    )
}

fn protocol_exception(e: &Error) -> ApplicationException {
    ApplicationException::new(
        ApplicationExceptionKind::PROTOCOL_ERROR,
        format!("cannot decode the arguments: {e}"),
    )
}

/// Serves one call of a method: decodes its args struct `A`, runs `handle` (catching a panic,
/// which becomes `INTERNAL_ERROR`) and replies with the result struct it returns, or with
/// [`undeclared_exception`] of its error. Undecodable arguments get `PROTOCOL_ERROR`.
pub fn serve<A, R>(
    call: &Message,
    out: &mut Vec<u8>,
    handle: impl FnOnce(A) -> Result<R>,
) -> Result<()>
where
    A: for<'de> ThriftRead<'de>,
    R: ThriftWrite,
{
    let args = match call.body::<A>() {
        Ok(args) => args,
        Err(e) => return call.reply_exception(out, &protocol_exception(&e)),
    };
    let outcome = context::scope(call.shared_headers(), call.shared_identity(), || {
        catch_unwind(AssertUnwindSafe(|| handle(args)))
    });
    match outcome {
        Ok(Ok(result)) => call.reply(out, &result),
        Ok(Err(e)) => call.reply_exception(out, &undeclared_exception(&e)),
        Err(panic) => call.reply_exception(out, &panic_exception(&*panic)),
    }
}

/// [`serve`] for a oneway method: nothing is sent back, whatever `handle` returns.
pub fn serve_oneway<A>(call: &Message, handle: impl FnOnce(A) -> Result<()>) -> Result<()>
where
    A: for<'de> ThriftRead<'de>,
{
    if let Ok(args) = call.body::<A>() {
        let _ = context::scope(call.shared_headers(), call.shared_identity(), || {
            catch_unwind(AssertUnwindSafe(|| handle(args)))
        });
    }
    Ok(())
}

/// Runs `future` to completion, catching a panic in any of its polls, with the call's
/// headers and identity visible to [`context::headers`] and [`context::identity`] while it
/// runs.
async fn run_handler<F: Future>(
    call: &Message,
    future: F,
) -> std::result::Result<F::Output, Box<dyn std::any::Any + Send>> {
    let mut future = pin!(future);
    let (headers, identity) = (call.shared_headers(), call.shared_identity());
    std::future::poll_fn(|cx| {
        context::scope(headers, identity, || {
            match catch_unwind(AssertUnwindSafe(|| future.as_mut().poll(cx))) {
                Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
                Ok(Poll::Pending) => Poll::Pending,
                Err(panic) => Poll::Ready(Err(panic)),
            }
        })
    })
    .await
}

/// The async [`serve`].
pub async fn serve_async<A, R, F>(
    call: &Message,
    out: &mut Vec<u8>,
    handle: impl FnOnce(A) -> F,
) -> Result<()>
where
    A: for<'de> ThriftRead<'de>,
    R: ThriftWrite,
    F: Future<Output = Result<R>>,
{
    let args = match call.body::<A>() {
        Ok(args) => args,
        Err(e) => return call.reply_exception(out, &protocol_exception(&e)),
    };
    match run_handler(call, handle(args)).await {
        Ok(Ok(result)) => call.reply(out, &result),
        Ok(Err(e)) => call.reply_exception(out, &undeclared_exception(&e)),
        Err(panic) => call.reply_exception(out, &panic_exception(&*panic)),
    }
}

/// The async [`serve_oneway`].
pub async fn serve_oneway_async<A, F>(call: &Message, handle: impl FnOnce(A) -> F) -> Result<()>
where
    A: for<'de> ThriftRead<'de>,
    F: Future<Output = Result<()>>,
{
    if let Ok(args) = call.body::<A>() {
        let _ = run_handler(call, handle(args)).await;
    }
    Ok(())
}

/// Serves several services on one server, as Apache's `TMultiplexedProcessor`: a call named
/// `service:method` goes to the processor registered as `service`, which sees the name
/// `method` (and answers with it). Calls without a `:` go to the default processor, if one
/// is set; an unknown service gets `UNKNOWN_METHOD`.
#[derive(Default)]
pub struct MultiplexedProcessor {
    services: Vec<(String, Box<dyn Processor>)>,
    default: Option<Box<dyn Processor>>,
}

impl MultiplexedProcessor {
    /// An empty processor.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `processor` as `service` (a later registration of the same name replaces it).
    pub fn register(&mut self, service: impl Into<String>, processor: impl Processor + 'static) {
        let service = service.into();
        self.services.retain(|(name, _)| *name != service);
        self.services.push((service, Box::new(processor)));
    }

    /// Sets the processor of calls that name no service (clients that do not multiplex).
    pub fn set_default(&mut self, processor: impl Processor + 'static) {
        self.default = Some(Box::new(processor));
    }
}

impl Processor for MultiplexedProcessor {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> Result<()> {
        match call.split_service() {
            Some((service, inner)) => {
                match self.services.iter().find(|(name, _)| name == service) {
                    Some((_, processor)) => processor.process(&inner, out),
                    None => call.reply_exception(out, &unknown_service(service)),
                }
            }
            None => match &self.default {
                Some(processor) => processor.process(call, out),
                None => call.reply_exception(out, &unknown_service("")),
            },
        }
    }
}

fn unknown_service(service: &str) -> ApplicationException {
    ApplicationException::new(
        ApplicationExceptionKind::UNKNOWN_METHOD,
        if service.is_empty() {
            "the call names no service (expected 'service:method')".to_owned()
        } else {
            format!("unknown service '{service}'")
        },
    )
}

type BoxFuture<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// [`AsyncProcessor`] in a form that can be boxed (one allocation per call).
trait DynAsyncProcessor: Send + Sync {
    fn process_boxed<'a>(
        &'a self,
        call: &'a Message,
        out: &'a mut Vec<u8>,
    ) -> BoxFuture<'a, Result<()>>;
}

impl<P: AsyncProcessor> DynAsyncProcessor for P {
    fn process_boxed<'a>(
        &'a self,
        call: &'a Message,
        out: &'a mut Vec<u8>,
    ) -> BoxFuture<'a, Result<()>> {
        Box::pin(self.process(call, out))
    }
}

/// The async [`MultiplexedProcessor`] (each call's future is boxed: one allocation).
#[derive(Default)]
pub struct AsyncMultiplexedProcessor {
    services: Vec<(String, Box<dyn DynAsyncProcessor>)>,
    default: Option<Box<dyn DynAsyncProcessor>>,
}

impl AsyncMultiplexedProcessor {
    /// An empty processor.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers `processor` as `service`.
    pub fn register(
        &mut self,
        service: impl Into<String>,
        processor: impl AsyncProcessor + 'static,
    ) {
        let service = service.into();
        self.services.retain(|(name, _)| *name != service);
        self.services.push((service, Box::new(processor)));
    }

    /// Sets the processor of calls that name no service.
    pub fn set_default(&mut self, processor: impl AsyncProcessor + 'static) {
        self.default = Some(Box::new(processor));
    }
}

impl AsyncProcessor for AsyncMultiplexedProcessor {
    async fn process<'a>(&'a self, call: &'a Message, out: &'a mut Vec<u8>) -> Result<()> {
        match call.split_service() {
            Some((service, inner)) => {
                match self.services.iter().find(|(name, _)| name == service) {
                    Some((_, processor)) => processor.process_boxed(&inner, out).await,
                    None => call.reply_exception(out, &unknown_service(service)),
                }
            }
            None => match &self.default {
                Some(processor) => processor.process_boxed(call, out).await,
                None => call.reply_exception(out, &unknown_service("")),
            },
        }
    }
}

/// A blocking connection to a server, as generated clients (`FooClient<C>`) use it: one call
/// at a time.
pub trait Channel {
    /// Sends a call of `method` with args struct `args` and decodes the reply's result
    /// struct (see [`Message::reply_body`]).
    fn call<A, R>(&mut self, method: &'static str, args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>;

    /// Sends a oneway call: returns once it is written.
    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()>;

    /// Whether the channel can take another call: `false` once a failure left it unusable
    /// (a connection that may hold part of a reply), so that a pool closes it rather than
    /// give it to the next caller. `true` unless the channel says otherwise.
    fn is_usable(&self) -> bool {
        true
    }
}

impl<C: Channel + ?Sized> Channel for &mut C {
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

/// A call as an async channel sends it: the method and the encoded args struct (the channel
/// writes the message header, with its own sequence id, around it).
#[derive(Clone, Debug)]
pub struct ClientRequest {
    /// The method name (the channel adds a multiplexed `service:` prefix).
    pub method: &'static str,
    /// Whether no reply is expected.
    pub oneway: bool,
    /// The args struct, encoded in the channel's [`AsyncChannel::protocol`].
    pub body: Vec<u8>,
    /// The protocol `body` is encoded in: a connection refuses a call encoded in another
    /// protocol than its own (a [`ServiceChannel`](crate::rpc) made with the wrong one).
    pub protocol: ProtocolKind,
}

impl ClientRequest {
    /// Appends the call's message to `out`: its header (the method, with the multiplexed
    /// `service:` prefix composed in the `name` scratch), the encoded args, and its end. The
    /// one place where a call message is built from a request, for every async channel.
    #[cfg(feature = "async")]
    pub(crate) fn write_message(
        &self,
        out: &mut Vec<u8>,
        service: Option<&str>,
        seq: i32,
        name: &mut String,
    ) -> Result<()> {
        let method = call_name(service, self.method, name);
        let kind = if self.oneway {
            crate::wire::MessageType::Oneway
        } else {
            crate::wire::MessageType::Call
        };
        self.protocol.write_message_header(out, method, kind, seq)?;
        out.extend_from_slice(&self.body);
        self.protocol.write_message_end(out)
    }

    /// `Ok` when the call is encoded in `protocol`, the one the connection speaks.
    pub fn check_protocol(&self, protocol: ProtocolKind) -> Result<()> {
        if self.protocol == protocol {
            return Ok(());
        }
        Err(Error::new(
            crate::error::ErrorKind::Other(
                format!(
                    "the call to `{}` is encoded in the {:?} protocol, but the connection \
                     speaks {:?}: give the channel the connection's protocol",
                    self.method, self.protocol, protocol
                )
                .into(),
            ),
            "",
        ))
    }
}

/// What an async channel hands back for a call that expects a reply: the reply, and the
/// sequence id the channel sent the call with. [`call_async`] checks the one against the
/// other, the one place the check is made for every channel (a connection that matches
/// replies to calls by id, an HTTP client whose reply is its response's body, a pool, a
/// balancer).
#[derive(Debug)]
pub struct Reply {
    /// The sequence id the call went out with.
    pub seq: i32,
    /// The reply message.
    pub message: Message,
}

/// An async connection (or pool, or balancer) as generated async clients
/// (`FooAsyncClient<C>`) use it: shared by reference, so many tasks can call at once.
pub trait AsyncChannel: Send + Sync {
    /// The protocol the args are to be encoded in.
    fn protocol(&self) -> ProtocolKind;

    /// Sends a call; resolves to its reply with the sequence id the call was sent with, or
    /// `None` for a oneway call once it is written.
    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send;
}

impl<C: AsyncChannel + ?Sized> AsyncChannel for Arc<C> {
    fn protocol(&self) -> ProtocolKind {
        (**self).protocol()
    }

    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send {
        (**self).send(request)
    }
}

/// The call as an async channel takes it: `args` encoded in the channel's protocol.
fn client_request<C, A>(
    channel: &C,
    method: &'static str,
    oneway: bool,
    args: &A,
) -> Result<ClientRequest>
where
    C: AsyncChannel + ?Sized,
    A: ThriftWrite,
{
    let mut body = Vec::new();
    let protocol = channel.protocol();
    protocol.encode(args, &mut body)?;
    Ok(ClientRequest {
        method,
        oneway,
        body,
        protocol,
    })
}

/// Calls `method` through an async channel and decodes the result struct.
///
/// The args are encoded before this returns, so the future holds bytes, not `A`: whether it
/// is `Send` never depends on the args' types (a 65-deep chain of structs would overflow
/// the compiler's recursion limit proving it; `RecursionDepthTest.thrift`).
pub fn call_async<'c, C, A, R>(
    channel: &'c C,
    method: &'static str,
    args: &A,
) -> impl Future<Output = Result<R>> + Send + use<'c, C, A, R>
where
    C: AsyncChannel + ?Sized,
    A: ThriftWrite,
    R: for<'de> ThriftRead<'de>,
{
    let request = client_request(channel, method, false, args);
    async move {
        match channel.send(request?).await? {
            Some(reply) => reply.message.reply_body(method, reply.seq),
            None => Err(Error::from(ApplicationException::new(
                ApplicationExceptionKind::MISSING_RESULT,
                "the channel sent no reply to a call",
            ))),
        }
    }
}

/// Sends a oneway call through an async channel (the args encoded before this returns, as
/// by [`call_async`]).
pub fn call_oneway_async<'c, C, A>(
    channel: &'c C,
    method: &'static str,
    args: &A,
) -> impl Future<Output = Result<()>> + Send + use<'c, C, A>
where
    C: AsyncChannel + ?Sized,
    A: ThriftWrite,
{
    let request = client_request(channel, method, true, args);
    async move { channel.send(request?).await.map(|_| ()) }
}

#[cfg(any(feature = "blocking", feature = "async"))]
/// The name written in a call's header: `service:method` when multiplexed.
pub(crate) fn call_name<'a>(
    service: Option<&str>,
    method: &'a str,
    buf: &'a mut String,
) -> &'a str {
    match service {
        Some(service) => {
            buf.clear();
            buf.push_str(service);
            buf.push(':');
            buf.push_str(method);
            buf
        }
        None => method,
    }
}
