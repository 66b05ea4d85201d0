//! Cut-through: a path read and forwarded chunk by chunk, each chunk
//! validated before it goes on, in constant memory.
//!
//! The rule, its table and a relay loop are on [`StreamPath`].

use core::fmt;

use super::error::TooLarge;
use super::event::Event;
use crate::error::FrameError;
use crate::frame::Tag;
use crate::stream::FrameValidator;

/// What to do with the downstream path once a relay stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Downstream {
    /// Close it cleanly: it carried a whole valid frame, or nothing (not
    /// served).
    Close,
    /// End it abruptly (reset): what went down is not a frame, and the
    /// client must ask again.
    Abort,
}

/// How a cut-through relay of one path ended. `R` is the upstream
/// transport's error, `W` the downstream's; see [`StreamPath`] for what
/// each means and what to do downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RelayEnd<R = (), W = ()> {
    /// A valid frame was forwarded whole, then upstream closed cleanly.
    Answered(Tag),
    /// Upstream closed cleanly with no bytes.
    NotServed,
    /// Upstream ended abruptly.
    Unanswered(R),
    /// Upstream sent bytes that are not a valid frame: the error, as
    /// [`Frame::decode`](crate::Frame::decode) gives it for the bytes so
    /// far. The chunk that showed it was not forwarded.
    Malformed(FrameError),
    /// The message passed the cap; the chunk that passed it was not
    /// forwarded.
    TooLarge(TooLarge),
    /// Writing downstream failed.
    Downstream(W),
}

impl<R, W> RelayEnd<R, W> {
    /// What to do with the downstream path.
    #[must_use]
    pub const fn downstream(&self) -> Downstream {
        match self {
            Self::Answered(_) | Self::NotServed => Downstream::Close,
            Self::Unanswered(_) | Self::Malformed(_) | Self::TooLarge(_) | Self::Downstream(_) => {
                Downstream::Abort
            }
        }
    }

    /// The exchange event this end is, if the path's end is one: see
    /// [`Exchange::on`](super::Exchange::on).
    #[must_use]
    pub const fn event(&self) -> Option<Event> {
        match self {
            Self::Answered(_) | Self::Malformed(_) => Some(Event::Message),
            Self::NotServed => Some(Event::CleanClose),
            Self::Unanswered(_) => Some(Event::PathAborted),
            Self::TooLarge(_) | Self::Downstream(_) => None,
        }
    }

    /// The same end with other transport errors (for [`StreamPath`]'s
    /// push API, whose ends carry `()`).
    pub fn map_err<R2, W2>(
        self,
        upstream: impl FnOnce(R) -> R2,
        downstream: impl FnOnce(W) -> W2,
    ) -> RelayEnd<R2, W2> {
        match self {
            Self::Answered(tag) => RelayEnd::Answered(tag),
            Self::NotServed => RelayEnd::NotServed,
            Self::Unanswered(e) => RelayEnd::Unanswered(upstream(e)),
            Self::Malformed(e) => RelayEnd::Malformed(e),
            Self::TooLarge(e) => RelayEnd::TooLarge(e),
            Self::Downstream(e) => RelayEnd::Downstream(downstream(e)),
        }
    }
}

impl<R: fmt::Debug, W: fmt::Debug> fmt::Display for RelayEnd<R, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Answered(Tag::Result) => f.write_str("answered with a result frame"),
            Self::Answered(Tag::Error) => f.write_str("answered with an error frame"),
            Self::NotServed => f.write_str("not served"),
            Self::Unanswered(e) => write!(f, "upstream ended abruptly ({e:?})"),
            Self::Malformed(e) => write!(f, "malformed frame: {e}"),
            Self::TooLarge(e) => fmt::Display::fmt(e, f),
            Self::Downstream(e) => write!(f, "downstream write failed ({e:?})"),
        }
    }
}

/// One path read cut-through, pushed chunk by chunk (no feature needed):
/// each chunk is validated as it arrives and may be forwarded as soon as
/// [`push`](Self::push) accepted it. Constant memory: a
/// [`FrameValidator`] and two counters, whatever the frame's size.
///
/// # The rule that makes it safe
///
/// A relay that forwards a frame before it has seen all of it may find, at
/// any later byte, that the frame is bad. The protocol already says what
/// then: an **abrupt** end of a path leaves the exchange unanswered (the
/// client asks again), while a **clean** close after bytes is an answer. So
/// the relay forwards each chunk as soon as the validator accepted it,
/// closes the downstream path cleanly only when the frame ended valid, and
/// aborts it (a reset) otherwise. A client never sees a clean close after a
/// bad frame, and never a valid-looking prefix taken for a whole frame.
///
/// | upstream                                   | [`RelayEnd`]               | downstream ([`Downstream`]) | exchange [`Event`](super::Event) |
/// |--------------------------------------------|----------------------------|-----------------------------|----------------------------------|
/// | a valid frame, then a clean close          | `Answered(tag)`            | `Close`: every byte forwarded | `Message`                      |
/// | a clean close with no bytes                | `NotServed`                | `Close`, nothing written    | `CleanClose`                     |
/// | an abrupt end (reset, transport error)     | `Unanswered(cause)`        | `Abort`                     | `PathAborted`                    |
/// | bytes that are not a valid frame           | `Malformed(error)`         | `Abort` (the bad chunk is not forwarded) | `Message` (answered, badly) |
/// | more bytes than the cap                    | `TooLarge(_)` (by the cap) | `Abort`                     | none: the caller's to decide     |
/// | the downstream write failed                | `Downstream(cause)`        | `Abort`                     | none: the caller's to decide     |
///
/// The abrupt end itself is the caller's transport action (a TCP reset, a
/// link-layer abort): [`RelayEnd::downstream`] says which to take.
///
/// # Example: a relay loop to copy into a firmware
///
/// ```
/// use diverge_frame::exchange::{Downstream, RelayEnd, StreamPath};
///
/// // Upstream chunks as a transport hands them out, then a clean close.
/// let upstream: &[&[u8]] = &[b"\x00{\"contents\":[{\"uri\":\"u\",", b"\"text\":\"hello\"}]}"];
/// let mut downstream = Vec::new(); // a socket, a UART, …
///
/// let mut path = StreamPath::with_cap(1 << 20);
/// let mut end = None;
/// for chunk in upstream {
///     if let Err(refused) = path.push(chunk) {
///         end = Some(refused); // stop reading; reset upstream
///         break;
///     }
///     downstream.extend_from_slice(chunk); // forward at once
/// }
/// let end: RelayEnd<(), ()> = end.unwrap_or_else(|| path.close());
/// match end.downstream() {
///     Downstream::Close => { /* close the downstream path cleanly */ }
///     Downstream::Abort => { /* reset it: the client asks again */ }
/// }
/// assert!(matches!(end, RelayEnd::Answered(diverge_frame::Tag::Result)));
/// assert_eq!(downstream.len(), 42);
/// ```
#[derive(Debug, Clone)]
pub struct StreamPath {
    validator: FrameValidator,
    cap: usize,
    len: usize,
    refused: Option<Refusal>,
}

#[derive(Debug, Clone, Copy)]
enum Refusal {
    Malformed(FrameError),
    TooLarge(TooLarge),
}

impl Refusal {
    const fn end<R, W>(self) -> RelayEnd<R, W> {
        match self {
            Self::Malformed(e) => RelayEnd::Malformed(e),
            Self::TooLarge(e) => RelayEnd::TooLarge(e),
        }
    }
}

impl Default for StreamPath {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamPath {
    /// A path with no cap on the message's size.
    #[must_use]
    pub const fn new() -> Self {
        Self::with_cap(usize::MAX)
    }

    /// A path whose message may hold at most `cap` bytes; past it the relay
    /// stops with [`RelayEnd::TooLarge`] (by [`Limit::Cap`](crate::Limit::Cap)).
    #[must_use]
    pub const fn with_cap(cap: usize) -> Self {
        Self {
            validator: FrameValidator::new(),
            cap,
            len: 0,
            refused: None,
        }
    }

    /// Bytes accepted so far (all of them may have been forwarded).
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing was accepted yet.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The cap on the message's size.
    #[must_use]
    pub const fn cap(&self) -> usize {
        self.cap
    }

    /// The frame's tag, once its first byte was accepted.
    #[must_use]
    pub const fn tag(&self) -> Option<Tag> {
        self.validator.tag()
    }

    /// Validates the next chunk of the path.
    ///
    /// # Errors
    ///
    /// When the chunk passes the cap ([`RelayEnd::TooLarge`], checked first)
    /// or shows that the frame is not valid ([`RelayEnd::Malformed`]): do
    /// not forward it, abort downstream, stop reading upstream. Every later
    /// call returns the same.
    pub fn push<R, W>(&mut self, chunk: &[u8]) -> Result<(), RelayEnd<R, W>> {
        if let Some(r) = self.refused {
            return Err(r.end());
        }
        let refusal = if chunk.len() > self.cap - self.len {
            Refusal::TooLarge(TooLarge::cap(self.cap))
        } else {
            match self.validator.feed(chunk) {
                Ok(()) => {
                    self.len += chunk.len();
                    return Ok(());
                }
                Err(e) => Refusal::Malformed(e),
            }
        };
        self.refused = Some(refusal);
        Err(refusal.end())
    }

    /// Upstream closed cleanly: the verdict on what was forwarded.
    #[must_use]
    pub fn close<R, W>(self) -> RelayEnd<R, W> {
        if let Some(r) = self.refused {
            return r.end();
        }
        if self.len == 0 {
            return RelayEnd::NotServed;
        }
        match self.validator.finish() {
            Ok(tag) => RelayEnd::Answered(tag),
            Err(e) => RelayEnd::Malformed(e),
        }
    }

    /// Upstream ended abruptly with `cause`.
    #[must_use]
    pub fn abort<R, W>(self, cause: R) -> RelayEnd<R, W> {
        match self.refused {
            Some(r) => r.end(),
            None => RelayEnd::Unanswered(cause),
        }
    }
}

/// How a relay over transports went: its end, and how many bytes went
/// downstream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Relayed<R, W> {
    /// How it ended, and so what to do downstream
    /// ([`RelayEnd::downstream`]).
    pub end: RelayEnd<R, W>,
    /// Bytes written downstream.
    pub forwarded: usize,
}

/// Relays one path cut-through from a blocking `embedded_io::Read` to an
/// `embedded_io::Write` through `buf` (any size; it bounds the chunk, not
/// the frame), validating each chunk before it is written, with at most
/// `cap` bytes in the message. `Ok(0)` from `read` is the clean close; an
/// `Err` is the abrupt end. Downstream is flushed after a valid frame; the
/// clean close or the abort ([`RelayEnd::downstream`]) is the caller's.
#[cfg(feature = "embedded-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io")))]
pub fn relay<R, W>(
    upstream: &mut R,
    downstream: &mut W,
    buf: &mut [u8],
    cap: usize,
) -> Relayed<R::Error, W::Error>
where
    R: embedded_io::Read + ?Sized,
    W: embedded_io::Write + ?Sized,
{
    let mut one = [0u8; 1];
    let buf = if buf.is_empty() { &mut one[..] } else { buf };
    let mut path = StreamPath::with_cap(cap);
    let mut forwarded = 0usize;
    let end = loop {
        let n = match upstream.read(buf) {
            Ok(0) => break path.close(),
            Ok(n) => n,
            Err(cause) => break path.abort(cause),
        };
        let chunk = buf.get(..n).unwrap_or_default();
        if let Err(end) = path.push(chunk) {
            break end;
        }
        if let Err(e) = downstream.write_all(chunk) {
            break RelayEnd::Downstream(e);
        }
        forwarded += n;
    };
    let end = match end {
        RelayEnd::Answered(tag) => match downstream.flush() {
            Ok(()) => RelayEnd::Answered(tag),
            Err(e) => RelayEnd::Downstream(e),
        },
        other => other,
    };
    Relayed { end, forwarded }
}

/// [`relay`] over `embedded_io_async::Read` and `Write`.
#[cfg(feature = "embedded-io-async")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io-async")))]
pub async fn relay_async<R, W>(
    upstream: &mut R,
    downstream: &mut W,
    buf: &mut [u8],
    cap: usize,
) -> Relayed<R::Error, W::Error>
where
    R: embedded_io_async::Read + ?Sized,
    W: embedded_io_async::Write + ?Sized,
{
    let mut one = [0u8; 1];
    let buf = if buf.is_empty() { &mut one[..] } else { buf };
    let mut path = StreamPath::with_cap(cap);
    let mut forwarded = 0usize;
    let end = loop {
        let n = match upstream.read(buf).await {
            Ok(0) => break path.close(),
            Ok(n) => n,
            Err(cause) => break path.abort(cause),
        };
        let chunk = buf.get(..n).unwrap_or_default();
        if let Err(end) = path.push(chunk) {
            break end;
        }
        if let Err(e) = downstream.write_all(chunk).await {
            break RelayEnd::Downstream(e);
        }
        forwarded += n;
    };
    let end = match end {
        RelayEnd::Answered(tag) => match downstream.flush().await {
            Ok(()) => RelayEnd::Answered(tag),
            Err(e) => RelayEnd::Downstream(e),
        },
        other => other,
    };
    Relayed { end, forwarded }
}
