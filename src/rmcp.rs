//! Conversions between the views and the `rmcp` types, plus an owned decode
//! and an encoder with the reference's signatures (feature `alloc`).
//!
//! **Host-only.** `rmcp` needs `std` (it depends on tokio), so this module
//! needs it too; everything outside it stays `no_std` and allocation-free.
//!
//! * [`decode_frame`] / [`decode_request`]: the reference decoder
//!   (`serde_json::from_slice` into the `rmcp` 3.11.0 types), computed as
//!   [`Frame::decode`] / [`RequestView::decode`] followed by a conversion.
//!   They accept exactly what the views accept, and the values are equal to
//!   the reference's.
//! * `From` impls turn each view into its `rmcp` type. They are plain `From`
//!   (not `TryFrom`): a view exists only for input the reference accepts, so
//!   it always converts. Strings are unescaped from the validated text
//!   ([`JsonStr::fragments`]), and `_meta`, `data` and `inputResponses` are
//!   built from their validated [`RawJson`] without handing them to
//!   `serde_json` again (numbers follow serde_json's own parse, including its
//!   not always correctly rounded floats, so they are bit-for-bit the
//!   reference's).
//! * [`encode_frame`] / [`encode_request`]: the bytes `serde_json::to_vec`
//!   writes (after the tag byte), into a caller's buffer.
//!
//! # Example
//!
//! ```
//! use diverge_frame::rmcp::{OwnedFrame, decode_frame, encode_frame};
//! use rmcp::model::ResourceContents;
//!
//! let bytes = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"caf\\u00e9\"}],\"ttlMs\":-5}";
//! let frame = decode_frame(bytes)?;
//! let OwnedFrame::Result(result) = &frame else { unreachable!() };
//! assert_eq!(result.ttl_ms, Some(0)); // negative ttlMs is clamped, as the reference does
//! let ResourceContents::TextResourceContents { text, .. } = &result.contents[0] else { unreachable!() };
//! assert_eq!(text, "café");
//!
//! let mut out = [0u8; 128];
//! let n = encode_frame(&frame, &mut out)?;
//! assert_eq!(&out[..n], b"\x00{\"ttlMs\":0,\"contents\":[{\"uri\":\"docs://a\",\"text\":\"caf\xc3\xa9\"}]}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # One-way cases
//!
//! Decoding is the reference's, so it normalises what the reference
//! normalises; encoding the decoded value then gives the reference's
//! canonical bytes, not the input:
//!
//! * `"data": null` decodes to `data: None` (encoded without `data`); the
//!   same holds for every `Option` field set to `null` (`_meta`, `mimeType`,
//!   `resultType`, `ttlMs`, `cacheScope`, `inputResponses`, `requestState`).
//! * `ttlMs` below zero decodes to `Some(0)`.
//! * `cacheScope` `""` decodes to `None`; `{"public":null}` to `Public`.
//! * An item with both `text` and `blob` decodes to text; the blob is dropped.
//! * Unknown members are dropped; the positional (array) form of a struct is
//!   accepted and encodes as an object.
//! * In `_meta`, `data` and `inputResponses`, duplicate keys keep the last
//!   value and keys encode sorted; `-0` becomes `-0.0`, `1E3` becomes
//!   `1000.0`, integers beyond 64 bits become (lossy) floats.
//! * Escapes are resolved (`"\u0041\/"` encodes as `"A/"`).
//!
//! # The reference's features
//!
//! The reference is `serde_json` with its default features (no
//! `float_roundtrip`, `arbitrary_precision` or `preserve_order`); the
//! decoder's number checks assume the same. If a build enables one of them,
//! `serde_json::from_slice` itself changes (floats parse correctly rounded,
//! numbers keep their text, maps keep input order); this module does not
//! follow, and `cargo tree -e features -i serde_json` shows whether it
//! happened.

extern crate std;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use std::io;

use rmcp::ErrorData;
use rmcp::model::{
    CacheScope as RmcpCacheScope, ErrorCode, MetaObject, ReadResourceRequestParams,
    ReadResourceResult, RequestMetaObject, ResourceContents, ResultType,
};
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::error::{BodyError, EncodeError, FrameError};
use crate::frame::{Frame, Tag};
use crate::json::skip;
use crate::json::str::{Fragment, JsonStr, RawJson};
use crate::view::error::ErrorView;
use crate::view::request::RequestView;
use crate::view::result::{Body, CacheScope, Content, ResultView};

/// A decoded response frame, as the reference decoder returns it.
#[derive(Debug, Clone, PartialEq)]
pub enum OwnedFrame {
    /// Tag `0`: the resource's contents.
    Result(ReadResourceResult),
    /// Tag `1`: the server refused or could not answer.
    Error(ErrorData),
}

impl OwnedFrame {
    /// The frame's tag.
    #[must_use]
    pub const fn tag(&self) -> Tag {
        match self {
            Self::Result(_) => Tag::Result,
            Self::Error(_) => Tag::Error,
        }
    }
}

impl From<ReadResourceResult> for OwnedFrame {
    fn from(result: ReadResourceResult) -> Self {
        Self::Result(result)
    }
}

impl From<ErrorData> for OwnedFrame {
    fn from(error: ErrorData) -> Self {
        Self::Error(error)
    }
}

/// Decodes a response frame into the `rmcp` types: the reference decoder.
///
/// Validates with [`Frame::decode`], then converts the view.
///
/// # Errors
///
/// [`FrameError::Empty`], [`FrameError::UnknownTag`] or [`FrameError::Body`],
/// exactly when the reference rejects the bytes.
///
/// # Examples
///
/// ```
/// use diverge_frame::FrameError;
/// use diverge_frame::rmcp::{OwnedFrame, decode_frame};
///
/// let frame = decode_frame(b"\x01{\"code\":-32002,\"message\":\"Resource not found\",\"data\":null}")?;
/// let OwnedFrame::Error(error) = frame else { unreachable!() };
/// assert_eq!(error.code.0, -32002);
/// assert_eq!(error.data, None); // `"data": null` reads as absent
/// assert_eq!(decode_frame(b"\x02{}"), Err(FrameError::UnknownTag(2)));
/// # Ok::<(), FrameError>(())
/// ```
pub fn decode_frame(bytes: &[u8]) -> Result<OwnedFrame, FrameError> {
    Frame::decode(bytes).map(OwnedFrame::from)
}

/// Decodes request JSON into `ReadResourceRequestParams`: the reference
/// decoder.
///
/// # Errors
///
/// [`BodyError`] exactly when the reference rejects the bytes.
///
/// # Examples
///
/// ```
/// use diverge_frame::rmcp::decode_request;
///
/// let req = decode_request(br#"{"uri":"docs://x","_meta":{"progressToken":7,"progressToken":8}}"#)?;
/// assert_eq!(req.uri, "docs://x");
/// assert_eq!(req.meta.unwrap().get("progressToken"), Some(&serde_json::json!(8)));
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
pub fn decode_request(bytes: &[u8]) -> Result<ReadResourceRequestParams, BodyError> {
    RequestView::decode(bytes).map(ReadResourceRequestParams::from)
}

/// Encodes a frame into `out`: the tag byte, then what `serde_json::to_vec`
/// writes for the value. Returns the number of bytes written.
///
/// # Errors
///
/// [`EncodeError::BufferFull`] when `out` is too short (see
/// [`encoded_frame_len`]); the bytes written so far are then meaningless.
///
/// # Examples
///
/// ```
/// use diverge_frame::rmcp::{OwnedFrame, encode_frame};
/// use rmcp::ErrorData;
///
/// let frame = OwnedFrame::Error(ErrorData::invalid_params("bad", None));
/// let mut out = [0u8; 64];
/// let n = encode_frame(&frame, &mut out)?;
/// assert_eq!(&out[..n], b"\x01{\"code\":-32602,\"message\":\"bad\"}");
/// assert!(encode_frame(&frame, &mut out[..8]).is_err());
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub fn encode_frame(frame: &OwnedFrame, out: &mut [u8]) -> Result<usize, EncodeError> {
    let (tag, body) = out.split_first_mut().ok_or(EncodeError::BufferFull)?;
    *tag = frame.tag().byte();
    let written = match frame {
        OwnedFrame::Result(result) => write_into(result, body)?,
        OwnedFrame::Error(error) => write_into(error, body)?,
    };
    Ok(written + 1)
}

/// Encodes request JSON into `out`: what `serde_json::to_vec` writes for the
/// value. Returns the number of bytes written.
///
/// # Errors
///
/// [`EncodeError::BufferFull`] when `out` is too short (see
/// [`encoded_request_len`]); the bytes written so far are then meaningless.
///
/// # Examples
///
/// ```
/// use diverge_frame::rmcp::encode_request;
/// use rmcp::model::ReadResourceRequestParams;
///
/// let mut out = [0u8; 64];
/// let n = encode_request(&ReadResourceRequestParams::new("docs://x"), &mut out)?;
/// assert_eq!(&out[..n], br#"{"uri":"docs://x"}"#);
/// # Ok::<(), diverge_frame::EncodeError>(())
/// ```
pub fn encode_request(
    request: &ReadResourceRequestParams,
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    write_into(request, out)
}

/// [`encode_frame`] into a new `Vec`.
#[must_use]
pub fn encode_frame_to_vec(frame: &OwnedFrame) -> Vec<u8> {
    let mut out = Vec::with_capacity(encoded_frame_len(frame));
    out.push(frame.tag().byte());
    match frame {
        OwnedFrame::Result(result) => write_vec(result, &mut out),
        OwnedFrame::Error(error) => write_vec(error, &mut out),
    }
    out
}

/// [`encode_request`] into a new `Vec`.
#[must_use]
pub fn encode_request_to_vec(request: &ReadResourceRequestParams) -> Vec<u8> {
    let mut out = Vec::with_capacity(encoded_request_len(request));
    write_vec(request, &mut out);
    out
}

/// The exact number of bytes [`encode_frame`] writes for `frame`.
#[must_use]
pub fn encoded_frame_len(frame: &OwnedFrame) -> usize {
    1 + match frame {
        OwnedFrame::Result(result) => count(result),
        OwnedFrame::Error(error) => count(error),
    }
}

/// The exact number of bytes [`encode_request`] writes for `request`.
#[must_use]
pub fn encoded_request_len(request: &ReadResourceRequestParams) -> usize {
    count(request)
}

/// Serializes into a bounded slice. The only failure `serde_json` can report
/// here is the writer's: the rmcp types have string keys only, and a
/// `serde_json::Number` cannot hold a non-finite float.
fn write_into<T: Serialize>(value: &T, out: &mut [u8]) -> Result<usize, EncodeError> {
    let mut writer = SliceWriter { buf: out, len: 0 };
    serde_json::to_writer(&mut writer, value).map_err(|_| EncodeError::BufferFull)?;
    Ok(writer.len)
}

/// Serializes into a `Vec`, which cannot fail (see [`write_into`]).
fn write_vec<T: Serialize>(value: &T, out: &mut Vec<u8>) {
    let result = serde_json::to_writer(out, value);
    debug_assert!(
        result.is_ok(),
        "serializing an rmcp value into a Vec failed"
    );
}

/// The length of the serialization, without writing it anywhere.
fn count<T: Serialize>(value: &T) -> usize {
    let mut counter = Counter(0);
    let result = serde_json::to_writer(&mut counter, value);
    debug_assert!(
        result.is_ok(),
        "serializing an rmcp value into a counter failed"
    );
    counter.0
}

/// An `io::Write` into a fixed slice that refuses, rather than cuts, a write
/// that does not fit.
struct SliceWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl io::Write for SliceWriter<'_> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        let end = self.len.checked_add(data.len());
        match end.and_then(|end| self.buf.get_mut(self.len..end).map(|dst| (end, dst))) {
            Some((end, dst)) => {
                dst.copy_from_slice(data);
                self.len = end;
                Ok(data.len())
            }
            None => Err(io::ErrorKind::WriteZero.into()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An `io::Write` that only counts.
struct Counter(usize);

impl io::Write for Counter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.0 = self.0.saturating_add(data.len());
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

// ----- views -> rmcp ---------------------------------------------------------

impl From<Frame<'_>> for OwnedFrame {
    fn from(frame: Frame<'_>) -> Self {
        match frame {
            Frame::Result(result) => Self::Result(result.into()),
            Frame::Error(error) => Self::Error(error.into()),
        }
    }
}

impl From<RequestView<'_>> for ReadResourceRequestParams {
    fn from(view: RequestView<'_>) -> Self {
        let mut params = Self::new(String::from(view.uri()));
        params.meta = view
            .meta()
            .map(|m| RequestMetaObject(MetaObject(object(m))));
        params.input_responses = view.input_responses().map(|m| {
            let mut map = BTreeMap::new();
            for (key, value) in m.members() {
                map.insert(String::from(key), Value::from(value));
            }
            map
        });
        params.request_state = view.request_state().map(String::from);
        params
    }
}

impl From<ResultView<'_>> for ReadResourceResult {
    fn from(view: ResultView<'_>) -> Self {
        let mut result = Self::new(view.contents().map(ResourceContents::from).collect());
        result.result_type = view.result_type().and_then(result_type);
        result.ttl_ms = view.ttl_ms();
        result.cache_scope = view.cache_scope().map(RmcpCacheScope::from);
        result.meta = view.meta().map(|m| MetaObject(object(m)));
        result
    }
}

impl From<Content<'_>> for ResourceContents {
    fn from(item: Content<'_>) -> Self {
        let uri = String::from(item.uri());
        let mime_type = item.mime_type().map(String::from);
        let meta = item.meta().map(|m| MetaObject(object(m)));
        match item.body() {
            Body::Text(text) => Self::TextResourceContents {
                uri,
                mime_type,
                text: text.into(),
                meta,
            },
            Body::Blob(blob) => Self::BlobResourceContents {
                uri,
                mime_type,
                blob: blob.into(),
                meta,
            },
        }
    }
}

impl From<ErrorView<'_>> for ErrorData {
    fn from(view: ErrorView<'_>) -> Self {
        Self::new(
            ErrorCode(view.code()),
            String::from(view.message()),
            view.data().map(Value::from),
        )
    }
}

impl From<CacheScope> for RmcpCacheScope {
    fn from(scope: CacheScope) -> Self {
        match scope {
            CacheScope::Public => Self::Public,
            CacheScope::Private => Self::Private,
        }
    }
}

impl From<JsonStr<'_>> for String {
    /// The unescaped string: one allocation of the raw length (unescaping
    /// never lengthens validated text), runs copied a word at a time, one
    /// UTF-8 check of the result.
    fn from(text: JsonStr<'_>) -> Self {
        let raw = text.raw();
        let bytes = if text.is_escaped() {
            let mut buf = alloc::vec![0u8; raw.len()];
            match skip::unescape(raw, &mut buf) {
                Some(n) => {
                    buf.truncate(n);
                    buf
                }
                // Not reached on validated text; the careful path is exact.
                None => return unescape_by_fragments(text),
            }
        } else {
            raw.to_vec()
        };
        Self::from_utf8(bytes).unwrap_or_else(|_| unescape_by_fragments(text))
    }
}

/// The unescaped string, fragment by fragment (no assumption on the text).
fn unescape_by_fragments(text: JsonStr<'_>) -> String {
    let mut out = String::with_capacity(text.raw().len());
    for fragment in text.fragments() {
        match fragment {
            Fragment::Str(run) => out.push_str(run),
            Fragment::Char(c) => out.push(c),
        }
    }
    out
}

impl From<RawJson<'_>> for Value {
    /// The `serde_json::Value` the reference parses from the same text.
    fn from(raw: RawJson<'_>) -> Self {
        value(raw.as_bytes())
    }
}

/// `resultType`: rmcp keeps `"complete"` and `"input_required"` as constants and
/// any other string as is; its `Deserialize` is the only public constructor
/// for an arbitrary string, and from a string it cannot fail.
fn result_type(text: JsonStr<'_>) -> Option<ResultType> {
    serde::Deserialize::deserialize(Value::String(text.into())).ok()
}

/// A validated object's members, the last of equal keys winning (as
/// `serde_json::Map::insert` does for the reference).
fn object(raw: RawJson<'_>) -> Map<String, Value> {
    let mut map = Map::new();
    for (key, val) in raw.members() {
        map.insert(key.into(), val.into());
    }
    map
}

/// A validated value's text as a `Value`. Recursion is bounded by the
/// validated depth (at most 127 levels).
fn value(raw: &[u8]) -> Value {
    match raw.split_first() {
        Some((b'{', _)) => Value::Object(object(RawJson::new(raw))),
        Some((b'[', mut rest)) => {
            let mut items = Vec::new();
            while let Some((item, next)) = skip::next_element(rest) {
                items.push(value(item));
                rest = next;
            }
            Value::Array(items)
        }
        Some((b'"', tail)) => {
            let (text, escaped, _) = skip::string(tail);
            Value::String(JsonStr::new(text, escaped).into())
        }
        Some((b't', _)) => Value::Bool(true),
        Some((b'f', _)) => Value::Bool(false),
        Some((b'-' | b'0'..=b'9', _)) => number(raw),
        _ => Value::Null,
    }
}

// ----- numbers: serde_json 1.0.154's parse, without float_roundtrip -----------

/// A validated number literal as serde_json parses it into a `Value`: `u64`
/// for non-negative integers that fit, `i64` for negative ones that fit,
/// otherwise `f64` computed by serde_json's own (not always correctly
/// rounded) algorithm, which this follows step by step.
fn number(raw: &[u8]) -> Value {
    let (positive, digits) = match raw.split_first() {
        Some((b'-', rest)) => (false, rest),
        _ => (true, raw),
    };
    let mut p = NumParser {
        rest: digits,
        positive,
    };
    match p.integer() {
        Parsed::U64(n) => Value::Number(n.into()),
        Parsed::I64(n) => Value::Number(n.into()),
        // A float out of range is impossible after validation; serde_json's
        // `Value` visitor would never see one either.
        Parsed::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

enum Parsed {
    U64(u64),
    I64(i64),
    F64(f64),
}

struct NumParser<'a> {
    rest: &'a [u8],
    positive: bool,
}

/// serde_json's `overflow!(significand * 10 + digit, u64::MAX)`.
const fn overflows(significand: u64, digit: u64) -> bool {
    significand >= u64::MAX / 10 && (significand > u64::MAX / 10 || digit > u64::MAX % 10)
}

impl NumParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.rest.first().copied()
    }

    fn bump(&mut self) {
        self.rest = self.rest.get(1..).unwrap_or_default();
    }

    fn digit(&self) -> Option<u8> {
        self.peek().filter(u8::is_ascii_digit).map(|c| c - b'0')
    }

    fn signed(&self, f: f64) -> f64 {
        if self.positive { f } else { -f }
    }

    /// `parse_integer` + `parse_number`.
    fn integer(&mut self) -> Parsed {
        let mut significand = 0u64;
        if let Some(first) = self.digit() {
            self.bump();
            significand = u64::from(first);
            if first != 0 {
                while let Some(d) = self.digit() {
                    let d = u64::from(d);
                    if overflows(significand, d) {
                        return Parsed::F64(self.long_integer(significand));
                    }
                    self.bump();
                    significand = significand * 10 + d;
                }
            }
        }
        match self.peek() {
            Some(b'.') => Parsed::F64(self.decimal(significand, 0)),
            Some(b'e' | b'E') => Parsed::F64(self.exponent(significand, 0)),
            _ if self.positive => Parsed::U64(significand),
            _ => {
                // serde_json's own test for `-0` and for magnitudes beyond i64.
                #[allow(clippy::cast_possible_wrap)]
                let neg = (significand as i64).wrapping_neg();
                #[allow(clippy::cast_precision_loss)]
                let f = -(significand as f64);
                if neg >= 0 {
                    Parsed::F64(f)
                } else {
                    Parsed::I64(neg)
                }
            }
        }
    }

    /// `parse_long_integer`: digits past u64 only scale the exponent.
    fn long_integer(&mut self, significand: u64) -> f64 {
        let mut exponent = 0i32;
        loop {
            match self.peek() {
                Some(b'0'..=b'9') => {
                    self.bump();
                    exponent = exponent.wrapping_add(1);
                }
                Some(b'.') => return self.decimal(significand, exponent),
                Some(b'e' | b'E') => return self.exponent(significand, exponent),
                _ => return self.f64_from_parts(significand, exponent),
            }
        }
    }

    /// `parse_decimal` (and `parse_decimal_overflow`): `pos` at the `.`.
    fn decimal(&mut self, mut significand: u64, before: i32) -> f64 {
        self.bump();
        let mut after = 0i32;
        while let Some(d) = self.digit() {
            let d = u64::from(d);
            if overflows(significand, d) {
                let exponent = before.wrapping_add(after);
                while self.digit().is_some() {
                    self.bump();
                }
                return match self.peek() {
                    Some(b'e' | b'E') => self.exponent(significand, exponent),
                    _ => self.f64_from_parts(significand, exponent),
                };
            }
            self.bump();
            significand = significand * 10 + d;
            after = after.wrapping_sub(1);
        }
        let exponent = before.wrapping_add(after);
        match self.peek() {
            Some(b'e' | b'E') => self.exponent(significand, exponent),
            _ => self.f64_from_parts(significand, exponent),
        }
    }

    /// `parse_exponent` (and `parse_exponent_overflow`): `pos` at the `e`.
    fn exponent(&mut self, significand: u64, starting: i32) -> f64 {
        self.bump();
        let positive_exp = match self.peek() {
            Some(b'+') => {
                self.bump();
                true
            }
            Some(b'-') => {
                self.bump();
                false
            }
            _ => true,
        };
        let mut exp = 0i32;
        while let Some(d) = self.digit() {
            self.bump();
            let d = i32::from(d);
            if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
                if significand != 0 && positive_exp {
                    return f64::INFINITY; // out of range: rejected by validation
                }
                return self.signed(0.0);
            }
            exp = exp * 10 + d;
        }
        let exponent = if positive_exp {
            starting.saturating_add(exp)
        } else {
            starting.saturating_sub(exp)
        };
        self.f64_from_parts(significand, exponent)
    }

    /// `f64_from_parts` without `float_roundtrip`.
    fn f64_from_parts(&self, significand: u64, mut exponent: i32) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let mut f = significand as f64;
        loop {
            match POW10.get(exponent.unsigned_abs() as usize) {
                Some(&pow) => {
                    if exponent >= 0 {
                        f *= pow;
                        if f.is_infinite() {
                            return f; // out of range: rejected by validation
                        }
                    } else {
                        f /= pow;
                    }
                    break;
                }
                None => {
                    if f == 0.0 {
                        break;
                    }
                    if exponent >= 0 {
                        return f64::INFINITY; // out of range: rejected by validation
                    }
                    f /= 1e308;
                    exponent += 308;
                }
            }
        }
        self.signed(f)
    }
}

#[rustfmt::skip]
static POW10: [f64; 309] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
    1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
    1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29,
    1e30, 1e31, 1e32, 1e33, 1e34, 1e35, 1e36, 1e37, 1e38, 1e39,
    1e40, 1e41, 1e42, 1e43, 1e44, 1e45, 1e46, 1e47, 1e48, 1e49,
    1e50, 1e51, 1e52, 1e53, 1e54, 1e55, 1e56, 1e57, 1e58, 1e59,
    1e60, 1e61, 1e62, 1e63, 1e64, 1e65, 1e66, 1e67, 1e68, 1e69,
    1e70, 1e71, 1e72, 1e73, 1e74, 1e75, 1e76, 1e77, 1e78, 1e79,
    1e80, 1e81, 1e82, 1e83, 1e84, 1e85, 1e86, 1e87, 1e88, 1e89,
    1e90, 1e91, 1e92, 1e93, 1e94, 1e95, 1e96, 1e97, 1e98, 1e99,
    1e100, 1e101, 1e102, 1e103, 1e104, 1e105, 1e106, 1e107, 1e108, 1e109,
    1e110, 1e111, 1e112, 1e113, 1e114, 1e115, 1e116, 1e117, 1e118, 1e119,
    1e120, 1e121, 1e122, 1e123, 1e124, 1e125, 1e126, 1e127, 1e128, 1e129,
    1e130, 1e131, 1e132, 1e133, 1e134, 1e135, 1e136, 1e137, 1e138, 1e139,
    1e140, 1e141, 1e142, 1e143, 1e144, 1e145, 1e146, 1e147, 1e148, 1e149,
    1e150, 1e151, 1e152, 1e153, 1e154, 1e155, 1e156, 1e157, 1e158, 1e159,
    1e160, 1e161, 1e162, 1e163, 1e164, 1e165, 1e166, 1e167, 1e168, 1e169,
    1e170, 1e171, 1e172, 1e173, 1e174, 1e175, 1e176, 1e177, 1e178, 1e179,
    1e180, 1e181, 1e182, 1e183, 1e184, 1e185, 1e186, 1e187, 1e188, 1e189,
    1e190, 1e191, 1e192, 1e193, 1e194, 1e195, 1e196, 1e197, 1e198, 1e199,
    1e200, 1e201, 1e202, 1e203, 1e204, 1e205, 1e206, 1e207, 1e208, 1e209,
    1e210, 1e211, 1e212, 1e213, 1e214, 1e215, 1e216, 1e217, 1e218, 1e219,
    1e220, 1e221, 1e222, 1e223, 1e224, 1e225, 1e226, 1e227, 1e228, 1e229,
    1e230, 1e231, 1e232, 1e233, 1e234, 1e235, 1e236, 1e237, 1e238, 1e239,
    1e240, 1e241, 1e242, 1e243, 1e244, 1e245, 1e246, 1e247, 1e248, 1e249,
    1e250, 1e251, 1e252, 1e253, 1e254, 1e255, 1e256, 1e257, 1e258, 1e259,
    1e260, 1e261, 1e262, 1e263, 1e264, 1e265, 1e266, 1e267, 1e268, 1e269,
    1e270, 1e271, 1e272, 1e273, 1e274, 1e275, 1e276, 1e277, 1e278, 1e279,
    1e280, 1e281, 1e282, 1e283, 1e284, 1e285, 1e286, 1e287, 1e288, 1e289,
    1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299,
    1e300, 1e301, 1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The number port against serde_json itself, on tricky literals.
    #[test]
    fn numbers_match_serde_json() {
        let cases: &[&str] = &[
            "0",
            "-0",
            "1",
            "-1",
            "0.0",
            "-0.0",
            "1E3",
            "1e-3",
            "2.5E+10",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "-18446744073709551615",
            "-18446744073709551616",
            "123456789012345678901234567890",
            "18446744073709551616.5",
            "1844674407370955161.6",
            "0.1",
            "0.30000000000000004",
            "1.7976931348623157e308",
            "2.2250738585072014e-308",
            "5e-324",
            "4.9e-324",
            "1e-400",
            "-1e-400",
            "0e999999999999",
            "1e-99999999999",
            "0.000000000000000000000000000000000000000000001e-300",
            "9007199254740993",
            "1.00000000000000011102230246251565404236316680908203125",
            "123.456e-7",
            "1e308",
            "1e22",
            "1e23",
            "-123456789.987654321e-5",
        ];
        for case in cases {
            let ours = value(case.as_bytes());
            let theirs: Value = serde_json::from_str(case).unwrap_or(Value::Null);
            assert_eq!(
                serde_json::to_string(&ours).ok(),
                serde_json::to_string(&theirs).ok(),
                "{case}"
            );
        }
    }
}
