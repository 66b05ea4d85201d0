//! The network side of the gateway: smoltcp's interface over the MAC, a millisecond clock on
//! SysTick, and blocking `embedded_io` adapters over smoltcp's TCP sockets, so that the crate's
//! `relay` runs on them as it runs on a UART or a host socket.
//!
//! The adapters drive the interface themselves: a read that finds no data, or a write that finds
//! the transmit buffer full, polls the interface and then sleeps (`wfi`) until the next frame
//! or the next tick, so one loop serves every socket while one path is relayed. That loop is
//! the firmware's only thread; nothing runs in the interrupt handlers but a counter and an
//! acknowledgement.

use core::cell::RefCell;
use core::fmt;
use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m_rt::exception;
use smoltcp::iface::{Interface, PollResult, SocketHandle, SocketSet};
use smoltcp::socket::tcp::{self, RecvError, State};
use smoltcp::time::{Duration, Instant};

use crate::eth::Eth;

/// The core clock after reset: the 12 MHz internal oscillator (QEMU's SysTick counts it on the
/// host's clock: a millisecond of SysTick is a millisecond of wall time within a few per cent).
const SYSCLK_HZ: u32 = 12_000_000;

/// Milliseconds since the clock started, counted by the SysTick handler.
static MILLIS: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    MILLIS.fetch_add(1, Ordering::Relaxed);
}

/// Starts SysTick: one interrupt a millisecond, which also bounds every `wfi`.
pub fn start_clock(mut syst: SYST) {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(SYSCLK_HZ / 1000 - 1);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
}

/// The time on the firmware's clock.
pub fn now() -> Instant {
    Instant::from_millis(i64::from(MILLIS.load(Ordering::Relaxed)))
}

/// Milliseconds since `since`.
pub fn elapsed_ms(since: Instant) -> u64 {
    (now() - since).total_millis()
}

/// The interface, its device and its sockets.
pub struct Net {
    pub iface: Interface,
    pub eth: Eth,
    pub sockets: SocketSet<'static>,
    /// Listening sockets re-armed as soon as they are closed, with their port.
    pub listeners: [(SocketHandle, u16); 2],
}

impl Net {
    /// The TCP socket behind `handle`.
    pub fn tcp(&mut self, handle: SocketHandle) -> &mut tcp::Socket<'static> {
        self.sockets.get_mut::<tcp::Socket>(handle)
    }

    /// Polls the interface until smoltcp has nothing more to send at once (it sends at most one
    /// segment per socket per poll), then re-arms the closed listeners; whether anything
    /// happened to a socket.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        // Bounded: each pass sends at least one segment, and the windows are a few KiB.
        for _ in 0..16 {
            let t = now();
            if self.iface.poll(t, &mut self.eth, &mut self.sockets)
                == PollResult::SocketStateChanged
            {
                changed = true;
            }
            if self.iface.poll_delay(now(), &self.sockets) != Some(Duration::ZERO) {
                break;
            }
        }
        for (handle, port) in self.listeners {
            let socket = self.sockets.get_mut::<tcp::Socket>(handle);
            // CLOSED after an abort whose reset the poll above has sent, or TIME-WAIT after a
            // clean close (smoltcp would hold it 10 s): listening again drops what the client
            // wrote after the end, which nobody reads.
            if matches!(socket.state(), State::Closed | State::TimeWait) {
                let _ = socket.listen(port);
            }
        }
        changed
    }

    /// Polls; if nothing happened, sleeps until the next frame or the next millisecond tick.
    pub fn wait(&mut self) {
        if self.poll() {
            return;
        }
        cortex_m::interrupt::free(|_| {
            // With interrupts masked, a frame that arrives after this check still ends the
            // `wfi` (a pending interrupt wakes the core); its handler runs after the mask.
            if !self.eth.has_frame() {
                cortex_m::asm::wfi();
            }
        });
    }

    /// Polls and sleeps until `ready` holds or `ms` milliseconds passed; whether it held.
    pub fn wait_until(&mut self, ms: u64, mut ready: impl FnMut(&mut Self) -> bool) -> bool {
        let start = now();
        loop {
            if ready(self) {
                return true;
            }
            if elapsed_ms(start) >= ms {
                return false;
            }
            self.wait();
        }
    }
}

/// Why a read from a socket failed: the connection ended abruptly, or it stayed silent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpError {
    /// The peer reset the connection (or it was aborted) before a clean close.
    Reset,
    /// No byte for this many milliseconds: the firmware gives up on the path.
    IdleTimeout(u32),
}

impl fmt::Display for UpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Reset => f.write_str("abort"),
            Self::IdleTimeout(ms) => write!(f, "idle timeout {ms} ms"),
        }
    }
}

impl core::error::Error for UpError {}

impl embedded_io::Error for UpError {
    fn kind(&self) -> embedded_io::ErrorKind {
        match self {
            Self::Reset => embedded_io::ErrorKind::ConnectionReset,
            Self::IdleTimeout(_) => embedded_io::ErrorKind::TimedOut,
        }
    }
}

/// Reads a TCP socket: `Ok(0)` at the peer's clean close (its FIN, every byte read), an error
/// at a reset or after `idle_ms` of silence.
pub struct SocketReader<'n> {
    net: &'n RefCell<Net>,
    handle: SocketHandle,
    idle_ms: u32,
    /// Bytes read so far.
    pub bytes: usize,
}

impl<'n> SocketReader<'n> {
    pub fn new(net: &'n RefCell<Net>, handle: SocketHandle, idle_ms: u32) -> Self {
        Self {
            net,
            handle,
            idle_ms,
            bytes: 0,
        }
    }
}

impl embedded_io::ErrorType for SocketReader<'_> {
    type Error = UpError;
}

impl embedded_io::Read for SocketReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, UpError> {
        if buf.is_empty() {
            return Ok(0);
        }
        let start = now();
        let mut net = self.net.borrow_mut();
        loop {
            match net.tcp(self.handle).recv_slice(buf) {
                Ok(0) => {}
                Ok(n) => {
                    self.bytes += n;
                    return Ok(n);
                }
                // Every byte read and the FIN received: the clean close.
                Err(RecvError::Finished) => return Ok(0),
                // Closed without a FIN: a reset (the unread bytes were read first).
                Err(RecvError::InvalidState) => return Err(UpError::Reset),
            }
            if elapsed_ms(start) >= u64::from(self.idle_ms) {
                return Err(UpError::IdleTimeout(self.idle_ms));
            }
            net.wait();
        }
    }
}

/// Why a write to a socket failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DownError {
    /// The connection is no longer open for sending (the peer reset it).
    Closed,
    /// The peer took nothing for this many milliseconds.
    Stalled(u32),
}

impl fmt::Display for DownError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Closed => f.write_str("connection closed"),
            Self::Stalled(ms) => write!(f, "no progress for {ms} ms"),
        }
    }
}

impl core::error::Error for DownError {}

impl embedded_io::Error for DownError {
    fn kind(&self) -> embedded_io::ErrorKind {
        match self {
            Self::Closed => embedded_io::ErrorKind::NotConnected,
            Self::Stalled(_) => embedded_io::ErrorKind::TimedOut,
        }
    }
}

/// Writes a TCP socket through its transmit buffer; `flush` waits until the peer acknowledged
/// every byte. Fails after `stall_ms` without progress.
pub struct SocketWriter<'n> {
    net: &'n RefCell<Net>,
    handle: SocketHandle,
    stall_ms: u32,
}

impl<'n> SocketWriter<'n> {
    pub fn new(net: &'n RefCell<Net>, handle: SocketHandle, stall_ms: u32) -> Self {
        Self {
            net,
            handle,
            stall_ms,
        }
    }
}

impl embedded_io::ErrorType for SocketWriter<'_> {
    type Error = DownError;
}

impl embedded_io::Write for SocketWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> Result<usize, DownError> {
        if buf.is_empty() {
            return Ok(0);
        }
        let start = now();
        let mut net = self.net.borrow_mut();
        loop {
            match net.tcp(self.handle).send_slice(buf) {
                Ok(0) => {}
                Ok(n) => return Ok(n),
                Err(_) => return Err(DownError::Closed),
            }
            if elapsed_ms(start) >= u64::from(self.stall_ms) {
                return Err(DownError::Stalled(self.stall_ms));
            }
            net.wait();
        }
    }

    fn flush(&mut self) -> Result<(), DownError> {
        let (handle, stall_ms) = (self.handle, self.stall_ms);
        let mut net = self.net.borrow_mut();
        let mut open = true;
        let done = net.wait_until(u64::from(stall_ms), |net| {
            let socket = net.tcp(handle);
            open = socket.may_send();
            !open || socket.send_queue() == 0
        });
        match (done, open) {
            (true, true) => Ok(()),
            (true, false) => Err(DownError::Closed),
            (false, _) => Err(DownError::Stalled(stall_ms)),
        }
    }
}
