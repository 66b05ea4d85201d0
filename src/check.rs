//! The field checks below both [`spec`](crate::spec) and
//! [`encode`](crate::encode): the syntax the MCP spec asks of `uri`,
//! `mimeType`, `blob`, `resultType` and the error `code`, the
//! [`SpecError`] a failed check reports, and [`StrValue`], the text the
//! checks read and the encoders write (plain, or a decoded [`JsonStr`]).
//!
//! `spec` runs these checks on decoded views and the strict encoders run
//! them on what they write; both import this module and neither imports
//! the other. The public items are re-exported at `spec::*` and
//! `encode::StrValue`.

use core::fmt;
use core::ops::RangeInclusive;

use crate::base64::{DecodeError, Decoder};
use crate::blob::Blob;
use crate::json::borrowed::{Fragment, Fragments, JsonStr};

/// A string for the encoders to write: plain text, or a decoded [`JsonStr`].
///
/// Either way the encoder writes the *unescaped* characters, escaped again
/// the way serde_json escapes them, so a `JsonStr` holding `\u00e9` or `\/`
/// comes out as `é` or `/`, exactly as the reference re-serialises it.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::StrValue;
/// use diverge_frame::RequestView;
///
/// let plain = StrValue::from("docs://a");
/// let req = RequestView::decode(br#"{"uri":"docs:\/\/a"}"#)?;
/// let decoded = StrValue::from(req.uri());
/// assert_eq!(plain.len(), decoded.len());
/// // `==` and `Hash` are of the unescaped text, whichever the variant.
/// assert_eq!(plain, decoded);
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub enum StrValue<'a> {
    /// Plain text.
    Plain(&'a str),
    /// Text decoded from a frame, still in its escaped form.
    Json(JsonStr<'a>),
}

impl PartialEq for StrValue<'_> {
    /// Whether the unescaped texts are equal, whichever the variants (a
    /// [`Plain`](Self::Plain) and a [`Json`](Self::Json) of one text are
    /// equal), as [`JsonStr`]'s `==`.
    fn eq(&self, other: &StrValue<'_>) -> bool {
        match (self, other) {
            (StrValue::Plain(a), StrValue::Plain(b)) => a == b,
            (StrValue::Json(a), StrValue::Json(b)) => a == b,
            (StrValue::Plain(a), StrValue::Json(b)) => b == a,
            (StrValue::Json(a), StrValue::Plain(b)) => a == b,
        }
    }
}

impl Eq for StrValue<'_> {}

impl core::hash::Hash for StrValue<'_> {
    /// Hashes the unescaped text as [`JsonStr`]'s `Hash` does, so equal
    /// values hash alike whichever their variants.
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        match self {
            Self::Plain(s) => crate::json::borrowed::hash_chars(s.chars(), state),
            Self::Json(s) => s.hash(state),
        }
    }
}

impl<'a> From<&'a str> for StrValue<'a> {
    fn from(s: &'a str) -> Self {
        Self::Plain(s)
    }
}

impl<'a> From<JsonStr<'a>> for StrValue<'a> {
    fn from(s: JsonStr<'a>) -> Self {
        Self::Json(s)
    }
}

impl<'a, const N: usize> From<&'a heapless::String<N>> for StrValue<'a> {
    fn from(s: &'a heapless::String<N>) -> Self {
        Self::Plain(s.as_str())
    }
}

impl<'a> StrValue<'a> {
    /// The length in bytes of the unescaped text.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Plain(s) => s.len(),
            Self::Json(s) => s.unescaped_len(),
        }
    }

    /// Whether the text is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        match self {
            Self::Plain(s) => s.is_empty(),
            Self::Json(s) => s.is_empty(),
        }
    }

    /// The unescaped text as one `&str`, when it is available without
    /// copying.
    #[must_use]
    pub fn as_str(&self) -> Option<&'a str> {
        match self {
            Self::Plain(s) => Some(s),
            Self::Json(s) => s.as_str(),
        }
    }

    /// The unescaped text, byte by byte.
    pub(crate) fn bytes(&self) -> UnescapedBytes<'a> {
        match self {
            Self::Plain(s) => UnescapedBytes {
                run: s.as_bytes(),
                ch: [0; 4],
                ch_at: 0,
                ch_len: 0,
                rest: None,
            },
            Self::Json(s) => UnescapedBytes {
                run: &[],
                ch: [0; 4],
                ch_at: 0,
                ch_len: 0,
                rest: Some(s.fragments()),
            },
        }
    }
}

/// Iterator over the unescaped bytes of a [`StrValue`], without a buffer.
#[derive(Debug, Clone)]
pub(crate) struct UnescapedBytes<'a> {
    run: &'a [u8],
    ch: [u8; 4],
    ch_at: u8,
    ch_len: u8,
    rest: Option<Fragments<'a>>,
}

impl Iterator for UnescapedBytes<'_> {
    type Item = u8;

    fn next(&mut self) -> Option<u8> {
        loop {
            if self.ch_at < self.ch_len {
                let b = self.ch.get(usize::from(self.ch_at)).copied();
                self.ch_at += 1;
                return b;
            }
            if let Some((&b, tail)) = self.run.split_first() {
                self.run = tail;
                return Some(b);
            }
            match self.rest.as_mut()?.next()? {
                Fragment::Str(s) => self.run = s.as_bytes(),
                Fragment::Char(c) => {
                    let len = c.encode_utf8(&mut self.ch).len();
                    self.ch_at = 0;
                    self.ch_len = u8::try_from(len).unwrap_or(0);
                }
            }
        }
    }
}

/// JSON-RPC "Parse error" (`-32700`).
pub const PARSE_ERROR: i32 = -32700;
/// JSON-RPC "Invalid Request" (`-32600`).
pub const INVALID_REQUEST: i32 = -32600;
/// JSON-RPC "Method not found" (`-32601`).
pub const METHOD_NOT_FOUND: i32 = -32601;
/// JSON-RPC "Invalid params" (`-32602`); also MCP's resource-not-found code
/// from protocol revision 2026-07-28 on.
pub const INVALID_PARAMS: i32 = -32602;
/// JSON-RPC "Internal error" (`-32603`), MCP's code for a failed read.
pub const INTERNAL_ERROR: i32 = -32603;
/// MCP's "Resource not found" (`-32002`) before revision 2026-07-28; clients
/// should still accept it.
pub const RESOURCE_NOT_FOUND: i32 = -32002;
/// JSON-RPC's range of implementation-defined server errors
/// (`-32099..=-32000`), which holds [`RESOURCE_NOT_FOUND`] and rmcp's
/// `-32020..=-32022`.
pub const SERVER_ERRORS: RangeInclusive<i32> = -32099..=-32000;

/// The `resultType` values rmcp names (`ResultType::COMPLETE`,
/// `INPUT_REQUIRED`, `TASK`). A result that carries `contents` is normally
/// `complete`.
pub const RESULT_TYPES: &[&str] = &["complete", "input_required", "task"];

/// Whether `code` is one an MCP server answers a read with: one of
/// JSON-RPC's predefined codes ([`PARSE_ERROR`], [`INVALID_REQUEST`],
/// [`METHOD_NOT_FOUND`], [`INVALID_PARAMS`], [`INTERNAL_ERROR`]) or in
/// JSON-RPC's server-error range [`SERVER_ERRORS`].
///
/// Everything else fails the check: codes JSON-RPC reserves but does not
/// define (`-32768..=-32100` apart from the five) and, deliberately,
/// application codes outside the reserved range (`404`, `-1`), which a
/// careful MCP server does not use for a read. Callers who accept those can
/// ignore [`SpecErrorKind::UnknownErrorCode`].
///
/// # Examples
///
/// ```
/// use diverge_frame::spec::{is_known_error_code, RESOURCE_NOT_FOUND};
///
/// assert!(is_known_error_code(RESOURCE_NOT_FOUND));
/// assert!(is_known_error_code(-32602));
/// assert!(!is_known_error_code(-32604));
/// assert!(!is_known_error_code(404));
/// ```
#[must_use]
pub const fn is_known_error_code(code: i32) -> bool {
    matches!(
        code,
        PARSE_ERROR | INVALID_REQUEST | METHOD_NOT_FOUND | INVALID_PARAMS | INTERNAL_ERROR
    ) || (code >= *SERVER_ERRORS.start() && code <= *SERVER_ERRORS.end())
}

/// Whether `result_type` is one of [`RESULT_TYPES`].
///
/// # Examples
///
/// ```
/// assert!(diverge_frame::spec::is_known_result_type("complete"));
/// assert!(!diverge_frame::spec::is_known_result_type("Complete"));
/// ```
#[must_use]
pub fn is_known_result_type(result_type: &str) -> bool {
    RESULT_TYPES.contains(&result_type)
}

/// A failed spec check: what is wrong, and where: the content item and the
/// field at fault. For a check of a decoded view, the view also says the
/// byte offset of the value at fault (`spec_offset`, e.g.
/// [`Frame::spec_offset`](crate::Frame::spec_offset)); the error itself
/// holds no offset, so an encoder's error, which carries it, stays small.
///
/// # Examples
///
/// ```
/// use diverge_frame::ResultView;
/// use diverge_frame::spec::SpecErrorKind;
///
/// let json = br#"{"contents":[{"uri":"docs://a","mimeType":"text","text":""}]}"#;
/// let view = ResultView::decode(json)?;
/// let err = view.check_spec().unwrap_err();
/// assert_eq!(err.kind(), SpecErrorKind::InvalidMimeType);
/// assert_eq!((err.item(), err.field()), (Some(0), Some("mimeType")));
/// assert_eq!(err.to_string(), "content item 0: `mimeType` is not a type/subtype media type");
/// assert_eq!(view.spec_offset(&err), Some(42));
/// assert_eq!(&json[42..48], br#""text""#);
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SpecError {
    item: Option<u32>,
    kind: SpecErrorKind,
}

impl SpecError {
    /// An error of `kind`, in content item `item` (`None` outside the
    /// `contents` array): what the checks give. Public so that a test can
    /// state the error it expects. Indices from `u32::MAX` on are stored as
    /// `u32::MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::spec::{SpecError, SpecErrorKind};
    ///
    /// let e = SpecError::new(SpecErrorKind::InvalidBase64, Some(2));
    /// assert_eq!((e.item(), e.field()), (Some(2), Some("blob")));
    /// assert_eq!(e.to_string(), "content item 2: `blob` is not valid base64");
    /// ```
    #[must_use]
    pub const fn new(kind: SpecErrorKind, item: Option<usize>) -> Self {
        let item = match item {
            // A wider index is stored as the widest.
            #[allow(clippy::cast_possible_truncation)]
            Some(i) if i < u32::MAX as usize => Some(i as u32),
            Some(_) => Some(u32::MAX),
            None => None,
        };
        Self { item, kind }
    }

    /// What is wrong.
    #[must_use]
    pub const fn kind(&self) -> SpecErrorKind {
        self.kind
    }

    /// The index of the content item at fault, if the fault is in one.
    #[must_use]
    pub const fn item(&self) -> Option<usize> {
        match self.item {
            Some(i) => Some(i as usize),
            None => None,
        }
    }

    /// The JSON field at fault (`"uri"`, `"mimeType"`, `"blob"`, ...), if one.
    #[must_use]
    pub const fn field(&self) -> Option<&'static str> {
        self.kind.field()
    }
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(item) = self.item {
            write!(f, "content item {item}: ")?;
        }
        fmt::Display::fmt(&self.kind, f)
    }
}

impl core::error::Error for SpecError {}

/// The kind of a [`SpecError`].
///
/// # Examples
///
/// ```
/// use diverge_frame::RequestView;
/// use diverge_frame::spec::SpecErrorKind;
///
/// // The reference accepts any string as a `uri`; the spec asks for an absolute URI.
/// let request = RequestView::decode(br#"{"uri":"readme.md"}"#)?;
/// let err = request.check_spec().unwrap_err();
/// match err.kind() {
///     SpecErrorKind::NotAbsoluteUri => assert_eq!(err.kind().field(), Some("uri")),
///     other => panic!("unexpected {other}"),
/// }
/// assert_eq!(err.kind().to_string(), "`uri` is not an absolute URI");
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SpecErrorKind {
    /// The body is serde's positional array form, not a JSON object.
    PositionalForm,
    /// `resultType` is not one of [`RESULT_TYPES`].
    UnknownResultType,
    /// `cacheScope` is not written as `"public"` or `"private"`.
    UnknownCacheScope,
    /// `uri` is not an absolute URI.
    NotAbsoluteUri,
    /// `mimeType` is not a media type.
    InvalidMimeType,
    /// A content item has both `text` and `blob`.
    BothTextAndBlob,
    /// `blob` is not standard base64.
    InvalidBase64,
    /// The error `code` is not a known one.
    UnknownErrorCode,
}

impl SpecErrorKind {
    /// The JSON field this kind is about, if one.
    #[must_use]
    pub const fn field(self) -> Option<&'static str> {
        match self {
            Self::PositionalForm => None,
            Self::UnknownResultType => Some("resultType"),
            Self::UnknownCacheScope => Some("cacheScope"),
            Self::NotAbsoluteUri => Some("uri"),
            Self::InvalidMimeType => Some("mimeType"),
            Self::BothTextAndBlob | Self::InvalidBase64 => Some("blob"),
            Self::UnknownErrorCode => Some("code"),
        }
    }
}

impl fmt::Display for SpecErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::PositionalForm => "body is a positional array, not a JSON object",
            Self::UnknownResultType => "`resultType` is not a known result type",
            Self::UnknownCacheScope => "`cacheScope` is not \"public\" or \"private\"",
            Self::NotAbsoluteUri => "`uri` is not an absolute URI",
            Self::InvalidMimeType => "`mimeType` is not a type/subtype media type",
            Self::BothTextAndBlob => "item has both `text` and `blob`",
            Self::InvalidBase64 => "`blob` is not valid base64",
            Self::UnknownErrorCode => "error `code` is not a known JSON-RPC or MCP code",
        })
    }
}

// ----- field checks ------------------------------------------------------

/// Whether `uri` is an absolute URI in RFC 3986 syntax:
/// `scheme ":" hier-part [ "?" query ] [ "#" fragment ]`, with the
/// authority (`userinfo@`, host as reg-name, IPv4, `[IPv6]` or `[vX.…]`,
/// `:port`), path, query and fragment character sets and percent-encoding
/// checked. Raw non-ASCII (an IRI) fails: percent-encode it.
///
/// # Examples
///
/// ```
/// use diverge_frame::spec::is_absolute_uri;
///
/// assert!(is_absolute_uri("docs://getting-started"));
/// assert!(is_absolute_uri("file:///project/src/main.rs"));
/// assert!(is_absolute_uri("urn:isbn:0451450523"));
/// assert!(is_absolute_uri("http://[::1]:8080/a?b#c"));
/// assert!(!is_absolute_uri("/relative/path"));
/// assert!(!is_absolute_uri("docs://a b"));
/// assert!(!is_absolute_uri("docs://caf\u{e9}"));
/// ```
#[must_use]
pub fn is_absolute_uri(uri: &str) -> bool {
    uri_ok(uri.bytes())
}

/// Whether `mime_type` is a media type as RFC 9110 writes it:
/// `type "/" subtype *( OWS ";" OWS [ token "=" ( token / quoted-string ) ] )`.
///
/// # Examples
///
/// ```
/// use diverge_frame::spec::is_media_type;
///
/// assert!(is_media_type("text/markdown"));
/// assert!(is_media_type("text/plain; charset=utf-8"));
/// assert!(is_media_type("application/vnd.api+json"));
/// assert!(!is_media_type("text"));
/// assert!(!is_media_type("text/"));
/// assert!(!is_media_type("text/plain charset"));
/// ```
#[must_use]
pub fn is_media_type(mime_type: &str) -> bool {
    media_type_ok(mime_type.bytes())
}

/// Whether `blob` is standard base64 (RFC 4648 alphabet, `=` padding
/// optional and not beyond the last quad, no stray bits in the last
/// character): exactly what
/// [`Blob::decode_base64_into`](crate::Blob::decode_base64_into)
/// accepts for the whole text, which is what the `base64` crate's standard
/// engine accepts with optional padding.
///
/// # Examples
///
/// ```
/// use diverge_frame::spec::is_base64;
///
/// assert!(is_base64("AAE="));
/// assert!(is_base64("AAE"));
/// assert!(is_base64(""));
/// assert!(!is_base64("not base64 !!"));
/// assert!(!is_base64("AAF=")); // stray bits
/// ```
#[must_use]
pub fn is_base64(blob: &str) -> bool {
    base64_ok(StrValue::Plain(blob))
}

pub(crate) fn check_uri(uri: StrValue<'_>, item: Option<usize>) -> Result<(), SpecError> {
    if uri_ok(uri.bytes()) {
        Ok(())
    } else {
        Err(SpecError::new(SpecErrorKind::NotAbsoluteUri, item))
    }
}

pub(crate) fn check_mime_type(
    mime_type: StrValue<'_>,
    item: Option<usize>,
) -> Result<(), SpecError> {
    if media_type_ok(mime_type.bytes()) {
        Ok(())
    } else {
        Err(SpecError::new(SpecErrorKind::InvalidMimeType, item))
    }
}

pub(crate) fn check_base64(blob: StrValue<'_>, item: Option<usize>) -> Result<(), SpecError> {
    if base64_ok(blob) {
        Ok(())
    } else {
        Err(SpecError::new(SpecErrorKind::InvalidBase64, item))
    }
}

pub(crate) fn check_result_type(result_type: StrValue<'_>) -> Result<(), SpecError> {
    let known = RESULT_TYPES
        .iter()
        .any(|t| result_type.bytes().eq(t.bytes()));
    if known {
        Ok(())
    } else {
        Err(SpecError::new(SpecErrorKind::UnknownResultType, None))
    }
}

pub(crate) fn check_error_code(code: i32) -> Result<(), SpecError> {
    if is_known_error_code(code) {
        Ok(())
    } else {
        Err(SpecError::new(SpecErrorKind::UnknownErrorCode, None))
    }
}

const fn is_alpha(b: u8) -> bool {
    b.is_ascii_alphabetic()
}

const fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

const fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// `pchar` without `%` (handled by the percent state): unreserved,
/// sub-delims, `:` and `@`.
const fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || matches!(b, b':' | b'@')
}

/// Where the URI scanner is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    SchemeStart,
    Scheme,
    AfterColon,
    AfterColonSlash,
    Authority,
    IpLiteral,
    AfterIpLiteral,
    Port,
    Path,
    Query,
    Fragment,
}

/// The longest IPv6 literal (one with an embedded IPv4 address is at most
/// 45 characters; a longer one is not an `IPv6address`). An `IPvFuture`
/// literal is checked as it goes, whatever its length.
const IP_LITERAL_MAX: usize = 64;

/// Where an `IPvFuture` literal (`"v" 1*HEXDIG "." 1*( unreserved /
/// sub-delims / ":" )`) stands after its `v`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Future {
    /// Not an `IPvFuture` literal (an IPv6 address, or nothing yet).
    No,
    /// After the `v`: the version's hex digits, `hex` of them so far.
    Version { hex: bool },
    /// After the `.`: the address, `any` character of it so far.
    Address { any: bool },
}

/// RFC 3986 `URI`, one byte at a time, without a buffer beyond the IP
/// literal.
fn uri_ok(bytes: impl Iterator<Item = u8>) -> bool {
    let mut part = Part::SchemeStart;
    // Pending hex digits of a `%XX`.
    let mut pct = 0u8;
    // Authority: whether `@` was seen, colons in the host part so far, and
    // whether a non-digit followed the first of them.
    let mut at_seen = false;
    let mut host_start = true;
    let mut colons = 0u8;
    let mut non_digit_after_colon = false;
    let mut ip = [0u8; IP_LITERAL_MAX];
    let mut ip_len = 0usize;
    let mut future = Future::No;

    let authority_done = |colons: u8, non_digit: bool| colons == 0 || (colons == 1 && !non_digit);

    for b in bytes {
        if pct > 0 {
            if !b.is_ascii_hexdigit() {
                return false;
            }
            pct -= 1;
            continue;
        }
        match part {
            Part::SchemeStart => {
                if !is_alpha(b) {
                    return false;
                }
                part = Part::Scheme;
            }
            Part::Scheme => match b {
                b':' => part = Part::AfterColon,
                _ if b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.') => {}
                _ => return false,
            },
            Part::AfterColon
            | Part::AfterColonSlash
            | Part::Path
            | Part::Query
            | Part::Fragment => {
                if b == b'/' && part == Part::AfterColon {
                    part = Part::AfterColonSlash;
                    continue;
                }
                if b == b'/' && part == Part::AfterColonSlash {
                    part = Part::Authority;
                    continue;
                }
                if matches!(part, Part::AfterColon | Part::AfterColonSlash) {
                    part = Part::Path;
                }
                match b {
                    b'%' => pct = 2,
                    b'/' => {}
                    b'?' if part != Part::Fragment => part = Part::Query,
                    b'?' => {}
                    b'#' if part != Part::Fragment => part = Part::Fragment,
                    _ if is_pchar(b) => {}
                    _ => return false,
                }
            }
            Part::Authority => match b {
                b'/' | b'?' | b'#' => {
                    if !authority_done(colons, non_digit_after_colon) {
                        return false;
                    }
                    part = match b {
                        b'/' => Part::Path,
                        b'?' => Part::Query,
                        _ => Part::Fragment,
                    };
                }
                b'@' => {
                    if at_seen {
                        return false;
                    }
                    at_seen = true;
                    host_start = true;
                    colons = 0;
                    non_digit_after_colon = false;
                }
                b'[' if host_start => {
                    part = Part::IpLiteral;
                    ip_len = 0;
                    future = Future::No;
                }
                b':' => {
                    host_start = false;
                    colons = colons.saturating_add(1);
                }
                b'%' => {
                    host_start = false;
                    non_digit_after_colon |= colons > 0;
                    pct = 2;
                }
                _ if is_unreserved(b) || is_sub_delim(b) => {
                    host_start = false;
                    non_digit_after_colon |= colons > 0 && !b.is_ascii_digit();
                }
                _ => return false,
            },
            Part::IpLiteral => {
                future = match (future, b) {
                    (Future::No, b']') | (Future::Address { any: true }, b']') => {
                        if future == Future::No && !ipv6_ok(ip.get(..ip_len).unwrap_or_default()) {
                            return false;
                        }
                        part = Part::AfterIpLiteral;
                        continue;
                    }
                    (Future::No, b'v' | b'V') if ip_len == 0 => Future::Version { hex: false },
                    (Future::No, _) => {
                        let Some(slot) = ip.get_mut(ip_len) else {
                            return false;
                        };
                        *slot = b;
                        ip_len += 1;
                        Future::No
                    }
                    (Future::Version { .. }, _) if b.is_ascii_hexdigit() => {
                        Future::Version { hex: true }
                    }
                    (Future::Version { hex: true }, b'.') => Future::Address { any: false },
                    (Future::Address { .. }, _)
                        if is_unreserved(b) || is_sub_delim(b) || b == b':' =>
                    {
                        Future::Address { any: true }
                    }
                    _ => return false,
                };
            }
            Part::AfterIpLiteral | Part::Port => match b {
                b':' if part == Part::AfterIpLiteral => part = Part::Port,
                b'0'..=b'9' if part == Part::Port => {}
                b'/' => part = Part::Path,
                b'?' => part = Part::Query,
                b'#' => part = Part::Fragment,
                _ => return false,
            },
        }
    }
    if pct > 0 {
        return false;
    }
    match part {
        Part::SchemeStart | Part::Scheme | Part::IpLiteral => false,
        Part::Authority => authority_done(colons, non_digit_after_colon),
        _ => true,
    }
}

/// RFC 3986 `IPv6address`.
fn ipv6_ok(s: &[u8]) -> bool {
    let double = s.windows(2).position(|w| w == b"::");
    let (head, tail) = match double {
        Some(i) => {
            let (h, t) = s.split_at(i);
            let t = t.get(2..).unwrap_or_default();
            if t.windows(2).any(|w| w == b"::") {
                return false;
            }
            (h, Some(t))
        }
        None => (s, None),
    };
    let Some(head_groups) = h16_groups(head, tail.is_none()) else {
        return false;
    };
    match tail {
        None => head_groups == 8,
        Some(t) => h16_groups(t, true).is_some_and(|n| head_groups + n <= 7),
    }
}

/// Counts the 16-bit groups of `h16 *(":" h16)`, the last of which may be an
/// IPv4 address (two groups) when `v4_last`; `None` if malformed.
fn h16_groups(s: &[u8], v4_last: bool) -> Option<usize> {
    if s.is_empty() {
        return Some(0);
    }
    let mut groups = 0usize;
    let mut pieces = s.split(|&b| b == b':').peekable();
    while let Some(piece) = pieces.next() {
        let last = pieces.peek().is_none();
        if (1..=4).contains(&piece.len()) && piece.iter().all(u8::is_ascii_hexdigit) {
            groups += 1;
        } else if last && v4_last && ipv4_ok(piece) {
            groups += 2;
        } else {
            return None;
        }
    }
    Some(groups)
}

/// RFC 3986 `IPv4address`: four `dec-octet`s, no leading zeros.
fn ipv4_ok(s: &[u8]) -> bool {
    let mut n = 0;
    for octet in s.split(|&b| b == b'.') {
        n += 1;
        let valid = match octet {
            [d] => d.is_ascii_digit(),
            [b'1'..=b'9', rest @ ..] if rest.len() <= 2 && rest.iter().all(u8::is_ascii_digit) => {
                octet
                    .iter()
                    .fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'))
                    <= 255
            }
            _ => false,
        };
        if !valid {
            return false;
        }
    }
    n == 4
}

/// RFC 9110 `tchar`.
const fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'.'
                | b'^'
                | b'_'
                | b'`'
                | b'|'
                | b'~'
        )
}

/// Where the media-type scanner is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mt {
    TypeStart,
    Type,
    SubtypeStart,
    Subtype,
    /// OWS before `;` (after the subtype or a parameter value).
    Ows,
    /// OWS after `;`, before an optional parameter.
    AfterSemi,
    Name,
    ValueStart,
    Token,
    Quoted,
    QuotedPair,
    AfterQuoted,
}

/// RFC 9110 `media-type`, one byte at a time.
fn media_type_ok(bytes: impl Iterator<Item = u8>) -> bool {
    let mut st = Mt::TypeStart;
    for b in bytes {
        st = match (st, b) {
            (Mt::TypeStart | Mt::Type, _) if is_tchar(b) => Mt::Type,
            (Mt::Type, b'/') => Mt::SubtypeStart,
            (Mt::SubtypeStart | Mt::Subtype, _) if is_tchar(b) => Mt::Subtype,
            (Mt::Subtype | Mt::Token | Mt::AfterQuoted | Mt::Ows, b' ' | b'\t') => Mt::Ows,
            (Mt::Subtype | Mt::Token | Mt::AfterQuoted | Mt::Ows | Mt::AfterSemi, b';') => {
                Mt::AfterSemi
            }
            (Mt::AfterSemi, b' ' | b'\t') => Mt::AfterSemi,
            (Mt::AfterSemi | Mt::Name, _) if is_tchar(b) => Mt::Name,
            (Mt::Name, b'=') => Mt::ValueStart,
            (Mt::ValueStart | Mt::Token, _) if is_tchar(b) => Mt::Token,
            (Mt::ValueStart, b'"') => Mt::Quoted,
            (Mt::Quoted, b'"') => Mt::AfterQuoted,
            (Mt::Quoted, b'\\') => Mt::QuotedPair,
            (Mt::Quoted, b'\t' | b' ' | 0x21 | 0x23..=0x5b | 0x5d..=0x7e | 0x80..=0xff) => {
                Mt::Quoted
            }
            (Mt::QuotedPair, b'\t' | b' ' | 0x21..=0x7e | 0x80..=0xff) => Mt::Quoted,
            _ => return false,
        };
    }
    matches!(
        st,
        Mt::Subtype | Mt::AfterSemi | Mt::Token | Mt::AfterQuoted
    )
}

/// A decoded blob given to an encoder (`blob_base64`) as it was spelled.
impl<'a> From<Blob<'a>> for StrValue<'a> {
    fn from(blob: Blob<'a>) -> Self {
        Self::Json(blob.text())
    }
}

/// Standard base64 as the blob decoder accepts it: alphabet
/// `A-Z a-z 0-9 + /`, optional `=` padding not beyond the last quad,
/// zero stray bits. The decoder itself checks it, with no room to store.
fn base64_ok(blob: StrValue<'_>) -> bool {
    let mut decoder = Decoder::new(&mut []);
    match blob {
        StrValue::Plain(s) => decoder.feed(s.as_bytes()),
        StrValue::Json(s) => Blob::new(s).feed_base64(&mut decoder),
    }
    !matches!(decoder.finish(), Err(DecodeError::Invalid(_)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;

    #[test]
    fn uris() {
        for ok in [
            "a:",
            "a:b",
            "a:/",
            "a://",
            "docs://x",
            "ui://widget/1",
            "urn:example:a%20b",
            "https://user:pw@host.example:8443/p/a;x=1?q=1&r=/?#frag/?",
            "http://[2001:db8::7]/c=GB?objectClass?one",
            "http://[::ffff:192.0.2.1]:80/",
            "http://[v7.fe80::a+en1]/",
            // An `IPvFuture` literal has no length limit (found by the
            // `spec` fuzz target: one of 90 characters was refused).
            "http://[v7.fe8en1fexxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx8en1]",
            "http://[VaF.x]:1",
            "ldap://[2001:db8::7]",
            "mailto:John.Doe@example.com",
            "tel:+1-816-555-1212",
            "http://127.0.0.1:/",
            "file:///C:/x",
        ] {
            assert!(is_absolute_uri(ok), "{ok}");
        }
        for bad in [
            "",
            ":x",
            "1a:b",
            "a",
            "a b:c",
            "a:b c",
            "a:%2",
            "a:%zz",
            "http://a:b:c/",
            "http://host:8x/",
            "http://a@b@c/",
            "http://[::1/",
            "http://[::1]x/",
            "http://[1:2:3:4:5:6:7:8:9]/",
            "http://[1::2::3]/",
            "http://[::256.0.0.1]/",
            "http://[v7.]/",
            "http://[v.a]/",
            "http://[vg.a]/",
            "http://[v1.a/b]/",
            "http://x/#a#b",
            "a:<b>",
            "caf\u{e9}:x",
        ] {
            assert!(!is_absolute_uri(bad), "{bad}");
        }
    }

    #[test]
    fn ipv6_forms() {
        for ok in [
            "::",
            "::1",
            "1::",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:1.2.3.4",
            "::1.2.3.4",
            "1::2:3",
        ] {
            assert!(ipv6_ok(ok.as_bytes()), "{ok}");
        }
        for bad in [
            "",
            ":",
            ":::",
            "1:2:3:4:5:6:7",
            "1:2:3:4:5:6:7:8:9",
            "12345::",
            "1.2.3.4::",
            "::01.2.3.4",
            "1::2::3",
        ] {
            assert!(!ipv6_ok(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn media_types() {
        for ok in [
            "a/b",
            "text/plain;charset=utf-8",
            "text/plain ; a=b;c=\"x\\\"y\"",
            "text/plain;",
            "x/y; ;a=b",
        ] {
            assert!(is_media_type(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "a/",
            "/b",
            "a/b/c",
            "a/b ",
            "a/b;c",
            "a/b;c=",
            "a/b;c=\"x",
            "a b/c",
            "a/b;=c",
        ] {
            assert!(!is_media_type(bad), "{bad}");
        }
    }

    /// The validator agrees with the base64 engine the blob decoder uses,
    /// on every string of up to 7 characters from a small alphabet.
    #[test]
    fn base64_agrees_with_the_decoder() {
        const ENGINE: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
        );
        let alphabet = *b"ABQg/=*";
        let mut checked = 0usize;
        let longest = if cfg!(miri) { 3 } else { 7 };
        for len in 0..=longest {
            for mut n in 0..alphabet.len().pow(len) {
                let mut s = [0u8; 7];
                for slot in s.iter_mut().take(len as usize) {
                    *slot = alphabet.get(n % alphabet.len()).copied().unwrap_or(b'A');
                    n /= alphabet.len();
                }
                let s = s.get(..len as usize).unwrap_or_default();
                let mut out = [0u8; 8];
                let engine = ENGINE.decode_slice(s, &mut out).is_ok();
                assert_eq!(
                    base64_ok(StrValue::Plain(core::str::from_utf8(s).unwrap_or_default())),
                    engine,
                    "{:?}",
                    core::str::from_utf8(s)
                );
                checked += 1;
            }
        }
        assert!(checked > if cfg!(miri) { 300 } else { 900_000 });
    }

    #[test]
    fn error_codes() {
        for ok in [
            PARSE_ERROR,
            INVALID_REQUEST,
            METHOD_NOT_FOUND,
            INVALID_PARAMS,
            INTERNAL_ERROR,
            RESOURCE_NOT_FOUND,
            -32000,
            -32099,
            -32020,
        ] {
            assert!(is_known_error_code(ok));
        }
        for bad in [
            0,
            1,
            -1,
            404,
            -32100,
            -32604,
            -32768,
            -31999,
            i32::MIN,
            i32::MAX,
        ] {
            assert!(!is_known_error_code(bad));
        }
    }

    #[test]
    fn result_type_check_reads_escapes() {
        let s = JsonStr::new(br"compl\u0065te", true);
        assert!(check_result_type(s.into()).is_ok());
        assert!(check_result_type("complete!".into()).is_err());
    }

    #[test]
    fn unescaped_bytes_of_json_str() {
        let s = JsonStr::new(br"a\u00e9\/b\ud83d\ude00", true);
        let mut got: heapless::Vec<u8, 32> = heapless::Vec::new();
        for b in StrValue::from(s).bytes() {
            got.push(b).ok();
        }
        assert_eq!(got.as_slice(), "aé/b😀".as_bytes());
    }
}
