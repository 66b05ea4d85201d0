//! Decoding errors: [`FrameError`] for response frames, [`BodyError`] for the
//! JSON inside them (and for requests).
//!
//! The bottom layer: it imports nothing from the crate. The encoders' error
//! is [`EncodeError`](crate::encode::EncodeError) (in `encode/`), the exchange's are
//! [`TooLarge`](crate::exchange::TooLarge) and [`UnexpectedEvent`](crate::exchange::UnexpectedEvent)
//! (in `exchange/`), each beside the code that returns it.
//!
//! # How they print
//!
//! One rule for every error of the crate (the Rust error-handling project
//! group's: an error either prints the error it wraps or returns it from
//! `source()`, never both): `Display` is the whole message on one line, and
//! each fact in it is said once. A variant that only carries an error of the
//! layer below ([`FrameError::Body`], [`EncodeError::Spec`](crate::encode::EncodeError::Spec)) adds no words of
//! its own: it is transparent, printing the inner error and returning the
//! inner error's `source()` (as `std::io::Error` does around a custom error,
//! and thiserror's `#[error(transparent)]`). So `{err}` alone says what and
//! where (`control character in string at byte 60003`), and a reporter that
//! walks `source()` (anyhow's `{:#}`) prints each fact once. A summary that
//! is not an error, such as the relay's
//! [`RelayEnd`](crate::exchange::RelayEnd), names its case once and then what
//! the error it carries adds (`malformed frame: control character in string
//! at byte 60003`; `message larger than the 4096-byte cap`). The relay's
//! errors, [`Refused`](crate::exchange::Refused) and
//! [`RelayError`](crate::exchange::RelayError), print that same line, so the
//! frame error they print is not their `source()` as well. `tests/display.rs`
//! pins these lines and walks every error's chain.

use core::fmt;

/// Why a response frame was rejected.
///
/// Mirrors the reference decoder's three outcomes: no bytes at all, a tag byte
/// other than `0`/`1`, or JSON that the rmcp type rejects.
///
/// # Examples
///
/// ```
/// use diverge_frame::{BodyErrorKind, Frame, FrameError};
///
/// let err = Frame::decode(b"\x00{\"contents\":[}").unwrap_err();
/// match err {
///     FrameError::Empty => panic!("the frame has a tag"),
///     FrameError::UnknownTag(tag) => panic!("unexpected tag {tag}"),
///     FrameError::Body(body) => {
///         assert_eq!(body.kind(), BodyErrorKind::ExpectedValue);
///         assert_eq!(body.offset(), 14); // from the tag byte
///     }
///     _ => panic!("a kind of error this example does not know"),
/// }
/// assert_eq!(Frame::decode(b"\x05{}").unwrap_err().to_string(), "unknown frame tag 5 (expected 0 or 1)");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
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

impl FrameError {
    /// Where the defect is, as a byte offset in the frame: 0 for
    /// [`Empty`](Self::Empty) and [`UnknownTag`](Self::UnknownTag), the
    /// body error's offset otherwise.
    #[must_use]
    pub const fn offset(&self) -> usize {
        match self {
            Self::Body(e) => e.offset(),
            Self::Empty | Self::UnknownTag(_) => 0,
        }
    }

    /// The error shown in its `frame`: its message, then the bytes around
    /// its offset on one line (bytes outside printable ASCII as `\xNN`) with
    /// a caret under the spot. An error holds no input (it is heap-free), so
    /// the caller lends the frame it decoded.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::Frame;
    ///
    /// let frame = b"\x01{\"code\":1.5,\"message\":\"m\"}";
    /// let err = Frame::decode(frame).unwrap_err();
    /// assert_eq!(
    ///     err.in_input(frame).to_string(),
    ///     "invalid type for `code`: expected an integer (i32) at byte 9\n\
    ///      \x20 \\x01{\"code\":1.5,\"message\":\"m\"}\n\
    ///      \x20             ^",
    /// );
    /// ```
    #[must_use]
    pub fn in_input<'a>(&'a self, frame: &'a [u8]) -> InInput<'a> {
        InInput {
            error: self,
            offset: self.offset(),
            input: frame,
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
///
/// Its [`Display`](fmt::Display) names what the error is about where the
/// decoder knows it: the field of a missing, duplicate or wrongly typed value
/// (also given by [`field`](Self::field)), the struct expected at the top
/// level, or why a content item matched neither the text nor the blob form.
///
/// # Examples
///
/// ```
/// use diverge_frame::{BodyErrorKind, RequestView};
///
/// let err = RequestView::decode(br#"{"uri":"docs://a","uri":"docs://b"}"#).unwrap_err();
/// assert_eq!(err.kind(), BodyErrorKind::DuplicateField);
/// assert_eq!(err.field(), Some("uri"));
/// assert_eq!(err.offset(), 18); // where the second "uri" starts
/// assert_eq!(err.to_string(), "duplicate field `uri` at byte 18");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BodyError {
    offset: usize,
    code: Code,
}

/// A [`BodyError`]'s kind and [`Detail`], as the target returns them best:
/// [`Pair`] on 64-bit targets, [`Packed`] on the others.
#[cfg(target_pointer_width = "64")]
type Code = Pair;
/// A [`BodyError`]'s kind and [`Detail`], as the target returns them best:
/// [`Pair`] on 64-bit targets, [`Packed`] on the others.
#[cfg(not(target_pointer_width = "64"))]
type Code = Packed;

/// The kind and the detail side by side: a `BodyError` of 16 bytes, which
/// 64-bit targets return in two registers as it is, and the kind's niche
/// keeps [`FrameError`] at 16 bytes. (As one `char`, [`Packed`], `Frame::decode`
/// took 5 % more instructions on `medium` on x86-64.)
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Pair {
    kind: BodyErrorKind,
    detail: Detail,
}

#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
impl Pair {
    const fn new(kind: BodyErrorKind, detail: Detail) -> Self {
        Self { kind, detail }
    }

    const fn kind(self) -> BodyErrorKind {
        self.kind
    }

    const fn detail(self) -> Detail {
        self.detail
    }
}

/// The kind's number in the low byte and the [`Detail`] in the next one, as
/// one `char` (never a surrogate: a detail is below `0xD8`). With the offset
/// a pair of scalars, so that 32-bit targets still return a
/// `Result<(), BodyError>` in two registers (as three fields, every such
/// result went through memory: 0.6 KB of flash on thumb), and a `char`'s
/// niche keeps [`FrameError`] as small as the error it wraps (a `NonZeroU16`
/// has one spare value, and `FrameError` needs two).
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Packed(char);

#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
impl Packed {
    const fn new(kind: BodyErrorKind, detail: Detail) -> Self {
        if detail.0 == 0 {
            // A byte is a `char`: no check to compile where the kind is not
            // a constant.
            return Self(kind as u8 as char);
        }
        let code = kind as u32 | (detail.0 as u32) << 8;
        Self(match char::from_u32(code) {
            Some(code) => code,
            None => '\0',
        })
    }

    const fn kind(self) -> BodyErrorKind {
        BodyErrorKind::from_number(self.0 as u32 as u8)
    }

    const fn detail(self) -> Detail {
        Detail((self.0 as u32 >> 8) as u8)
    }
}

impl BodyError {
    /// Builds an error of `kind` at byte `offset` (naming no field). Public
    /// so that a test can state the error it expects: errors compare by
    /// value.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{BodyError, BodyErrorKind, RequestView};
    ///
    /// let err = RequestView::decode(b"{\"uri\":\"a\"").unwrap_err();
    /// assert_eq!(err, BodyError::new(BodyErrorKind::Eof, 10));
    /// ```
    #[must_use]
    pub const fn new(kind: BodyErrorKind, offset: usize) -> Self {
        Self::about(kind, offset, Detail::NONE)
    }

    /// An error of `kind` at byte `offset` about `detail`.
    pub(crate) const fn about(kind: BodyErrorKind, offset: usize, detail: Detail) -> Self {
        Self {
            offset,
            code: Code::new(kind, detail),
        }
    }

    /// What the error is about beyond its kind.
    const fn detail(&self) -> Detail {
        self.code.detail()
    }

    /// The name of the field the error is about, if it names one: the
    /// top-level field of a [`MissingField`](BodyErrorKind::MissingField),
    /// [`DuplicateField`](BodyErrorKind::DuplicateField),
    /// [`InvalidType`](BodyErrorKind::InvalidType) or
    /// [`IntegerOutOfRange`](BodyErrorKind::IntegerOutOfRange) error, or the
    /// content item member that made an
    /// [`InvalidContentItem`](BodyErrorKind::InvalidContentItem) match
    /// neither form.
    ///
    /// ```
    /// use diverge_frame::{Frame, FrameError};
    ///
    /// let Err(FrameError::Body(e)) = Frame::decode(b"\x00{\"ttlMs\":1}") else { panic!() };
    /// assert_eq!(e.field(), Some("contents"));
    /// assert_eq!(e.to_string(), "missing field `contents` at byte 11");
    /// ```
    #[must_use]
    pub fn field(&self) -> Option<&'static str> {
        self.detail().name()
    }

    /// The byte offset of the defect in the decoded input.
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> BodyErrorKind {
        self.code.kind()
    }

    /// The same error, its offset moved by `by` bytes (used when the JSON sits
    /// behind a tag byte).
    #[must_use]
    pub(crate) const fn shifted(self, by: usize) -> Self {
        Self {
            offset: self.offset.saturating_add(by),
            ..self
        }
    }
}

impl BodyError {
    /// The error shown in its `input` (the bytes it was decoded from, the
    /// tag byte included for a frame's body): as
    /// [`FrameError::in_input`].
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::RequestView;
    ///
    /// let request = br#"{"uri":7}"#;
    /// let err = RequestView::decode(request).unwrap_err();
    /// let shown = err.in_input(request).to_string();
    /// assert_eq!(shown.lines().nth(1), Some(r#"  {"uri":7}"#));
    /// assert_eq!(shown.lines().nth(2), Some("         ^"));
    /// ```
    #[must_use]
    pub fn in_input<'a>(&'a self, input: &'a [u8]) -> InInput<'a> {
        InInput {
            error: self,
            offset: self.offset,
            input,
        }
    }
}

/// An error shown in its input ([`FrameError::in_input`],
/// [`BodyError::in_input`]): `Display` prints the error's message, then,
/// on a line of their own, up to 24 bytes either side of its offset
/// (printable ASCII as itself, other bytes as `\xNN`, so one line whatever
/// the input holds), then a caret under the byte at the offset (past the
/// last byte when the input ended early). Each line is indented by two
/// spaces. Needs no heap: the bytes are written as they are read.
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
///
/// let json = b"{\"uri\":\"a\",\n\"uri\":\"b\"}";
/// let err = RequestView::decode(json).unwrap_err();
/// let shown = err.in_input(json).to_string();
/// let mut lines = shown.lines();
/// assert_eq!(lines.next(), Some("duplicate field `uri` at byte 12"));
/// assert_eq!(lines.next(), Some(r#"  {"uri":"a",\x0a"uri":"b"}"#));
/// assert_eq!(lines.next(), Some("                 ^"));
/// ```
#[derive(Clone, Copy)]
pub struct InInput<'a> {
    error: &'a dyn fmt::Display,
    offset: usize,
    input: &'a [u8],
}

/// Bytes of the input shown on each side of the offset.
const AROUND: usize = 24;

impl fmt::Display for InInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        writeln!(f, "{}", self.error)?;
        let from = self.offset.saturating_sub(AROUND);
        let to = self.offset.saturating_add(AROUND).min(self.input.len());
        f.write_str("  ")?;
        let mut column = 0;
        let mut caret = None;
        for (i, &b) in self
            .input
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if from + i == self.offset {
                caret = Some(column);
            }
            if (0x20..=0x7e).contains(&b) {
                f.write_char(char::from(b))?;
                column += 1;
            } else {
                write!(f, "\\x{b:02x}")?;
                column += 4;
            }
        }
        let caret = caret.unwrap_or(column);
        write!(f, "\n  {:>width$}", "^", width = caret + 1)
    }
}

impl fmt::Debug for InInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InInput")
            .field("error", &format_args!("{}", self.error))
            .field("offset", &self.offset)
            .field("input_len", &self.input.len())
            .finish()
    }
}

impl fmt::Display for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.detail().describe(self.kind(), f)?;
        write!(f, " at byte {}", self.offset)
    }
}

/// The offset, the kind and the detail, each as itself.
impl fmt::Debug for BodyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The field by its name (`Detail` is an index into the crate's
        // table of names).
        f.debug_struct("BodyError")
            .field("offset", &self.offset)
            .field("kind", &self.kind())
            .field("field", &self.field())
            .finish()
    }
}

/// The offset, the kind and the field named, if any.
#[cfg(feature = "defmt")]
impl defmt::Format for BodyError {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(
            f,
            "BodyError {{ offset: {=usize}, kind: {}, field: {} }}",
            self.offset,
            self.kind(),
            self.field()
        );
    }
}

/// The names of the bodies' fields, each struct's in serde's order: the
/// result's from [`Detail::RESULT`], the error's from [`Detail::ERROR`], the
/// request's from [`Detail::REQUEST`] (the streaming machine's `Field`
/// starts with the same twelve, in this order).
const FIELD_NAMES: [&str; 12] = [
    "resultType",
    "ttlMs",
    "cacheScope",
    "contents",
    "_meta",
    "code",
    "message",
    "data",
    "_meta",
    "uri",
    "inputResponses",
    "requestState",
];

/// What each field of [`FIELD_NAMES`] takes, for an invalid type.
const FIELD_TYPES: [&str; 12] = [
    "a string or null",
    "an integer or null",
    "\"public\", \"private\" or null",
    "an array of content items",
    "an object or null",
    "an integer (i32)",
    "a string",
    "any JSON value",
    "an object or null",
    "a string",
    "an object or null",
    "a string or null",
];

/// The content item members the untagged choice looks at, in the order of
/// `view::result::ItemKey`, and what each must be.
const ITEM_MEMBERS: [(&str, &str); 5] = [
    ("uri", "not a string"),
    ("mimeType", "neither a string nor null"),
    ("text", "not a string"),
    ("blob", "not a string"),
    ("_meta", "neither an object nor null"),
];

/// What a [`BodyError`] is about beyond its kind, in one byte: nothing, a
/// field of the body's struct, the struct itself, or why a content item
/// matched neither form. The words are in [`describe`](Self::describe) only,
/// so a firmware that never formats an error links none of them.
///
/// Codes: 0 nothing; `1 + i` field `i` of [`FIELD_NAMES`]; 16 an item that
/// is not an object; 17 an item with neither `text` nor `blob`; `32 + 4 k +
/// s` item member `k` (`ItemKey` order) in state `s` (`ItemShape`'s: 0
/// missing, 2 of a wrong type, 3 more than once); [`BODY`] plus a struct's
/// start in [`FIELD_NAMES`] the struct.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Detail(u8);

/// A struct's [`Detail`] is this plus where its fields start.
const BODY: u8 = 64;

impl Detail {
    /// Nothing beyond the kind.
    pub(crate) const NONE: Self = Self(0);
    /// The result's fields start here in [`FIELD_NAMES`].
    pub(crate) const RESULT: u8 = 0;
    /// The error's fields start here in [`FIELD_NAMES`].
    pub(crate) const ERROR: u8 = 5;
    /// The request's fields start here in [`FIELD_NAMES`].
    pub(crate) const REQUEST: u8 = 8;
    /// A content item that is not an object.
    pub(crate) const ITEM_NOT_OBJECT: Self = Self(16);
    /// A content item with neither `text` nor `blob`.
    pub(crate) const ITEM_NO_BODY: Self = Self(17);

    /// Field `i` of [`FIELD_NAMES`] (a struct's start plus its index).
    pub(crate) const fn field(i: u8) -> Self {
        Self(1 + i)
    }

    /// The struct whose fields start at `base` ([`RESULT`](Self::RESULT),
    /// [`ERROR`](Self::ERROR) or [`REQUEST`](Self::REQUEST)).
    pub(crate) const fn body(base: u8) -> Self {
        Self(BODY + base)
    }

    /// Content item member `key` (an `ItemKey` as a number) in the
    /// `ItemShape` state `state`.
    pub(crate) const fn member(key: u8, state: u16) -> Self {
        Self(32 + 4 * key + (state & 3) as u8)
    }

    /// The field's or member's name, if the detail names one.
    fn name(self) -> Option<&'static str> {
        match self.0 {
            1..=12 => FIELD_NAMES.get(usize::from(self.0 - 1)).copied(),
            32..=51 => ITEM_MEMBERS
                .get(usize::from((self.0 - 32) / 4))
                .map(|m| m.0),
            _ => None,
        }
    }

    /// Writes `kind`'s words, with what this detail adds: a few pieces
    /// written one after the other (a `write!` with arguments at each arm
    /// cost twice the flash).
    fn describe(self, kind: BodyErrorKind, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        type K = BodyErrorKind;
        let code = self.0;
        let name = self.name().unwrap_or_default();
        let pieces: [&str; 5] = match (kind, code) {
            (K::MissingField, 1..=12) => ["missing field `", name, "`", "", ""],
            (K::DuplicateField, 1..=12) => ["duplicate field `", name, "`", "", ""],
            (K::IntegerOutOfRange, 1..=12) => ["integer out of range for `", name, "`", "", ""],
            (K::InvalidType, 1..=12) => {
                let what = FIELD_TYPES.get(usize::from(code - 1)).copied();
                let what = what.unwrap_or_default();
                ["invalid type for `", name, "`: expected ", what, ""]
            }
            (K::InvalidType, BODY..) => {
                let what = match code - BODY {
                    Self::RESULT => "a result object",
                    Self::ERROR => "an error object",
                    _ => "a request object",
                };
                ["invalid type: expected ", what, "", "", ""]
            }
            (K::InvalidContentItem, 16) => ["content item is not an object", "", "", "", ""],
            (K::InvalidContentItem, 17) => {
                [NEITHER, "it has neither \"text\" nor \"blob\"", "", "", ""]
            }
            (K::InvalidContentItem, 32..=51) => {
                let member = ITEM_MEMBERS.get(usize::from((code - 32) / 4));
                let (why, wrong) = match code & 3 {
                    0 => ("\" is missing", ""),
                    3 => ("\" appears twice", ""),
                    _ => ("\" is ", member.map(|m| m.1).unwrap_or_default()),
                };
                [NEITHER, "\"", name, why, wrong]
            }
            _ => return fmt::Display::fmt(&kind, f),
        };
        pieces.into_iter().try_for_each(|p| f.write_str(p))
    }
}

/// How an item's error starts.
const NEITHER: &str = "content item matches neither form: ";

impl core::error::Error for BodyError {}

/// The kind of a [`BodyError`], named for the defect.
///
/// The set follows serde_json's error codes where the reference reports one,
/// plus the rmcp shape errors. It will grow, hence `#[non_exhaustive]`.
///
/// # Examples
///
/// ```
/// use diverge_frame::{BodyErrorKind, ResultView};
///
/// let err = ResultView::decode(br#"{"contents":[],"ttlMs":"60"}"#).unwrap_err();
/// match err.kind() {
///     BodyErrorKind::InvalidType => assert_eq!(err.field(), Some("ttlMs")),
///     BodyErrorKind::MissingField | BodyErrorKind::DuplicateField => panic!("fields are all there, once"),
///     other => panic!("unexpected {other:?}"),
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

impl BodyErrorKind {
    /// What the kind says, as [`Display`](fmt::Display) prints it: the one
    /// statement of the words.
    const fn words(self) -> &'static str {
        match self {
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
        }
    }

    /// [`words`](Self::words) of every kind, at its number: `Display` looks
    /// them up in one load. Where the `match` was inlined, thumb builds
    /// compiled it to a branch per kind (the UART relay firmware 120 B
    /// more, and every firmware but the one with the streaming step).
    #[allow(
        clippy::indexing_slicing,
        reason = "const: `get` is not; each index is checked against the length"
    )]
    const WORDS: [&'static str; 25] = {
        let mut words = [""; 25];
        let mut i = 0;
        while i < words.len() {
            // Each kind at its number.
            assert!(Self::KINDS[i] as usize == i);
            words[i] = Self::KINDS[i].words();
            i += 1;
        }
        words
    };

    /// Every kind, each at its number (`as usize`): a new variant goes at
    /// the end, here too.
    const KINDS: [Self; 25] = [
        Self::Eof,
        Self::ExpectedValue,
        Self::TrailingCharacters,
        Self::ExpectedCommaOrEndOfArray,
        Self::ExpectedCommaOrEndOfObject,
        Self::KeyMustBeString,
        Self::ExpectedColon,
        Self::TrailingComma,
        Self::MismatchedBracket,
        Self::InvalidLiteral,
        Self::InvalidNumber,
        Self::NumberOutOfRange,
        Self::ControlCharacterInString,
        Self::InvalidEscape,
        Self::LoneSurrogate,
        Self::InvalidUtf8,
        Self::RecursionLimitExceeded,
        Self::InvalidType,
        Self::MissingField,
        Self::DuplicateField,
        Self::InvalidLength,
        Self::IntegerOutOfRange,
        Self::UnknownCacheScope,
        Self::InvalidContentItem,
        Self::StreamDepthExceeded,
    ];

    /// The kind whose number (`as u8`) is `n`; [`Eof`](Self::Eof) for a
    /// number that is none (a `BodyError` holds only kinds' numbers).
    /// A table, since safe code cannot turn a number into an enum.
    #[cfg_attr(target_pointer_width = "64", allow(dead_code))]
    #[allow(
        clippy::indexing_slicing,
        reason = "const: `get` is not; each index is checked against the length"
    )]
    const fn from_number(n: u8) -> Self {
        if (n as usize) < Self::KINDS.len() {
            Self::KINDS[n as usize]
        } else {
            Self::Eof
        }
    }
}

impl fmt::Display for BodyErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Self::WORDS.get(*self as usize).copied().unwrap_or_default())
    }
}
