//! Decoding errors: [`FrameError`] for response frames, [`BodyError`] for the
//! JSON inside them (and for requests).
//!
//! The bottom layer: it imports nothing from the crate. The encoders' error
//! is [`EncodeError`](crate::EncodeError) (in `encode/`), the exchange's are
//! [`TooLarge`](crate::TooLarge) and [`UnexpectedEvent`](crate::UnexpectedEvent)
//! (in `exchange/`), each beside the code that returns it.
//!
//! # How they print
//!
//! One rule for every error of the crate (the Rust error-handling project
//! group's: an error either prints the error it wraps or returns it from
//! `source()`, never both): `Display` is the whole message on one line, and
//! each fact in it is said once. A variant that only carries an error of the
//! layer below ([`FrameError::Body`], [`EncodeError::Spec`](crate::EncodeError::Spec)) adds no words of
//! its own: it is transparent, printing the inner error and returning the
//! inner error's `source()` (as `std::io::Error` does around a custom error,
//! and thiserror's `#[error(transparent)]`). So `{err}` alone says what and
//! where (`control character in string at byte 60003`), and a reporter that
//! walks `source()` (anyhow's `{:#}`) prints each fact once. A summary that
//! is not an error, such as the relay's
//! [`RelayEnd`](crate::exchange::RelayEnd), names its case once and then what
//! the error it carries adds (`malformed frame: control character in string
//! at byte 60003`; `message larger than the 4096-byte cap`). `tests/display.rs`
//! pins these lines.

use core::fmt;

/// Why a response frame was rejected.
///
/// Mirrors the reference decoder's three outcomes: no bytes at all, a tag byte
/// other than `0`/`1`, or JSON that the rmcp type rejects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrameError {
    /// The frame had no bytes, so not even a tag.
    Empty,
    /// The tag byte was neither [`RESULT_TAG`](crate::RESULT_TAG) nor
    /// [`ERROR_TAG`](crate::ERROR_TAG).
    UnknownTag(u8),
    /// The JSON after the tag is not what the reference accepts. Prints as
    /// the [`BodyError`] alone.
    Body(BodyError),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty frame (no tag byte)"),
            Self::UnknownTag(tag) => write!(f, "unknown frame tag {tag} (expected 0 or 1)"),
            // Transparent: the body error says what and where; "invalid frame
            // body: " before it would only repeat what its kind already says.
            Self::Body(err) => fmt::Display::fmt(err, f),
        }
    }
}

impl core::error::Error for FrameError {
    /// Transparent for [`Body`](Self::Body) (its `Display` is the body
    /// error's): the body error's own `source()`, which is `None`.
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            Self::Body(err) => core::error::Error::source(err),
            Self::Empty | Self::UnknownTag(_) => None,
        }
    }
}

impl From<BodyError> for FrameError {
    fn from(err: BodyError) -> Self {
        Self::Body(err)
    }
}

/// A defect in JSON, with the byte offset where it was found.
///
/// The offset counts from the start of the bytes handed to the decoding
/// function: for [`Frame::decode`](crate::Frame::decode) that is the frame,
/// tag byte included (so the first JSON byte is at offset 1); for
/// [`RequestView::decode`](crate::RequestView::decode) it is the request JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BodyError {
    offset: usize,
    kind: BodyErrorKind,
}

impl BodyError {
    /// Builds an error of `kind` at byte `offset`.
    #[must_use]
    pub const fn new(kind: BodyErrorKind, offset: usize) -> Self {
        Self { offset, kind }
    }

    /// The byte offset of the defect in the decoded input.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> BodyErrorKind {
        self.kind
    }

    /// The same error, its offset moved by `by` bytes (used when the JSON sits
    /// behind a tag byte).
    #[must_use]
    pub(crate) const fn shifted(self, by: usize) -> Self {
        Self {
            offset: self.offset.saturating_add(by),
            kind: self.kind,
        }
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl core::error::Error for BodyError {}

/// The kind of a [`BodyError`], named for the defect.
///
/// The set follows serde_json's error codes where the reference reports one,
/// plus the rmcp shape errors. It will grow, hence `#[non_exhaustive]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum BodyErrorKind {
    /// The input ended inside or before a value.
    Eof,
    /// A byte that cannot start a JSON value.
    ExpectedValue,
    /// Bytes after the top-level value other than whitespace.
    TrailingCharacters,
    /// Inside an array: neither `,` nor `]`.
    ExpectedCommaOrEndOfArray,
    /// Inside an object: neither `,` nor `}`.
    ExpectedCommaOrEndOfObject,
    /// An object key was expected and a string was not found.
    KeyMustBeString,
    /// A `:` was expected after an object key.
    ExpectedColon,
    /// A trailing comma before `]` or `}`.
    TrailingComma,
    /// A closing bracket of the wrong kind.
    MismatchedBracket,
    /// A literal that is not `true`, `false` or `null`.
    InvalidLiteral,
    /// A number that breaks JSON's grammar (`01`, `1.`, `-`, `1e`).
    InvalidNumber,
    /// A number that overflows `f64` (`1e400`) where the reference parses it.
    NumberOutOfRange,
    /// A raw control character (U+0000 to U+001F) inside a string.
    ControlCharacterInString,
    /// A backslash escape that JSON does not define (`\x`, `\u12G4`).
    InvalidEscape,
    /// A `\u` escape of a UTF-16 surrogate that is not properly paired.
    LoneSurrogate,
    /// A string that is not valid UTF-8 where the reference reads it.
    InvalidUtf8,
    /// Containers nested deeper than the reference's limit (127 levels).
    RecursionLimitExceeded,
    /// A value of the wrong JSON type for its field (e.g. `"uri": 1`).
    InvalidType,
    /// A required field is absent (`uri`, `contents`, `code`, `message`).
    MissingField,
    /// A known field appears twice in one object.
    DuplicateField,
    /// The positional (array) form of a struct has too few elements.
    InvalidLength,
    /// An integer outside the field's range (`code` outside `i32`, `ttlMs` outside `i64`).
    IntegerOutOfRange,
    /// A `cacheScope` that is neither `"public"` nor `"private"` (nor one of the
    /// forms that mean absent).
    UnknownCacheScope,
    /// A content item that is neither a text nor a blob item.
    InvalidContentItem,
    /// Streaming only: an ignored member (which the reference skips at any
    /// depth) nested deeper than the streaming validator's bracket stack
    /// ([`stream::IGNORED_DEPTH`](crate::stream::IGNORED_DEPTH) levels). The
    /// one place where [`stream`](crate::stream) does not give
    /// [`Frame::decode`](crate::Frame::decode)'s answer: the frame may be
    /// valid, and it is refused rather than guessed at.
    StreamDepthExceeded,
}

impl fmt::Display for BodyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Eof => "unexpected end of input",
            Self::ExpectedValue => "expected a JSON value",
            Self::TrailingCharacters => "trailing characters after the JSON value",
            Self::ExpectedCommaOrEndOfArray => "expected `,` or `]`",
            Self::ExpectedCommaOrEndOfObject => "expected `,` or `}`",
            Self::KeyMustBeString => "object key must be a string",
            Self::ExpectedColon => "expected `:`",
            Self::TrailingComma => "trailing comma",
            Self::MismatchedBracket => "closing bracket does not match the opening one",
            Self::InvalidLiteral => "invalid literal (expected true, false or null)",
            Self::InvalidNumber => "invalid number",
            Self::NumberOutOfRange => "number out of range",
            Self::ControlCharacterInString => "control character in string",
            Self::InvalidEscape => "invalid escape",
            Self::LoneSurrogate => "unpaired UTF-16 surrogate in \\u escape",
            Self::InvalidUtf8 => "invalid UTF-8 in string",
            Self::RecursionLimitExceeded => "recursion limit exceeded",
            Self::InvalidType => "value has the wrong type for its field",
            Self::MissingField => "missing required field",
            Self::DuplicateField => "duplicate field",
            Self::InvalidLength => "too few elements in positional form",
            Self::IntegerOutOfRange => "integer out of range for its field",
            Self::UnknownCacheScope => "unknown cacheScope",
            Self::InvalidContentItem => "content item is neither text nor blob",
            Self::StreamDepthExceeded => {
                "ignored value nested deeper than the streaming validator checks"
            }
        })
    }
}
