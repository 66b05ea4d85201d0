//! A gateway between a provider and a downstream client, on loopback TCP:
//! every way a read-resource exchange can end, checked end to end.
//!
//! ```text
//! cargo run --release --example gateway [-- --buffer BYTES] [--count N] [--quiet]
//! ```
//!
//! Three threads besides the gateway (all sockets on 127.0.0.1, ports picked
//! by the OS):
//!
//! * the **provider** answers asks for twelve resources: text with escapes
//!   and non-ASCII, a 1 MiB text, base64 blobs, a not-found error (`-32602`),
//!   an internal error (`-32603`), a clean close with no message, an abrupt
//!   reset on the first ask (answered on the retry), `/requests` closed
//!   before the path opens on the first ask (answered on the retry), a
//!   resource that always resets (the gateway gives up), a message larger
//!   than the gateway's buffer, and two malformed frames;
//! * the **gateway** (the main thread) asks for each resource, reads each
//!   path into one fixed buffer with [`diverge_frame::exchange::PathReader`],
//!   drives an [`Exchange`] (at most [`MAX_RETRIES`] retries), decodes the
//!   message with [`Frame::decode`] and forwards every valid frame unchanged;
//! * the **downstream** client checks each forwarded frame byte for byte
//!   against what the provider sent.
//!
//! # The demo's framing over TCP
//!
//! The provider protocol runs on its own transport; here each of its
//! connections is a TCP connection, and big-endian `u32`s stand in for its
//! headers:
//!
//! ```text
//! /requests        gateway → provider, one connection, reopened when it ends.
//!                  Per ask:  channel u32 | length u32 | ask (length bytes)
//!                  ask    =  kind 3 (READ_RESOURCE_KIND) | request JSON {"uri":"…"}
//! /mcp/read-resource/{channel}
//!                  provider → gateway's path listener, one connection per path:
//!                  channel u32 | the message (tag 0/1 + rmcp JSON) | close
//!                  FIN = clean close; RST (SO_LINGER 0) = abrupt end.
//! downstream       gateway → client, one connection.
//!                  Per frame: resource index u32 | length u32 | frame, unchanged
//! ```
//!
//! One line is printed per exchange (round, resource, outcome, bytes, time,
//! asks) and a summary at the end; the exit code is 1 if any outcome, ask
//! count or forwarded frame differs from what the scenario expects.
//! `--buffer BYTES` sets the gateway's buffer (default 1.5 MiB; outcomes
//! that depend on it are computed from it), `--count N` repeats the whole
//! scenario N times, `--quiet` prints only unexpected exchanges and the
//! summary.

#![allow(clippy::indexing_slicing)]

use std::io::{self, BufReader, BufWriter, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use base64::Engine as _;
use diverge_frame::exchange::{
    Event, Exchange, PathEnd, PathReader, READ_RESOURCE_KIND, Status, TooLarge,
};
use diverge_frame::{Frame, RequestView, Tag};
use rmcp::ErrorData;
use rmcp::model::{ErrorCode, ReadResourceResult, ResourceContents};

/// How often the gateway asks again after an unanswered exchange.
const MAX_RETRIES: u32 = 2;
/// The gateway's buffer unless `--buffer` says otherwise: 1.5 MiB.
const DEFAULT_BUFFER: usize = 3 << 19;
/// Longest wait for any socket or event; nothing in the demo should come near it.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of the message the provider writes before a reset.
const PARTIAL: usize = 64;
/// Unexpected exchanges printed in full under `--quiet`.
const MAX_REPORTED: usize = 20;

/// What the provider does when asked for a resource.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Serve {
    /// Write the message, close cleanly.
    Message,
    /// Close the path cleanly without a message.
    Nothing,
    /// First ask: part of the message, then a reset. The retry: the message.
    ResetOnce,
    /// First ask: close `/requests` without opening the path. The retry: the message.
    DropRequestsOnce,
    /// Every ask: part of the message, then a reset.
    ResetAlways,
}

/// How an exchange ended, as the gateway sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// Answered with a valid result frame (forwarded).
    Result,
    /// Answered with a valid error frame (forwarded).
    Error,
    /// Clean close with no message.
    NotServed,
    /// The message did not fit the buffer.
    TooLarge,
    /// Answered with bytes that are not a valid frame (not forwarded).
    Malformed,
    /// Unanswered more often than `MAX_RETRIES` allows.
    GaveUp,
    /// The demo itself went wrong (a timeout, a stray path, a dead socket).
    Failed,
}

impl Outcome {
    const ALL: [Self; 7] = [
        Self::Result,
        Self::Error,
        Self::NotServed,
        Self::TooLarge,
        Self::Malformed,
        Self::GaveUp,
        Self::Failed,
    ];

    const fn name(self) -> &'static str {
        match self {
            Self::Result => "answered (result)",
            Self::Error => "answered (error)",
            Self::NotServed => "not served",
            Self::TooLarge => "too large",
            Self::Malformed => "malformed frame",
            Self::GaveUp => "gave up",
            Self::Failed => "FAILED",
        }
    }

    const fn forwarded(self) -> bool {
        matches!(self, Self::Result | Self::Error)
    }
}

/// One resource the provider serves, and what the gateway must make of it.
struct Resource {
    uri: &'static str,
    serve: Serve,
    /// The message on the path (a real frame, or deliberately not one).
    message: Vec<u8>,
    /// What the message is, if it fits the buffer.
    kind: Outcome,
}

impl Resource {
    /// The outcome and number of asks this resource must give with `buffer`.
    fn expected(&self, buffer: usize) -> (Outcome, u32) {
        let partial = PARTIAL.min(self.message.len() / 2);
        let first_fits = partial <= buffer;
        match self.serve {
            Serve::Nothing => (Outcome::NotServed, 1),
            Serve::ResetAlways if first_fits => (Outcome::GaveUp, MAX_RETRIES + 1),
            Serve::ResetOnce | Serve::ResetAlways if !first_fits => (Outcome::TooLarge, 1),
            _ => {
                let asks = if self.serve == Serve::Message { 1 } else { 2 };
                let outcome = if self.message.len() > buffer {
                    Outcome::TooLarge
                } else {
                    self.kind
                };
                (outcome, asks)
            }
        }
    }
}

fn result_frame(contents: Vec<ResourceContents>) -> Vec<u8> {
    let mut frame = vec![0u8];
    serde_json::to_writer(&mut frame, &ReadResourceResult::new(contents)).expect("JSON");
    frame
}

fn error_frame(error: &ErrorData) -> Vec<u8> {
    let mut frame = vec![1u8];
    serde_json::to_writer(&mut frame, error).expect("JSON");
    frame
}

fn base64(bytes: &[u8]) -> String {
    let engine = base64::engine::general_purpose::STANDARD;
    let mut out = vec![0u8; base64::encoded_len(bytes.len(), true).expect("size")];
    let n = engine.encode_slice(bytes, &mut out).expect("room");
    out.truncate(n);
    String::from_utf8(out).expect("base64 is ASCII")
}

/// A text of exactly `len` bytes: lines of ASCII, escapes and non-ASCII.
fn long_text(len: usize) -> String {
    let mut text = String::with_capacity(len);
    let mut line = 0u32;
    while text.len() < len {
        let next = format!("{line:06}\tnaïve café — 世界 \"quoted\" back\\slash\n");
        if text.len() + next.len() > len {
            break;
        }
        text.push_str(&next);
        line += 1;
    }
    while text.len() < len {
        text.push('.');
    }
    text
}

fn text(uri: &str, text: impl Into<String>) -> ResourceContents {
    ResourceContents::text(text, uri)
}

/// The scenario: every resource and how it is served.
fn resources() -> Vec<Resource> {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(3 * 1024).collect();
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89";
    let r = |uri, serve, message, kind| Resource {
        uri,
        serve,
        message,
        kind,
    };
    vec![
        r(
            "docs://readme",
            Serve::Message,
            result_frame(vec![text(
                "docs://readme",
                "Grüße aus Köln — 世界 🌍\n\t\"quoted\", back\\slash, control \u{1}, end",
            )]),
            Outcome::Result,
        ),
        r(
            "docs://big",
            Serve::Message,
            result_frame(vec![text("docs://big", long_text(1 << 20))]),
            Outcome::Result,
        ),
        r(
            "blob://assets",
            Serve::Message,
            result_frame(vec![
                ResourceContents::blob(base64(png), "blob://assets/pixel.png")
                    .with_mime_type("image/png"),
                ResourceContents::blob(base64(&bytes), "blob://assets/bytes.bin")
                    .with_mime_type("application/octet-stream"),
            ]),
            Outcome::Result,
        ),
        r(
            "docs://missing",
            Serve::Message,
            error_frame(&ErrorData::new(
                ErrorCode::INVALID_PARAMS,
                "Resource not found",
                Some(serde_json::json!({ "uri": "docs://missing" })),
            )),
            Outcome::Error,
        ),
        r(
            "docs://crash",
            Serve::Message,
            error_frame(&ErrorData::new(
                ErrorCode::INTERNAL_ERROR,
                "Internal error: the disk is on fire",
                None,
            )),
            Outcome::Error,
        ),
        r(
            "docs://unserved",
            Serve::Nothing,
            Vec::new(),
            Outcome::NotServed,
        ),
        r(
            "docs://flaky",
            Serve::ResetOnce,
            result_frame(vec![text("docs://flaky", "answered on the retry")]),
            Outcome::Result,
        ),
        r(
            "docs://requests-drop",
            Serve::DropRequestsOnce,
            result_frame(vec![text(
                "docs://requests-drop",
                "asked again on a new /requests",
            )]),
            Outcome::Result,
        ),
        r(
            "docs://down",
            Serve::ResetAlways,
            result_frame(vec![text("docs://down", "never arrives whole")]),
            Outcome::Result,
        ),
        r(
            "docs://huge",
            Serve::Message,
            result_frame(vec![text("docs://huge", long_text(2 << 20))]),
            Outcome::Result,
        ),
        r(
            "docs://garbled",
            Serve::Message,
            b"\x00{\"contents\":[{\"uri\":\"docs://garbled\",\"text\":\"cut short}]}".to_vec(),
            Outcome::Malformed,
        ),
        r(
            "docs://wrong-tag",
            Serve::Message,
            b"\x02{\"contents\":[]}".to_vec(),
            Outcome::Malformed,
        ),
    ]
}

// ---------------------------------------------------------------- provider

/// Reads one ask from `/requests`: `None` at a clean end.
fn read_ask(conn: &mut TcpStream) -> io::Result<Option<(u32, Vec<u8>)>> {
    let mut head = [0u8; 8];
    match conn.read_exact(&mut head) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let channel = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
    let len = u32::from_be_bytes([head[4], head[5], head[6], head[7]]) as usize;
    let mut ask = vec![0u8; len];
    conn.read_exact(&mut ask)?;
    Ok(Some((channel, ask)))
}

fn reset(stream: TcpStream) -> io::Result<()> {
    socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO))?;
    drop(stream);
    Ok(())
}

/// The provider: serves asks until the gateway hangs up `/requests` for good.
fn provider(
    requests: &TcpListener,
    path_addr: SocketAddr,
    table: &[Resource],
    stop: &AtomicBool,
) -> io::Result<()> {
    let mut asked = vec![0u32; table.len()];
    let mut out = Vec::new();
    loop {
        let (mut conn, _) = requests.accept()?;
        conn.set_read_timeout(Some(TIMEOUT * 6))?;
        'asks: loop {
            let Some((channel, ask)) = read_ask(&mut conn)? else {
                if stop.load(Ordering::SeqCst) {
                    return Ok(());
                }
                break 'asks;
            };
            let Some((&READ_RESOURCE_KIND, json)) = ask.split_first() else {
                return Err(io::Error::other("an ask that is not kind 3"));
            };
            let request = RequestView::decode(json).map_err(io::Error::other)?;
            let index = table
                .iter()
                .position(|r| request.uri() == r.uri)
                .ok_or_else(|| io::Error::other("unknown resource"))?;
            let resource = &table[index];
            asked[index] += 1;
            let first = asked[index] % 2 == 1;

            if resource.serve == Serve::DropRequestsOnce && first {
                drop(conn);
                break 'asks; // and accept the gateway's next /requests
            }
            let mut path = TcpStream::connect(path_addr)?;
            let reset_now = match resource.serve {
                Serve::ResetAlways => true,
                Serve::ResetOnce => first,
                Serve::Message | Serve::Nothing | Serve::DropRequestsOnce => false,
            };
            let message = match resource.serve {
                Serve::Nothing => &[][..],
                _ if reset_now => &resource.message[..PARTIAL.min(resource.message.len() / 2)],
                _ => &resource.message[..],
            };
            out.clear();
            out.extend_from_slice(&channel.to_be_bytes());
            out.extend_from_slice(message);
            // A gateway that found the message too large stops reading and
            // resets: that write error is part of the scenario.
            let _ = path.write_all(&out);
            if reset_now {
                reset(path)?;
            } else {
                drop(path); // FIN: the clean close
            }
        }
    }
}

// -------------------------------------------------------------- downstream

/// What the downstream client checked.
#[derive(Default)]
struct Checked {
    frames: u64,
    bytes: u64,
    mismatches: Vec<String>,
}

/// The downstream client: compares every forwarded frame with the
/// provider's bytes, until the gateway closes.
fn downstream(listener: &TcpListener, table: &[Resource]) -> io::Result<Checked> {
    let (conn, _) = listener.accept()?;
    conn.set_read_timeout(Some(TIMEOUT * 6))?;
    let mut conn = BufReader::with_capacity(1 << 16, conn);
    let mut checked = Checked::default();
    let mut frame = Vec::new();
    loop {
        let mut head = [0u8; 8];
        match conn.read_exact(&mut head) {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::UnexpectedEof => return Ok(checked),
            Err(e) => return Err(e),
        }
        let index = u32::from_be_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let len = u32::from_be_bytes([head[4], head[5], head[6], head[7]]) as usize;
        frame.resize(len, 0);
        conn.read_exact(&mut frame)?;
        checked.frames += 1;
        checked.bytes += len as u64;
        match table.get(index) {
            Some(r) if r.message == frame => {}
            Some(r) => checked
                .mismatches
                .push(format!("{}: {len} bytes differ", r.uri)),
            None => checked
                .mismatches
                .push(format!("unknown resource #{index}")),
        }
    }
}

// ----------------------------------------------------------------- gateway

/// What the gateway's helper threads report.
enum Ev {
    /// The provider opened a path (its channel not read yet).
    Path(TcpStream),
    /// The `/requests` connection of this generation ended.
    RequestsEnded(u64),
}

/// One exchange, as printed.
struct Report {
    outcome: Outcome,
    bytes: usize,
    asks: u32,
    elapsed: Duration,
    detail: String,
}

struct Gateway {
    provider: SocketAddr,
    events: Receiver<Ev>,
    events_tx: Sender<Ev>,
    requests: Option<TcpStream>,
    generation: u64,
    /// The thread that tells when the current `/requests` ends.
    watcher: Option<JoinHandle<()>>,
    downstream: BufWriter<TcpStream>,
    buf: Vec<u8>,
    next_channel: u32,
}

/// Reads one path's message with the push API.
fn read_path<'b>(stream: &mut TcpStream, buf: &'b mut [u8]) -> Result<PathEnd<&'b [u8]>, TooLarge> {
    let mut reader = PathReader::new(buf);
    let mut chunk = [0u8; 1 << 16];
    loop {
        // Bounded: every pass stores at least one byte, the reader takes
        // at most `buf.len()` of them, and a silent peer times out.
        match stream.read(&mut chunk) {
            Ok(0) => return reader.close(),
            Ok(n) => reader.push(&chunk[..n])?,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return reader.abort(),
        }
    }
}

impl Gateway {
    /// Sends the ask on `/requests`, opening a new connection if the last
    /// one ended.
    fn send_ask(&mut self, channel: u32, uri: &str) -> io::Result<()> {
        if self.requests.is_none() {
            let conn = TcpStream::connect(self.provider)?;
            conn.set_nodelay(true)?;
            self.generation += 1;
            let generation = self.generation;
            let mut watch = conn.try_clone()?;
            let tx = self.events_tx.clone();
            self.watcher = Some(thread::spawn(move || {
                // The provider never writes on /requests: this read returns
                // only when the connection ends.
                let _ = watch.read(&mut [0u8; 1]);
                let _ = tx.send(Ev::RequestsEnded(generation));
            }));
            self.requests = Some(conn);
        }
        let json = format!("{{\"uri\":{}}}", serde_json::to_string(uri).expect("JSON"));
        let len = u32::try_from(json.len() + 1).map_err(io::Error::other)?;
        let mut ask = Vec::with_capacity(json.len() + 9);
        ask.extend_from_slice(&channel.to_be_bytes());
        ask.extend_from_slice(&len.to_be_bytes());
        ask.push(READ_RESOURCE_KIND);
        ask.extend_from_slice(json.as_bytes());
        match &mut self.requests {
            Some(conn) => conn.write_all(&ask),
            None => Err(io::Error::other("no /requests connection")),
        }
    }

    /// Forgets the current `/requests` connection (it ended, or the gateway
    /// is done with it) and joins its watcher, whose read the shutdown ends.
    fn requests_ended(&mut self) -> io::Result<()> {
        if let Some(conn) = self.requests.take() {
            let _ = conn.shutdown(Shutdown::Both);
        }
        match self.watcher.take().map(JoinHandle::join) {
            Some(Err(_)) => Err(io::Error::other("a /requests watcher panicked")),
            Some(Ok(())) | None => Ok(()),
        }
    }

    /// Takes stale events before an ask: the end of the current `/requests`
    /// means the next ask needs a new one.
    fn drain(&mut self) -> io::Result<()> {
        while let Ok(ev) = self.events.try_recv() {
            if let Ev::RequestsEnded(g) = ev
                && g == self.generation
            {
                self.requests_ended()?;
            }
        }
        Ok(())
    }

    /// Runs one exchange for resource `index` to its end.
    fn exchange(&mut self, index: usize, resource: &Resource) -> Report {
        let start = Instant::now();
        let channel = self.next_channel;
        self.next_channel = self.next_channel.wrapping_add(1);
        let mut exchange = Exchange::new(MAX_RETRIES);
        let mut path: Option<TcpStream> = None;
        let mut answer = None;
        let mut bytes = 0;
        let mut detail = String::new();
        let report = |outcome, bytes, exchange: &Exchange, detail| Report {
            outcome,
            bytes,
            asks: exchange.asks(),
            elapsed: start.elapsed(),
            detail,
        };

        // Each pass moves the exchange on or fails it; the retry bound keeps
        // the passes few.
        for _ in 0..8 * (MAX_RETRIES + 1) {
            let step = match exchange.status() {
                Status::Ready | Status::AskAgain => {
                    if let Err(e) = self.drain() {
                        return report(Outcome::Failed, 0, &exchange, e.to_string());
                    }
                    match self.send_ask(channel, resource.uri) {
                        Ok(()) => exchange.on(Event::AskSent),
                        Err(e) => {
                            // Not sent: a fresh /requests on the next pass.
                            detail = format!("ask not sent: {e}");
                            if let Err(e) = self.requests_ended() {
                                return report(Outcome::Failed, 0, &exchange, e.to_string());
                            }
                            continue;
                        }
                    }
                }
                Status::Asked => match self.events.recv_timeout(TIMEOUT) {
                    Ok(Ev::RequestsEnded(g)) if g == self.generation => {
                        if let Err(e) = self.requests_ended() {
                            return report(Outcome::Failed, 0, &exchange, e.to_string());
                        }
                        exchange.on(Event::RequestsEnded)
                    }
                    Ok(Ev::RequestsEnded(_)) => continue, // an older connection
                    Ok(Ev::Path(mut stream)) => {
                        let _ = stream.set_read_timeout(Some(TIMEOUT));
                        let mut head = [0u8; 4];
                        match stream.read_exact(&mut head) {
                            Ok(()) if u32::from_be_bytes(head) == channel => {
                                path = Some(stream);
                                exchange.on(Event::PathOpened)
                            }
                            Ok(()) => {
                                detail = "a path for another channel".into();
                                continue;
                            }
                            // Ended before it even named its channel: the
                            // path of the one outstanding ask, ended abruptly.
                            Err(_) => exchange
                                .on(Event::PathOpened)
                                .and_then(|_| exchange.on(Event::PathAborted)),
                        }
                    }
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                        let d = "no path and /requests still open after 10 s".into();
                        return report(Outcome::Failed, 0, &exchange, d);
                    }
                },
                Status::PathOpen => {
                    let Some(mut stream) = path.take() else {
                        return report(Outcome::Failed, 0, &exchange, "no path".into());
                    };
                    let end = match read_path(&mut stream, &mut self.buf) {
                        Ok(end) => end,
                        Err(too_large) => {
                            // Dropping the path with bytes unread resets it.
                            drop(stream);
                            let limit = too_large.limit();
                            return report(
                                Outcome::TooLarge,
                                limit,
                                &exchange,
                                too_large.to_string(),
                            );
                        }
                    };
                    let status = exchange.path_ended(&end);
                    if let PathEnd::Message(message) = end {
                        bytes = message.len();
                        answer = Some(match Frame::decode(message) {
                            Ok(frame) => {
                                let forwarded = forward(&mut self.downstream, index, message);
                                if let Err(e) = forwarded {
                                    detail = format!("downstream: {e}");
                                    Outcome::Failed
                                } else if frame.tag() == Tag::Result {
                                    Outcome::Result
                                } else {
                                    Outcome::Error
                                }
                            }
                            Err(e) => {
                                detail = e.to_string();
                                Outcome::Malformed
                            }
                        });
                    }
                    status
                }
                Status::Answered => {
                    let outcome = answer.unwrap_or(Outcome::Failed);
                    return report(outcome, bytes, &exchange, detail);
                }
                Status::NotServed => return report(Outcome::NotServed, 0, &exchange, detail),
                Status::GaveUp => return report(Outcome::GaveUp, 0, &exchange, detail),
            };
            if let Err(e) = step {
                return report(Outcome::Failed, bytes, &exchange, e.to_string());
            }
        }
        report(Outcome::Failed, bytes, &exchange, "too many steps".into())
    }
}

fn forward(out: &mut impl Write, index: usize, frame: &[u8]) -> io::Result<()> {
    let index = u32::try_from(index).map_err(io::Error::other)?;
    let len = u32::try_from(frame.len()).map_err(io::Error::other)?;
    out.write_all(&index.to_be_bytes())?;
    out.write_all(&len.to_be_bytes())?;
    out.write_all(frame)
}

// -------------------------------------------------------------------- main

struct Options {
    buffer: usize,
    count: u64,
    quiet: bool,
}

const USAGE: &str = "usage: gateway [--buffer BYTES] [--count N] [--quiet]";

fn options() -> Result<Options, String> {
    let mut options = Options {
        buffer: DEFAULT_BUFFER,
        count: 1,
        quiet: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--buffer" => {
                let v = value("--buffer")?;
                options.buffer = v.parse().map_err(|e| format!("--buffer {v}: {e}"))?;
            }
            "--count" => {
                let v = value("--count")?;
                options.count = v.parse().map_err(|e| format!("--count {v}: {e}"))?;
                if options.count == 0 {
                    return Err("--count must be at least 1".into());
                }
            }
            "--quiet" => options.quiet = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("gateway: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(options: &Options) -> io::Result<bool> {
    let table: Arc<[Resource]> = resources().into();
    let localhost = SocketAddr::from(([127, 0, 0, 1], 0));

    let requests_listener = TcpListener::bind(localhost)?;
    let path_listener = TcpListener::bind(localhost)?;
    let downstream_listener = TcpListener::bind(localhost)?;
    let provider_addr = requests_listener.local_addr()?;
    let path_addr = path_listener.local_addr()?;
    let downstream_addr = downstream_listener.local_addr()?;
    let stop = Arc::new(AtomicBool::new(false));

    let provider_thread = {
        let (table, stop) = (Arc::clone(&table), Arc::clone(&stop));
        thread::spawn(move || provider(&requests_listener, path_addr, &table, &stop))
    };
    let downstream_thread = {
        let table = Arc::clone(&table);
        thread::spawn(move || downstream(&downstream_listener, &table))
    };
    let (events_tx, events) = mpsc::channel();
    let acceptor = {
        let (tx, stop) = (events_tx.clone(), Arc::clone(&stop));
        thread::spawn(move || {
            for conn in path_listener.incoming() {
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Ok(conn) = conn
                    && tx.send(Ev::Path(conn)).is_err()
                {
                    return;
                }
            }
        })
    };

    let downstream_conn = TcpStream::connect(downstream_addr)?;
    let mut gateway = Gateway {
        provider: provider_addr,
        events,
        events_tx,
        requests: None,
        generation: 0,
        watcher: None,
        downstream: BufWriter::with_capacity(1 << 16, downstream_conn),
        buf: vec![0u8; options.buffer],
        next_channel: 1,
    };

    println!(
        "gateway: provider {provider_addr}, paths {path_addr}, downstream {downstream_addr}; \
         buffer {} bytes, {} resources x {} rounds, at most {MAX_RETRIES} retries",
        options.buffer,
        table.len(),
        options.count
    );

    let mut tally = [0u64; Outcome::ALL.len()];
    let (mut unexpected, mut asks, mut path_bytes, mut forwarded) = (0u64, 0u64, 0u64, 0u64);
    let started = Instant::now();
    for round in 1..=options.count {
        for (index, resource) in table.iter().enumerate() {
            let report = gateway.exchange(index, resource);
            let (want, want_asks) = resource.expected(options.buffer);
            let ok = report.outcome == want && report.asks == want_asks;
            let slot = Outcome::ALL
                .iter()
                .position(|o| *o == report.outcome)
                .unwrap_or(0);
            tally[slot] += 1;
            asks += u64::from(report.asks);
            path_bytes += report.bytes as u64;
            if report.outcome.forwarded() {
                forwarded += 1;
            }
            if !ok {
                unexpected += 1;
            }
            if !options.quiet || (!ok && unexpected <= MAX_REPORTED as u64) {
                let verdict = if ok {
                    String::from("ok")
                } else {
                    format!("UNEXPECTED, want {} in {want_asks} asks", want.name())
                };
                let detail = if report.detail.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", report.detail)
                };
                let bytes = if report.outcome == Outcome::TooLarge {
                    format!(">{}", report.bytes)
                } else {
                    report.bytes.to_string()
                };
                println!(
                    "{round:>6} {:<22} {:<18} {bytes:>9} B {:>9.3} ms  asks {}  {verdict}{detail}",
                    resource.uri,
                    report.outcome.name(),
                    report.elapsed.as_secs_f64() * 1e3,
                    report.asks,
                );
            }
        }
    }
    let elapsed = started.elapsed();

    // Shut down: downstream first (it reports), then /requests, then paths.
    gateway.downstream.flush()?;
    gateway.downstream.get_ref().shutdown(Shutdown::Write)?;
    stop.store(true, Ordering::SeqCst);
    gateway.requests_ended()?;
    let _ = TcpStream::connect(path_addr); // wakes the acceptor
    let checked = downstream_thread
        .join()
        .map_err(|_| io::Error::other("downstream panicked"))??;
    provider_thread
        .join()
        .map_err(|_| io::Error::other("provider panicked"))??;
    acceptor
        .join()
        .map_err(|_| io::Error::other("acceptor panicked"))?;

    for mismatch in checked.mismatches.iter().take(MAX_REPORTED) {
        println!("downstream MISMATCH: {mismatch}");
    }
    let downstream_ok = checked.mismatches.is_empty() && checked.frames == forwarded;
    let exchanges = options.count * table.len() as u64;
    let outcomes = Outcome::ALL
        .iter()
        .zip(tally)
        .filter(|&(o, n)| n > 0 || *o != Outcome::Failed)
        .map(|(o, n)| format!("{} {n}", o.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let mb = path_bytes as f64 / 1e6;
    println!(
        "summary: {exchanges} exchanges, {} as expected, {unexpected} unexpected; {outcomes}; \
         {asks} asks; downstream checked {}/{forwarded} frames ({:.1} MB) byte for byte{}; \
         {mb:.1} MB read from paths in {:.2} s = {:.1} MB/s",
        exchanges - unexpected,
        checked.frames,
        checked.bytes as f64 / 1e6,
        if downstream_ok { "" } else { ", MISMATCHES" },
        elapsed.as_secs_f64(),
        mb / elapsed.as_secs_f64(),
    );
    Ok(unexpected == 0 && downstream_ok)
}
