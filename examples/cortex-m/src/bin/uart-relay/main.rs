//! The UART relay: an embedded gateway for real. Read-resource frames come in on UART0 and go
//! out on UART1 through diverge-frame's cut-through [`relay`], validated chunk by chunk in a
//! 1 KiB buffer, whatever the frame's size; the downstream message is closed (the flag) only
//! after a whole valid frame and aborted otherwise.
//!
//! Driven by `cargo run --release --example gateway -- --mcu` (the host bridges TCP paths onto
//! the UARTs); see README.md for the serial framing and the report lines.
//!
//! Serial framing (the demo's, on UART0):
//!
//! ```text
//! UART0, host → MCU:  'P' | message, RFC 1662-stuffed | 0x7E (clean close) or 0x7D 0x7E (abort)
//!                     ... one per path, then 'Q': the run is over.
//! UART1, MCU → host:  message, RFC 1662-stuffed | 0x7E (a whole valid frame, or nothing: not
//!                     served) or 0x7D 0x7E (abort: the client must ask again)
//! ```

#![no_std]
#![no_main]

mod hdlc;
mod stack;
mod uart;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use panic_semihosting as _;

use diverge_frame::Tag;
use diverge_frame::exchange::{Downstream, RelayEnd, StreamPath, relay};

use hdlc::{Stuff, Unstuff, UpError};
use uart::{IdleClock, TICK_MS, Uart};

/// The relay's chunk buffer: it bounds a read, not the frame.
const BUFFER: usize = 1024;
/// The largest message relayed: 512 KiB, eight times the RAM.
const CAP: usize = 512 << 10;
/// Silence on an open path that aborts it: 50 ticks of 10 ms.
const IDLE_TICKS: u32 = 50;
/// Silence while draining a refused message up to the host's flag or abort: 10 s.
const DRAIN_TICKS: u32 = 1_000;
/// Silence between paths that ends the run as a failure (the host is gone): 60 s.
const COMMAND_TICKS: u32 = 6_000;
/// The path command and the end-of-run command, between messages on UART0.
const PATH: u8 = b'P';
const QUIT: u8 = b'Q';

#[entry]
fn main() -> ! {
    let Some(peripherals) = cortex_m::Peripherals::take() else {
        fail("peripherals taken twice")
    };
    let mut clock = IdleClock::new(peripherals.SYST);
    let (mut uart0, mut uart1) = Uart::init();
    let Some(buf) = cortex_m::singleton!(: [u8; BUFFER] = [0; BUFFER]) else {
        fail("buffer taken twice")
    };
    let state = size_of::<StreamPath>();
    hprintln!(
        "READY uart-relay: buffer {} B, cap {} B, idle timeout {} ms, relay state {} B",
        BUFFER,
        CAP,
        IDLE_TICKS * TICK_MS,
        state
    );

    let (mut paths, mut total_in, mut total_out, mut strays) = (0u32, 0usize, 0usize, 0u32);
    loop {
        let mut between = Unstuff::new(&mut uart0, &mut clock, COMMAND_TICKS);
        match between.command() {
            Ok(PATH) => {}
            Ok(QUIT) => break,
            Ok(_) => {
                strays += 1;
                continue;
            }
            Err(_) => fail("no command from the host for 60 s"),
        }
        paths += 1;
        let mut up = Unstuff::new(&mut uart0, &mut clock, IDLE_TICKS);
        let mut down = Stuff::new(&mut uart1);
        // The one use of the crate's relay API; its stack measured on its own.
        let mut relayed = None;
        let relay_stack =
            stack::measure(&mut || relayed = Some(relay(&mut up, &mut down, buf, Some(CAP))));
        let Some(relayed) = relayed else {
            fail("the relay did not run")
        };
        match relayed.end().downstream() {
            Downstream::Close => down.close(),
            Downstream::Abort => down.abort(),
        }
        // Malformed, TooLarge (and an idle timeout or a line error) leave upstream
        // mid-message: read it to the host's flag or abort, so the next path starts clean.
        let bytes_in = up.bytes;
        let drained = match up.end() {
            Some(_) => Ok(0),
            None => up.drain(DRAIN_TICKS).map(|(_, n)| n),
        };
        let Ok(drained) = drained else {
            fail("upstream neither closed nor aborted 10 s after the relay stopped")
        };
        total_in += bytes_in;
        total_out += relayed.forwarded();
        let counts = [bytes_in, relayed.forwarded(), drained, state, relay_stack];
        report(paths, relayed.end(), counts);
    }
    hprintln!(
        "done: {} paths, {} B in, {} B out, {} stray bytes; stack high-water {} B",
        paths,
        total_in,
        total_out,
        strays,
        stack::high_water()
    );
    debug::exit(if strays == 0 {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {}
}

/// One line per path: outcome; message bytes in (unstuffed, read by the relay), out
/// (forwarded), line bytes dropped while draining; the relay's state; the stack the relay call
/// used.
fn report(path: u32, end: &RelayEnd<UpError, core::convert::Infallible>, counts: [usize; 5]) {
    macro_rules! line {
        ($($outcome:tt)*) => {
            hprintln!(
                "path {}: {}; in {} B; out {} B; drained {} B; state {} B; stack {} B",
                path,
                format_args!($($outcome)*),
                counts[0],
                counts[1],
                counts[2],
                counts[3],
                counts[4]
            )
        };
    }
    match end {
        RelayEnd::Answered(Tag::Result) => line!("answered (result)"),
        RelayEnd::Answered(Tag::Error) => line!("answered (error)"),
        RelayEnd::NotServed => line!("not served"),
        RelayEnd::Unanswered(e) => line!("unanswered ({})", e),
        RelayEnd::Malformed(e) => line!("malformed ({})", e),
        RelayEnd::TooLarge(e) => line!("too large ({})", e),
        RelayEnd::Downstream(never) => match *never {},
        // `WriteZero` (the UART writer never returns `Ok(0)`) and any end
        // added later: this firmware cannot give them.
        _ => fail("unexpected relay end"),
    }
}

fn fail(why: &str) -> ! {
    hprintln!("FAIL {}", why);
    debug::exit(debug::EXIT_FAILURE);
    loop {}
}
