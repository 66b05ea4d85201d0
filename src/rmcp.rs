//! Conversions between the views and the `rmcp` types, plus an owned decode
//! and an encoder with the reference's signatures (feature `alloc`).
//!
//! **Host-only.** `rmcp` needs `std` (it depends on tokio), so this module
//! needs it too; everything outside it stays `no_std` and allocation-free.
//!
//! * [`decode_frame`] / [`decode_request`]: the reference decoder
//!   (`serde_json::from_slice` into the `rmcp` 3.11.0 types), computed in
//!   the pass of [`Frame::decode`] / [`RequestView::decode`]: they accept
//!   exactly what the views accept, and the values are equal to the
//!   reference's. The items, their strings and the `serde_json::Value`s of
//!   `_meta`, `data` and `inputResponses` are built as they are checked (no
//!   second walk over any of them).
//! * `From` impls turn each view into its `rmcp` type. They are plain `From`
//!   (not `TryFrom`): a view exists only for input the reference accepts, so
//!   it always converts. Strings are unescaped from the validated text
//!   ([`JsonStr::fragments`]), and `_meta`, `data` and `inputResponses` are
//!   built from their validated [`RawJson`] without handing them to
//!   `serde_json` again (numbers follow serde_json's own parse, including its
//!   not always correctly rounded floats, so they are bit-for-bit the
//!   reference's).
//! * [`encode_frame`] / [`encode_request`]: the bytes `serde_json::to_vec`
//!   writes (after the tag byte), into any [`Sink`](crate::encode::Sink) (a
//!   `Vec<u8>`, a buffer, a [`Counter`](crate::encode::Counter) for the
//!   length), as [`encode`](crate::encode)'s calls for views.
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
//! let n = encode_frame(&frame, &mut out[..])?;
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

use crate::encode::value::{Number as ParsedNumber, parse_number};
use crate::encode::{EncodeError, Sink as Out};
use crate::error::{BodyError, FrameError};
use crate::frame::{Frame, Tag};
use crate::json::body::Take;
use crate::json::borrowed::{Fragment, JsonStr, RawJson};
use crate::json::cursor::{Cursor, utf8_error};
use crate::json::event::Field;
use crate::json::event::Sink;
use crate::json::find;
use crate::json::items::{ITEM, Items};
use crate::json::number::Num;
use crate::json::shape::{CacheScope, ItemKey, ItemShape};
use crate::json::text;
use crate::json::validated::next_key;
use crate::json::walk::ValueSink;
use crate::json::{lex, unescape, validated};
use crate::view::error::ErrorView;
use crate::view::request::RequestView;
use crate::view::result::{Body, Content, ItemSink, ResultView};
use crate::view::{RawFields, TOP};

/// A decoded response frame, as the reference decoder returns it.
///
/// # Examples
///
/// ```
/// use diverge_frame::rmcp::{OwnedFrame, decode_frame, encode_frame};
/// use diverge_frame::{Frame, Tag};
///
/// let bytes = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}";
/// let owned = decode_frame(bytes)?;
/// assert_eq!(owned.tag(), Tag::Result);
/// let OwnedFrame::Result(result) = &owned else { panic!("expected a result") };
/// assert_eq!(result.contents.len(), 1);
/// // The same value from a borrowed view, and back to the same bytes.
/// assert_eq!(OwnedFrame::from(Frame::decode(bytes)?), owned);
/// let mut out = Vec::new();
/// encode_frame(&owned, &mut out)?;
/// assert_eq!(out, bytes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
/// Validates as [`Frame::decode`] does and builds the values in the same
/// pass: the result's items, its `_meta` and theirs, an error's `data`
/// (the other fields come from the view). Long or escape-dense strings are
/// unescaped through a scratch buffer kept for the thread's next call (at
/// most 64 KiB).
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
    let raw = Frame::split(bytes)?;
    match raw.tag() {
        Tag::Result => {
            // One pass: the items are built as validation meets them.
            // Room for four items up front: the first `push` of an empty
            // `Vec` takes the same four through its growth path, which
            // costs more than one allocation (small −1.6 % Ir).
            let text = Text::of(raw.json());
            let mut build = Build {
                items: Vec::with_capacity(4),
                body: text,
                ..Build::default()
            };
            let view = ResultView::decode_with(raw.json(), &mut build)
                .map_err(|e| FrameError::Body(e.shifted(1)))?;
            // (On an error the scratch goes with `build`.)
            Scratch::give(&mut build.scratch);
            Ok(OwnedFrame::Result(result(
                &view,
                build.items,
                build.result_meta,
            )))
        }
        Tag::Error => {
            // One pass: `data` is built as it is checked.
            let text = Text::of(raw.json());
            let mut values = Values::new(text);
            let view = ErrorView::decode_with(raw.json(), &mut values)
                .map_err(|e| FrameError::Body(e.shifted(1)))?;
            let error = error(&view, text, values.other.take());
            Scratch::give(&mut values.scratch);
            Ok(OwnedFrame::Error(error))
        }
    }
}

/// Where the builder's strings come from: the body's text, when all of it
/// is valid UTF-8. One check of the whole body (simdutf8 on hosts) makes
/// every string in it a slice of a `str`, so a plain string becomes a
/// `String` by one copy with no UTF-8 check of its own, and no `unsafe`
/// (an escaped one: [`owned`] and [`one_pass`]). A body that is not valid UTF-8 (the reference still accepts
/// one whose bad bytes lie in a member it ignores) takes the general path:
/// each string unescaped, then checked.
#[derive(Clone, Copy, Default)]
struct Text<'a> {
    body: Option<&'a str>,
}

impl<'a> Text<'a> {
    /// The text of `json`, the body every string handed to it lies in.
    fn of(json: &'a [u8]) -> Self {
        Self {
            body: find::utf8(json),
        }
    }

    /// `raw` (a slice of the body) as a slice of the body's text, if the
    /// body is text.
    #[inline]
    fn str_of(self, raw: &[u8]) -> Option<&'a str> {
        let body = self.body?;
        let at = raw.as_ptr().addr().wrapping_sub(body.as_ptr().addr());
        body.get(at..at.checked_add(raw.len())?)
    }

    /// A validated string of the body as a `String`.
    #[inline]
    fn string(self, text: JsonStr<'_>) -> String {
        match self.str_of(text.raw()) {
            Some(t) => owned(t, text.is_escaped()),
            None => text.into(),
        }
    }
}

/// Validated string text that is known to be UTF-8 as a `String`. Plain
/// text is copied once, with no check. Escaped text below [`LONG`] bytes
/// is pushed run by run (`push_str` of the slices of `text` between
/// escapes, `push` of each escape's character: no check); from [`LONG`] on,
/// where a call per run costs more on escape-dense text, it is unescaped a
/// block at a time ([`unescaped`]) and checked once by simdutf8, then
/// copied into a `String` of the exact length.
#[inline]
fn owned(text: &str, escaped: bool) -> String {
    if !escaped {
        return String::from(text);
    }
    if text.len() < LONG {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some((run, c, after)) = unescape::split_escape(rest) {
            out.push_str(run);
            out.push(c);
            rest = after;
        }
        out.push_str(rest);
        return out;
    }
    let raw = JsonStr::new(text.as_bytes(), true);
    match unescaped(raw).as_deref().and_then(find::utf8) {
        Some(unescaped) => String::from(unescaped),
        None => raw.into(),
    }
}

/// From this length on, escaped text is unescaped by blocks and checked by
/// simdutf8 ([`owned`]); below it, pushed run by run (on short text a call
/// per run costs less than a second allocation and a check).
const LONG: usize = 512;

/// From this many escapes on, a string whose escapes are on average less
/// than [`DENSE_RUN`] bytes apart is unescaped a block at a time
/// ([`one_pass`]): there a call per run costs more than the block stores.
/// (At 8, medium, the varied and the SDK-shaped sets took 2 % more
/// instructions and no less time; at 2, small frames 9 % more.)
const DENSE: usize = 4;

/// See [`DENSE`].
const DENSE_RUN: usize = 32;

/// rmcp's content items, built while the result is validated
/// ([`ResultView::decode_with`]): each string member the items keep becomes
/// a `String` as soon as it is scanned, with one UTF-8 check; at the item's
/// `}`, a valid item is assembled from them.
#[derive(Default)]
struct Build<'a> {
    items: Vec<ResourceContents>,
    body: Text<'a>,
    scratch: Vec<u8>,
    uri: Option<String>,
    mime_type: Option<String>,
    text: Option<String>,
    blob: Option<String>,
    /// The item's `_meta`, built as it was checked.
    meta: Option<Map<String, Value>>,
    /// The result's `_meta`, built as it was checked.
    result_meta: Option<Value>,
}

/// The string whose text starts at `at` in `buf` (a body that is text, as
/// `body` says), validated and made a `String` in one pass, and the index
/// of its closing quote; `None` for every stop but the closing quote, for
/// the validating lexeme to name.
///
/// A plain string is copied from the body's text, with no check. An
/// escaped one is pushed run by run into a buffer on the stack
/// ([`Runs`]: no allocation but the `String`'s) as the lexeme steps from
/// escape to escape ([`text::next_mark`]): the runs as slices of the
/// body's text, each escape checked and decoded in one reading
/// ([`lex::escape_char`]), no UTF-8 check; then copied once into a
/// `String` of its exact length. Text that outgrows that buffer ([`LONG`]
/// bytes) or whose escapes are dense goes to `scratch` and the rest is
/// unescaped after it a block at a time ([`text::unescape_rest`]), then
/// copied from there after one simdutf8 check (safe code makes a `String`
/// from bytes no other way).
///
/// Inlined into its two callers (the items' strings and the value
/// builder's): as a call, its prologue and its answer's trip through the
/// stack cost 1 to 2 % of the path in instructions (small, error and
/// request frames, medium and the sets).
#[inline(always)]
fn one_pass(
    body: Text<'_>,
    scratch: &mut Vec<u8>,
    buf: &[u8],
    at: usize,
) -> Option<(String, usize)> {
    let text = body.str_of(buf)?;
    let bytes = text.as_bytes();
    let mut p = text::next_mark(bytes, at)?;
    match bytes.get(p)? {
        b'"' => return Some((String::from(text.get(at..p)?), p)),
        b'\\' => {}
        _ => return None,
    }
    let mut runs = Runs::new();
    let mut run = at;
    let mut escapes = 0usize;
    // Where the block lane takes over: at `from`, the text before it
    // pushed.
    let from = loop {
        match bytes.get(p)? {
            b'"' => {
                if runs.push_str(text.get(run..p)?).is_err() {
                    break run;
                }
                return Some((String::from(runs.as_str()), p));
            }
            b'\\' => {
                if runs.push_str(text.get(run..p)?).is_err() {
                    break run;
                }
                escapes += 1;
                // Dense escapes (code: a line break every few dozen
                // bytes) go on a block at a time.
                if escapes >= DENSE && p - at < escapes * DENSE_RUN {
                    break p;
                }
                let (c, next) = lex::escape_char(bytes, p)?;
                if runs.push(c).is_err() {
                    break p;
                }
                run = next;
                p = text::next_mark(bytes, next)?;
            }
            _ => return None,
        }
    };
    // The text so far, then the rest a block at a time, in a scratch
    // grown once to its room (zeroed, as `unescape_rest` writes into a
    // slice; a fresh allocation, not a `realloc` that copies the old one).
    let w = runs.len();
    let room = w + bytes.len().saturating_sub(from);
    if scratch.capacity() == 0 {
        *scratch = Scratch::take();
    }
    if scratch.len() < room {
        // Not `vec![0; room]` (the lint's advice): glibc's `calloc` bypasses
        // its thread cache (see `unescaped`).
        #[allow(clippy::slow_vector_initialization)]
        let mut grown = Vec::with_capacity(room);
        grown.resize(room, 0);
        *scratch = grown;
    }
    scratch.get_mut(..w)?.copy_from_slice(runs.as_bytes());
    let (end, len) = text::unescape_rest(bytes, from, w, scratch)?;
    Some((String::from(find::utf8(scratch.get(..len)?)?), end))
}

/// The block lane's scratch ([`one_pass`]), kept for the thread's next
/// decode: a long or escape-dense string is unescaped into it before its
/// `String` is made, and a fresh one per decode cost an allocation, its
/// zeroing and its free every time (in time, the varied set −5 %, medium
/// about −10 %). A decode takes it when it first needs it; one at most
/// [`Scratch::KEEP`] bytes long is kept; a nested decode finds none and
/// makes its own.
struct Scratch;

impl Scratch {
    /// The longest scratch kept between decodes.
    const KEEP: usize = 64 * 1024;

    /// The thread's scratch (empty if none was kept).
    fn take() -> Vec<u8> {
        SCRATCH.with(core::cell::Cell::take)
    }

    /// Keeps the scratch in `slot` for the thread's next decode, if the
    /// decode took one and it is not long.
    #[inline]
    fn give(slot: &mut Vec<u8>) {
        if slot.capacity() != 0 {
            Self::keep(core::mem::take(slot));
        }
    }

    /// [`give`](Self::give)'s keeping, apart from the decodes that never
    /// take a scratch (short frames).
    #[cold]
    #[inline(never)]
    fn keep(scratch: Vec<u8>) {
        if scratch.capacity() <= Self::KEEP {
            SCRATCH.with(|kept| kept.set(scratch));
        }
    }
}

std::thread_local! {
    static SCRATCH: core::cell::Cell<Vec<u8>> = const { core::cell::Cell::new(Vec::new()) };
}

/// The unescaped text of a kept string below [`LONG`] bytes, on the stack:
/// `heapless::String` keeps it UTF-8 as runs of `str` and characters are
/// pushed, so it becomes a `String` by one copy, with no check and no
/// `unsafe`. A push that would overflow it fails, whole, and the text goes
/// on in the block lane.
type Runs = heapless::String<LONG>;

impl Sink for Build<'_> {}

impl<'a> ItemSink<'a> for Build<'a> {}

impl<'a> RawFields<'a> for Build<'a> {
    fn raw(&mut self, s: &mut Cursor<'a>, field: Field) -> Result<Option<RawJson<'a>>, BodyError> {
        raw_built(
            s,
            field,
            self.body,
            &mut self.scratch,
            &mut self.result_meta,
        )
    }
}

/// The raw fields of an error or a request, built as they are checked
/// ([`raw_built`]).
struct Values<'a> {
    body: Text<'a>,
    scratch: Vec<u8>,
    /// `_meta`.
    meta: Option<Value>,
    /// `data` or `inputResponses`.
    other: Option<Value>,
}

impl<'a> Values<'a> {
    fn new(body: Text<'a>) -> Self {
        Self {
            body,
            scratch: Vec::new(),
            meta: None,
            other: None,
        }
    }
}

impl<'a> RawFields<'a> for Values<'a> {
    fn raw(&mut self, s: &mut Cursor<'a>, field: Field) -> Result<Option<RawJson<'a>>, BodyError> {
        let slot = match field {
            Field::ReqMeta | Field::ResultMeta => &mut self.meta,
            _ => &mut self.other,
        };
        raw_built(s, field, self.body, &mut self.scratch, slot)
    }
}

/// A raw field (`s` after its key's colon) checked as the view's decode
/// checks it ([`Cursor::raw_field`]), and its `Value` put in `slot`, built
/// as the validating walk checks it ([`Builder`]).
fn raw_built<'a>(
    s: &mut Cursor<'a>,
    field: Field,
    body: Text<'_>,
    scratch: &mut Vec<u8>,
    slot: &mut Option<Value>,
) -> Result<Option<RawJson<'a>>, BodyError> {
    if s.field_take(field)? != Take::Raw {
        return Ok(None);
    }
    let (raw, value) = Builder::build(s, TOP, body, scratch)?;
    *slot = Some(value);
    Ok(Some(raw))
}

/// The members of a built object (`_meta`, `inputResponses`: their fields
/// take an object alone).
fn members(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

impl<'a> Items<'a> for Build<'a> {
    fn string(&mut self, s: &mut Cursor<'a>, key: Option<ItemKey>) -> Result<(), BodyError> {
        // Duplicates and wrong types make the item invalid (`item_end`), so
        // the last value of each key is the one a valid item has.
        let slot = match key {
            Some(ItemKey::Uri) => &mut self.uri,
            Some(ItemKey::MimeType) => &mut self.mime_type,
            Some(ItemKey::Text) => &mut self.text,
            Some(ItemKey::Blob) => &mut self.blob,
            Some(ItemKey::Meta) | None => return s.string(true).map(drop),
        };
        let at = s.pos + 1;
        // One pass over a string of a body that is text: validated and
        // unescaped together. Any stop but the closing quote goes on below,
        // where the validating lexeme names it.
        if let Some(kept) = one_pass(self.body, &mut self.scratch, s.buf, at) {
            *slot = Some(kept.0);
            s.pos = kept.1 + 1;
            return Ok(());
        }
        // The UTF-8 check is the body's (`Text`), or `kept_string`'s.
        let text = s.string_unchecked_utf8()?;
        *slot = Some(match self.body.str_of(text.raw()) {
            Some(t) => owned(t, text.is_escaped()),
            None => kept_string(text, at)?,
        });
        Ok(())
    }

    fn value(&mut self, s: &mut Cursor<'a>, key: Option<ItemKey>) -> Result<(), BodyError> {
        if key == Some(ItemKey::Meta) {
            // Built as it is checked: `null` is absent (an item whose
            // `_meta` is no object is refused by its shape).
            let (_, value) = Builder::build(s, ITEM, self.body, &mut self.scratch)?;
            self.meta = (!value.is_null()).then(|| members(value));
            return Ok(());
        }
        let value = s.value_full(ITEM)?;
        self.other(key, value);
        Ok(())
    }

    fn other(&mut self, key: Option<ItemKey>, _: RawJson<'a>) {
        // (`_meta` is built by `value`, never handed here.)
        if key == Some(ItemKey::MimeType) {
            self.mime_type = None;
        }
    }

    fn item_end(&mut self, shape: &ItemShape) -> bool {
        let (uri, mime_type, text, blob, meta) = (
            self.uri.take(),
            self.mime_type.take(),
            self.text.take(),
            self.blob.take(),
            self.meta.take(),
        );
        if !shape.is_item() {
            return false;
        }
        let is_text = shape.is_text();
        let uri = uri.unwrap_or_default();
        let meta = meta.map(MetaObject);
        self.items.push(match (is_text, text) {
            (true, Some(text)) => ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                meta,
            },
            _ => ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob: blob.unwrap_or_default(),
                meta,
            },
        });
        true
    }
}

/// A kept string member's value, from its scan without the UTF-8 check
/// ([`Cursor::string_unchecked_utf8`], its text starting at offset `at`):
/// unescaped, then checked once, on the unescaped text. That check fails
/// exactly when the raw text's fails, whose error is then reported.
fn kept_string(text: JsonStr<'_>, at: usize) -> Result<String, BodyError> {
    if let Some(string) = unescaped(text).and_then(|bytes| String::from_utf8(bytes).ok()) {
        return Ok(string);
    }
    utf8_error(text.raw(), at)?;
    Ok(unescape_by_fragments(text))
}

/// The unescaped bytes of `text`: one allocation of the raw length
/// (unescaping never lengthens validated text), runs copied a block at a
/// time. `None` only for an escape validation would have refused.
#[inline]
fn unescaped(text: JsonStr<'_>) -> Option<Vec<u8>> {
    let raw = text.raw();
    if !text.is_escaped() {
        return Some(raw.to_vec());
    }
    // Zeroed by `resize`, not allocated zeroed (`vec![0; n]`, the lint's
    // advice): glibc's `calloc` bypasses its thread cache and costs more than
    // `malloc` and the stores together (sdk set −2.2 % Ir, small −2 %).
    #[allow(clippy::slow_vector_initialization)]
    let mut buf = Vec::with_capacity(raw.len());
    buf.resize(raw.len(), 0u8);
    let n = unescape::unescape(raw, &mut buf)?;
    buf.truncate(n);
    Some(buf)
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
    // One pass: `_meta` and `inputResponses` are built as they are checked.
    let text = Text::of(bytes);
    let mut values = Values::new(text);
    let view = RequestView::decode_with(bytes, &mut values)?;
    let params = request(&view, text, values.meta.take(), values.other.take());
    // (On an error the scratch goes with `values`.)
    Scratch::give(&mut values.scratch);
    Ok(params)
}

/// Encodes a frame into `sink`: the tag byte, then what `serde_json::to_vec`
/// writes for the value (serde_json writes it: this is the reference's own
/// serialization). Returns the number of bytes written.
///
/// The same call as [`encode::encode_frame_view`](crate::encode::encode_frame_view)
/// for a decoded view, and any [`Sink`](crate::encode::Sink): a `Vec<u8>` to encode into a new
/// buffer, a [`Counter`](crate::encode::Counter) for the exact length, a
/// `&mut [u8]`.
///
/// # Errors
///
/// The sink's: [`EncodeError::BufferFull`] when it cannot take the bytes
/// (a `Vec<u8>` always can; the bytes written so far are then meaningless),
/// [`EncodeError::Write`] from a writer under it.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::Counter;
/// use diverge_frame::rmcp::{OwnedFrame, encode_frame};
/// use rmcp::ErrorData;
///
/// let frame = OwnedFrame::Error(ErrorData::invalid_params("bad", None));
/// let mut out = Vec::new();
/// let n = encode_frame(&frame, &mut out)?;
/// assert_eq!(out, b"\x01{\"code\":-32602,\"message\":\"bad\"}");
/// let mut counter = Counter::new();
/// assert_eq!(encode_frame(&frame, &mut counter)?, n);
/// assert_eq!(counter.len(), n);
/// let mut small = [0u8; 8];
/// assert!(encode_frame(&frame, &mut small[..]).is_err());
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
pub fn encode_frame<S: Out>(frame: &OwnedFrame, mut sink: S) -> Result<usize, EncodeError> {
    sink.try_extend(&[frame.tag().byte()])?;
    let written = match frame {
        OwnedFrame::Result(result) => write_to(result, &mut sink)?,
        OwnedFrame::Error(error) => write_to(error, &mut sink)?,
    };
    Ok(written + 1)
}

/// Encodes request JSON into `sink`: what `serde_json::to_vec` writes for
/// the value. Returns the number of bytes written. The same call as
/// [`encode::encode_request_view`](crate::encode::encode_request_view) for a
/// decoded view.
///
/// # Errors
///
/// The sink's, as [`encode_frame`]'s.
///
/// # Examples
///
/// ```
/// use diverge_frame::rmcp::encode_request;
/// use rmcp::model::ReadResourceRequestParams;
///
/// let mut out = Vec::new();
/// let n = encode_request(&ReadResourceRequestParams::new("docs://x"), &mut out)?;
/// assert_eq!((n, &out[..]), (18, &br#"{"uri":"docs://x"}"#[..]));
/// # Ok::<(), diverge_frame::encode::EncodeError>(())
/// ```
pub fn encode_request<S: Out>(
    request: &ReadResourceRequestParams,
    mut sink: S,
) -> Result<usize, EncodeError> {
    write_to(request, &mut sink)
}

/// Serializes into an encoding sink. The only failure `serde_json` can report here is
/// the writer's, kept as the sink gave it: the rmcp types have string keys
/// only, and a `serde_json::Number` cannot hold a non-finite float.
fn write_to<T: Serialize, S: Out>(value: &T, sink: &mut S) -> Result<usize, EncodeError> {
    let mut writer = SinkWriter {
        sink,
        len: 0,
        failed: None,
    };
    match serde_json::to_writer(&mut writer, value) {
        Ok(()) => Ok(writer.len),
        Err(_) => Err(writer.failed.unwrap_or(EncodeError::BufferFull)),
    }
}

/// An `io::Write` over an encoding sink that counts what it wrote and keeps the
/// sink's own error (serde_json wraps an `io::Error`).
struct SinkWriter<'s, S> {
    sink: &'s mut S,
    len: usize,
    failed: Option<EncodeError>,
}

impl<S: Out> io::Write for SinkWriter<'_, S> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.write_all(data)?;
        Ok(data.len())
    }

    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        match self.sink.try_extend(data) {
            Ok(()) => {
                self.len += data.len();
                Ok(())
            }
            Err(e) => {
                self.failed = Some(e);
                Err(io::ErrorKind::WriteZero.into())
            }
        }
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
        request(
            &view,
            Text::default(),
            view.meta().map(Value::from),
            view.input_responses().map(Value::from),
        )
    }
}

/// The request `view` describes, its strings from `text`, with its
/// `_meta` and `inputResponses` already built.
fn request(
    view: &RequestView<'_>,
    text: Text<'_>,
    meta: Option<Value>,
    input_responses: Option<Value>,
) -> ReadResourceRequestParams {
    let mut params = ReadResourceRequestParams::new(text.string(view.uri()));
    params.meta = meta.map(|m| RequestMetaObject(MetaObject(members(m))));
    params.input_responses = input_responses.map(|m| members(m).into_iter().collect());
    params.request_state = view.request_state().map(|s| text.string(s));
    params
}

impl From<ResultView<'_>> for ReadResourceResult {
    fn from(view: ResultView<'_>) -> Self {
        result(
            &view,
            view.contents().map(ResourceContents::from).collect(),
            view.meta().map(Value::from),
        )
    }
}

/// The result `view` describes, with its items and its `_meta` already
/// built.
fn result(
    view: &ResultView<'_>,
    contents: Vec<ResourceContents>,
    meta: Option<Value>,
) -> ReadResourceResult {
    let mut result = ReadResourceResult::new(contents);
    result.result_type = view.result_type().and_then(result_type);
    result.ttl_ms = view.ttl_ms();
    result.cache_scope = view.cache_scope().map(RmcpCacheScope::from);
    result.meta = meta.map(|m| MetaObject(members(m)));
    result
}

impl From<Content<'_>> for ResourceContents {
    fn from(item: Content<'_>) -> Self {
        let uri = String::from(item.uri());
        let mime_type = item.mime_type().map(String::from);
        let meta = item.meta().map(|m| MetaObject(object(m, Text::default())));
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
                blob: blob.text().into(),
                meta,
            },
        }
    }
}

impl From<ErrorView<'_>> for ErrorData {
    fn from(view: ErrorView<'_>) -> Self {
        error(&view, Text::default(), view.data().map(Value::from))
    }
}

/// The error `view` describes, its message from `text`, with its `data`
/// already built.
fn error(view: &ErrorView<'_>, text: Text<'_>, data: Option<Value>) -> ErrorData {
    ErrorData::new(ErrorCode(view.code()), text.string(view.message()), data)
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
    /// The unescaped string: one allocation of the raw length, runs copied
    /// a block at a time, one UTF-8 check of the result.
    fn from(text: JsonStr<'_>) -> Self {
        unescaped(text)
            .and_then(|bytes| Self::from_utf8(bytes).ok())
            .unwrap_or_else(|| unescape_by_fragments(text))
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
        parse(raw.as_bytes(), Text::default()).0
    }
}

/// `resultType`: rmcp keeps `"complete"` and `"input_required"` as constants and
/// any other string as is. Those two are its constants here too, with no
/// allocation (`Deserialize` would allocate the `String` and drop it); for
/// any other string its `Deserialize` is the only public constructor, and
/// from a string it cannot fail.
fn result_type(text: JsonStr<'_>) -> Option<ResultType> {
    if text == "complete" {
        return Some(ResultType::COMPLETE);
    }
    if text == "input_required" {
        return Some(ResultType::INPUT_REQUIRED);
    }
    serde::Deserialize::deserialize(Value::String(text.into())).ok()
}

/// A validated object's members, the last of equal keys winning (as
/// `serde_json::Map::insert` does for the reference).
fn object(raw: RawJson<'_>, text: Text<'_>) -> Map<String, Value> {
    match parse(raw.as_bytes(), text) {
        (Value::Object(map), _) => map,
        _ => Map::new(),
    }
}

/// The validated value at the start of `b` as a `Value`, and the bytes
/// after it: one pass, each string and number read once. Recursion is
/// bounded by the validated depth (at most 127 levels). Strings come from
/// `text` (see [`Text`]).
fn parse<'b>(b: &'b [u8], text: Text<'_>) -> (Value, &'b [u8]) {
    let Some((&first, tail)) = b.split_first() else {
        return (Value::Null, b);
    };
    match first {
        b'{' => {
            let mut map = Map::new();
            let mut rest = tail;
            while let Some((key, at_value)) = next_key(rest) {
                let (val, after) = parse(at_value, text);
                map.insert(text.string(key), val);
                rest = after;
            }
            (Value::Object(map), close(rest, b'}'))
        }
        b'[' => {
            let mut items = Vec::new();
            let mut rest = tail;
            while let Some(at) = validated::element_start(rest) {
                let (item, after) = parse(at, text);
                items.push(item);
                rest = after;
            }
            (Value::Array(items), close(rest, b']'))
        }
        b'"' => {
            let (raw, escaped, rest) = validated::string(tail);
            (Value::String(text.string(JsonStr::new(raw, escaped))), rest)
        }
        b't' => (Value::Bool(true), tail.get(3..).unwrap_or_default()),
        b'f' => (Value::Bool(false), tail.get(4..).unwrap_or_default()),
        b'-' | b'0'..=b'9' => {
            let (text, rest) = validated::value(b);
            (number(text), rest)
        }
        _ => (Value::Null, tail.get(3..).unwrap_or_default()),
    }
}

/// A `serde_json::Value` built from the parts the validating walk hands
/// on as it checks them ([`ValueSink`]): `_meta`, `data` and
/// `inputResponses` checked and built in one pass, the walk the one
/// statement of the grammar (its errors, kinds and offsets, are
/// [`Frame::decode`]'s). Strings (keys too) are read by [`one_pass`] where
/// the body is text and the string valid, else by the walk's lexeme, which
/// names the defect; numbers come with the class the number lexeme gave
/// (serde_json's range checks included), a float parsed by [`number`];
/// the last of equal keys wins.
struct Builder<'s, 'b> {
    body: Text<'b>,
    scratch: &'s mut Vec<u8>,
    /// The container open last (the only one, in most `_meta` objects).
    open: Option<Container>,
    /// In an object, the key whose value comes next.
    key: String,
    /// The containers open around it, outermost first, each with the key
    /// its inner container is the value of: the first [`NEAR`] levels on
    /// the stack (a `_meta` nests a level or two: no allocation that the
    /// values themselves do not make), deeper ones in `deep`.
    outer: heapless::Vec<(Container, String), NEAR>,
    /// The open containers past the first [`NEAR`] levels.
    deep: Vec<(Container, String)>,
    /// The value, once whole.
    value: Value,
}

/// The levels of containers a [`Builder`] holds open around its innermost
/// without an allocation.
const NEAR: usize = 4;

/// A container being built.
enum Container {
    Object(Map<String, Value>),
    Array(Vec<Value>),
}

impl<'s, 'b> Builder<'s, 'b> {
    /// The value at `s` (after whitespace), with `open` containers open
    /// around it, checked by the validating walk ([`Cursor::value_built`])
    /// and built as it is checked: its text and its `Value`.
    fn build<'a>(
        s: &mut Cursor<'a>,
        open: usize,
        body: Text<'b>,
        scratch: &'s mut Vec<u8>,
    ) -> Result<(RawJson<'a>, Value), BodyError> {
        let mut built = Self {
            body,
            scratch,
            open: None,
            key: String::new(),
            outer: heapless::Vec::new(),
            deep: Vec::new(),
            value: Value::Null,
        };
        let raw = s.value_built(open, &mut built)?;
        Ok((raw, built.value))
    }

    /// A string that [`one_pass`] did not take: not valid (the lexeme
    /// names the defect), or in a body that is not text.
    #[inline(never)]
    fn general_string(&mut self, s: &mut Cursor<'_>, key: bool) -> Result<(), BodyError> {
        let text = s.string(true)?;
        let text = self.body.string(text);
        self.keep(text, key);
        Ok(())
    }

    /// A string read: the key of the value that comes next, or a value.
    #[inline(always)]
    fn keep(&mut self, text: String, key: bool) {
        if key {
            self.key = text;
        } else {
            self.put(Value::String(text));
        }
    }

    /// `value` into the container open last, or as the whole value.
    #[inline]
    fn put(&mut self, value: Value) {
        match &mut self.open {
            Some(Container::Object(map)) => {
                map.insert(core::mem::take(&mut self.key), value);
            }
            Some(Container::Array(items)) => items.push(value),
            None => self.value = value,
        }
    }
}

impl<'a> ValueSink<'a> for Builder<'_, '_> {
    const TAKES: bool = true;

    #[inline]
    fn open(&mut self, object: bool) {
        let open = if object {
            Container::Object(Map::new())
        } else {
            Container::Array(Vec::new())
        };
        if let Some(outer) = self.open.replace(open) {
            let level = (outer, core::mem::take(&mut self.key));
            if let Err(level) = self.outer.push(level) {
                self.deep.push(level);
            }
        }
    }

    #[inline]
    fn close(&mut self) {
        let inner = match self.deep.pop().or_else(|| self.outer.pop()) {
            Some((outer, key)) => {
                self.key = key;
                self.open.replace(outer)
            }
            None => self.open.take(),
        };
        match inner {
            Some(Container::Object(map)) => self.put(Value::Object(map)),
            Some(Container::Array(items)) => self.put(Value::Array(items)),
            None => {}
        }
    }

    fn string(&mut self, s: &mut Cursor<'a>, key: bool) -> Result<(), BodyError> {
        // The general path out of line, so that the one pass's `String`
        // goes from registers to its key or container: where both paths'
        // `String`s met in one stack slot, the 16-byte read of it stalled
        // on stores it could not forward (perf: a quarter of this
        // function's samples on medium).
        let Some((text, quote)) = one_pass(self.body, self.scratch, s.buf, s.pos + 1) else {
            return self.general_string(s, key);
        };
        s.pos = quote + 1;
        self.keep(text, key);
        Ok(())
    }

    #[inline]
    fn number(&mut self, raw: &'a [u8], class: Num) {
        self.put(match class {
            Num::U64(n) => Value::Number(n.into()),
            Num::I64(n) => Value::Number(n.into()),
            Num::F64 => number(raw),
        });
    }

    #[inline]
    fn literal(&mut self, first: u8) {
        self.put(match first {
            b't' => Value::Bool(true),
            b'f' => Value::Bool(false),
            _ => Value::Null,
        });
    }
}

/// The bytes after the `end` bracket that closes a validated container
/// (whitespace first).
fn close(b: &[u8], end: u8) -> &[u8] {
    match validated::ws(b).split_first() {
        Some((&c, rest)) if c == end => rest,
        _ => &[],
    }
}

// ----- numbers ----------------------------------------------------------------

/// A validated number literal as serde_json parses it into a `Value`, by the
/// encoder's parser (`encode::value::parse_number`, serde_json 1.0.154's
/// algorithm step by step): `u64` for non-negative integers that fit, `i64`
/// for negative ones that fit, otherwise its `f64`.
fn number(raw: &[u8]) -> Value {
    match parse_number(raw) {
        ParsedNumber::U64(n) => Value::Number(n.into()),
        ParsedNumber::I64(n) => Value::Number(n.into()),
        // A float out of range is impossible after validation; serde_json's
        // `Value` visitor would never see one either.
        ParsedNumber::F64(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept strings made from the body's text (`owned`: pieces pushed below
    /// `LONG`, unescaped and checked by simdutf8 from it) against serde_json,
    /// on generated escaped text of every length around the thresholds,
    /// escapes at every place in a block, non-ASCII runs and surrogate pairs.
    #[test]
    #[allow(clippy::unwrap_used, clippy::indexing_slicing)]
    fn owned_strings_match_serde_json() {
        let pieces: &[&str] = &[
            "a",
            "bc",
            "0123456789abcdef",
            "é",
            "€",
            "𝄞",
            "\\n",
            "\\\"",
            "\\\\",
            "\\/",
            "\\t",
            "\\u0041",
            "\\u00e9",
            "\\u20ac",
            "\\ud834\\udd1e",
            "\\u0000",
            " ",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in [
            0usize, 1, 5, 15, 16, 17, 40, 63, 64, 65, 200, 511, 512, 513, 2000,
        ] {
            for _ in 0..40 {
                let mut raw = String::new();
                while raw.len() < len {
                    let i = crate::json::xorshift(&mut seed) as usize % pieces.len();
                    raw.push_str(pieces[i]);
                }
                let quoted = std::format!("\"{raw}\"");
                let theirs: String = serde_json::from_str(&quoted).unwrap();
                let escaped = raw.contains('\\');
                assert_eq!(owned(&raw, escaped), theirs, "{raw}");
            }
        }
    }

    /// The one-pass lexeme (`one_pass`, and its block lane
    /// `text::unescape_rest` alone) against the validating
    /// lexeme and the unescaper, on generated strings with every defect the
    /// grammar names (control bytes, bad escapes, lone and unpaired
    /// surrogates, the end inside the text): the same stop, and the
    /// unescaper's text.
    #[test]
    #[allow(clippy::unwrap_used, clippy::indexing_slicing)]
    fn one_pass_lexeme_agrees_with_the_lexeme_and_the_unescaper() {
        let pieces: &[&[u8]] = &[
            b"a",
            b"0123456789abcdef",
            "é".as_bytes(),
            "𝄞".as_bytes(),
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\u00e9",
            b"\\ud834\\udd1e",
            b"\\ud834",
            b"\\udd1e",
            b"\\ud834\\u0041",
            b"\\x",
            b"\\u12g4",
            b"\\u12",
            b"\x01",
            b"\x1f",
            b" ",
            b"\"",
            b"\\",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut out = Vec::new();
        for round in 0..6000u32 {
            let mut bytes = std::vec![b'"'];
            let most = [3usize, 12, 40, 120, 400][round as usize % 5];
            for _ in 0..(crate::json::xorshift(&mut seed) as usize % most) {
                let i = crate::json::xorshift(&mut seed) as usize % pieces.len();
                bytes.extend_from_slice(pieces[i]);
            }
            if round % 3 != 0 {
                bytes.extend_from_slice(b"\",1]");
            }
            let run = text::run(&bytes, 1, true, true, 0);
            // The block lane alone, from the first mark (nothing pushed).
            let ours = text::next_mark(&bytes, 1).and_then(|p| {
                let (e, w) = text::unescape_rest(&bytes, p, 0, &mut out)?;
                let escaped = bytes[p] == b'\\';
                let mut text = bytes[1..p].to_vec();
                text.extend_from_slice(&out[..w]);
                Some((e, text, escaped))
            });
            // The whole one pass: below `LONG` pushed run by run, from it
            // on through the scratch (the pieces are all text).
            let mut scratch = Vec::new();
            let kept = one_pass(Text::of(&bytes), &mut scratch, &bytes, 1);
            match run.stop {
                text::Stop::Quote(end) => {
                    let (e, text, escaped) = ours.unwrap();
                    assert_eq!((e, escaped), (end, run.escaped), "{bytes:?}");
                    let raw = &bytes[1..end];
                    let mut want = std::vec![0u8; raw.len()];
                    let n = unescape::unescape(raw, &mut want).unwrap();
                    assert_eq!(&text[..], &want[..n], "{bytes:?}");
                    let (text, e) = kept.unwrap();
                    assert_eq!((text.as_bytes(), e), (&want[..n], end), "{bytes:?}");
                }
                _ => {
                    assert_eq!(ours, None, "{bytes:?}");
                    assert_eq!(kept, None, "{bytes:?}");
                }
            }
        }
    }

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
            let ours = parse(case.as_bytes(), Text::default()).0;
            let theirs: Value = serde_json::from_str(case).unwrap_or(Value::Null);
            assert_eq!(
                serde_json::to_string(&ours).ok(),
                serde_json::to_string(&theirs).ok(),
                "{case}"
            );
        }
    }

    /// The builder against serde_json and the walk alone: on a set of
    /// values (every kind, nesting deeper than the builder's stack part,
    /// escapes, surrogates, numbers at their range limits, duplicate keys),
    /// every prefix of each and every one-byte change of it. The walk with
    /// the builder answers as the walk alone (the same error, or the same
    /// end); where it accepts, serde_json parses the same bytes to an equal
    /// `Value`; where serde_json accepts a value whole, so does the walk.
    #[test]
    #[allow(clippy::unwrap_used, clippy::indexing_slicing)]
    fn the_builder_builds_what_serde_json_parses_and_nothing_else() {
        use alloc::borrow::ToOwned;
        use alloc::format;
        let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
        let values: Vec<String> = [
            r#"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#,
            r#"{ "k" : [ 1 , -2.5e3 , 0.1 ] , "k" : "last" }"#,
            r#"{"s":"tab\tquote\"slash\/\u00e9\ud83d\ude00","\u0041":"x"}"#,
            r#"[18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,-0,1e308,1e309,5e-324]"#,
            r#"{"n":[],"o":{},"e":"","z":0}"#,
            r#""\ud800""#,
            r#""a\u0000b""#,
            r#"{"a":01}"#,
            "\"caf\u{e9} \u{2603}\"",
            r#"{"a":[{"b":[{"c":[1,{"d":"e","f":[]}],"g":{}}],"h":"i"}],"j":2}"#,
            &deep,
        ]
        .iter()
        .map(|v| (*v).to_owned())
        .collect();
        let mut scratch = Vec::new();
        let mut checked = 0usize;
        for v in &values {
            let v = v.as_bytes();
            let mut inputs: Vec<Vec<u8>> = (0..=v.len()).map(|n| v[..n].to_vec()).collect();
            for i in 0..v.len() {
                for b in [
                    b'"', b'\\', b',', b':', b'}', b']', b' ', b'0', b'e', b'-', b'u', 0x1f,
                ] {
                    let mut m = v.to_vec();
                    m[i] = b;
                    inputs.push(m);
                }
            }
            for input in inputs {
                // Built as checked, and checked alone: the same answer,
                // the same end.
                let mut s = Cursor::new(&input);
                let built = Builder::build(&mut s, 0, Text::of(&input), &mut scratch);
                let (walked, value) = match built {
                    Ok((_, value)) => (Ok(s.pos), value),
                    Err(e) => (Err(e), Value::Null),
                };
                let mut alone = Cursor::new(&input);
                assert_eq!(
                    walked,
                    alone.value_full(0).map(|_| alone.pos),
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
                if let Ok(end) = walked {
                    let prefix = serde_json::from_slice::<Value>(&input[..end]);
                    assert_eq!(
                        prefix.ok().as_ref(),
                        Some(&value),
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
                if let Ok(reference) = serde_json::from_slice::<Value>(&input) {
                    let end = walked.expect("the walk accepts what serde_json accepts");
                    assert!(input[end..].iter().all(|&c| lex::is_ws(c)));
                    assert_eq!(value, reference);
                }
                checked += 1;
            }
        }
        assert!(checked > 1000);
    }
}
