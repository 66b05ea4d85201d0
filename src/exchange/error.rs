//! [`TooLarge`]: a message larger than the buffer or the relay's cap.

use core::fmt;

use crate::error::BodyError;

/// The message on a path does not fit the caller's buffer.
///
/// Its own error, apart from [`FrameError`](crate::FrameError) (the bytes are not known to be a
/// bad frame: they were never all read) and from
/// [`EncodeError`](crate::encode::EncodeError). Nothing was cut: no partial message
/// is handed over.
///
/// The server did send a message, so asking again would bring the same one
/// back; what to do about it (a larger buffer, an error downstream) is the
/// caller's choice. The rest of the message is left unread on the path.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Limit, PathReader};
///
/// let mut buf = [0u8; 8];
/// let mut path = PathReader::new(&mut buf);
/// let err = path.push(b"\x00{\"contents\":[]}").unwrap_err();
/// assert_eq!((err.limit(), err.by()), (8, Limit::Buffer));
/// assert_eq!(err.to_string(), "message larger than the 8-byte buffer");
/// assert_eq!(path.close(), Err(err)); // never a cut message
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TooLarge {
    limit: usize,
    by: Limit,
}

/// What a [`TooLarge`] message was larger than.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{Limit, PathReader};
///
/// let mut buf = [0u8; 4];
/// let mut path = PathReader::new(&mut buf);
/// let err = path.push(b"\x00{\"contents\":[]}").unwrap_err();
/// let advice = match err.by() {
///     Limit::Buffer => "read it into a larger buffer",
///     Limit::Cap => "raise the relay's cap",
///     _ => "a limit this example does not know",
/// };
/// assert_eq!(advice, "read it into a larger buffer");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Limit {
    /// The buffer a whole message is read into
    /// ([`PathReader`](crate::exchange::PathReader), `read_path`).
    Buffer,
    /// The cap a cut-through relay puts on a whole message
    /// ([`StreamPath::with_cap`](crate::exchange::StreamPath::with_cap)),
    /// whatever its buffer.
    Cap,
}

impl TooLarge {
    /// A message longer than the `limit`-byte buffer.
    pub(crate) const fn new(limit: usize) -> Self {
        Self {
            limit,
            by: Limit::Buffer,
        }
    }

    /// A message longer than the `limit`-byte cap of a cut-through relay.
    pub(crate) const fn cap(limit: usize) -> Self {
        Self {
            limit,
            by: Limit::Cap,
        }
    }

    /// The size of the buffer (or the cap), in bytes: the message is longer
    /// than this.
    #[must_use]
    pub const fn limit(&self) -> usize {
        self.limit
    }

    /// Whether the limit was the buffer or a relay's cap.
    #[must_use]
    pub const fn by(&self) -> Limit {
        self.by
    }
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.by {
            Limit::Buffer => write!(f, "message larger than the {}-byte buffer", self.limit),
            Limit::Cap => write!(f, "message larger than the {}-byte cap", self.limit),
        }
    }
}

impl core::error::Error for TooLarge {}

/// Why [`decode_ask`](crate::exchange::decode_ask) refused a message on
/// `/requests` as a read-resource ask.
///
/// # Examples
///
/// ```
/// use diverge_frame::exchange::{AskError, decode_ask};
/// use diverge_frame::BodyErrorKind;
///
/// let ask = decode_ask(b"\x03{\"uri\":\"docs://a\"}")?;
/// assert!(ask.uri() == "docs://a");
///
/// for (message, kind) in [(&b""[..], "empty"), (b"\x02{}", "kind 2"), (b"\x03{}", "body")] {
///     match decode_ask(message).unwrap_err() {
///         AskError::Empty => assert_eq!(kind, "empty"),
///         AskError::Kind(k) => assert_eq!((kind, k), ("kind 2", 2)),
///         AskError::Body(e) => {
///             assert_eq!(kind, "body");
///             // At the `}`, counted from the kind byte.
///             assert_eq!((e.kind(), e.offset()), (BodyErrorKind::MissingField, 2));
///         }
///         _ => panic!("an error this example does not know"),
///     }
/// }
/// # Ok::<(), AskError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum AskError {
    /// The message has no bytes, so no kind byte.
    Empty,
    /// The kind byte is not
    /// [`READ_RESOURCE_KIND`](crate::exchange::READ_RESOURCE_KIND): another
    /// kind of ask, whose payload is not a read-resource request.
    Kind(u8),
    /// The request JSON after the kind byte is not what the reference
    /// accepts; the offset counts from the kind byte (the JSON's first byte
    /// is at offset 1), as a frame's counts from its tag byte. Prints as the
    /// [`BodyError`] alone.
    Body(BodyError),
}

impl fmt::Display for AskError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty ask (no kind byte)"),
            Self::Kind(kind) => write!(f, "ask of kind {kind}, not a read-resource ask (kind 3)"),
            // Transparent, as `FrameError::Body`: the body error says what
            // and where.
            Self::Body(err) => fmt::Display::fmt(err, f),
        }
    }
}

impl core::error::Error for AskError {
    /// Transparent for [`Body`](Self::Body): the body error's own
    /// `source()`, which is `None`.
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Body(err) => core::error::Error::source(err),
            Self::Empty | Self::Kind(_) => None,
        }
    }
}
