//! Reporting spans to Jaeger the two ways Jaeger takes Thrift:
//! - to the agent: compact Thrift over UDP (port 6831), one oneway `emitBatch` call per
//!   datagram, checked against the datagram limit before sending;
//! - to the collector: a binary `Batch` as the whole body of a `POST /api/traces` (port
//!   14268), answered `202 Accepted`: a struct, not a call, so `HttpClient::post`.
//!
//! `cargo run -p thrift-examples --bin jaeger` runs both against stand-ins it starts itself
//! (an agent on a UDP port, a collector on a TCP port, each decoding what it receives). To
//! report to a real Jaeger: `... -- AGENT_HOST:6831 http://COLLECTOR_HOST:14268`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, UdpSocket};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use thrift_examples::idl::agent::{Agent, AgentClient, AgentProcessor};
use thrift_examples::idl::jaeger::{Batch, Process, Span, Tag, TagType};
use thrift_runtime::rpc::blocking;
use thrift_runtime::rpc::blocking::{UdpClient, UdpServer};
use thrift_runtime::rpc::{ClientOptions, ProtocolKind, ServerOptions};
use thrift_runtime::{Binary, ThriftRead};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (received, _agent, agent) = match args.first() {
        Some(agent) => (None, None, agent.clone()),
        None => {
            let (sender, received) = mpsc::channel();
            let socket = UdpSocket::bind("127.0.0.1:0")?;
            let server = UdpServer::new(ServerOptions::default())
                .spawn(socket, AgentProcessor::new(StandInAgent(sender)))?;
            let addr = server.local_addr().to_string();
            (Some(received), Some(server), addr)
        }
    };
    let collector = match args.get(1) {
        Some(url) => url.clone(),
        None => format!("http://{}", stand_in_collector()?),
    };

    let batch = batch("checkout", "charge card");

    // ANCHOR: agent
    // To the agent: what Jaeger's client libraries send.
    let options = ClientOptions::new(ProtocolKind::Compact);
    let mut agent = AgentClient::new(UdpClient::connect(agent.as_str(), options)?);
    agent.emit_batch(batch.clone())?;
    if let Some(received) = received {
        let spans = received.recv_timeout(Duration::from_secs(5))?;
        println!("agent received {spans}");
    }
    // ANCHOR_END: agent

    // ANCHOR: collector
    // To the collector: the batch itself as the body.
    let options = ClientOptions::new(ProtocolKind::Binary);
    let url = format!("{collector}/api/traces?format=jaeger.thrift");
    let mut collector = blocking::HttpClient::new(&url, options)?;
    let (status, _) = collector.post(&batch)?;
    println!("collector answered {status}");
    // ANCHOR_END: collector
    Ok(())
}

/// One span of `service`, as a tracer reports it.
fn batch(service: &str, operation: &str) -> Batch {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let tag = |key: &str, value: &str| Tag {
        key: key.into(),
        v_type: TagType::STRING,
        v_str: Some(value.into()),
        ..Tag::default()
    };
    Batch {
        process: Process {
            service_name: service.into(),
            tags: Some(vec![tag("hostname", "web-1")]),
        },
        spans: vec![Span {
            trace_id_low: 0x5eed_cafe,
            trace_id_high: 0,
            span_id: 1,
            parent_span_id: 0,
            operation_name: operation.into(),
            flags: 1, // sampled
            start_time: now.as_micros() as i64,
            duration: 1_250,
            tags: Some(vec![tag("span.kind", "server")]),
            ..Span::default()
        }],
        seq_no: Some(1),
    }
}

/// An agent that says what each batch held.
struct StandInAgent(mpsc::Sender<String>);

impl Agent for StandInAgent {
    fn emit_batch(&self, batch: Batch) -> thrift_runtime::Result<()> {
        let operations: Vec<_> = batch
            .spans
            .iter()
            .map(|s| s.operation_name.as_str())
            .collect();
        let _ = self.0.send(format!(
            "{} span(s) of {}: {operations:?}",
            batch.spans.len(),
            batch.process.service_name
        ));
        Ok(())
    }
}

/// A collector on a port of the kernel's choosing that decodes each posted `Batch`, prints
/// it and answers `202 Accepted`, as Jaeger's does. Its HTTP is the least that serves this
/// example (one request per connection, `Content-Length` bodies).
fn stand_in_collector() -> std::io::Result<std::net::SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(stream);
            let mut length = 0;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if let Some((name, value)) = line.split_once(':') {
                    if name.eq_ignore_ascii_case("content-length") {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                line.clear();
            }
            let mut body = vec![0; length.min(1 << 20)];
            let status = match reader
                .read_exact(&mut body)
                .map(|()| Batch::decode::<Binary>(&body))
            {
                Ok(Ok(batch)) => {
                    println!(
                        "collector received {} span(s) of {}",
                        batch.spans.len(),
                        batch.process.service_name
                    );
                    "202 Accepted"
                }
                _ => "400 Bad Request",
            };
            let _ = write!(
                reader.get_mut(),
                "HTTP/1.1 {status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
    });
    Ok(addr)
}
