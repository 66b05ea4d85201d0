//! RFC 1662 (PPP in HDLC-like framing) on the serial lines, as embedded-io adapters: one bit of
//! state, no buffer.
//!
//! `0x7E` and `0x7D` in a message are sent as `0x7D, byte ^ 0x20`; a flag `0x7E` ends the
//! message (the clean close); `0x7D 0x7E` aborts it (RFC 1662 §4.2: "an escape followed by the
//! flag aborts a frame"), the reset of a serial line.

use crate::uart::{IdleClock, LineError, TICK_MS, Uart};

/// The flag: ends a message.
pub const FLAG: u8 = 0x7E;
/// The escape: the next byte is `byte ^ 0x20`; before a flag, the abort.
pub const ESCAPE: u8 = 0x7D;

/// How a message ended on the line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The flag: a clean close.
    Flag,
    /// The escape then the flag: an abort.
    Abort,
}

/// Why a message on UART0 ended abruptly: the relay's `Unanswered` cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpError {
    /// The host sent the abort sequence (upstream was reset).
    Aborted,
    /// Silence in the middle of a message for longer than the bound, in ms.
    IdleTimeout(u32),
    /// A receive error on the line (overrun, break, parity, framing: DR bits 8..11).
    Line(LineError),
}

impl core::fmt::Display for UpError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::Aborted => f.write_str("abort"),
            Self::IdleTimeout(ms) => write!(f, "idle timeout {ms} ms"),
            Self::Line(e) => write!(f, "line error {:#x}", e.0),
        }
    }
}

impl core::error::Error for UpError {}

impl embedded_io::Error for UpError {
    fn kind(&self) -> embedded_io::ErrorKind {
        match self {
            Self::Aborted => embedded_io::ErrorKind::ConnectionReset,
            Self::IdleTimeout(_) => embedded_io::ErrorKind::TimedOut,
            Self::Line(_) => embedded_io::ErrorKind::InvalidData,
        }
    }
}

/// UART0's message bytes, unstuffed: `Ok(0)` at the flag, `Err` at the abort, at a line error
/// or after `idle_ticks` ticks of silence.
pub struct Unstuff<'a> {
    uart: &'a mut Uart,
    clock: &'a mut IdleClock,
    idle_ticks: u32,
    escaped: bool,
    end: Option<End>,
    /// A line error met after some bytes were taken: the next read's.
    pending: Option<LineError>,
    /// Message bytes handed out (unstuffed).
    pub bytes: usize,
}

impl<'a> Unstuff<'a> {
    pub fn new(uart: &'a mut Uart, clock: &'a mut IdleClock, idle_ticks: u32) -> Self {
        Self {
            uart,
            clock,
            idle_ticks,
            escaped: false,
            end: None,
            pending: None,
            bytes: 0,
        }
    }

    /// How the message ended on the line, once it did.
    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The next line byte, waiting at most `ticks` ticks of silence.
    fn next(uart: &mut Uart, clock: &mut IdleClock, ticks: u32) -> Result<u8, UpError> {
        // A byte waiting: no clock to start (SysTick is a device access under QEMU, as slow
        // as a UART one).
        if let Some(byte) = uart.try_read() {
            return byte.map_err(UpError::Line);
        }
        clock.restart();
        let mut silent = 0;
        loop {
            if let Some(byte) = uart.try_read() {
                return byte.map_err(UpError::Line);
            }
            if clock.ticked() {
                silent += 1;
                if silent >= ticks {
                    return Err(UpError::IdleTimeout(ticks * TICK_MS));
                }
            }
        }
    }

    /// The next byte between messages (a command), waiting at most the idle bound.
    pub fn command(&mut self) -> Result<u8, UpError> {
        Self::next(self.uart, self.clock, self.idle_ticks)
    }

    /// Reads and drops the rest of the message up to the host's flag or abort (after a relay
    /// that stopped reading mid-message), waiting at most `ticks` ticks of silence.
    pub fn drain(&mut self, ticks: u32) -> Result<(End, usize), UpError> {
        let mut dropped = 0;
        while self.end.is_none() {
            let byte = Self::next(self.uart, self.clock, ticks)?;
            dropped += 1;
            self.line_byte(byte);
        }
        let end = self.end.unwrap_or(End::Abort);
        Ok((end, dropped))
    }

    /// One line byte: the message byte it stands for, if any.
    fn line_byte(&mut self, byte: u8) -> Option<u8> {
        match (self.escaped, byte) {
            (escaped, FLAG) => {
                self.escaped = false;
                self.end = Some(if escaped { End::Abort } else { End::Flag });
                None
            }
            (false, ESCAPE) => {
                self.escaped = true;
                None
            }
            (true, byte) => {
                self.escaped = false;
                Some(byte ^ 0x20)
            }
            (false, byte) => Some(byte),
        }
    }
}

impl embedded_io::ErrorType for Unstuff<'_> {
    type Error = UpError;
}

impl embedded_io::Read for Unstuff<'_> {
    /// Waits for the first message byte (or the end), then takes what the FIFO holds, up to
    /// `buf`'s length. An end after some bytes is reported by the next call.
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, UpError> {
        if let Some(e) = self.pending.take() {
            return Err(UpError::Line(e));
        }
        let mut n = 0;
        while n < buf.len() {
            match self.end {
                Some(End::Flag) => return Ok(n),
                Some(End::Abort) if n == 0 => return Err(UpError::Aborted),
                Some(End::Abort) => return Ok(n),
                None => {}
            }
            let byte = if n == 0 {
                Self::next(self.uart, self.clock, self.idle_ticks)?
            } else {
                match self.uart.try_read() {
                    Some(Ok(byte)) => byte,
                    Some(Err(e)) => {
                        self.pending = Some(e);
                        return Ok(n);
                    }
                    None => return Ok(n),
                }
            };
            if let Some(byte) = self.line_byte(byte)
                && let Some(slot) = buf.get_mut(n)
            {
                *slot = byte;
                n += 1;
                self.bytes += 1;
            }
        }
        Ok(n)
    }
}

/// UART1's message bytes, stuffed; [`close`](Self::close) and [`abort`](Self::abort) end the
/// message. Never fails: the UART blocks instead.
pub struct Stuff<'a> {
    uart: &'a mut Uart,
    /// Line bytes written (stuffed, the end included).
    pub line_bytes: usize,
}

impl<'a> Stuff<'a> {
    pub fn new(uart: &'a mut Uart) -> Self {
        Self {
            uart,
            line_bytes: 0,
        }
    }

    fn put(&mut self, byte: u8) {
        self.uart.write(byte);
        self.line_bytes += 1;
    }

    /// Ends the message with the flag: the clean close.
    pub fn close(&mut self) {
        self.put(FLAG);
        self.uart.flush();
    }

    /// Ends the message with the abort sequence: the reset.
    pub fn abort(&mut self) {
        self.put(ESCAPE);
        self.put(FLAG);
        self.uart.flush();
    }
}

impl embedded_io::ErrorType for Stuff<'_> {
    type Error = core::convert::Infallible;
}

impl embedded_io::Write for Stuff<'_> {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Self::Error> {
        for &byte in buf {
            if byte == FLAG || byte == ESCAPE {
                self.put(ESCAPE);
                self.put(byte ^ 0x20);
            } else {
                self.put(byte);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        self.uart.flush();
        Ok(())
    }
}
