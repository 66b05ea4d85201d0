//! Cut-through: a path read and forwarded chunk by chunk, each chunk
//! validated before it goes on, in constant memory.
//!
//! The rule, its table and a relay loop are on [`StreamPath`].

use core::convert::Infallible;
use core::fmt;

use super::error::TooLarge;
use super::event::Event;
use crate::error::FrameError;
use crate::frame::Tag;
use crate::stream::FrameValidator;

/// What to do with the downstream path once a relay stopped.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Downstream, StreamPath};
///
/// let mut path = StreamPath::new();
/// path.push(b"\x00{\"contents\":[]}")?;
/// assert_eq!(path.close().downstream(), Downstream::Close);
///
/// let mut path = StreamPath::new();
/// path.push(b"\x00{\"contents\":")?; // forwarded, then upstream closed early
/// assert_eq!(path.close().downstream(), Downstream::Abort); // reset downstream
/// # Ok::<(), diverge_frame::exchange::Refused>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[must_use = "close or abort the downstream path as this says"]
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
///
/// [`downstream`](Self::downstream) says whether to close or abort the
/// downstream path; [`into_result`](Self::into_result) gives the ends that
/// abort as a [`RelayError`], for `?`.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Downstream, Event, RelayEnd, StreamPath};
///
/// // Upstream reset after a first chunk: a transport error as the cause.
/// let mut path = StreamPath::new();
/// path.push(b"\x00{\"contents\":[")?;
/// let end = path.abort("connection reset"); // a RelayEnd<&str, Infallible>
/// match end {
///     RelayEnd::Unanswered(cause) => assert_eq!(cause, "connection reset"),
///     RelayEnd::Answered(_) | RelayEnd::NotServed => panic!("upstream did not close cleanly"),
///     _ => panic!("the push was not refused"),
/// }
/// assert_eq!(end.downstream(), Downstream::Abort);
/// assert_eq!(end.event(), Some(Event::PathAborted)); // the client asks again
/// assert_eq!(end.to_string(), "upstream ended abruptly (\"connection reset\")");
/// # Ok::<(), diverge_frame::exchange::Refused>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[must_use = "the end says whether to close or abort the downstream path: see `RelayEnd::downstream`"]
#[non_exhaustive]
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
    /// The downstream writer made no progress: its `write` returned
    /// `Ok(0)` for a non-empty chunk, which breaks the `embedded_io::Write`
    /// contract (a writer that can take no more bytes returns an error of
    /// kind `WriteZero`). A downstream failure, as
    /// [`Downstream`](Self::Downstream), with no error to carry.
    WriteZero,
}

impl<R, W> RelayEnd<R, W> {
    /// What to do with the downstream path: the one place that says close
    /// or abort.
    pub const fn downstream(&self) -> Downstream {
        match self {
            Self::Answered(_) | Self::NotServed => Downstream::Close,
            Self::Unanswered(_)
            | Self::Malformed(_)
            | Self::TooLarge(_)
            | Self::Downstream(_)
            | Self::WriteZero => Downstream::Abort,
        }
    }

    /// The exchange event this end is, if the path's end is one: see
    /// [`Exchange::on`](super::Exchange::on). A malformed frame is
    /// [`Event::MalformedMessage`], which leaves the exchange
    /// [`Status::Malformed`](super::Status::Malformed), never
    /// [`Status::Answered`](super::Status::Answered).
    #[must_use]
    pub const fn event(&self) -> Option<Event> {
        match self {
            Self::Answered(_) => Some(Event::Message),
            Self::Malformed(_) => Some(Event::MalformedMessage),
            Self::NotServed => Some(Event::CleanClose),
            Self::Unanswered(_) => Some(Event::PathAborted),
            Self::TooLarge(_) | Self::Downstream(_) | Self::WriteZero => None,
        }
    }

    /// The end as a `Result`, for `?`: `Ok(Some(tag))` for
    /// [`Answered`](Self::Answered), `Ok(None)` for
    /// [`NotServed`](Self::NotServed), and the ends whose
    /// [`downstream`](Self::downstream) is [`Downstream::Abort`] as a
    /// [`RelayError`]. (`Ok` is exactly [`Downstream::Close`].)
    ///
    /// # Errors
    ///
    /// [`RelayError::Unanswered`], [`RelayError::Malformed`],
    /// [`RelayError::TooLarge`], [`RelayError::Downstream`] or
    /// [`RelayError::WriteZero`]: the end of the same name.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::{Downstream, RelayEnd, RelayError};
    /// use diverge_frame::Tag;
    ///
    /// fn relayed(end: RelayEnd<(), ()>) -> Result<(), Box<dyn std::error::Error>> {
    ///     // Abort downstream when `?` returns: the error ends all abort.
    ///     let tag = end.into_result()?;
    ///     assert_eq!(tag, Some(Tag::Result));
    ///     Ok(())
    /// }
    /// assert!(relayed(RelayEnd::Answered(Tag::Result)).is_ok());
    /// assert!(relayed(RelayEnd::Unanswered(())).is_err());
    /// assert_eq!(RelayEnd::<(), ()>::NotServed.into_result(), Ok(None));
    /// ```
    pub fn into_result(self) -> Result<Option<Tag>, RelayError<R, W>> {
        match self {
            Self::Answered(tag) => Ok(Some(tag)),
            Self::NotServed => Ok(None),
            Self::Unanswered(e) => Err(RelayError::Unanswered(e)),
            Self::Malformed(e) => Err(RelayError::Malformed(e)),
            Self::TooLarge(e) => Err(RelayError::TooLarge(e)),
            Self::Downstream(e) => Err(RelayError::Downstream(e)),
            Self::WriteZero => Err(RelayError::WriteZero),
        }
    }

    /// The same end with other transport errors.
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
            Self::WriteZero => RelayEnd::WriteZero,
        }
    }
}

impl<R, W> From<Refused> for RelayEnd<R, W> {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Malformed(e) => Self::Malformed(e),
            Refused::TooLarge(e) => Self::TooLarge(e),
        }
    }
}

impl<R: fmt::Debug, W: fmt::Debug> fmt::Display for RelayEnd<R, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Answered(Tag::Result) => f.write_str("answered with a result frame"),
            Self::Answered(Tag::Error) => f.write_str("answered with an error frame"),
            Self::NotServed => f.write_str("not served"),
            Self::Unanswered(e) => cause(f, "upstream ended abruptly", e),
            Self::Malformed(e) => write!(f, "malformed frame: {e}"),
            Self::TooLarge(e) => fmt::Display::fmt(e, f),
            Self::Downstream(e) => cause(f, "downstream write failed", e),
            Self::WriteZero => f.write_str(WRITE_ZERO),
        }
    }
}

/// How [`RelayEnd::WriteZero`] and [`RelayError::WriteZero`] print.
const WRITE_ZERO: &str = "downstream write failed (the writer accepted no bytes)";

/// `what`, then the transport's error in parentheses: not for a cause that
/// carries nothing (a zero-sized type, as `()` where the caller had no
/// error to give), which would print as `(())`.
fn cause<E: fmt::Debug>(f: &mut fmt::Formatter<'_>, what: &str, e: &E) -> fmt::Result {
    f.write_str(what)?;
    if size_of::<E>() == 0 {
        Ok(())
    } else {
        write!(f, " ({e:?})")
    }
}

/// The ends of a relay that abort downstream, as an error:
/// [`RelayEnd::into_result`]'s `Err`. Each variant is the [`RelayEnd`] of
/// the same name.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Downstream, RelayEnd, RelayError, StreamPath};
/// use diverge_frame::{FrameError, Tag};
///
/// let mut path = StreamPath::new();
/// let refused = path.push(b"\x07{}").unwrap_err(); // not a tag
/// let end: RelayEnd = refused.into();
/// let err: RelayError = end.into_result().unwrap_err();
/// match err {
///     RelayError::Malformed(e) => assert_eq!(e, FrameError::UnknownTag(7)),
///     _ => panic!("unexpected {err}"),
/// }
/// assert_eq!(err.downstream(), Downstream::Abort);
/// assert_eq!(err.to_string(), "malformed frame: unknown frame tag 7 (expected 0 or 1)");
/// assert_eq!(RelayEnd::<(), ()>::Answered(Tag::Result).into_result(), Ok(Some(Tag::Result)));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "a relay that ends in an error must abort the downstream path"]
#[non_exhaustive]
pub enum RelayError<R = (), W = ()> {
    /// Upstream ended abruptly: the exchange is unanswered.
    Unanswered(R),
    /// Upstream sent bytes that are not a valid frame.
    Malformed(FrameError),
    /// The message passed the cap.
    TooLarge(TooLarge),
    /// Writing downstream failed.
    Downstream(W),
    /// The downstream writer made no progress (`Ok(0)` for a non-empty
    /// chunk): see [`RelayEnd::WriteZero`].
    WriteZero,
}

impl<R, W> RelayError<R, W> {
    /// What to do with the downstream path: always [`Downstream::Abort`]
    /// (an end that closes it is not an error).
    pub const fn downstream(&self) -> Downstream {
        Downstream::Abort
    }
}

impl<R, W> From<Refused> for RelayError<R, W> {
    fn from(refused: Refused) -> Self {
        match refused {
            Refused::Malformed(e) => Self::Malformed(e),
            Refused::TooLarge(e) => Self::TooLarge(e),
        }
    }
}

impl<R: fmt::Debug, W: fmt::Debug> fmt::Display for RelayError<R, W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unanswered(e) => cause(f, "upstream ended abruptly", e),
            Self::Malformed(e) => write!(f, "malformed frame: {e}"),
            Self::TooLarge(e) => fmt::Display::fmt(e, f),
            Self::Downstream(e) => cause(f, "downstream write failed", e),
            Self::WriteZero => f.write_str(WRITE_ZERO),
        }
    }
}

impl<R: fmt::Debug, W: fmt::Debug> core::error::Error for RelayError<R, W> {
    /// `Malformed` prints its [`FrameError`] after `malformed frame: `, so
    /// its source is the frame error's own `source()` (which is `None`),
    /// never the frame error itself: a reporter that walks `source()`
    /// says each fact once. The other variants have none.
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Malformed(e) => core::error::Error::source(e),
            Self::Unanswered(_) | Self::TooLarge(_) | Self::Downstream(_) | Self::WriteZero => None,
        }
    }
}

/// Why [`StreamPath::push`] refused a chunk: do not forward it, abort
/// downstream, and stop reading upstream (reset it: it is left mid-message).
///
/// Converts into [`RelayEnd`], [`RelayError`] and [`StreamEnd`] with `From`.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Refused, StreamEnd, StreamPath};
/// use diverge_frame::{BodyErrorKind, FrameError};
///
/// let mut path = StreamPath::new();
/// path.push(b"\x00{\"contents\":[")?; // forward it
/// let refused = path.push(b"}").unwrap_err(); // do not forward this one
/// let Refused::Malformed(FrameError::Body(e)) = refused else { panic!("unexpected {refused}") };
/// assert_eq!((e.kind(), e.offset()), (BodyErrorKind::ExpectedValue, 14));
/// assert_eq!(path.push(b"]}"), Err(refused)); // every later push says the same
/// assert_eq!(path.close(), StreamEnd::from(refused));
/// # Ok::<(), Refused>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[must_use = "a refused chunk means: abort downstream, reset upstream"]
#[non_exhaustive]
pub enum Refused {
    /// The bytes so far are not a valid frame (the error
    /// [`Frame::decode`](crate::Frame::decode) gives for them).
    Malformed(FrameError),
    /// The message passed the cap.
    TooLarge(TooLarge),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Malformed(e) => write!(f, "malformed frame: {e}"),
            Self::TooLarge(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for Refused {
    /// As [`RelayError`]'s: `Malformed` prints its [`FrameError`], so its
    /// source is the frame error's own `source()` (`None`), never the frame
    /// error itself.
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Malformed(e) => core::error::Error::source(e),
            Self::TooLarge(_) => None,
        }
    }
}

/// How a path pushed through a [`StreamPath`] ended when upstream closed
/// cleanly ([`StreamPath::close`]): a [`RelayEnd`] with no transport, so
/// its `Unanswered` and `Downstream` cannot be built and `WriteZero` never
/// comes (one set of ends, one type: the relays', the path's and a loop's
/// of one's own). [`widen`](RelayEnd::widen) makes it a `RelayEnd<R, W>`
/// of any transports.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Downstream, Event, StreamEnd, StreamPath};
/// use diverge_frame::Tag;
///
/// let path = StreamPath::new();
/// let end = path.close(); // upstream closed with no bytes
/// assert_eq!(end, StreamEnd::NotServed);
/// assert_eq!((end.downstream(), end.event()), (Downstream::Close, Some(Event::CleanClose)));
///
/// let mut path = StreamPath::new();
/// path.push(b"\x01{\"code\":-32002,\"message\":\"not found\"}")?;
/// match path.close() {
///     StreamEnd::Answered(tag) => assert_eq!(tag, Tag::Error),
///     other => panic!("unexpected {other:?}"),
/// }
/// # Ok::<(), diverge_frame::exchange::Refused>(())
/// ```
pub type StreamEnd = RelayEnd<Infallible, Infallible>;

impl RelayEnd<Infallible, Infallible> {
    /// The same end, as the end of a relay over transports whose errors
    /// are `R` and `W` (a [`StreamEnd`] has neither).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::{RelayEnd, StreamPath};
    ///
    /// // A loop of one's own ends in one type, whichever way it ends.
    /// let end: RelayEnd<&str, ()> = StreamPath::new().close().widen();
    /// assert_eq!(end, RelayEnd::NotServed);
    /// ```
    pub fn widen<R, W>(self) -> RelayEnd<R, W> {
        self.map_err(|never| match never {}, |never| match never {})
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
/// | upstream                                   | [`RelayEnd`]               | downstream ([`Downstream`]) | exchange [`Event`](super::Event) → [`Status`](super::Status) |
/// |--------------------------------------------|----------------------------|-----------------------------|----------------------------------|
/// | a valid frame, then a clean close          | `Answered(tag)`            | `Close`: every byte forwarded | `Message` → `Answered`         |
/// | a clean close with no bytes                | `NotServed`                | `Close`, nothing written    | `CleanClose` → `NotServed`       |
/// | an abrupt end (reset, transport error)     | `Unanswered(cause)`        | `Abort`                     | `PathAborted` → `AskAgain`       |
/// | bytes that are not a valid frame           | `Malformed(error)`         | `Abort` (the bad chunk is not forwarded) | `MalformedMessage` → `Malformed` |
/// | more bytes than the cap                    | `TooLarge(_)` (by the cap) | `Abort`                     | none: the caller's to decide     |
/// | the downstream write failed                | `Downstream(cause)`        | `Abort`                     | none: the caller's to decide     |
///
/// The abrupt end itself is the caller's transport action (a TCP reset, a
/// link-layer abort): [`RelayEnd::downstream`] says which to take. After
/// `Malformed`, `TooLarge` or `Downstream` the upstream path is left
/// mid-message: reset it too.
///
/// # The push API
///
/// [`push`](Self::push) refuses a chunk with a [`Refused`];
/// [`close`](Self::close) gives a [`StreamEnd`], a [`RelayEnd`] with no
/// transport; a `Refused` converts into any `RelayEnd` with `From`, a
/// `StreamEnd` with [`widen`](RelayEnd::widen). `?` works on both
/// ([`Refused`] is an error; [`RelayEnd::into_result`] gives one).
///
/// `close` and `abort` take the path by value, as the validators'
/// `finish` does: it is a few hundred bytes (a [`FrameValidator`], two
/// counters and the refusal; the [`stream`](crate::stream) module docs say where the line
/// is drawn).
///
/// # Examples
///
/// A relay loop to copy into a firmware:
///
/// ```
/// use diverge_frame::exchange::{Downstream, StreamPath};
///
/// // Upstream chunks as a transport hands them out, then a clean close.
/// let upstream: &[&[u8]] = &[b"\x00{\"contents\":[{\"uri\":\"u\",", b"\"text\":\"hello\"}]}"];
/// let mut downstream = Vec::new(); // a socket, a UART, …
///
/// let mut path = StreamPath::with_cap(1 << 20);
/// for chunk in upstream {
///     if path.push(chunk).is_err() {
///         break; // stop reading; reset upstream
///     }
///     downstream.extend_from_slice(chunk); // forward at once
/// }
/// let end = path.close(); // after a refusal, close gives the refusal
/// match end.downstream() {
///     Downstream::Close => { /* close the downstream path cleanly */ }
///     Downstream::Abort => { /* reset it: the client asks again */ }
/// }
/// assert_eq!(end.into_result(), Ok(Some(diverge_frame::Tag::Result)));
/// assert_eq!(downstream.len(), 42);
/// ```
///
/// With `?`, into any error type (the downstream path is then aborted):
///
/// ```
/// use diverge_frame::exchange::StreamPath;
/// use diverge_frame::Tag;
///
/// fn relay(chunks: &[&[u8]], forward: &mut Vec<u8>) -> Result<Option<Tag>, Box<dyn std::error::Error>> {
///     let mut path = StreamPath::new();
///     for c in chunks {
///         path.push(c)?;
///         forward.extend_from_slice(c);
///     }
///     Ok(path.close().into_result()?)
/// }
/// let mut sent = Vec::new();
/// assert_eq!(relay(&[b"\x01{\"code\":1,", b"\"message\":\"m\"}"], &mut sent)?, Some(Tag::Error));
/// let err = relay(&[b"\x00{\"contents\":[", b"}"], &mut Vec::new()).unwrap_err();
/// assert!(err.to_string().starts_with("malformed frame: "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// `Debug` shows where it stands (`StreamPath { tag: Some(Result), len: 42,
/// cap: None, refused: None }`), not the validator's machine.
#[derive(Clone)]
pub struct StreamPath {
    validator: FrameValidator,
    cap: usize,
    len: usize,
    refused: Option<Refused>,
}

impl fmt::Debug for StreamPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamPath")
            .field("tag", &self.tag())
            .field("len", &self.len)
            .field("cap", &self.cap())
            .field("refused", &self.refused)
            .finish()
    }
}

impl Default for StreamPath {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamPath {
    /// A path with no cap on the message's size.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::StreamPath;
    /// use diverge_frame::Tag;
    ///
    /// let mut path = StreamPath::new();
    /// assert!(path.is_empty() && path.tag().is_none());
    /// path.push(b"\x00{\"contents\":")?;
    /// path.push(b"[]}")?;
    /// assert_eq!((path.len(), path.tag()), (16, Some(Tag::Result)));
    /// assert_eq!(path.close().into_result()?, Some(Tag::Result));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn new() -> Self {
        Self::with_cap(usize::MAX)
    }

    /// A path whose message may hold at most `cap` bytes; past it the relay
    /// stops with [`Refused::TooLarge`] (by [`Limit::Cap`](crate::exchange::Limit::Cap)).
    ///
    /// A path counts its bytes in a `usize`, so even [`new`](Self::new)'s
    /// path refuses a message past `usize::MAX` bytes: `with_cap(usize::MAX)`
    /// is that path, and its [`cap`](Self::cap) is `None`. For an optional
    /// cap, `cap.map_or_else(StreamPath::new, StreamPath::with_cap)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::{Refused, StreamPath};
    ///
    /// let mut path = StreamPath::with_cap(16);
    /// assert_eq!(path.cap(), Some(16));
    /// path.push(b"\x00{\"contents\":")?; // 13 bytes
    /// let refused = path.push(b"[]}\n").unwrap_err(); // 17 would pass the cap
    /// assert!(matches!(refused, Refused::TooLarge(_)));
    /// assert_eq!(path.len(), 13); // the refused chunk is not counted
    /// # Ok::<(), Refused>(())
    /// ```
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

    /// The cap on the message's size (`None`: no cap).
    #[must_use]
    pub const fn cap(&self) -> Option<usize> {
        if self.cap == usize::MAX {
            None
        } else {
            Some(self.cap)
        }
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
    /// When the chunk passes the cap ([`Refused::TooLarge`], checked first)
    /// or shows that the frame is not valid ([`Refused::Malformed`]): do
    /// not forward it, abort downstream, stop reading upstream and reset it
    /// (it is left mid-message). Every later call returns the same.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), Refused> {
        if let Some(r) = self.refused {
            return Err(r);
        }
        let refusal = if chunk.len() > self.cap - self.len {
            Refused::TooLarge(TooLarge::cap(self.cap))
        } else {
            match self.validator.feed(chunk) {
                Ok(()) => {
                    self.len += chunk.len();
                    return Ok(());
                }
                Err(e) => Refused::Malformed(e),
            }
        };
        self.refused = Some(refusal);
        Err(refusal)
    }

    /// Upstream closed cleanly: the verdict on what was forwarded (the
    /// refusal, if a push was refused).
    pub fn close(self) -> StreamEnd {
        if let Some(r) = self.refused {
            return r.into();
        }
        if self.len == 0 {
            return StreamEnd::NotServed;
        }
        match self.validator.finish() {
            Ok(tag) => StreamEnd::Answered(tag),
            Err(e) => StreamEnd::Malformed(e),
        }
    }

    /// Upstream ended abruptly with `cause`: [`RelayEnd::Unanswered`], or
    /// the refusal if a push was refused. It never ends in
    /// [`RelayEnd::Downstream`], hence `W` = [`Infallible`]; a loop that
    /// also writes downstream can build `RelayEnd::Unanswered(cause)` itself
    /// once it stops at the first refusal.
    pub fn abort<R>(self, cause: R) -> RelayEnd<R, Infallible> {
        match self.refused {
            Some(r) => r.into(),
            None => RelayEnd::Unanswered(cause),
        }
    }
}

/// How a relay over transports went: its [`end`](Self::end), and how many
/// bytes went downstream ([`forwarded`](Self::forwarded)).
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "embedded-io")] {
/// use diverge_frame::exchange::{Downstream, RelayEnd, relay};
/// use diverge_frame::Tag;
///
/// let frame = b"\x01{\"code\":1,\"message\":\"m\"}";
/// let (mut up, mut out) = (&frame[..], [0u8; 64]);
/// let mut down = &mut out[..];
/// let relayed = relay(&mut up, &mut down, &mut [0u8; 16], None);
/// assert_eq!(relayed.end().downstream(), Downstream::Close);
/// assert_eq!(relayed.forwarded(), frame.len());
/// assert_eq!(relayed.into_end(), RelayEnd::Answered(Tag::Error));
/// # }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[must_use = "`end` says whether to close or abort the downstream path"]
pub struct Relayed<R, W> {
    end: RelayEnd<R, W>,
    forwarded: usize,
}

impl<R, W> Relayed<R, W> {
    /// A relay's outcome, for a caller's own relay loop that reports as
    /// `relay` does: `end`, after `forwarded` bytes went downstream.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::{Downstream, RelayEnd, Relayed, StreamPath};
    ///
    /// // A caller's own relay loop over chunks, reporting as `relay` does.
    /// let chunks: [&[u8]; 2] = [b"\x00{\"contents\":[", b"]}"];
    /// let (mut path, mut downstream) = (StreamPath::new(), Vec::new());
    /// let mut end = None;
    /// for chunk in chunks {
    ///     if let Err(refused) = path.push(chunk) {
    ///         end = Some(RelayEnd::from(refused));
    ///         break;
    ///     }
    ///     downstream.extend_from_slice(chunk);
    /// }
    /// let end: RelayEnd = end.unwrap_or_else(|| path.close().widen());
    /// let relayed = Relayed::new(end, downstream.len());
    /// assert_eq!(relayed.end().downstream(), Downstream::Close);
    /// assert_eq!(relayed.forwarded(), 16);
    /// ```
    pub const fn new(end: RelayEnd<R, W>, forwarded: usize) -> Self {
        Self { end, forwarded }
    }

    /// How it ended, and so what to do downstream
    /// ([`RelayEnd::downstream`]).
    pub const fn end(&self) -> &RelayEnd<R, W> {
        &self.end
    }

    /// The end, by value (the transports' errors need not be `Copy`).
    pub fn into_end(self) -> RelayEnd<R, W> {
        self.end
    }

    /// Bytes the downstream writer accepted: every `Ok(n)` of its `write`,
    /// partial writes included, also those of a chunk whose writing then
    /// failed (a `Downstream` or `WriteZero` end). Never more than the
    /// bytes read.
    #[must_use]
    pub const fn forwarded(&self) -> usize {
        self.forwarded
    }
}

/// The relay's loop, written once for [`relay`] and [`relay_async`]: the
/// same reads, checks, writes and count, with `.await` after each transport
/// call when the last argument is `await`.
#[cfg(any(feature = "embedded-io", feature = "embedded-io-async"))]
macro_rules! relay_body {
    ($upstream:ident, $downstream:ident, $buf:ident, $cap:ident $(, $await:tt)?) => {
        {
            let mut one = [0u8; 1];
            let $buf = if $buf.is_empty() { &mut one[..] } else { $buf };
            let mut path = StreamPath::with_cap($cap.unwrap_or(usize::MAX)); // None: `new`
            let mut forwarded = 0usize;
            let end = 'relay: loop {
                let n = match $upstream.read($buf)$(.$await)? {
                    Ok(0) => break path.close().widen(),
                    Ok(n) => n,
                    // The loop stops at the first refusal: this end is unanswered.
                    Err(cause) => break RelayEnd::Unanswered(cause),
                };
                let chunk = $buf.get(..n).unwrap_or_default();
                if let Err(refused) = path.push(chunk) {
                    break refused.into();
                }
                let mut rest = chunk;
                // `write` in a loop, never `write_all`: embedded-io's
                // panics on `Ok(0)`, which this loop turns into an end.
                while !rest.is_empty() {
                    match $downstream.write(rest)$(.$await)? {
                        Ok(0) => break 'relay RelayEnd::WriteZero,
                        Ok(n) => {
                            let n = n.min(rest.len());
                            forwarded += n;
                            rest = rest.get(n..).unwrap_or_default();
                        }
                        Err(e) => break 'relay RelayEnd::Downstream(e),
                    }
                }
            };
            let end = match end {
                RelayEnd::Answered(tag) => match $downstream.flush()$(.$await)? {
                    Ok(()) => RelayEnd::Answered(tag),
                    Err(e) => RelayEnd::Downstream(e),
                },
                other => other,
            };
            Relayed { end, forwarded }
        }
    };
}

/// Relays one path cut-through from a blocking `embedded_io::Read` to an
/// `embedded_io::Write` through `buf` (any size; it bounds the chunk, not
/// the frame), validating each chunk before it is written, with at most
/// `cap` bytes in the message (`None`: no cap).
///
/// `Ok(0)` from `read` is the clean close; an `Err` is the abrupt end.
/// Downstream is flushed after a valid frame. What to do then is the
/// caller's, as [`RelayEnd::downstream`] says:
///
/// * [`Downstream::Close`] (`Answered`, `NotServed`): close the downstream
///   path cleanly; upstream was read to its clean close.
/// * [`Downstream::Abort`]: reset the downstream path. After `Malformed`,
///   `TooLarge` or `Downstream` the relay stopped reading **upstream in the
///   middle of its message**: reset the upstream path too (its rest is
///   never a message of its own). After `Unanswered` upstream has already
///   ended.
///
/// A writer whose `write` returns `Ok(0)` for a non-empty chunk (which
/// breaks the `embedded_io::Write` contract: it should return an error of
/// kind `WriteZero`) makes no progress: the relay stops there with
/// [`RelayEnd::WriteZero`], a downstream failure, and never panics.
///
/// ```compile_fail
/// # #![deny(unused_must_use)]
/// # fn f(up: &mut &[u8], down: &mut [u8]) {
/// // The result says whether to close or abort downstream: it must be used.
/// diverge_frame::exchange::relay(up, &mut &mut down[..], &mut [0u8; 64], None);
/// # }
/// ```
#[cfg(feature = "embedded-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io")))]
pub fn relay<R, W>(
    upstream: &mut R,
    downstream: &mut W,
    buf: &mut [u8],
    cap: Option<usize>,
) -> Relayed<R::Error, W::Error>
where
    R: embedded_io::Read + ?Sized,
    W: embedded_io::Write + ?Sized,
{
    relay_body!(upstream, downstream, buf, cap)
}

/// [`relay`] over `embedded_io_async::Read` and `Write`: the same rules,
/// the same count, and the same duty to reset upstream after `Malformed`,
/// `TooLarge` or `Downstream` (it is left mid-message).
///
/// ```compile_fail
/// # #![deny(unused_must_use)]
/// # async fn f(up: &mut &[u8], down: &mut [u8]) {
/// // The result says whether to close or abort downstream: it must be used.
/// diverge_frame::exchange::relay_async(up, &mut &mut down[..], &mut [0u8; 64], None).await;
/// # }
/// ```
#[cfg(feature = "embedded-io-async")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io-async")))]
#[must_use = "the end says whether to close or abort the downstream path"]
pub async fn relay_async<R, W>(
    upstream: &mut R,
    downstream: &mut W,
    buf: &mut [u8],
    cap: Option<usize>,
) -> Relayed<R::Error, W::Error>
where
    R: embedded_io_async::Read + ?Sized,
    W: embedded_io_async::Write + ?Sized,
{
    relay_body!(upstream, downstream, buf, cap, await)
}
