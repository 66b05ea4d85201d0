//! The exchange: reading the one message of a path into a bounded buffer,
//! and deciding what the way the path ended means.
//!
//! # The rules (provider protocol 2.3.0, `/mcp/read-resource/{channel}`)
//!
//! The ask is kind [`READ_RESOURCE_KIND`] (`3`) on `/requests`, its payload
//! the request JSON ([`ask_encoder`] and [`encode_ask_view`] write it,
//! [`decode_ask`] splits and checks it). The server answers on `/mcp/read-resource/{channel}` with
//! **exactly one message** and closes the path. How the path ends is part of
//! the answer:
//!
//! | the path                                  | [`PathEnd`]                 | the exchange ([`Status`]) |
//! |-------------------------------------------|-----------------------------|---------------------------|
//! | bytes, then a clean close                 | [`PathEnd::Message`]        | [`Status::Answered`]      |
//! | the same, but not a valid frame (2)       | [`PathEnd::Message`], `decode` fails | [`Status::Malformed`] |
//! | a clean close with no bytes at all        | [`PathEnd::NotServed`]      | [`Status::NotServed`]     |
//! | an abrupt end (reset, transport error)    | [`PathEnd::Unanswered`]     | [`Status::AskAgain`] (1)  |
//! | `/requests` ends before the path opens    | —                           | [`Status::AskAgain`] (1)  |
//! | more bytes than the buffer holds          | `Err(`[`TooLarge`]`)`       | the caller's to decide    |
//!
//! (1) or [`Status::GaveUp`] once the caller's retry bound is spent.
//! (2) feed [`Event::MalformedMessage`] rather than [`Event::Message`] when
//! [`PathEnd::decode`] fails.
//!
//! # A malformed frame: who asks again
//!
//! The spec asks again after an abrupt end, never after a clean close. A
//! frame that is not valid reaches a client only through a relay, which
//! aborts the downstream path instead of closing it (see [`StreamPath`]): so
//! the **client** sees an abrupt end and asks again, through the gateway.
//! The gateway's own exchange upstream ends in [`Status::Malformed`], a final
//! status: it does **not** ask again on its own. The server that sent a bad
//! frame would most likely send it again, the downstream path it would answer
//! on is already aborted, and the client's new ask starts a new exchange
//! upstream, so the retries stay bounded by the client's bound alone.
//!
//! Bytes followed by an abrupt end are *not* a message: the partial bytes
//! are dropped and the exchange is unanswered. A message is only handed over
//! whole; one that does not fit is reported as [`TooLarge`], never cut.
//!
//! # Reading a path cut-through (frames larger than any buffer)
//!
//! [`StreamPath`] (push API), `relay` (blocking `embedded_io`, feature
//! `embedded-io`) and `relay_async` (feature `embedded-io-async`) validate
//! each chunk with [`stream::FrameValidator`](crate::stream::FrameValidator)
//! as it arrives, so it can be forwarded at once, in constant memory; an
//! optional cap bounds the whole message instead of the buffer. The
//! downstream path is closed cleanly only after a valid frame and aborted
//! otherwise (table and relay loop: [`RelayEnd`], module `relay` docs
//! below), so a client never takes a bad frame for an answer:
//!
//! | upstream                                   | [`RelayEnd`]            | downstream              | upstream path  | exchange ([`Status`]) |
//! |--------------------------------------------|-------------------------|-------------------------|----------------|-----------------------|
//! | a valid frame, then a clean close          | `Answered(tag)`         | close cleanly           | closed         | `Answered`            |
//! | a clean close with no bytes                | `NotServed`             | close cleanly, no bytes | closed         | `NotServed`           |
//! | an abrupt end                              | `Unanswered(cause)`     | abort                   | ended          | `AskAgain`            |
//! | bytes that are not a valid frame           | `Malformed(error)`      | abort                   | reset it (1)   | `Malformed`           |
//! | more bytes than the cap                    | `TooLarge` (the cap)    | abort                   | reset it (1)   | the caller's          |
//! | the downstream write failed                | `Downstream(cause)`     | abort                   | reset it (1)   | the caller's          |
//!
//! (1) the relay stopped reading in the middle of the message.
//!
//! # Reading a path whole
//!
//! Three front ends share one bounded reader, and none of them allocates:
//!
//! * [`PathReader`]: push API for transports that hand out `&[u8]` chunks
//!   (feed chunks, then [`close`](PathReader::close) or
//!   [`abort`](PathReader::abort)). No feature needed.
//! * `read_path`: blocking, over an `embedded_io::Read` (feature
//!   `embedded-io`). `Ok(0)` from `read` is the clean close; any `Err` before
//!   it is the abrupt end, and the error is handed back in
//!   [`PathEnd::Unanswered`].
//! * `read_path_async`: the same over an `embedded_io_async::Read` (feature
//!   `embedded-io-async`).
//!
//! Each reads at most `buf.len() + 1` bytes: the extra byte, read into a
//! one-byte scratch once the buffer is full, tells a message that exactly
//! fits (the next read is the close) from one that does not. After
//! [`TooLarge`] the rest of the path is left unread; close or reset it.
//!
//! # The exchange as a whole
//!
//! [`Exchange`] is a small state machine fed with [`Event`]s. It answers
//! with a [`Status`]: wait, ask (again), or one of four final outcomes,
//! [`Status::Answered`], [`Status::Malformed`], [`Status::NotServed`] and
//! [`Status::GaveUp`] (the exchange was left unanswered more often than the
//! caller's retry bound allows). Every transition:
//!
//! | status \ event | `AskSent` | `PathOpened` | `RequestsEnded` | `Message` | `MalformedMessage` | `CleanClose` | `PathAborted` |
//! |----------------|-----------|--------------|-----------------|-----------|--------------------|--------------|---------------|
//! | `Ready`        | `Asked`   | ✗            | `Ready`         | ✗         | ✗                  | ✗            | ✗             |
//! | `Asked`        | ✗         | `PathOpen`   | **retry**       | `Answered`| `Malformed`        | `NotServed`  | **retry**     |
//! | `PathOpen`     | ✗         | ✗            | `PathOpen`      | `Answered`| `Malformed`        | `NotServed`  | **retry**     |
//! | `AskAgain`     | `Asked`   | ✗            | `AskAgain`      | ✗         | ✗                  | ✗            | ✗             |
//! | final          | ✗         | ✗            | unchanged       | ✗         | ✗                  | ✗            | ✗             |
//!
//! **retry** is [`Status::AskAgain`] while retries are left, else
//! [`Status::GaveUp`]. ✗ is an [`UnexpectedEvent`] error, and the status
//! stays as it was. A path event while `Asked` implies the path was opened
//! (a transport may tell of a path only by what it carries).
//!
//! # Example
//!
//! ```
//! # #[cfg(feature = "embedded-io")]
//! # fn main() -> Result<(), Box<dyn core::error::Error>> {
//! use diverge_frame::exchange::{Event, Exchange, PathEnd, Status, read_path};
//! use diverge_frame::Frame;
//!
//! // Any `embedded_io::Read` is a path: a socket, a UART, … Here, the bytes a
//! // server sent before closing cleanly (`&[u8]` reads, then gives `Ok(0)`).
//! let mut path: &[u8] =
//!     b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"mimeType\":\"text/plain\",\"text\":\"caf\\u00e9\"}]}";
//! let mut buf = [0u8; 256];
//!
//! let mut exchange = Exchange::new(2); // ask again at most twice
//! exchange.on(Event::AskSent)?; // kind 3 + {"uri":"docs://a"} went out on /requests
//!
//! // Err(TooLarge) if the message does not fit `buf`: never cut, never a bad frame.
//! let end = read_path(&mut path, &mut buf)?;
//! match exchange.path_ended(&end)? {
//!     Status::Answered => match end.decode()? {
//!         PathEnd::Message(Frame::Result(result)) => assert_eq!(result.contents().count(), 1),
//!         PathEnd::Message(Frame::Error(error)) => println!("error {}", error.code()),
//!         PathEnd::NotServed | PathEnd::Unanswered(_) => unreachable!(),
//!     },
//!     Status::NotServed => println!("the server did not serve it"),
//!     Status::AskAgain => println!("unanswered: send the ask again"),
//!     Status::GaveUp => println!("unanswered, and no retries left"),
//!     _ => unreachable!(), // Ready, Asked, PathOpen, Malformed: not after these events
//! }
//! # Ok(())
//! # }
//! # #[cfg(not(feature = "embedded-io"))]
//! # fn main() {}
//! ```

use core::fmt;

mod error;
mod event;
mod relay;
pub use error::{AskError, Limit, TooLarge};
pub use event::Event;
#[cfg(feature = "embedded-io")]
pub use relay::relay;
#[cfg(feature = "embedded-io-async")]
pub use relay::relay_async;
pub use relay::{Downstream, Refused, RelayEnd, RelayError, Relayed, StreamEnd, StreamPath};

use crate::encode::{EncodeError, RequestEncoder, Sink, encode_request_view};
use crate::error::FrameError;
use crate::frame::{Frame, RawFrame};
use crate::view::request::RequestView;

/// The kind byte of a read-resource ask on `/requests`; the request JSON
/// follows it to the end of the message.
pub const READ_RESOURCE_KIND: u8 = 3;

/// Starts an ask on `/requests`: writes the kind byte
/// [`READ_RESOURCE_KIND`], then gives the [`RequestEncoder`] for the request
/// JSON behind it. Its [`finish`](RequestEncoder::finish) counts the kind
/// byte too, so `&buf[..n]` is the whole message: `3`, then exactly what
/// `serde_json::to_vec` writes for the equal `ReadResourceRequestParams`.
///
/// # Errors
///
/// The sink's error ([`EncodeError::BufferFull`], [`EncodeError::Write`]).
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{ask_encoder, decode_ask};
///
/// let mut buf = [0u8; 64];
/// let n = ask_encoder(&mut buf[..])?.uri("docs://readme")?.finish()?;
/// assert_eq!(&buf[..n], b"\x03{\"uri\":\"docs://readme\"}");
/// assert_eq!(decode_ask(&buf[..n])?.uri(), "docs://readme");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn ask_encoder<S: Sink>(sink: S) -> Result<RequestEncoder<S>, EncodeError> {
    RequestEncoder::prefixed(sink, &[READ_RESOURCE_KIND])
}

/// Writes a decoded request view as an ask on `/requests` (to make a new
/// ask, [`ask_encoder`]): the kind byte
/// [`READ_RESOURCE_KIND`], then the request re-emitted canonically by
/// [`encode_request_view`] (what `serde_json::to_vec` writes for the
/// `ReadResourceRequestParams` the reference decodes). Returns the bytes
/// written, the kind byte included: a gateway forwarding a client's ask
/// upstream.
///
/// # Errors
///
/// The sink's error; the sink then holds an unfinished ask.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{decode_ask, encode_ask_view};
///
/// let client = b"\x03 { \"uri\" : \"docs:\\/\\/a\" } ";
/// let request = decode_ask(client)?;
/// let mut buf = [0u8; 64];
/// let n = encode_ask_view(&request, &mut buf[..])?;
/// assert_eq!(&buf[..n], b"\x03{\"uri\":\"docs://a\"}");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn encode_ask_view<S: Sink>(
    request: &RequestView<'_>,
    mut sink: S,
) -> Result<usize, EncodeError> {
    sink.try_extend(&[READ_RESOURCE_KIND])?;
    Ok(encode_request_view(request, &mut sink)? + 1)
}

/// Splits a message from `/requests` into its kind and its request: the
/// kind byte must be [`READ_RESOURCE_KIND`], and the request JSON (validated
/// as [`RequestView::decode`] does, the reference's
/// `serde_json::from_slice::<ReadResourceRequestParams>`) runs to the end of
/// the message. Borrowed, no heap.
///
/// # Errors
///
/// [`AskError::Empty`] for no bytes, [`AskError::Kind`] with the kind byte
/// when it is not [`READ_RESOURCE_KIND`] (the payload is then left alone), or
/// [`AskError::Body`] with the request's error, its offset counted from the
/// kind byte.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::decode_ask;
/// use diverge_frame::BodyErrorKind;
/// use diverge_frame::exchange::AskError;
///
/// let request = decode_ask(b"\x03{\"uri\":\"docs://a\",\"_meta\":{\"progressToken\":1}}")?;
/// assert_eq!(request.uri(), "docs://a");
///
/// assert_eq!(decode_ask(b""), Err(AskError::Empty));
/// assert_eq!(decode_ask(b"\x02{\"uri\":\"docs://a\"}"), Err(AskError::Kind(2)));
/// let Err(AskError::Body(e)) = decode_ask(b"\x03{\"url\":1}") else { unreachable!() };
/// assert_eq!(e.kind(), BodyErrorKind::MissingField);
/// # Ok::<(), AskError>(())
/// ```
pub fn decode_ask(message: &[u8]) -> Result<RequestView<'_>, AskError> {
    let (&kind, json) = message.split_first().ok_or(AskError::Empty)?;
    if kind != READ_RESOURCE_KIND {
        return Err(AskError::Kind(kind));
    }
    RequestView::decode(json).map_err(|e| AskError::Body(e.shifted(1)))
}

/// How a path ended, when its message (if any) fitted the buffer.
///
/// `M` is the message: the raw bytes (`&[u8]`) as read, or a [`Frame`] after
/// [`decode`](Self::decode). `E` is the cause of an abrupt end: the
/// transport's error for `read_path` and `read_path_async`, `()` for
/// [`PathReader::abort`].
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Event, PathEnd, PathReader};
///
/// let mut buf = [0u8; 64];
/// let path = PathReader::new(&mut buf); // closed cleanly before any byte
/// let end = path.close()?;
/// assert_eq!(end, PathEnd::NotServed);
/// assert_eq!(end.event(), Event::CleanClose);
///
/// let mut buf = [0u8; 64];
/// let mut path = PathReader::new(&mut buf);
/// path.push(b"\x00{\"contents\":[]}")?;
/// let end = path.close()?;
/// assert_eq!(end.event(), Event::Message);
/// assert_eq!(end.message(), Some(&b"\x00{\"contents\":[]}"[..]));
/// # Ok::<(), diverge_frame::exchange::TooLarge>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathEnd<M, E = ()> {
    /// One whole message, then a clean close: the exchange is answered.
    Message(M),
    /// A clean close with no bytes: the ask was not served.
    NotServed,
    /// The path ended abruptly (bytes received before it are dropped): the
    /// exchange is unanswered and the ask is made again.
    Unanswered(E),
}

impl<M, E> PathEnd<M, E> {
    /// The [`Event`] to feed an [`Exchange`] for this end.
    #[must_use]
    pub const fn event(&self) -> Event {
        match self {
            Self::Message(_) => Event::Message,
            Self::NotServed => Event::CleanClose,
            Self::Unanswered(_) => Event::PathAborted,
        }
    }

    /// The message, if the path carried one.
    #[must_use]
    pub fn message(self) -> Option<M> {
        match self {
            Self::Message(message) => Some(message),
            Self::NotServed | Self::Unanswered(_) => None,
        }
    }
}

impl<'a, E> PathEnd<&'a [u8], E> {
    /// Decodes the message with [`Frame::decode`]; the other ends pass
    /// through unchanged.
    ///
    /// # Errors
    ///
    /// The [`FrameError`] of [`Frame::decode`] when the message is not a
    /// valid response frame ([`FrameError::Empty`] cannot occur: an empty
    /// path is [`PathEnd::NotServed`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::PathEnd;
    /// use diverge_frame::{Frame, FrameError};
    ///
    /// let end: PathEnd<&[u8]> = PathEnd::Message(b"\x01{\"code\":-32602,\"message\":\"Resource not found\"}");
    /// let Some(Frame::Error(error)) = end.decode()?.message() else { unreachable!() };
    /// assert_eq!(error.code(), -32602);
    ///
    /// let bad: PathEnd<&[u8]> = PathEnd::Message(b"\x07{}");
    /// assert_eq!(bad.decode(), Err(FrameError::UnknownTag(7)));
    /// # Ok::<(), FrameError>(())
    /// ```
    pub fn decode(self) -> Result<PathEnd<Frame<'a>, E>, FrameError> {
        Ok(match self {
            Self::Message(bytes) => PathEnd::Message(Frame::decode(bytes)?),
            Self::NotServed => PathEnd::NotServed,
            Self::Unanswered(cause) => PathEnd::Unanswered(cause),
        })
    }

    /// Splits the message with [`Frame::split`] (O(1), the JSON unchecked),
    /// for a relay that forwards without looking inside.
    ///
    /// # Errors
    ///
    /// [`FrameError::UnknownTag`] when the first byte is neither tag.
    pub fn split(self) -> Result<PathEnd<RawFrame<'a>, E>, FrameError> {
        Ok(match self {
            Self::Message(bytes) => PathEnd::Message(Frame::split(bytes)?),
            Self::NotServed => PathEnd::NotServed,
            Self::Unanswered(cause) => PathEnd::Unanswered(cause),
        })
    }
}

/// Collects the message of one path into a caller's buffer, chunk by chunk.
///
/// For transports that hand out received bytes as `&[u8]`: [`push`](Self::push)
/// each chunk, then end with [`close`](Self::close) when the path closed
/// cleanly or [`abort`](Self::abort) when it ended abruptly. Pushing never
/// cuts: a chunk that does not fit is refused whole with [`TooLarge`], and
/// from then on every call reports it.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{PathEnd, PathReader, TooLarge};
///
/// let mut buf = [0u8; 64];
/// let mut path = PathReader::new(&mut buf);
/// path.push(b"\x00{\"contents\"")?;
/// path.push(b":[]}")?;
/// assert_eq!(path.close()?, PathEnd::Message(&b"\x00{\"contents\":[]}"[..]));
///
/// let mut buf = [0u8; 64];
/// let mut path = PathReader::new(&mut buf);
/// path.push(b"\x00{\"conte")?;
/// assert_eq!(path.abort()?, PathEnd::Unanswered(())); // partial bytes dropped
///
/// let mut buf = [0u8; 4];
/// let mut path = PathReader::new(&mut buf);
/// assert_eq!(path.push(b"\x00{\"contents\":[]}").map_err(|e| e.limit()), Err(4));
/// # Ok::<(), TooLarge>(())
/// ```
pub struct PathReader<'b> {
    buf: &'b mut [u8],
    len: usize,
    overflow: bool,
}

impl<'b> PathReader<'b> {
    /// A reader that keeps the message in `buf`; the message may be at most
    /// `buf.len()` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::PathReader;
    ///
    /// let mut buf = [0u8; 32];
    /// let mut path = PathReader::new(&mut buf);
    /// assert_eq!((path.limit(), path.len()), (32, 0));
    /// path.push(b"\x01{\"code\":1,\"message\":\"m\"}")?;
    /// assert_eq!(path.len(), 25);
    /// assert!(path.close()?.decode()?.message().is_some());
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn new(buf: &'b mut [u8]) -> Self {
        Self {
            buf,
            len: 0,
            overflow: false,
        }
    }

    /// Appends a chunk received on the path. Empty chunks are ignored.
    ///
    /// # Errors
    ///
    /// [`TooLarge`] when the chunk does not fit in what is left of the
    /// buffer (nothing of it is kept), and on every call after that.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), TooLarge> {
        if self.overflow {
            return Err(self.too_large());
        }
        let end = self.len.saturating_add(chunk.len());
        match self.buf.get_mut(self.len..end) {
            Some(dst) => {
                dst.copy_from_slice(chunk);
                self.len = end;
                Ok(())
            }
            None => {
                self.overflow = true;
                Err(self.too_large())
            }
        }
    }

    /// The path closed cleanly: gives its message, or
    /// [`PathEnd::NotServed`] if no bytes came.
    ///
    /// # Errors
    ///
    /// [`TooLarge`] if a [`push`](Self::push) overflowed the buffer.
    pub fn close(self) -> Result<PathEnd<&'b [u8]>, TooLarge> {
        self.finish(Ok(()))
    }

    /// The path ended abruptly: [`PathEnd::Unanswered`], whatever was
    /// received (a partial message is not a message).
    ///
    /// # Errors
    ///
    /// [`TooLarge`] if a [`push`](Self::push) overflowed the buffer: the
    /// message was too large whatever happened next.
    pub fn abort(self) -> Result<PathEnd<&'b [u8]>, TooLarge> {
        self.finish(Err(()))
    }

    /// Bytes received so far.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether no bytes were received so far.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The largest message this reader can hold: the buffer's length.
    #[must_use]
    pub const fn limit(&self) -> usize {
        self.buf.len()
    }

    const fn too_large(&self) -> TooLarge {
        TooLarge::new(self.buf.len())
    }

    /// Where the next read goes: the rest of the buffer, or `probe` once the
    /// buffer is full (a byte there means the message is too large). Never
    /// empty, so a read of 0 bytes into it is the end of the stream.
    #[cfg(any(feature = "embedded-io", feature = "embedded-io-async"))]
    fn unfilled<'s>(&'s mut self, probe: &'s mut [u8; 1]) -> &'s mut [u8] {
        match self.buf.get_mut(self.len..) {
            Some(rest) if !rest.is_empty() => rest,
            _ => probe,
        }
    }

    /// Records `n > 0` bytes read into [`unfilled`](Self::unfilled).
    #[cfg(any(feature = "embedded-io", feature = "embedded-io-async"))]
    fn filled(&mut self, n: usize) -> Result<(), TooLarge> {
        let room = self.buf.len().saturating_sub(self.len);
        if room == 0 {
            self.overflow = true;
            return Err(self.too_large());
        }
        // A reader may not claim more than it was given; clamp if it does.
        self.len = self.len.saturating_add(n.min(room));
        Ok(())
    }

    /// Ends the path: `Ok(())` for a clean close, `Err(cause)` for an abrupt
    /// end.
    fn finish<E>(self, how: Result<(), E>) -> Result<PathEnd<&'b [u8], E>, TooLarge> {
        if self.overflow {
            return Err(self.too_large());
        }
        Ok(match how {
            Err(cause) => PathEnd::Unanswered(cause),
            Ok(()) if self.len == 0 => PathEnd::NotServed,
            Ok(()) => {
                let buf: &'b [u8] = self.buf;
                PathEnd::Message(buf.get(..self.len).unwrap_or(buf))
            }
        })
    }
}

/// Shows the counts, never the bytes.
impl fmt::Debug for PathReader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PathReader")
            .field("len", &self.len)
            .field("limit", &self.buf.len())
            .field("too_large", &self.overflow)
            .finish()
    }
}

/// Reads the one message of a path from a blocking transport into `buf`.
///
/// Reads until the transport reports the end: `Ok(0)` is the clean close
/// ([`PathEnd::Message`], or [`PathEnd::NotServed`] with no bytes); an `Err`
/// before it is an abrupt end ([`PathEnd::Unanswered`] with the error; every
/// error counts, `Interrupted` included, so a transport that can be
/// interrupted harmlessly should retry inside its `read`). At most
/// `buf.len() + 1` bytes are read, in at most that many calls.
///
/// # Errors
///
/// [`TooLarge`] as soon as the message proves longer than `buf`.
#[cfg(feature = "embedded-io")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io")))]
pub fn read_path<'b, R>(
    reader: &mut R,
    buf: &'b mut [u8],
) -> Result<PathEnd<&'b [u8], R::Error>, TooLarge>
where
    R: embedded_io::Read + ?Sized,
{
    let mut path = PathReader::new(buf);
    let mut probe = [0u8; 1];
    loop {
        match reader.read(path.unfilled(&mut probe)) {
            Ok(0) => return path.finish(Ok(())),
            Ok(n) => path.filled(n)?,
            Err(cause) => return path.finish(Err(cause)),
        }
    }
}

/// [`read_path`]'s twin over an async transport: the same rules, the same
/// bounds.
///
/// # Errors
///
/// [`TooLarge`] as soon as the message proves longer than `buf`.
#[cfg(feature = "embedded-io-async")]
#[cfg_attr(docsrs, doc(cfg(feature = "embedded-io-async")))]
pub async fn read_path_async<'b, R>(
    reader: &mut R,
    buf: &'b mut [u8],
) -> Result<PathEnd<&'b [u8], R::Error>, TooLarge>
where
    R: embedded_io_async::Read + ?Sized,
{
    let mut path = PathReader::new(buf);
    let mut probe = [0u8; 1];
    loop {
        match reader.read(path.unfilled(&mut probe)).await {
            Ok(0) => return path.finish(Ok(())),
            Ok(n) => path.filled(n)?,
            Err(cause) => return path.finish(Err(cause)),
        }
    }
}

/// Where an [`Exchange`] stands, and so what its caller does next.
///
/// Non-exhaustive: a later version may add a state (a `match` needs a `_`
/// arm).
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Event, Exchange, Status};
///
/// let mut exchange = Exchange::new(3);
/// assert!(exchange.status().needs_ask());
/// exchange.on(Event::AskSent)?;
/// let status = exchange.on(Event::PathAborted)?;
/// let next = match status {
///     Status::AskAgain => "send the ask again",
///     Status::GaveUp => "report the failure",
///     Status::Answered | Status::Malformed | Status::NotServed => "done",
///     _ => "wait",
/// };
/// assert_eq!(next, "send the ask again");
/// assert!(!status.is_final());
/// # Ok::<(), diverge_frame::exchange::UnexpectedEvent>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Status {
    /// Nothing sent yet: send the ask.
    Ready,
    /// The ask is out: wait for the path (or for `/requests` to end).
    Asked,
    /// The path is open: wait for how it ends.
    PathOpen,
    /// The exchange was left unanswered: send the ask again.
    AskAgain,
    /// Final: the path carried the message.
    Answered,
    /// Final: the path carried bytes that are not a valid frame. This
    /// exchange does not ask again; a relay has aborted its downstream path,
    /// so its client asks again (see the [module docs](self)).
    Malformed,
    /// Final: the path closed cleanly with no message.
    NotServed,
    /// Final: left unanswered once more than the retry bound allows.
    GaveUp,
}

impl Status {
    /// Whether the exchange is over ([`Answered`](Self::Answered),
    /// [`Malformed`](Self::Malformed), [`NotServed`](Self::NotServed) or
    /// [`GaveUp`](Self::GaveUp)).
    #[must_use]
    pub const fn is_final(self) -> bool {
        matches!(
            self,
            Self::Answered | Self::Malformed | Self::NotServed | Self::GaveUp
        )
    }

    /// Whether the caller should send the ask now
    /// ([`Ready`](Self::Ready) or [`AskAgain`](Self::AskAgain)).
    #[must_use]
    pub const fn needs_ask(self) -> bool {
        matches!(self, Self::Ready | Self::AskAgain)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ready => "ready to ask",
            Self::Asked => "asked",
            Self::PathOpen => "path open",
            Self::AskAgain => "unanswered, ask again",
            Self::Answered => "answered",
            Self::Malformed => "answered with a malformed frame",
            Self::NotServed => "not served",
            Self::GaveUp => "unanswered, retries exhausted",
        })
    }
}

/// One read-resource exchange, from the ask to its outcome, retries
/// included. See the [module docs](self) for the transition table.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Event, Exchange, Status, UnexpectedEvent};
///
/// let mut exchange = Exchange::new(1); // one retry allowed
/// assert_eq!(exchange.on(Event::AskSent)?, Status::Asked);
/// assert_eq!(exchange.on(Event::PathAborted)?, Status::AskAgain);
/// assert_eq!(exchange.on(Event::AskSent)?, Status::Asked);
/// assert_eq!(exchange.on(Event::RequestsEnded)?, Status::GaveUp); // before the path opened
/// assert_eq!(exchange.asks(), 2);
/// # Ok::<(), UnexpectedEvent>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Exchange {
    status: Status,
    asks: u32,
    max_retries: u32,
}

impl Exchange {
    /// A new exchange, [`Status::Ready`], that may ask again up to
    /// `max_retries` times (so ask at most `max_retries + 1` times) before
    /// it gives up.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::exchange::{Event, Exchange, Status};
    ///
    /// let mut exchange = Exchange::new(0); // no retry: one ask only
    /// assert_eq!((exchange.status(), exchange.max_retries()), (Status::Ready, 0));
    /// exchange.on(Event::AskSent)?;
    /// assert_eq!(exchange.on(Event::PathAborted)?, Status::GaveUp);
    /// assert_eq!((exchange.asks(), exchange.retries()), (1, 0));
    /// # Ok::<(), diverge_frame::exchange::UnexpectedEvent>(())
    /// ```
    #[must_use]
    pub const fn new(max_retries: u32) -> Self {
        Self {
            status: Status::Ready,
            asks: 0,
            max_retries,
        }
    }

    /// Where the exchange stands.
    #[must_use]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// Asks sent so far.
    #[must_use]
    pub const fn asks(&self) -> u32 {
        self.asks
    }

    /// Asks sent again so far (asks after the first).
    #[must_use]
    pub const fn retries(&self) -> u32 {
        self.asks.saturating_sub(1)
    }

    /// The retry bound given to [`new`](Self::new).
    #[must_use]
    pub const fn max_retries(&self) -> u32 {
        self.max_retries
    }

    /// Feeds one event and gives the new status.
    ///
    /// # Errors
    ///
    /// [`UnexpectedEvent`] for an event the current status does not allow
    /// (the ✗ cells of the module's table); the status is unchanged.
    pub fn on(&mut self, event: Event) -> Result<Status, UnexpectedEvent> {
        use Event as E;
        use Status as S;
        let next = match (self.status, event) {
            (S::Ready | S::AskAgain, E::AskSent) => {
                self.asks = self.asks.saturating_add(1);
                S::Asked
            }
            (S::Asked, E::PathOpened) => S::PathOpen,
            (S::Asked, E::RequestsEnded) | (S::Asked | S::PathOpen, E::PathAborted) => {
                self.unanswered()
            }
            (S::Asked | S::PathOpen, E::Message) => S::Answered,
            (S::Asked | S::PathOpen, E::MalformedMessage) => S::Malformed,
            (S::Asked | S::PathOpen, E::CleanClose) => S::NotServed,
            // Once the path is open, or before/after any ask, `/requests`
            // ending changes nothing.
            (status, E::RequestsEnded) => status,
            (status, event) => return Err(UnexpectedEvent::new(event, status)),
        };
        self.status = next;
        Ok(next)
    }

    /// Feeds the [`Event`] for how a path ended ([`PathEnd::event`]).
    ///
    /// # Errors
    ///
    /// [`UnexpectedEvent`] as for [`on`](Self::on).
    pub fn path_ended<M, E>(&mut self, end: &PathEnd<M, E>) -> Result<Status, UnexpectedEvent> {
        self.on(end.event())
    }

    const fn unanswered(&self) -> Status {
        if self.asks > self.max_retries {
            Status::GaveUp
        } else {
            Status::AskAgain
        }
    }
}

/// An [`Event`] that cannot happen in the exchange's current [`Status`]
/// (a path before any ask, a second ask while one is out, anything but
/// `/requests` ending after the end). The exchange is left unchanged.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Event, Exchange, Status};
///
/// let mut exchange = Exchange::new(1);
/// let err = exchange.on(Event::Message).unwrap_err(); // a message before any ask
/// assert_eq!((err.event(), err.status()), (Event::Message, Status::Ready));
/// assert_eq!(exchange.status(), Status::Ready); // unchanged
/// assert_eq!(err.to_string(), "unexpected event \"message received\" in exchange status \"ready to ask\"");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UnexpectedEvent {
    event: Event,
    status: Status,
}

impl UnexpectedEvent {
    /// `event` refused in `status`.
    pub(crate) const fn new(event: Event, status: Status) -> Self {
        Self { event, status }
    }

    /// The event that was refused.
    #[must_use]
    pub const fn event(&self) -> Event {
        self.event
    }

    /// The status the exchange was (and still is) in.
    #[must_use]
    pub const fn status(&self) -> Status {
        self.status
    }
}

impl fmt::Display for UnexpectedEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unexpected event \"{}\" in exchange status \"{}\"",
            self.event, self.status
        )
    }
}

impl core::error::Error for UnexpectedEvent {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

    use super::*;

    const ALL_EVENTS: [Event; 7] = [
        Event::AskSent,
        Event::PathOpened,
        Event::RequestsEnded,
        Event::Message,
        Event::MalformedMessage,
        Event::CleanClose,
        Event::PathAborted,
    ];

    /// An exchange driven into `status` through valid events, with retries
    /// left (`max_retries` 3, at most one ask used).
    fn exchange_in(status: Status) -> Exchange {
        let mut x = Exchange::new(3);
        let path: &[Event] = match status {
            Status::Ready => &[],
            Status::Asked => &[Event::AskSent],
            Status::PathOpen => &[Event::AskSent, Event::PathOpened],
            Status::AskAgain => &[Event::AskSent, Event::PathAborted],
            Status::Answered => &[Event::AskSent, Event::PathOpened, Event::Message],
            Status::Malformed => &[Event::AskSent, Event::PathOpened, Event::MalformedMessage],
            Status::NotServed => &[Event::AskSent, Event::PathOpened, Event::CleanClose],
            Status::GaveUp => {
                x = Exchange::new(0);
                &[Event::AskSent, Event::PathAborted]
            }
        };
        for &e in path {
            x.on(e).unwrap();
        }
        assert_eq!(x.status(), status);
        x
    }

    /// The module's table, cell by cell (`None` = ✗).
    fn expected(status: Status, event: Event) -> Option<Status> {
        use Event as E;
        use Status as S;
        match (status, event) {
            (S::Ready | S::AskAgain, E::AskSent) => Some(S::Asked),
            (S::Asked, E::PathOpened) => Some(S::PathOpen),
            (S::Asked, E::RequestsEnded | E::PathAborted) | (S::PathOpen, E::PathAborted) => {
                Some(S::AskAgain)
            }
            (S::Asked | S::PathOpen, E::Message) => Some(S::Answered),
            (S::Asked | S::PathOpen, E::MalformedMessage) => Some(S::Malformed),
            (S::Asked | S::PathOpen, E::CleanClose) => Some(S::NotServed),
            (s, E::RequestsEnded) => Some(s),
            _ => None,
        }
    }

    #[test]
    fn every_cell_of_the_transition_table() {
        let statuses = [
            Status::Ready,
            Status::Asked,
            Status::PathOpen,
            Status::AskAgain,
            Status::Answered,
            Status::Malformed,
            Status::NotServed,
            Status::GaveUp,
        ];
        let mut checked = 0;
        for status in statuses {
            for event in ALL_EVENTS {
                let mut x = exchange_in(status);
                let before = x;
                match (x.on(event), expected(status, event)) {
                    (Ok(got), Some(want)) => {
                        assert_eq!(got, want, "{status:?} + {event:?}");
                        assert_eq!(x.status(), want);
                    }
                    (Err(err), None) => {
                        assert_eq!(err, UnexpectedEvent::new(event, status));
                        assert_eq!(x, before, "a refused event leaves the exchange unchanged");
                    }
                    (got, want) => panic!("{status:?} + {event:?}: got {got:?}, want {want:?}"),
                }
                checked += 1;
            }
        }
        assert_eq!(checked, 56);
    }

    #[test]
    fn clean_close_with_a_message_is_answered() {
        let mut x = Exchange::new(0);
        assert_eq!(x.on(Event::AskSent), Ok(Status::Asked));
        assert_eq!(x.on(Event::PathOpened), Ok(Status::PathOpen));
        assert_eq!(x.on(Event::Message), Ok(Status::Answered));
        assert!(x.status().is_final());
        assert_eq!(x.retries(), 0);
    }

    #[test]
    fn a_malformed_message_is_final_and_not_asked_again() {
        let mut x = Exchange::new(5);
        x.on(Event::AskSent).unwrap();
        assert_eq!(x.on(Event::MalformedMessage), Ok(Status::Malformed));
        assert!(x.status().is_final());
        assert!(!x.status().needs_ask());
        assert_eq!(
            x.on(Event::AskSent),
            Err(UnexpectedEvent::new(Event::AskSent, Status::Malformed))
        );
        assert_eq!(x.asks(), 1);
    }

    #[test]
    fn clean_close_without_a_message_is_not_served_and_not_retried() {
        let mut x = Exchange::new(5);
        x.on(Event::AskSent).unwrap();
        x.on(Event::PathOpened).unwrap();
        assert_eq!(x.on(Event::CleanClose), Ok(Status::NotServed));
        assert_eq!(x.asks(), 1);
        assert_eq!(
            x.on(Event::AskSent).unwrap_err().status(),
            Status::NotServed
        );
    }

    #[test]
    fn abrupt_end_asks_again_then_the_retry_is_answered() {
        let mut x = Exchange::new(1);
        x.on(Event::AskSent).unwrap();
        x.on(Event::PathOpened).unwrap();
        assert_eq!(x.on(Event::PathAborted), Ok(Status::AskAgain));
        assert!(x.status().needs_ask());
        assert_eq!(x.on(Event::AskSent), Ok(Status::Asked));
        assert_eq!(x.on(Event::PathOpened), Ok(Status::PathOpen));
        assert_eq!(x.on(Event::Message), Ok(Status::Answered));
        assert_eq!((x.asks(), x.retries()), (2, 1));
    }

    #[test]
    fn requests_ending_before_the_path_opens_asks_again() {
        let mut x = Exchange::new(1);
        x.on(Event::AskSent).unwrap();
        assert_eq!(x.on(Event::RequestsEnded), Ok(Status::AskAgain));
        // The caller reconnects /requests; its end again changes nothing yet.
        assert_eq!(x.on(Event::RequestsEnded), Ok(Status::AskAgain));
        x.on(Event::AskSent).unwrap();
        assert_eq!(x.on(Event::CleanClose), Ok(Status::NotServed));
    }

    #[test]
    fn requests_ending_after_the_path_opens_changes_nothing() {
        let mut x = Exchange::new(0);
        x.on(Event::AskSent).unwrap();
        x.on(Event::PathOpened).unwrap();
        assert_eq!(x.on(Event::RequestsEnded), Ok(Status::PathOpen));
        assert_eq!(x.on(Event::Message), Ok(Status::Answered));
        assert_eq!(x.on(Event::RequestsEnded), Ok(Status::Answered));
    }

    #[test]
    fn the_retry_bound_is_the_callers() {
        for max in 0..5u32 {
            let mut x = Exchange::new(max);
            for retry in 0..=max {
                assert_eq!(x.on(Event::AskSent), Ok(Status::Asked));
                let want = if retry == max {
                    Status::GaveUp
                } else {
                    Status::AskAgain
                };
                let event = if retry % 2 == 0 {
                    Event::PathAborted
                } else {
                    Event::RequestsEnded
                };
                assert_eq!(x.on(event), Ok(want), "max {max}, retry {retry}");
            }
            assert_eq!(x.asks(), max + 1);
            assert_eq!(x.max_retries(), max);
            assert_eq!(
                x.on(Event::AskSent).unwrap_err(),
                UnexpectedEvent::new(Event::AskSent, Status::GaveUp)
            );
        }
    }

    #[test]
    fn path_end_maps_to_its_event() {
        let mut x = exchange_in(Status::PathOpen);
        assert_eq!(
            x.path_ended(&PathEnd::<&[u8]>::Message(b"\x00{}")),
            Ok(Status::Answered)
        );
        let mut x = exchange_in(Status::PathOpen);
        assert_eq!(
            x.path_ended(&PathEnd::<&[u8]>::NotServed),
            Ok(Status::NotServed)
        );
        let mut x = exchange_in(Status::PathOpen);
        assert_eq!(
            x.path_ended(&PathEnd::<&[u8], u8>::Unanswered(7)),
            Ok(Status::AskAgain)
        );
    }

    #[test]
    fn push_then_close_gives_the_whole_message() {
        let mut buf = [0u8; 8];
        let mut r = PathReader::new(&mut buf);
        r.push(b"\x00{").unwrap();
        r.push(b"").unwrap();
        r.push(b"}").unwrap();
        assert_eq!((r.len(), r.limit(), r.is_empty()), (3, 8, false));
        let mut debug = heapless::String::<64>::new();
        core::fmt::write(&mut debug, format_args!("{r:?}")).unwrap();
        assert_eq!(debug, "PathReader { len: 3, limit: 8, too_large: false }");
        assert_eq!(r.close(), Ok(PathEnd::Message(&b"\x00{}"[..])));
    }

    #[test]
    fn a_message_that_exactly_fits_is_whole() {
        let mut buf = [0u8; 3];
        let mut r = PathReader::new(&mut buf);
        r.push(b"\x00{}").unwrap();
        assert_eq!(r.push(b""), Ok(()));
        assert_eq!(r.close(), Ok(PathEnd::Message(&b"\x00{}"[..])));
    }

    #[test]
    fn one_byte_too_many_is_too_large_and_stays_so() {
        let mut buf = [0u8; 3];
        let mut r = PathReader::new(&mut buf);
        r.push(b"\x00{").unwrap();
        assert_eq!(r.push(b"}!"), Err(TooLarge::new(3)));
        assert_eq!(r.len(), 2, "nothing of the refused chunk is kept");
        assert_eq!(r.push(b""), Err(TooLarge::new(3)));
        assert_eq!(r.close(), Err(TooLarge::new(3)));

        let mut buf = [0u8; 3];
        let mut r = PathReader::new(&mut buf);
        assert!(r.push(b"\x00{}\n").is_err());
        assert_eq!(r.abort(), Err(TooLarge::new(3)));
    }

    #[test]
    fn no_bytes_then_close_is_not_served_and_abort_is_unanswered() {
        let mut buf = [0u8; 8];
        assert_eq!(PathReader::new(&mut buf).close(), Ok(PathEnd::NotServed));
        assert_eq!(
            PathReader::new(&mut buf).abort(),
            Ok(PathEnd::Unanswered(()))
        );
        let mut r = PathReader::new(&mut buf);
        r.push(b"\x00{\"con").unwrap();
        assert_eq!(r.abort(), Ok(PathEnd::Unanswered(())));
    }

    #[test]
    fn a_zero_byte_buffer_still_tells_not_served_from_too_large() {
        let mut buf = [0u8; 0];
        assert_eq!(PathReader::new(&mut buf).close(), Ok(PathEnd::NotServed));
        let mut r = PathReader::new(&mut buf);
        assert_eq!(r.push(b"\x00"), Err(TooLarge::new(0)));
    }

    #[test]
    fn decode_separates_bad_frames_from_the_other_ends() {
        let end: PathEnd<&[u8]> = PathEnd::Message(b"\x00{\"contents\":[]}");
        assert!(matches!(
            end.decode(),
            Ok(PathEnd::Message(Frame::Result(_)))
        ));
        let end: PathEnd<&[u8]> = PathEnd::Message(b"\x00{\"contents\":");
        assert!(matches!(end.decode(), Err(FrameError::Body(_))));
        let end: PathEnd<&[u8], i32> = PathEnd::Unanswered(-1);
        assert_eq!(end.decode(), Ok(PathEnd::Unanswered(-1)));
        let end: PathEnd<&[u8]> = PathEnd::NotServed;
        assert_eq!(end.split(), Ok(PathEnd::NotServed));
        let end: PathEnd<&[u8]> = PathEnd::Message(b"\x01{}");
        assert_eq!(
            end.split().unwrap().message().unwrap().as_bytes(),
            b"\x01{}"
        );
    }

    #[test]
    fn errors_are_small_copy_and_say_what_went_wrong() {
        fn assert_traits<T: Copy + Send + Sync + 'static + core::error::Error>() {}
        assert_traits::<TooLarge>();
        assert_traits::<UnexpectedEvent>();
        // The limit, and whether it was the buffer or a relay's cap.
        assert!(size_of::<TooLarge>() <= 2 * size_of::<usize>());
        assert!(size_of::<UnexpectedEvent>() <= 2);
        assert!(size_of::<Exchange>() <= 12);

        let mut s = heapless::String::<96>::new();
        core::fmt::write(&mut s, format_args!("{}", TooLarge::new(1024))).unwrap();
        assert_eq!(s, "message larger than the 1024-byte buffer");
        s.clear();
        core::fmt::write(&mut s, format_args!("{}", TooLarge::cap(4096))).unwrap();
        assert_eq!(s, "message larger than the 4096-byte cap");
        s.clear();
        let err = UnexpectedEvent::new(Event::Message, Status::Ready);
        core::fmt::write(&mut s, format_args!("{err}")).unwrap();
        assert_eq!(
            s,
            "unexpected event \"message received\" in exchange status \"ready to ask\""
        );
    }

    #[cfg(feature = "embedded-io")]
    mod blocking {
        #![allow(clippy::unwrap_used, clippy::indexing_slicing)]

        use super::super::*;
        use embedded_io::{ErrorKind, ErrorType, Read};

        /// Gives `bytes` at most `step` at a time, then ends with `end`.
        struct Script<'a> {
            bytes: &'a [u8],
            step: usize,
            end: Option<ErrorKind>,
            calls: usize,
        }

        impl ErrorType for Script<'_> {
            type Error = ErrorKind;
        }

        impl Read for Script<'_> {
            fn read(&mut self, buf: &mut [u8]) -> Result<usize, ErrorKind> {
                self.calls += 1;
                assert!(!buf.is_empty(), "read_path never asks for 0 bytes");
                if self.bytes.is_empty() {
                    return self.end.map_or(Ok(0), Err);
                }
                let n = self.step.min(buf.len()).min(self.bytes.len());
                buf[..n].copy_from_slice(&self.bytes[..n]);
                self.bytes = &self.bytes[n..];
                Ok(n)
            }
        }

        fn script(bytes: &[u8], step: usize, end: Option<ErrorKind>) -> Script<'_> {
            Script {
                bytes,
                step,
                end,
                calls: 0,
            }
        }

        #[test]
        fn one_byte_at_a_time_then_eof_is_the_message() {
            let msg = b"\x00{\"contents\":[]}";
            let mut buf = [0u8; 32];
            let mut r = script(msg, 1, None);
            assert_eq!(read_path(&mut r, &mut buf), Ok(PathEnd::Message(&msg[..])));
            assert_eq!(r.calls, msg.len() + 1);
        }

        #[test]
        fn exact_fit_reads_one_probe_byte_then_eof() {
            let msg = b"\x00{\"contents\":[]}";
            let mut buf = [0u8; 16];
            assert_eq!(msg.len(), buf.len());
            let mut r = script(msg, 5, None);
            assert_eq!(read_path(&mut r, &mut buf), Ok(PathEnd::Message(&msg[..])));
        }

        #[test]
        fn one_byte_over_is_too_large_and_reading_stops() {
            let msg = b"\x00{\"contents\":[]} ";
            let mut buf = [0u8; 16];
            let mut r = script(msg, 64, Some(ErrorKind::ConnectionReset));
            assert_eq!(read_path(&mut r, &mut buf), Err(TooLarge::new(16)));
            assert_eq!(r.calls, 2, "the buffer, then the probe byte");
            assert!(r.bytes.is_empty());
        }

        #[test]
        fn error_before_eof_is_unanswered_with_the_cause() {
            let mut buf = [0u8; 16];
            let mut r = script(b"\x00{\"con", 2, Some(ErrorKind::ConnectionReset));
            assert_eq!(
                read_path(&mut r, &mut buf),
                Ok(PathEnd::Unanswered(ErrorKind::ConnectionReset))
            );
            let mut r = script(b"", 2, Some(ErrorKind::Interrupted));
            assert_eq!(
                read_path(&mut r, &mut buf),
                Ok(PathEnd::Unanswered(ErrorKind::Interrupted))
            );
        }

        #[test]
        fn eof_at_once_is_not_served() {
            let mut buf = [0u8; 16];
            assert_eq!(
                read_path(&mut script(b"", 1, None), &mut buf),
                Ok(PathEnd::NotServed)
            );
            assert_eq!(
                read_path(&mut script(b"", 1, None), &mut []),
                Ok(PathEnd::NotServed)
            );
        }

        /// A reader that claims more bytes than it was given.
        struct Liar;

        impl ErrorType for Liar {
            type Error = ErrorKind;
        }

        impl Read for Liar {
            fn read(&mut self, buf: &mut [u8]) -> Result<usize, ErrorKind> {
                Ok(buf.len() + 10)
            }
        }

        #[test]
        fn a_reader_claiming_too_much_cannot_overrun() {
            let mut buf = [0u8; 4];
            assert_eq!(read_path(&mut Liar, &mut buf), Err(TooLarge::new(4)));
        }
    }
}
