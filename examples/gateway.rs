//! A gateway between a provider and a downstream client, on loopback TCP:
//! every way a read-resource exchange can end, checked end to end.
//!
//! ```text
//! cargo run --release --example gateway [-- --buffer BYTES] [--cap BYTES] [--count N] [--quiet]
//! cargo run --release --example gateway -- --mcu
//! cargo run --release --example gateway -- --mcu-net [--count N] [--quiet]
//! ```
//!
//! Three threads besides the gateway (all sockets on 127.0.0.1, ports picked
//! by the OS):
//!
//! * the **provider** answers asks for fourteen resources: text with escapes
//!   and non-ASCII, a 1 MiB text, base64 blobs, a 2 MiB blob, a not-found
//!   error (`-32602`), an internal error (`-32603`), a clean close with no
//!   message, an abrupt reset on the first ask (answered on the retry),
//!   `/requests` closed before the path opens on the first ask (answered on
//!   the retry), a resource that always resets (the gateway gives up), an
//!   8 MiB text (larger than the gateway's cap), two malformed frames, and a
//!   1 MiB text that turns invalid after 600 000 good bytes;
//! * the **gateway** (the main thread) asks for each resource, drives an
//!   [`Exchange`] (at most [`MAX_RETRIES`] retries) and relays each path
//!   **cut-through** with a [`StreamPath`]: it reads the path into one
//!   fixed buffer, at most `--buffer` bytes a read, has the chunk validated
//!   and forwards it downstream at once, so a frame of any size up to the
//!   cap passes through a buffer of any size. When the path ends, the
//!   relay's verdict ([`RelayEnd::downstream`]) closes the downstream
//!   connection cleanly (a whole valid frame, or nothing: not served) or
//!   resets it (the frame turned out invalid, upstream ended abruptly, the
//!   cap was passed);
//! * the **downstream** client reads every relayed attempt to its end and
//!   checks it: a clean close must carry the provider's frame byte for
//!   byte (or nothing), a reset must carry a prefix of it that a
//!   [`FrameValidator`] accepts (what the gateway forwarded before it gave
//!   up), and it counts what it saw per resource.
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
//! downstream       gateway → client, one connection per path attempt, the
//!                  path mirrored as it arrives:
//!                  resource index u32 | the frame's bytes, forwarded chunk by chunk | close
//!                  FIN = a whole valid frame (no bytes after the index: not served);
//!                  RST (SO_LINGER 0) = aborted: the client drops what it got.
//!                  Index 0xFFFF_FFFF then FIN: the run is over.
//! ```
//!
//! One line is printed per exchange (round, resource, outcome, bytes read
//! from the path, time, asks) and a summary at the end, with the gateway's
//! memory per path (its buffer and a [`StreamPath`]); the exit code is 1 if
//! any outcome, ask count or downstream attempt differs from what the
//! scenario expects.
//!
//! `--buffer BYTES` sets the gateway's chunk buffer (default 64 KiB; try
//! `--buffer 4096`), `--cap BYTES` the largest message it relays (default
//! 4 MiB); outcomes that depend on them are computed from them. Sizes take
//! a `K` or `M` suffix (KiB, MiB). `--count N` repeats the whole scenario N
//! times, `--quiet` prints only unexpected exchanges and the summary.
//!
//! `--mcu` has an emulated Cortex-M3 relay the paths instead (QEMU, the
//! `uart-relay` firmware of `examples/cortex-m`, over two UARTs; its
//! buffer and cap are the firmware's, the large cases scaled down):
//! see `gateway/mcu.rs`.
//!
//! `--mcu-net` has the emulated Cortex-M3 be the gateway itself, on TCP/IP
//! (the `net-gateway` firmware of `examples/cortex-m`, smoltcp over the
//! board's Ethernet under QEMU's isolated user-mode network): it takes the
//! client's asks, asks the provider, runs the exchange and relays each path,
//! at full size, with a path that stalls besides; this program plays the
//! client, the provider and the downstream client: see `gateway/net.rs`.

#![allow(clippy::indexing_slicing)]

#[path = "gateway/mcu.rs"]
mod mcu;
#[path = "gateway/net.rs"]
mod net;

use std::io::{self, ErrorKind, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use base64::Engine as _;
use diverge_frame::exchange::{
    Downstream, Event, Exchange, RelayEnd, Status, StreamPath, ask_encoder, decode_ask,
};
use diverge_frame::stream::FrameValidator;
use diverge_frame::{BodyErrorKind, Frame, FrameError, Tag};
use rmcp::ErrorData;
use rmcp::model::{ErrorCode, ReadResourceResult, ResourceContents};

/// How often the gateway asks again after an unanswered exchange.
const MAX_RETRIES: u32 = 2;
/// The gateway's chunk buffer unless `--buffer` says otherwise: 64 KiB, a
/// fraction of the frames it relays (up to 4 MiB, the default cap).
const DEFAULT_BUFFER: usize = 64 << 10;
/// The largest message the gateway relays unless `--cap` says otherwise: 4 MiB.
const DEFAULT_CAP: usize = 4 << 20;
/// Longest wait for any socket or event; nothing in the demo should come near it.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of the message the provider writes before a reset.
const PARTIAL: usize = 64;
/// Good bytes before the byte that makes `docs://turns-bad` invalid: more
/// than 512 KiB.
const GOOD_BYTES: usize = 600_000;
/// The resource index that tells the downstream client the run is over.
const END_OF_RUN: u32 = u32::MAX;
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
    /// First ask: part of the message, then silence until the gateway hangs
    /// up (`--mcu`: the MCU's idle timeout). The retry: the message.
    StallOnce,
}

/// How an exchange ended, as the gateway sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Outcome {
    /// Answered with a valid result frame (relayed, closed cleanly downstream).
    Result,
    /// Answered with a valid error frame (relayed, closed cleanly downstream).
    Error,
    /// Clean close with no message (closed cleanly downstream, no bytes).
    NotServed,
    /// The message passed the cap (reset downstream).
    TooLarge,
    /// Answered with bytes that are not a valid frame (reset downstream).
    Malformed,
    /// Unanswered more often than `MAX_RETRIES` allows (every attempt reset
    /// downstream).
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

    /// Whether the exchange ends with a whole frame closed cleanly downstream.
    const fn forwarded(self) -> bool {
        matches!(self, Self::Result | Self::Error)
    }

    /// Whether the exchange's last attempt is reset downstream.
    const fn refused(self) -> bool {
        matches!(self, Self::TooLarge | Self::Malformed)
    }
}

/// One resource the provider serves, and what the gateway must make of it.
struct Resource {
    uri: &'static str,
    serve: Serve,
    /// The message on the path (a real frame, or deliberately not one).
    message: Vec<u8>,
    /// What the message is, if it fits the cap.
    kind: Outcome,
}

/// What one resource must give in one exchange.
#[derive(Clone, Copy, Debug)]
struct Want {
    outcome: Outcome,
    /// A second outcome just as right: which of the cap and a bad byte the
    /// relay meets first can depend on where the reads cut the path.
    or: Option<Outcome>,
    asks: u32,
    /// Path attempts the client sees reset.
    aborted: u32,
}

impl Want {
    fn accepts(&self, outcome: Outcome) -> bool {
        outcome == self.outcome || self.or == Some(outcome)
    }

    fn name(&self) -> String {
        match self.or {
            Some(or) => format!("{} or {}", self.outcome.name(), or.name()),
            None => self.outcome.name().into(),
        }
    }
}

impl Resource {
    /// What this resource must give with a `buffer`-byte chunk buffer and a
    /// `cap`-byte cap.
    fn expected(&self, buffer: usize, cap: usize) -> Want {
        let partial = PARTIAL.min(self.message.len() / 2);
        let (outcome, or) = self.whole(buffer, cap);
        let refused = u32::from(outcome.refused());
        let (outcome, or, asks, aborted) = match self.serve {
            Serve::Nothing => (Outcome::NotServed, None, 1, 0),
            Serve::ResetOnce | Serve::ResetAlways | Serve::StallOnce if partial > cap => {
                (Outcome::TooLarge, None, 1, 1)
            }
            Serve::ResetAlways => (Outcome::GaveUp, None, MAX_RETRIES + 1, MAX_RETRIES + 1),
            Serve::ResetOnce | Serve::StallOnce => (outcome, or, 2, 1 + refused),
            Serve::DropRequestsOnce => (outcome, or, 2, refused),
            Serve::Message => (outcome, or, 1, refused),
        };
        Want {
            outcome,
            or,
            asks,
            aborted,
        }
    }

    /// The outcome of the whole message relayed under `cap`.
    fn whole(&self, buffer: usize, cap: usize) -> (Outcome, Option<Outcome>) {
        let len = self.message.len();
        if len <= cap {
            return (self.kind, None);
        }
        if self.kind != Outcome::Malformed {
            return (Outcome::TooLarge, None);
        }
        // Malformed and longer than the cap: the relay stops at whichever it
        // meets first, the chunk that passes the cap (checked first) or the
        // one holding the byte that decides the error.
        let decided_at = match Frame::decode(&self.message) {
            Err(FrameError::Body(e)) if e.kind() == BodyErrorKind::Eof => len,
            Err(FrameError::Body(e)) => e.offset(),
            Err(_) | Ok(_) => 0,
        };
        if decided_at >= cap {
            (Outcome::TooLarge, None)
        } else if decided_at.saturating_add(buffer) <= cap {
            (Outcome::Malformed, None)
        } else {
            (Outcome::Malformed, Some(Outcome::TooLarge))
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

/// A 1 MiB text frame whose first line-number digit past [`GOOD_BYTES`]
/// is replaced by a raw control character: invalid JSON inside the string.
fn turns_bad(uri: &str) -> Vec<u8> {
    let mut frame = result_frame(vec![text(uri, long_text(1 << 20))]);
    let at = (GOOD_BYTES..frame.len())
        .find(|&i| frame[i].is_ascii_digit())
        .expect("a line number past GOOD_BYTES");
    frame[at] = 0x01;
    frame
}

/// Bytes that look random enough not to compress into a pattern.
fn noise(len: usize) -> Vec<u8> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x.to_le_bytes()[3]
        })
        .collect()
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
            // 1.5 MiB of bytes: a 2 MiB base64 blob.
            "blob://large",
            Serve::Message,
            result_frame(vec![
                ResourceContents::blob(base64(&noise(3 << 19)), "blob://large")
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
            // A valid frame, twice the default cap.
            "docs://huge",
            Serve::Message,
            result_frame(vec![text("docs://huge", long_text(8 << 20))]),
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
        r(
            "docs://turns-bad",
            Serve::Message,
            turns_bad("docs://turns-bad"),
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

/// Ends a connection abruptly: with `SO_LINGER` 0, the close sends a reset.
fn reset(stream: TcpStream) -> io::Result<()> {
    socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO))?;
    drop(stream);
    Ok(())
}

/// The provider: serves asks until the gateway hangs up `/requests` for good. `settle` runs
/// before each reset of a path (`--mcu-net`: until QEMU read what came before it; see
/// `gateway/net.rs`).
fn provider(
    requests: &TcpListener,
    path_addr: SocketAddr,
    table: &[Resource],
    stop: &AtomicBool,
    settle: fn(&TcpStream),
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
            // The kind byte and the request JSON, checked as the reference does.
            let request = decode_ask(&ask).map_err(io::Error::other)?;
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
                Serve::ResetOnce | Serve::StallOnce => first,
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
            // A gateway that refuses the message (invalid, or past its cap)
            // stops reading and resets: that write error is part of the
            // scenario.
            let _ = path.write_all(&out);
            if reset_now && resource.serve == Serve::StallOnce {
                // Silent until the gateway hangs up.
                path.set_read_timeout(Some(TIMEOUT * 6))?;
                let _ = path.read(&mut [0u8; 1]);
            } else if reset_now {
                settle(&path);
                reset(path)?;
            } else {
                drop(path); // FIN: the clean close
            }
        }
    }
}

// -------------------------------------------------------------- downstream

/// What the downstream client saw of one resource's attempts.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Seen {
    /// Clean closes carrying the provider's frame, byte for byte.
    frames: u64,
    /// Clean closes with no bytes after the index: not served.
    empty: u64,
    /// Resets, whatever came before them.
    aborted: u64,
}

/// What the downstream client checked.
struct Checked {
    seen: Vec<Seen>,
    frame_bytes: u64,
    aborted_bytes: u64,
    mismatches: Vec<String>,
}

/// The downstream client: reads every attempt the gateway relays to its
/// end and checks it against the provider's bytes, until the gateway says
/// the run is over.
fn downstream(listener: &TcpListener, table: &[Resource]) -> io::Result<Checked> {
    let mut checked = Checked {
        seen: vec![Seen::default(); table.len()],
        frame_bytes: 0,
        aborted_bytes: 0,
        mismatches: Vec::new(),
    };
    let mut got = Vec::new();
    loop {
        // The gateway relays one attempt at a time, in order.
        let (mut conn, _) = listener.accept()?;
        conn.set_read_timeout(Some(TIMEOUT * 6))?;
        let mut head = [0u8; 4];
        if let Err(e) = conn.read_exact(&mut head) {
            let m = format!("an attempt that ended before naming its resource ({e})");
            checked.mismatches.push(m);
            continue;
        }
        let index = u32::from_be_bytes(head);
        if index == END_OF_RUN {
            return Ok(checked);
        }
        let entry = usize::try_from(index)
            .ok()
            .and_then(|i| table.get(i).zip(checked.seen.get_mut(i)));
        let Some((r, seen)) = entry else {
            let m = format!("an attempt for unknown resource #{index}");
            checked.mismatches.push(m);
            continue;
        };
        got.clear();
        match conn.read_to_end(&mut got) {
            // FIN: an answer the client may use.
            Ok(_) if got.is_empty() => seen.empty += 1,
            Ok(_) if got == r.message => {
                seen.frames += 1;
                checked.frame_bytes += got.len() as u64;
            }
            Ok(n) => checked.mismatches.push(format!(
                "{}: a clean close after {n} bytes that are not the provider's frame",
                r.uri
            )),
            // RST: not an answer. What came before it must still be bytes
            // the gateway had validated: a valid prefix of the frame.
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {
                seen.aborted += 1;
                checked.aborted_bytes += got.len() as u64;
                let prefix = r.message.starts_with(&got);
                if !prefix || FrameValidator::new().feed(&got).is_err() {
                    checked.mismatches.push(format!(
                        "{}: a reset after {} bytes that are not a valid prefix of the frame",
                        r.uri,
                        got.len()
                    ));
                }
            }
            Err(e) => return Err(e),
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
    asks: u32,
    elapsed: Duration,
    notes: Notes,
}

/// What the attempts of one exchange did.
#[derive(Default)]
struct Notes {
    /// Bytes read from the paths (the channel not counted).
    read: usize,
    /// Bytes forwarded downstream.
    relayed: usize,
    /// Attempts reset downstream.
    aborted: u32,
    detail: Vec<String>,
}

struct Gateway {
    provider: SocketAddr,
    events: Receiver<Ev>,
    events_tx: Sender<Ev>,
    requests: Option<TcpStream>,
    generation: u64,
    /// The thread that tells when the current `/requests` ends.
    watcher: Option<JoinHandle<()>>,
    downstream: SocketAddr,
    /// The chunk buffer: every read of a path goes here, whatever the
    /// frame's size.
    buf: Vec<u8>,
    cap: usize,
    next_channel: u32,
    /// `--mcu`: the emulated MCU that relays the paths.
    mcu: Option<mcu::Mcu>,
}

/// How one path went through the relay.
struct Relayed {
    end: RelayEnd<io::Error, io::Error>,
    /// Bytes read from the path.
    read: usize,
    /// Bytes forwarded downstream.
    forwarded: usize,
}

/// Relays one path cut-through with the push API: each read chunk is
/// validated, then forwarded at once; the first chunk refused (an invalid
/// frame, the cap passed) is not forwarded and ends the relay.
fn relay(up: &mut TcpStream, down: &mut TcpStream, buf: &mut [u8], cap: usize) -> Relayed {
    let mut path = StreamPath::with_cap(cap);
    let (mut read, mut forwarded) = (0, 0);
    let end = loop {
        // Bounded: every pass reads at least one byte, the cap bounds the
        // bytes accepted, and a silent peer times out.
        let n = match up.read(buf) {
            Ok(0) => break path.close().widen(),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            // The loop stops at the first refused chunk, so this end is
            // unanswered (`path.abort(e)` would say the same).
            Err(e) => break RelayEnd::Unanswered(e),
        };
        read += n;
        let chunk = &buf[..n];
        if let Err(refused) = path.push(chunk) {
            break refused.into();
        }
        if let Err(e) = down.write_all(chunk) {
            break RelayEnd::Downstream(e);
        }
        forwarded += n;
    };
    Relayed {
        end,
        read,
        forwarded,
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
        // channel u32 | length u32 | the ask: kind 3, then the request JSON
        // (what serde_json writes for rmcp's params), written in place.
        let mut ask = vec![0u8; 8 + 1 + 16 + 6 * uri.len()];
        let (head, body) = ask.split_at_mut(8);
        let n = ask_encoder(body)
            .and_then(|request| request.uri(uri))
            .and_then(|request| request.finish())
            .map_err(io::Error::other)?;
        let len = u32::try_from(n).map_err(io::Error::other)?;
        head[..4].copy_from_slice(&channel.to_be_bytes());
        head[4..].copy_from_slice(&len.to_be_bytes());
        ask.truncate(8 + n);
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

    /// Opens the downstream connection for one path attempt of resource
    /// `index` and names the resource on it.
    fn open_downstream(&self, index: usize) -> io::Result<TcpStream> {
        let mut conn = TcpStream::connect(self.downstream)?;
        conn.set_nodelay(true)?;
        conn.set_write_timeout(Some(TIMEOUT))?;
        let index = u32::try_from(index).map_err(io::Error::other)?;
        conn.write_all(&index.to_be_bytes())?;
        Ok(conn)
    }

    /// Relays one open path (of ask number `ask`) to a new downstream connection and ends that
    /// connection as the relay says: `Ok` with the relay's end, or `Err`
    /// with why the demo itself failed.
    fn relay_path(
        &mut self,
        index: usize,
        ask: u32,
        mut up: TcpStream,
        notes: &mut Notes,
    ) -> Result<RelayEnd<io::Error, io::Error>, String> {
        let mut down = self
            .open_downstream(index)
            .map_err(|e| format!("downstream: {e}"))?;
        let relayed = match &mut self.mcu {
            Some(mcu) => mcu.relay(&mut up, &mut down)?,
            None => relay(&mut up, &mut down, &mut self.buf, self.cap),
        };
        // A refused frame leaves bytes unread: dropping the path resets it.
        drop(up);
        notes.read += relayed.read;
        notes.relayed += relayed.forwarded;
        let ended = match relayed.end.downstream() {
            Downstream::Close => down.shutdown(Shutdown::Write),
            Downstream::Abort => {
                notes.aborted += 1;
                let what = match &relayed.end {
                    RelayEnd::Unanswered(e) if e.kind() == ErrorKind::ConnectionReset => {
                        "path reset".into()
                    }
                    RelayEnd::Unanswered(e) => format!("path ended abruptly ({e})"),
                    RelayEnd::Malformed(e) => e.to_string(),
                    RelayEnd::TooLarge(e) => e.to_string(),
                    RelayEnd::Downstream(e) => format!("downstream write failed ({e})"),
                    RelayEnd::Answered(_) | RelayEnd::NotServed => String::new(),
                    other => other.to_string(),
                };
                notes.detail.push(format!(
                    "ask {ask}: {what}; reset downstream after {} B",
                    relayed.forwarded
                ));
                reset(down)
            }
        };
        ended.map_err(|e| format!("downstream: {e}"))?;
        Ok(relayed.end)
    }

    /// Runs one exchange for resource `index` to its end.
    fn exchange(&mut self, index: usize, resource: &Resource) -> Report {
        let start = Instant::now();
        let channel = self.next_channel;
        self.next_channel = self.next_channel.wrapping_add(1);
        let mut exchange = Exchange::new(MAX_RETRIES);
        let mut path: Option<TcpStream> = None;
        let mut answer = None;
        let mut notes = Notes::default();
        let report = |outcome, exchange: &Exchange, mut notes: Notes, detail: Option<String>| {
            notes.detail.extend(detail);
            Report {
                outcome,
                asks: exchange.asks(),
                elapsed: start.elapsed(),
                notes,
            }
        };

        // Each pass moves the exchange on or fails it; the retry bound keeps
        // the passes few.
        for _ in 0..8 * (MAX_RETRIES + 1) {
            let step = match exchange.status() {
                Status::Ready | Status::AskAgain => {
                    if let Err(e) = self.drain() {
                        return report(Outcome::Failed, &exchange, notes, Some(e.to_string()));
                    }
                    match self.send_ask(channel, resource.uri) {
                        Ok(()) => exchange.on(Event::AskSent),
                        Err(e) => {
                            // Not sent: a fresh /requests on the next pass.
                            notes.detail.push(format!("ask not sent: {e}"));
                            if let Err(e) = self.requests_ended() {
                                let e = Some(e.to_string());
                                return report(Outcome::Failed, &exchange, notes, e);
                            }
                            continue;
                        }
                    }
                }
                Status::Asked => match self.events.recv_timeout(TIMEOUT) {
                    Ok(Ev::RequestsEnded(g)) if g == self.generation => {
                        if let Err(e) = self.requests_ended() {
                            let e = Some(e.to_string());
                            return report(Outcome::Failed, &exchange, notes, e);
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
                                notes.detail.push("a path for another channel".into());
                                continue;
                            }
                            // Ended before it even named its channel: the
                            // path of the one outstanding ask, ended
                            // abruptly. Mirrored downstream all the same.
                            Err(e) => {
                                let mirrored = self.open_downstream(index).and_then(reset);
                                if let Err(e) = mirrored {
                                    let e = Some(format!("downstream: {e}"));
                                    return report(Outcome::Failed, &exchange, notes, e);
                                }
                                notes.aborted += 1;
                                notes.detail.push(format!(
                                    "ask {}: path ended before its channel ({e}); \
                                     reset downstream",
                                    exchange.asks()
                                ));
                                exchange
                                    .on(Event::PathOpened)
                                    .and_then(|_| exchange.on(Event::PathAborted))
                            }
                        }
                    }
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                        let d = Some("no path and /requests still open after 10 s".into());
                        return report(Outcome::Failed, &exchange, notes, d);
                    }
                },
                Status::PathOpen => {
                    let Some(stream) = path.take() else {
                        return report(Outcome::Failed, &exchange, notes, Some("no path".into()));
                    };
                    let end = match self.relay_path(index, exchange.asks(), stream, &mut notes) {
                        Ok(end) => end,
                        Err(e) => return report(Outcome::Failed, &exchange, notes, Some(e)),
                    };
                    let Some(event) = end.event() else {
                        // Past the cap, or downstream failed: no answer to
                        // wait for, and no point asking again.
                        let outcome = match end {
                            RelayEnd::TooLarge(_) => Outcome::TooLarge,
                            _ => Outcome::Failed,
                        };
                        return report(outcome, &exchange, notes, None);
                    };
                    answer = match end {
                        RelayEnd::Answered(Tag::Result) => Some(Outcome::Result),
                        RelayEnd::Answered(Tag::Error) => Some(Outcome::Error),
                        _ => None,
                    };
                    exchange.on(event)
                }
                Status::Answered => {
                    let outcome = answer.unwrap_or(Outcome::Failed);
                    return report(outcome, &exchange, notes, None);
                }
                // Final: downstream was reset, so the client asks again;
                // this exchange does not.
                Status::Malformed => return report(Outcome::Malformed, &exchange, notes, None),
                Status::NotServed => return report(Outcome::NotServed, &exchange, notes, None),
                Status::GaveUp => return report(Outcome::GaveUp, &exchange, notes, None),
                // A status this gateway does not know (`Status` may grow).
                other => {
                    let note = Some(format!("unexpected status {other:?}"));
                    return report(Outcome::Failed, &exchange, notes, note);
                }
            };
            if let Err(e) = step {
                return report(Outcome::Failed, &exchange, notes, Some(e.to_string()));
            }
        }
        report(
            Outcome::Failed,
            &exchange,
            notes,
            Some("too many steps".into()),
        )
    }
}

// ------------------------------------------------------------------- tally

/// The run's counts, as the summary prints them.
#[derive(Default)]
struct Tally {
    /// Exchanges per outcome, in the order of [`Outcome::ALL`].
    outcomes: [u64; Outcome::ALL.len()],
    unexpected: u64,
    asks: u64,
    read: u64,
    relayed: u64,
}

impl Tally {
    /// Checks one exchange against what it must give, counts it and prints its line (under
    /// `quiet`, only the first unexpected ones).
    fn record(
        &mut self,
        round: u64,
        resource: &Resource,
        want: &Want,
        report: &Report,
        quiet: bool,
    ) {
        let ok = want.accepts(report.outcome)
            && report.asks == want.asks
            && report.notes.aborted == want.aborted;
        let slot = Outcome::ALL
            .iter()
            .position(|o| *o == report.outcome)
            .unwrap_or(0);
        self.outcomes[slot] += 1;
        self.asks += u64::from(report.asks);
        self.read += report.notes.read as u64;
        self.relayed += report.notes.relayed as u64;
        if !ok {
            self.unexpected += 1;
        }
        if !quiet || (!ok && self.unexpected <= MAX_REPORTED as u64) {
            let verdict = if ok {
                String::from("ok")
            } else {
                format!(
                    "UNEXPECTED, want {} in {} asks, {} reset downstream",
                    want.name(),
                    want.asks,
                    want.aborted
                )
            };
            let detail = if report.notes.detail.is_empty() {
                String::new()
            } else {
                format!(" ({})", report.notes.detail.join("; "))
            };
            println!(
                "{round:>6} {:<22} {:<18} {:>9} B {:>9.3} ms  asks {}  {verdict}{detail}",
                resource.uri,
                report.outcome.name(),
                report.notes.read,
                report.elapsed.as_secs_f64() * 1e3,
                report.asks,
            );
        }
    }
}

/// Checks what the downstream client saw of each resource over all rounds against what it
/// must have seen, and prints the mismatches and the summary line; whether downstream saw
/// exactly what it must. `state` is the relay state per path (`StreamPath` where it runs).
fn summary(
    options: &Options,
    table: &[Resource],
    wants: &[Want],
    checked: Checked,
    tally: &Tally,
    elapsed: Duration,
    state: usize,
) -> bool {
    // What the client must have seen of each resource over all rounds.
    let mut mismatches = checked.mismatches;
    for ((r, want), seen) in table.iter().zip(wants).zip(&checked.seen) {
        let per_round = Seen {
            frames: u64::from(want.outcome.forwarded()),
            empty: u64::from(want.outcome == Outcome::NotServed),
            aborted: u64::from(want.aborted),
        };
        let n = options.count;
        let total = Seen {
            frames: per_round.frames * n,
            empty: per_round.empty * n,
            aborted: per_round.aborted * n,
        };
        if *seen != total {
            mismatches.push(format!(
                "{}: {} frames, {} not served, {} reset; want {}, {}, {}",
                r.uri,
                seen.frames,
                seen.empty,
                seen.aborted,
                total.frames,
                total.empty,
                total.aborted
            ));
        }
    }
    for mismatch in mismatches.iter().take(MAX_REPORTED) {
        println!("downstream MISMATCH: {mismatch}");
    }
    let downstream_ok = mismatches.is_empty();
    let sum = |f: fn(&Seen) -> u64| checked.seen.iter().map(f).sum::<u64>();
    let exchanges = options.count * table.len() as u64;
    let outcomes = Outcome::ALL
        .iter()
        .zip(tally.outcomes)
        .filter(|&(o, n)| n > 0 || *o != Outcome::Failed)
        .map(|(o, n)| format!("{} {n}", o.name()))
        .collect::<Vec<_>>()
        .join(", ");
    let secs = elapsed.as_secs_f64();
    println!(
        "summary: {exchanges} exchanges, {} as expected, {} unexpected; {outcomes}; \
         {} asks; downstream checked {} frames ({:.1} MB) byte for byte, {} not served, \
         {} resets ({:.1} MB of valid prefixes, dropped){}; {:.1} MB read from paths, \
         {:.1} MB relayed in {secs:.2} s = {:.1} MB/s; gateway RAM per path: {} B buffer + \
         {state} B StreamPath = {} B",
        exchanges - tally.unexpected,
        tally.unexpected,
        tally.asks,
        sum(|s| s.frames),
        checked.frame_bytes as f64 / 1e6,
        sum(|s| s.empty),
        sum(|s| s.aborted),
        checked.aborted_bytes as f64 / 1e6,
        if downstream_ok { "" } else { ", MISMATCHES" },
        tally.read as f64 / 1e6,
        tally.relayed as f64 / 1e6,
        tally.relayed as f64 / 1e6 / secs,
        options.buffer,
        options.buffer + state,
    );
    downstream_ok
}

// -------------------------------------------------------------------- main

struct Options {
    buffer: usize,
    cap: usize,
    count: u64,
    quiet: bool,
    mcu: bool,
    mcu_net: bool,
}

const USAGE: &str = "usage: gateway [--buffer BYTES] [--cap BYTES] [--count N] [--quiet] \
                     [--mcu | --mcu-net]\n  \
                     BYTES: a number, optionally with K (KiB) or M (MiB), at least 1\n  \
                     --mcu: the paths relayed by the Cortex-M3 firmware under QEMU \
                     (its buffer and cap)\n  \
                     --mcu-net: the Cortex-M3 firmware is the gateway, on QEMU's isolated \
                     network (its buffer and cap)";

/// A size in bytes: `4096`, `64K`, `4M`.
fn size(name: &str, v: &str) -> Result<usize, String> {
    let (digits, unit) = match v.strip_suffix(['K', 'k']) {
        Some(digits) => (digits, 1 << 10),
        None => match v.strip_suffix(['M', 'm']) {
            Some(digits) => (digits, 1 << 20),
            None => (v, 1),
        },
    };
    let n: usize = digits
        .parse()
        .map_err(|e| format!("{name} {v}: {e}\n{USAGE}"))?;
    match n.checked_mul(unit) {
        Some(0) => Err(format!("{name} must be at least 1 byte\n{USAGE}")),
        Some(n) => Ok(n),
        None => Err(format!("{name} {v}: too large\n{USAGE}")),
    }
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        buffer: DEFAULT_BUFFER,
        cap: DEFAULT_CAP,
        count: 1,
        quiet: false,
        mcu: false,
        mcu_net: false,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| format!("{name} needs a value\n{USAGE}"))
        };
        match arg.as_str() {
            "--buffer" => options.buffer = size("--buffer", &value("--buffer")?)?,
            "--cap" => options.cap = size("--cap", &value("--cap")?)?,
            "--count" => {
                let v = value("--count")?;
                options.count = v
                    .parse()
                    .map_err(|e| format!("--count {v}: {e}\n{USAGE}"))?;
                if options.count == 0 {
                    return Err(format!("--count must be at least 1\n{USAGE}"));
                }
            }
            "--quiet" => options.quiet = true,
            "--mcu" => options.mcu = true,
            "--mcu-net" => options.mcu_net = true,
            "-h" | "--help" => return Err(USAGE.into()),
            other => return Err(format!("unknown argument {other}\n{USAGE}")),
        }
    }
    if options.mcu && options.mcu_net {
        return Err(format!("--mcu and --mcu-net exclude each other\n{USAGE}"));
    }
    Ok(options)
}

fn main() -> ExitCode {
    // `--mcu-net`'s channel to the provider: QEMU runs this program as `--pipe ADDR` for each
    // connection the firmware opens (see `gateway/net.rs`).
    let mut args = std::env::args().skip(1);
    if let (Some("--pipe"), Some(addr)) = (args.next().as_deref(), args.next()) {
        return net::pipe(&addr);
    }
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
    if options.mcu_net {
        return net::run(options);
    }
    let mcu = options.mcu.then(mcu::Mcu::start).transpose()?;
    let options = &mcu
        .as_ref()
        .map_or(Options { ..*options }, |m| m.options(options));
    let table: Arc<[Resource]> = mcu.as_ref().map_or_else(resources, mcu::resources).into();
    let wants: Vec<Want> = table
        .iter()
        .map(|r| r.expected(options.buffer, options.cap))
        .collect();
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
        thread::spawn(move || provider(&requests_listener, path_addr, &table, &stop, |_| {}))
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

    let mut gateway = Gateway {
        provider: provider_addr,
        events,
        events_tx,
        requests: None,
        generation: 0,
        watcher: None,
        downstream: downstream_addr,
        buf: vec![0u8; options.buffer],
        cap: options.cap,
        next_channel: 1,
        mcu,
    };

    println!(
        "gateway: provider {provider_addr}, paths {path_addr}, downstream {downstream_addr}; \
         buffer {} bytes, cap {} bytes, {} resources x {} rounds, at most {MAX_RETRIES} retries",
        options.buffer,
        options.cap,
        table.len(),
        options.count
    );

    let mut tally = Tally::default();
    let started = Instant::now();
    for round in 1..=options.count {
        for (index, (resource, want)) in table.iter().zip(&wants).enumerate() {
            let report = gateway.exchange(index, resource);
            tally.record(round, resource, want, &report, options.quiet);
        }
    }
    let elapsed = started.elapsed();
    let mcu_ok = gateway.mcu.as_mut().map_or(Ok(()), mcu::Mcu::finish);
    if let Err(e) = &mcu_ok {
        println!("mcu: FAILED: {e}");
    }

    // Shut down: downstream first (it reports), then /requests, then paths.
    let mut end = TcpStream::connect(downstream_addr)?;
    end.write_all(&END_OF_RUN.to_be_bytes())?;
    end.shutdown(Shutdown::Write)?;
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

    let state = gateway
        .mcu
        .as_ref()
        .map_or(size_of::<StreamPath>(), mcu::Mcu::state);
    let downstream_ok = summary(options, &table, &wants, checked, &tally, elapsed, state);
    Ok(tally.unexpected == 0 && downstream_ok && mcu_ok.is_ok())
}
