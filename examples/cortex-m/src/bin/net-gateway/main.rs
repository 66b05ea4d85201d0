//! The network gateway: an embedded gateway on TCP/IP. Its client asks it for resources; it asks
//! the provider over TCP with the crate's ask framing, runs the crate's `Exchange` (answered, not
//! served, unanswered and asked again, too large, malformed), and relays each path to its client
//! as it arrives with the crate's cut-through `relay`, validated chunk by chunk in a 2 KiB buffer
//! whatever the frame's size: a clean close downstream only after a whole valid frame, a reset
//! (smoltcp `abort`) otherwise.
//!
//! smoltcp 0.12 over the LM3S6965's Ethernet MAC (`eth.rs`, the only `unsafe` of this firmware
//! besides the stack painting of `stack.rs`), static IPv4 10.0.2.15/24, every buffer in a static.
//! Driven by `cargo run --release --example gateway -- --mcu-net` under QEMU's user-mode network,
//! isolated (`restrict=on`: the guest reaches nothing but the forwarded channels); see README.md.
//!
//! ```text
//! client   → gateway  10.0.2.15:7000 (host connects in): per exchange
//!                     index u32 | length u32 | the ask (kind 3 | {"uri":…}); index 0xFFFF_FFFF
//!                     with length 0 ends the run.
//! gateway  → provider 10.0.2.100:7100 (/requests; the firmware connects out, reopened when it
//!                     ends): per ask  channel u32 | length u32 | encode_ask_view(the client's ask)
//! provider → gateway  10.0.2.15:7001 (a path; the provider connects in, one per path):
//!                     channel u32 | the message | FIN (clean close) or RST (abrupt end)
//! gateway  → client   10.0.2.15:7002 (the client connects in, one connection per attempt):
//!                     index u32 | the frame's bytes as relayed | FIN (a whole valid frame, or
//!                     nothing: not served) or RST (abort: the client must ask again)
//! ```
//!
//! Big-endian `u32`s, as in the host gateway (`examples/gateway.rs`).

#![no_std]
#![no_main]

mod eth;
mod net;
#[path = "../uart-relay/stack.rs"]
mod stack;

use core::cell::RefCell;
use core::ptr::addr_of;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use embedded_io::{Read, Write};
use panic_semihosting as _;
use smoltcp::iface::{Config, Interface, SocketHandle, SocketSet, SocketStorage};
use smoltcp::socket::tcp::{self, State};
use smoltcp::wire::{EthernetAddress, IpAddress, IpCidr, IpEndpoint};
use static_cell::{ConstStaticCell, StaticCell};

use diverge_frame::Tag;
use diverge_frame::exchange::{Downstream, Event, Exchange, RelayEnd, Relayed, Status, StreamPath};

use eth::{Eth, FRAME_BUFFER};
use net::{DownError, Net, SocketReader, SocketWriter, UpError, elapsed_ms, now};

/// The relay's chunk buffer: it bounds a read, not the frame.
const BUFFER: usize = 2048;
/// The largest message relayed: 4 MiB, sixty-four times the RAM (the host gateway's default).
const CAP: usize = 4 << 20;
/// How often an unanswered exchange is asked again.
const MAX_RETRIES: u32 = 2;
/// Silence on an open path that aborts it.
const IDLE_MS: u32 = 500;
/// A downstream client that takes nothing for this long fails the attempt.
const STALL_MS: u32 = 10_000;
/// Longest wait for a path (or the end of /requests) after an ask, for /requests to open, or
/// for the client's waiting downstream connection, past which the run fails (six times as long
/// for the client's first connection); and for the path socket to close, past which it is reset.
const WAIT_MS: u64 = 10_000;
/// Longest wait for the client's next ask: the host may take a while between exchanges.
const CLIENT_MS: u32 = 120_000;

/// The firmware's address, and its ports.
const ADDRESS: [u8; 4] = [10, 0, 2, 15];
const PREFIX: u8 = 24;
const CLIENT_PORT: u16 = 7000;
const PATH_PORT: u16 = 7001;
const DOWN_PORT: u16 = 7002;
/// The provider's /requests: QEMU's `guestfwd` channel, the one address the firmware aims at.
const PROVIDER: ([u8; 4], u16) = ([10, 0, 2, 100], 7100);
/// First local port of the firmware's outgoing connections (one new port per connection).
const FIRST_LOCAL_PORT: u16 = 49_152;

/// An ask from the client, or to the provider, at most this long (the header included).
const ASK_MAX: usize = 1024;
/// Paths at least this long count towards the throughput figure.
const BULK: usize = 64 << 10;
/// The client's index that ends the run.
const END_OF_RUN: u32 = u32::MAX;

/// Socket buffers. The path's receive buffer is the window the provider may send ahead; each
/// downstream transmit buffer what the relay may have forwarded but the client not yet acked.
const PATH_RX: usize = 8192;
const DOWN_TX: usize = 8192;
/// The small directions: the client's asks in, /requests out, and what is never read.
const SMALL: usize = 256;
const ASK_TX: usize = 1024;

static PATH_RX_BUF: ConstStaticCell<[u8; PATH_RX]> = ConstStaticCell::new([0; PATH_RX]);
static PATH_TX_BUF: ConstStaticCell<[u8; SMALL]> = ConstStaticCell::new([0; SMALL]);
static DOWN_TX_BUF: ConstStaticCell<[[u8; DOWN_TX]; 2]> = ConstStaticCell::new([[0; DOWN_TX]; 2]);
static DOWN_RX_BUF: ConstStaticCell<[[u8; SMALL]; 2]> = ConstStaticCell::new([[0; SMALL]; 2]);
static CLIENT_RX_BUF: ConstStaticCell<[u8; ASK_MAX]> = ConstStaticCell::new([0; ASK_MAX]);
static CLIENT_TX_BUF: ConstStaticCell<[u8; SMALL]> = ConstStaticCell::new([0; SMALL]);
static REQUESTS_RX_BUF: ConstStaticCell<[u8; SMALL]> = ConstStaticCell::new([0; SMALL]);
static REQUESTS_TX_BUF: ConstStaticCell<[u8; ASK_TX]> = ConstStaticCell::new([0; ASK_TX]);
/// smoltcp's socket slots: `SocketStorage::EMPTY` is not all zeros, so it is written at start
/// (into `.bss`) rather than carried in `.data` (2 KiB of flash).
static SOCKETS: StaticCell<[SocketStorage<'static>; 6]> = StaticCell::new();
static ETH_RX: ConstStaticCell<[u8; FRAME_BUFFER]> = ConstStaticCell::new([0; FRAME_BUFFER]);
static ETH_TX: ConstStaticCell<[u8; FRAME_BUFFER]> = ConstStaticCell::new([0; FRAME_BUFFER]);
static RELAY_BUF: ConstStaticCell<[u8; BUFFER]> = ConstStaticCell::new([0; BUFFER]);
static ASK_IN: ConstStaticCell<[u8; ASK_MAX]> = ConstStaticCell::new([0; ASK_MAX]);
static ASK_OUT: ConstStaticCell<[u8; ASK_MAX]> = ConstStaticCell::new([0; ASK_MAX]);

/// Bytes of socket buffers, for the READY line.
const SOCKET_BUFFERS: usize =
    PATH_RX + SMALL + 2 * (DOWN_TX + SMALL) + ASK_MAX + SMALL + SMALL + ASK_TX;

/// The sockets, by role.
struct Handles {
    client: SocketHandle,
    requests: SocketHandle,
    path: SocketHandle,
    down: [SocketHandle; 2],
}

/// Totals for the last line.
#[derive(Default)]
struct Totals {
    exchanges: u32,
    paths: u32,
    bytes_in: usize,
    bytes_out: usize,
    relay_ms: u64,
    /// Bytes in and milliseconds of the paths of 64 KiB or more: the throughput, without the
    /// short paths' connection set-up and the stalled path's idle timeout.
    bulk_bytes: usize,
    bulk_ms: u64,
    relay_stack: usize,
    next_local_port: u16,
}

fn tcp_socket(rx: &'static mut [u8], tx: &'static mut [u8]) -> tcp::Socket<'static> {
    let mut socket = tcp::Socket::new(tcp::SocketBuffer::new(rx), tcp::SocketBuffer::new(tx));
    // Acknowledge at once: the link is lossless and the host's side waits for window updates.
    socket.set_ack_delay(None);
    socket.set_nagle_enabled(false);
    socket
}

#[entry]
fn main() -> ! {
    let Some(peripherals) = cortex_m::Peripherals::take() else {
        fail("peripherals taken twice")
    };
    net::start_clock(peripherals.SYST);
    let (mut eth, mac) = Eth::init(ETH_RX.take(), ETH_TX.take());

    let mut config = Config::new(EthernetAddress(mac).into());
    config.random_seed = 0x5eed_d1fe;
    let mut iface = Interface::new(config, &mut eth, now());
    iface.update_ip_addrs(|addrs| {
        let [a, b, c, d] = ADDRESS;
        let _ = addrs.push(IpCidr::new(IpAddress::v4(a, b, c, d), PREFIX));
    });
    // No route: the firmware reaches its own /24 only, where QEMU forwards one address.

    let mut sockets = SocketSet::new(&mut SOCKETS.init_with(|| [SocketStorage::EMPTY; 6])[..]);
    let [down_rx0, down_rx1] = DOWN_RX_BUF.take();
    let [down_tx0, down_tx1] = DOWN_TX_BUF.take();
    let handles = Handles {
        client: sockets.add(tcp_socket(CLIENT_RX_BUF.take(), CLIENT_TX_BUF.take())),
        requests: sockets.add(tcp_socket(REQUESTS_RX_BUF.take(), REQUESTS_TX_BUF.take())),
        path: sockets.add(tcp_socket(PATH_RX_BUF.take(), PATH_TX_BUF.take())),
        down: [
            sockets.add(tcp_socket(down_rx0, down_tx0)),
            sockets.add(tcp_socket(down_rx1, down_tx1)),
        ],
    };
    let net = RefCell::new(Net {
        iface,
        eth,
        sockets,
        // Two downstream listeners: while one carries an attempt (or closes), the other takes
        // the client's next connection, which QEMU accepts on the host side before the guest
        // does (a connection to a port with no listener would be reset).
        listeners: [(handles.down[0], DOWN_PORT), (handles.down[1], DOWN_PORT)],
    });
    {
        let mut n = net.borrow_mut();
        let _ = n.tcp(handles.client).listen(CLIENT_PORT);
        let _ = n.tcp(handles.path).listen(PATH_PORT);
        n.poll(); // arms the downstream listeners
    }
    let buf = RELAY_BUF.take();
    let (ask_in, ask_out) = (ASK_IN.take(), ASK_OUT.take());
    hprintln!(
        "READY net-gateway: ip {}.{}.{}.{}/{}, buffer {} B, cap {} B, idle timeout {} ms, \
         relay state {} B, socket buffers {} B, RAM {} B (data + bss), flash {} B",
        ADDRESS[0],
        ADDRESS[1],
        ADDRESS[2],
        ADDRESS[3],
        PREFIX,
        BUFFER,
        CAP,
        IDLE_MS,
        size_of::<StreamPath>(),
        SOCKET_BUFFERS,
        ram(),
        flash()
    );

    // The client connects once and sends its asks on that one connection.
    if !net
        .borrow_mut()
        .wait_until(WAIT_MS * 6, |n| n.tcp(handles.client).may_recv())
    {
        fail("no client within 60 s");
    }
    let mut totals = Totals {
        next_local_port: FIRST_LOCAL_PORT,
        ..Totals::default()
    };
    let mut channel = 0u32;
    loop {
        let mut client = SocketReader::new(&net, handles.client, CLIENT_MS);
        let mut head = [0u8; 8];
        if client.read_exact(&mut head).is_err() {
            fail("the client connection ended without the end of the run");
        }
        let index = u32::from_be_bytes([head[0], head[1], head[2], head[3]]);
        let len = u32::from_be_bytes([head[4], head[5], head[6], head[7]]) as usize;
        if index == END_OF_RUN {
            break;
        }
        let Some(ask) = ask_in.get_mut(..len) else {
            fail("an ask longer than the ask buffer")
        };
        if client.read_exact(ask).is_err() {
            fail("the client connection ended in an ask");
        }
        let (out_head, out_body) = ask_out.split_at_mut(8);
        let Some(n) = forward_ask(ask, out_body) else {
            fail("the client sent an ask that is not one, or one too long")
        };
        channel = channel.wrapping_add(1);
        out_head[..4].copy_from_slice(&channel.to_be_bytes());
        out_head[4..].copy_from_slice(&(n as u32).to_be_bytes());
        totals.exchanges += 1;
        exchange(
            &net,
            &handles,
            index,
            channel,
            &ask_out[..8 + n],
            buf,
            &mut totals,
        );
    }

    // The end: /requests closed, the run's end on the client's waiting downstream connection.
    end_of_run(&net, &handles);
    hprintln!(
        "done: {} exchanges, {} paths, {} B in, {} B out in {} ms of paths; paths of 64 KiB or \
         more: {} B in {} ms = {} kB/s; relay stack {} B; stack high-water {} B; frames dropped {}",
        totals.exchanges,
        totals.paths,
        totals.bytes_in,
        totals.bytes_out,
        totals.relay_ms,
        totals.bulk_bytes,
        totals.bulk_ms,
        totals.bulk_bytes as u64 / totals.bulk_ms.max(1),
        totals.relay_stack,
        stack::high_water(),
        net.borrow().eth.dropped
    );
    debug::exit(debug::EXIT_SUCCESS);
    loop {}
}

/// The client's ask, checked (`exchange::decode_ask`) and re-emitted canonically for the
/// provider (`exchange::encode_ask_view`) into `out`; its length, or `None` if it is not an ask or
/// does not fit.
#[cfg(not(feature = "net-baseline"))]
fn forward_ask(ask: &[u8], out: &mut [u8]) -> Option<usize> {
    let request = diverge_frame::exchange::decode_ask(ask).ok()?;
    diverge_frame::exchange::encode_ask_view(&request, out).ok()
}

/// The `net-baseline` build (flash by difference): the ask copied as it came.
#[cfg(feature = "net-baseline")]
fn forward_ask(ask: &[u8], out: &mut [u8]) -> Option<usize> {
    out.get_mut(..ask.len())?.copy_from_slice(ask);
    Some(ask.len())
}

/// The path relayed cut-through by the crate's `relay`: each chunk validated before it is
/// forwarded, at most [`CAP`] bytes.
#[cfg(not(feature = "net-baseline"))]
fn run_relay(
    up: &mut SocketReader<'_>,
    down: &mut SocketWriter<'_>,
    buf: &mut [u8],
) -> Relayed<UpError, DownError> {
    diverge_frame::exchange::relay(up, down, buf, Some(CAP))
}

/// The `net-baseline` build (flash by difference): the path copied without a look at its bytes.
#[cfg(feature = "net-baseline")]
fn run_relay(
    up: &mut SocketReader<'_>,
    down: &mut SocketWriter<'_>,
    buf: &mut [u8],
) -> Relayed<UpError, DownError> {
    let mut forwarded = 0;
    let end = loop {
        match up.read(buf) {
            Ok(0) if forwarded == 0 => break RelayEnd::NotServed,
            Ok(0) => break RelayEnd::Answered(Tag::Result),
            Ok(n) => match down.write_all(&buf[..n]) {
                Ok(()) => forwarded += n,
                Err(e) => break RelayEnd::Downstream(e),
            },
            Err(e) => break RelayEnd::Unanswered(e),
        }
    };
    Relayed::new(end, forwarded)
}

/// How one exchange ended, for its report line.
#[derive(Clone, Copy)]
enum Outcome {
    Answered(Tag),
    NotServed,
    TooLarge,
    Malformed,
    GaveUp,
    /// Downstream failed: no answer to wait for, and no point asking again.
    Downstream,
}

/// Runs one exchange for the client's resource `index` to its end; one line per path and one
/// for the exchange.
fn exchange(
    net: &RefCell<Net>,
    h: &Handles,
    index: u32,
    channel: u32,
    ask: &[u8],
    buf: &mut [u8],
    totals: &mut Totals,
) {
    let mut exchange = Exchange::new(MAX_RETRIES);
    let mut answer = None;
    let mut reset_down = 0u32;
    // Each pass moves the exchange on or fails the run; the retry bound keeps them few.
    let outcome = 'passes: {
        for _ in 0..8 * (MAX_RETRIES + 1) {
            let step = match exchange.status() {
                Status::Ready | Status::AskAgain => {
                    rearm_path(net, h);
                    if send_ask(net, h, ask, &mut totals.next_local_port) {
                        exchange.on(Event::AskSent)
                    } else {
                        continue; // /requests ended under the ask: a new one on the next pass
                    }
                }
                Status::Asked => {
                    let mut requests_ended = false;
                    let opened = net.borrow_mut().wait_until(WAIT_MS, |n| {
                        // The provider closed or reset it: CLOSE-WAIT or CLOSED.
                        requests_ended = n.tcp(h.requests).state() != State::Established;
                        requests_ended || path_opened(n, h)
                    });
                    if !opened {
                        fail("no path and /requests still open 10 s after an ask");
                    }
                    if path_opened(&mut net.borrow_mut(), h) {
                        exchange.on(Event::PathOpened)
                    } else {
                        // Read to its end before it is reopened: nothing comes on /requests.
                        net.borrow_mut().tcp(h.requests).close();
                        exchange.on(Event::RequestsEnded)
                    }
                }
                Status::PathOpen => {
                    totals.paths += 1;
                    let (end, counts) = relay_path(net, h, index, channel, buf, totals);
                    report(totals.paths, &end, counts);
                    if end.downstream() == Downstream::Abort {
                        reset_down += 1;
                    }
                    let Some(event) = end.event() else {
                        break 'passes match end {
                            RelayEnd::TooLarge(_) => Outcome::TooLarge,
                            _ => Outcome::Downstream,
                        };
                    };
                    if let RelayEnd::Answered(tag) = end {
                        answer = Some(tag);
                    }
                    exchange.on(event)
                }
                Status::Answered => match answer {
                    Some(tag) => break 'passes Outcome::Answered(tag),
                    None => fail("answered without a frame"),
                },
                Status::Malformed => break 'passes Outcome::Malformed,
                Status::NotServed => break 'passes Outcome::NotServed,
                Status::GaveUp => break 'passes Outcome::GaveUp,
                // A status this gateway does not know (`Status` may grow).
                _ => fail("a status the gateway does not know"),
            };
            if step.is_err() {
                fail("an event the exchange did not expect");
            }
        }
        fail("an exchange that did not end")
    };
    let name = match outcome {
        Outcome::Answered(Tag::Result) => "answered (result)",
        Outcome::Answered(Tag::Error) => "answered (error)",
        Outcome::NotServed => "not served",
        Outcome::TooLarge => "too large",
        Outcome::Malformed => "malformed frame",
        Outcome::GaveUp => "gave up",
        Outcome::Downstream => "downstream failed",
    };
    hprintln!(
        "exchange {}: {}; index {}; asks {}; reset downstream {}",
        totals.exchanges,
        name,
        index,
        exchange.asks(),
        reset_down
    );
}

/// Whether the provider opened the path: the socket, listening since before the ask, took a
/// connection. A short path may already be over (CLOSE-WAIT after its FIN, CLOSED after a
/// reset) with its bytes still unread.
fn path_opened(n: &mut Net, h: &Handles) -> bool {
    !matches!(n.tcp(h.path).state(), State::Listen | State::SynReceived)
}

/// Makes the path socket listen again once its last connection is over and read (a closed
/// socket keeps unread bytes readable; listening would drop them).
fn rearm_path(net: &RefCell<Net>, h: &Handles) {
    let mut n = net.borrow_mut();
    let done = n.wait_until(WAIT_MS, |n| {
        let path = n.tcp(h.path);
        matches!(
            path.state(),
            State::Closed | State::TimeWait | State::Listen
        )
    });
    if !done {
        // A provider that never acknowledges our FIN: give up on it.
        n.tcp(h.path).abort();
        n.poll();
    }
    let path = n.tcp(h.path);
    if !path.is_listening() {
        let _ = path.listen(PATH_PORT);
    }
}

/// Sends the ask on /requests, connecting it first if the last one ended; whether it went out.
fn send_ask(net: &RefCell<Net>, h: &Handles, ask: &[u8], next_port: &mut u16) -> bool {
    {
        let mut n = net.borrow_mut();
        let state = n.tcp(h.requests).state();
        if !matches!(state, State::Established) {
            // Ended (or never opened): wait for our close to finish, then connect anew from a
            // new local port.
            let closed = n.wait_until(WAIT_MS / 10, |n| {
                matches!(n.tcp(h.requests).state(), State::Closed | State::TimeWait)
            });
            if !closed {
                n.tcp(h.requests).abort();
                n.poll();
            }
            let (ip, port) = PROVIDER;
            let remote = IpEndpoint::new(IpAddress::v4(ip[0], ip[1], ip[2], ip[3]), port);
            let local = *next_port;
            *next_port = if local == u16::MAX {
                FIRST_LOCAL_PORT
            } else {
                local + 1
            };
            let Net { iface, sockets, .. } = &mut *n;
            let socket = sockets.get_mut::<tcp::Socket>(h.requests);
            if socket.state() == State::TimeWait {
                socket.abort();
            }
            if socket.connect(iface.context(), remote, local).is_err() {
                fail("cannot connect /requests");
            }
            let up = n.wait_until(WAIT_MS, |n| {
                !matches!(
                    n.tcp(h.requests).state(),
                    State::SynSent | State::SynReceived
                )
            });
            if !up || n.tcp(h.requests).state() != State::Established {
                fail("the provider's /requests did not open (is QEMU's guestfwd there?)");
            }
        }
    }
    let mut requests = SocketWriter::new(net, h.requests, STALL_MS);
    let sent = requests.write_all(ask).and_then(|()| requests.flush());
    if sent.is_err() {
        net.borrow_mut().tcp(h.requests).abort();
    }
    sent.is_ok()
}

/// The byte counts of one path, for its report line: in, out, the relay's stack, the ms it
/// took.
type Counts = [usize; 4];

/// Relays the open path to a new downstream attempt: its channel first, then the message
/// through the crate's `relay`; ends both connections as the relay says.
fn relay_path(
    net: &RefCell<Net>,
    h: &Handles,
    index: u32,
    channel: u32,
    buf: &mut [u8],
    totals: &mut Totals,
) -> (RelayEnd<UpError, DownError>, Counts) {
    let started = now();
    let mut up = SocketReader::new(net, h.path, IDLE_MS);
    let mut head = [0u8; 4];
    let named = up.read_exact(&mut head);
    if matches!(named, Ok(())) && u32::from_be_bytes(head) != channel {
        fail("a path for another channel");
    }
    // The client's waiting connection carries this attempt.
    let Some(down_handle) = waiting_client(net, h) else {
        fail("no downstream client connection within 10 s")
    };
    let mut down = SocketWriter::new(net, down_handle, STALL_MS);
    let mut counts = [0; 4];
    let end = match named {
        // The path ended before it named its channel: the path of the one outstanding ask,
        // ended abruptly. Mirrored downstream all the same.
        Err(e) => match down.write_all(&index.to_be_bytes()) {
            Ok(()) => RelayEnd::Unanswered(match e {
                embedded_io::ReadExactError::Other(e) => e,
                embedded_io::ReadExactError::UnexpectedEof => UpError::Reset,
            }),
            Err(e) => RelayEnd::Downstream(e),
        },
        Ok(()) => match down.write_all(&index.to_be_bytes()) {
            Err(e) => RelayEnd::Downstream(e),
            Ok(()) => {
                up.bytes = 0;
                // The one use of the crate's relay API; its stack measured on its own.
                let mut relayed = None;
                let stack = stack::measure(&mut || {
                    relayed = Some(run_relay(&mut up, &mut down, buf));
                });
                totals.relay_stack = totals.relay_stack.max(stack);
                counts[2] = stack;
                match relayed {
                    Some(r) => {
                        counts[1] = r.forwarded();
                        r.into_end()
                    }
                    None => fail("the relay did not run"),
                }
            }
        },
    };
    counts[0] = up.bytes;
    // Downstream: a clean close after a valid frame (or nothing), else a reset once what was
    // forwarded has left (a reset drops what is still in the transmit buffer).
    match end.downstream() {
        Downstream::Close => net.borrow_mut().tcp(down_handle).close(),
        Downstream::Abort => {
            let _ = down.flush();
            net.borrow_mut().tcp(down_handle).abort();
        }
    }
    // Upstream: closed after its clean close; reset when the relay stopped mid-message or the
    // path went silent (after the provider's own reset this sends nothing: the socket is gone).
    match &end {
        RelayEnd::Answered(_) | RelayEnd::NotServed => net.borrow_mut().tcp(h.path).close(),
        _ => net.borrow_mut().tcp(h.path).abort(),
    }
    net.borrow_mut().poll();
    let ms = elapsed_ms(started);
    counts[3] = ms as usize;
    totals.bytes_in += counts[0];
    totals.bytes_out += counts[1];
    totals.relay_ms += ms;
    if counts[0] >= BULK {
        totals.bulk_bytes += counts[0];
        totals.bulk_ms += ms;
    }
    (end, counts)
}

/// The downstream connection the client opened and waits on (within 10 s).
fn waiting_client(net: &RefCell<Net>, h: &Handles) -> Option<SocketHandle> {
    let mut n = net.borrow_mut();
    let mut found = None;
    n.wait_until(WAIT_MS, |n| {
        found = h
            .down
            .iter()
            .copied()
            .find(|&d| n.tcp(d).state() == State::Established);
        found.is_some()
    });
    found
}

/// One line per path: outcome; message bytes in (read by the relay), out (forwarded); the
/// relay's state; the stack the relay call used; the milliseconds the path took.
fn report(path: u32, end: &RelayEnd<UpError, DownError>, counts: Counts) {
    hprintln!(
        "path {}: {}; in {} B; out {} B; state {} B; stack {} B; {} ms",
        path,
        PathOutcome(end),
        counts[0],
        counts[1],
        size_of::<StreamPath>(),
        counts[2],
        counts[3]
    );
}

/// A path's outcome as its report line names it.
struct PathOutcome<'a>(&'a RelayEnd<UpError, DownError>);

impl core::fmt::Display for PathOutcome<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0 {
            RelayEnd::Answered(Tag::Result) => f.write_str("answered (result)"),
            RelayEnd::Answered(Tag::Error) => f.write_str("answered (error)"),
            RelayEnd::NotServed => f.write_str("not served"),
            RelayEnd::Unanswered(e) => write!(f, "unanswered ({e})"),
            RelayEnd::Malformed(e) => write!(f, "malformed ({e})"),
            RelayEnd::TooLarge(e) => write!(f, "too large ({e})"),
            RelayEnd::Downstream(e) => write!(f, "downstream failed ({e})"),
            _ => f.write_str("other end"),
        }
    }
}

/// Closes /requests and tells the client's waiting downstream connection that the run is over.
fn end_of_run(net: &RefCell<Net>, h: &Handles) {
    net.borrow_mut().tcp(h.requests).close();
    let Some(down) = waiting_client(net, h) else {
        fail("no downstream client connection for the end of the run")
    };
    let mut w = SocketWriter::new(net, down, STALL_MS);
    if w.write_all(&END_OF_RUN.to_be_bytes())
        .and_then(|()| w.flush())
        .is_err()
    {
        fail("the end of the run did not reach the client");
    }
    let mut n = net.borrow_mut();
    n.tcp(down).close();
    n.tcp(h.client).close();
    // Every FIN out and acknowledged (or 1 s), so the host sees the clean ends.
    n.wait_until(WAIT_MS / 10, |n| {
        [down, h.client, h.requests].iter().all(|&s| {
            matches!(
                n.tcp(s).state(),
                State::Closed | State::TimeWait | State::FinWait2
            )
        })
    });
}

unsafe extern "C" {
    /// cortex-m-rt's `link.x`: the initialised data (its image in flash at `__sidata`) and the
    /// zeroed statics.
    static __sdata: u32;
    static __edata: u32;
    static __sidata: u32;
    static __sbss: u32;
    static __ebss: u32;
}

/// RAM of the statics: data + bss (the stack comes on top).
fn ram() -> usize {
    let data = addr_of!(__edata) as usize - addr_of!(__sdata) as usize;
    let bss = addr_of!(__ebss) as usize - addr_of!(__sbss) as usize;
    data + bss
}

/// Flash of the whole image: everything up to the end of the initialised data's image (flash
/// starts at 0 on the LM3S6965).
fn flash() -> usize {
    let data = addr_of!(__edata) as usize - addr_of!(__sdata) as usize;
    addr_of!(__sidata) as usize + data
}

fn fail(why: &str) -> ! {
    hprintln!("FAIL {}", why);
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
