//! `exchange::relay` between a scripted upstream and downstream, both chosen
//! by the fuzzer, judged by properties that do not restate the relay:
//!
//! ```text
//! byte 0      buffer size: 1 + byte (1..=256)
//! byte 1      cap: 0 = none, else (byte - 1) * 16 bytes
//! byte 2      downstream: bits 0-3 = most bytes per write - 1; bit 7 = it
//!             fails (with ErrorKind::BrokenPipe) once bytes 3-4 bytes
//!             were written
//! bytes 3-4   that failure point, little-endian
//! byte 5      upstream: bit 0 = it ends abruptly (ErrorKind::ConnectionReset)
//!             instead of closing cleanly; bits 1-7 = most bytes per read - 1
//! bytes 6..   the message
//! ```
//!
//! Shorter inputs are padded with zeros. The properties, for the end and
//! the count the relay returns:
//!
//! 1. downstream received exactly the first `forwarded` bytes of the
//!    message, and they are a prefix the validator accepts;
//! 2. each end is one the inputs allow (`Answered` only for a frame that
//!    `Frame::decode` accepts with that tag, forwarded whole, within the cap,
//!    cleanly closed; `Malformed` with `Frame::decode`'s error; `TooLarge`
//!    only past the cap; `Downstream` only at the failure point; …);
//! 3. when the transports and the cap allow the message through, the end is
//!    the one its bytes call for (`Answered`, `NotServed`, `Malformed` or
//!    `Unanswered`).

use diverge_frame::exchange::{RelayEnd, relay};
use diverge_frame::stream::FrameValidator;
use diverge_frame::{BodyErrorKind, Frame, FrameError};
use embedded_io::ErrorKind;

/// What the fuzzer chose.
struct Plan<'a> {
    buf: usize,
    cap: Option<usize>,
    write_max: usize,
    fail_at: Option<usize>,
    abrupt: bool,
    read_max: usize,
    message: &'a [u8],
}

impl<'a> Plan<'a> {
    fn of(data: &'a [u8]) -> Self {
        let byte = |i: usize| data.get(i).copied().unwrap_or(0);
        let fail = u16::from_le_bytes([byte(3), byte(4)]);
        Self {
            buf: 1 + usize::from(byte(0)),
            cap: byte(1).checked_sub(1).map(|c| usize::from(c) * 16),
            write_max: 1 + usize::from(byte(2) & 15),
            fail_at: (byte(2) & 0x80 != 0).then_some(usize::from(fail)),
            abrupt: byte(5) & 1 == 1,
            read_max: 1 + usize::from(byte(5) >> 1),
            message: data.get(6..).unwrap_or_default(),
        }
    }
}

/// An upstream path: the message in reads of at most `most` bytes, then a
/// clean close (`Ok(0)`) or, when `abrupt`, a reset. Blocking and async
/// (the `exchange` target reads it both ways).
pub(crate) struct Upstream<'a> {
    pub(crate) rest: &'a [u8],
    pub(crate) most: usize,
    pub(crate) abrupt: bool,
}

impl Upstream<'_> {
    fn next(&mut self, buf: &mut [u8]) -> Result<usize, ErrorKind> {
        if self.rest.is_empty() {
            return if self.abrupt {
                Err(ErrorKind::ConnectionReset)
            } else {
                Ok(0)
            };
        }
        let n = buf.len().min(self.most).min(self.rest.len());
        let (now, later) = self.rest.split_at(n);
        buf[..n].copy_from_slice(now);
        self.rest = later;
        Ok(n)
    }
}

impl embedded_io::ErrorType for Upstream<'_> {
    type Error = ErrorKind;
}

impl embedded_io::Read for Upstream<'_> {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, ErrorKind> {
        self.next(buf)
    }
}

impl embedded_io_async::Read for Upstream<'_> {
    async fn read(&mut self, buf: &mut [u8]) -> Result<usize, ErrorKind> {
        self.next(buf)
    }
}

struct Downstream {
    got: Vec<u8>,
    most: usize,
    fail_at: Option<usize>,
}

impl embedded_io::ErrorType for Downstream {
    type Error = ErrorKind;
}

impl embedded_io::Write for Downstream {
    fn write(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
        if buf.is_empty() {
            return Ok(0);
        }
        let room = match self.fail_at {
            Some(at) if self.got.len() >= at => return Err(ErrorKind::BrokenPipe),
            Some(at) => at - self.got.len(),
            None => usize::MAX,
        };
        let n = buf.len().min(self.most).min(room);
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> Result<(), ErrorKind> {
        Ok(())
    }
}

/// Whether `e` is the streaming path's one documented deviation from
/// `Frame::decode` (nesting past its stack).
fn too_deep(e: &FrameError) -> bool {
    matches!(e, FrameError::Body(b) if b.kind() == BodyErrorKind::StreamDepthExceeded)
}

/// Whether a fresh validator accepts `bytes` as the start of a frame.
fn prefix_ok(bytes: &[u8]) -> bool {
    FrameValidator::new().feed(bytes).is_ok()
}

/// The `relay` target.
pub fn relay_target(data: &[u8]) {
    let plan = Plan::of(data);
    let message = plan.message;
    let mut up = Upstream {
        rest: message,
        most: plan.read_max,
        abrupt: plan.abrupt,
    };
    let mut down = Downstream {
        got: Vec::new(),
        most: plan.write_max,
        fail_at: plan.fail_at,
    };
    let mut buf = vec![0u8; plan.buf];
    let relayed = relay(&mut up, &mut down, &mut buf, plan.cap);
    let (end, forwarded) = (*relayed.end(), relayed.forwarded());
    let len = message.len();
    let show = || {
        format!(
            "end {end:?}, forwarded {forwarded} of {len}; buf {}, cap {:?}, write_max {}, fail_at {:?}, abrupt {}, read_max {}; message {}",
            plan.buf,
            plan.cap,
            plan.write_max,
            plan.fail_at,
            plan.abrupt,
            plan.read_max,
            crate::hex(message)
        )
    };

    // 1. What went down is the message's start, and a valid one.
    assert_eq!(
        down.got.as_slice(),
        &message[..forwarded.min(len)],
        "{}",
        show()
    );
    assert!(forwarded <= len, "{}", show());
    assert!(
        prefix_ok(&down.got),
        "a prefix the validator refuses went down: {}",
        show()
    );

    // 2. The end is one the inputs allow.
    let too_large = plan.cap.is_some_and(|cap| len > cap);
    let fails_before_end = plan.fail_at.is_some_and(|at| at < len);
    let decoded = Frame::decode(message);
    match end {
        RelayEnd::Answered(tag) => {
            let ok = !plan.abrupt
                && !too_large
                && forwarded == len
                && decoded.as_ref().is_ok_and(|f| f.tag() == tag);
            assert!(ok, "answered against the inputs: {}", show());
        }
        RelayEnd::NotServed => {
            assert!(
                !plan.abrupt && len == 0,
                "not served against the inputs: {}",
                show()
            );
        }
        RelayEnd::Unanswered(e) => {
            assert_eq!(e, ErrorKind::ConnectionReset, "{}", show());
            let ok = plan.abrupt && !too_large && forwarded == len && prefix_ok(message);
            assert!(ok, "unanswered against the inputs: {}", show());
        }
        RelayEnd::Malformed(e) => {
            if !too_deep(&e) {
                assert_eq!(
                    decoded.err(),
                    Some(e),
                    "malformed with another error: {}",
                    show()
                );
            }
            assert!(forwarded < len || !plan.abrupt, "{}", show());
        }
        RelayEnd::TooLarge(_) => {
            let cap = plan.cap.unwrap_or(usize::MAX);
            assert!(
                too_large && forwarded <= cap,
                "too large against the inputs: {}",
                show()
            );
        }
        RelayEnd::Downstream(e) => {
            assert_eq!(e, ErrorKind::BrokenPipe, "{}", show());
            assert!(
                fails_before_end && Some(forwarded) == plan.fail_at,
                "downstream failed against the inputs: {}",
                show()
            );
        }
        // This writer never returns `Ok(0)` for bytes.
        other => panic!("unexpected end {other:?}: {}", show()),
    }

    // 3. With nothing in the way, the message's own end.
    if !too_large && !fails_before_end {
        // (`Frame::decode` never gives the streaming path's depth error.)
        if !matches!(&end, RelayEnd::Malformed(e) if too_deep(e)) {
            let want_ok = match (&decoded, plan.abrupt) {
                (_, false) if len == 0 => matches!(end, RelayEnd::NotServed),
                (Ok(f), false) => end == RelayEnd::Answered(f.tag()),
                (Err(e), false) => end == RelayEnd::Malformed(*e),
                (_, true) if prefix_ok(message) => matches!(end, RelayEnd::Unanswered(_)),
                (Err(e), true) => end == RelayEnd::Malformed(*e),
                (Ok(_), true) => false,
            };
            assert!(want_ok, "the message's own end was not given: {}", show());
        }
    }
}
