//! [`ResultView`] and its [`Content`] items: the body of a result frame,
//! rmcp's `ReadResourceResult`.

use core::fmt;
use core::iter::FusedIterator;

use super::{Fields, RawFields, TOP};
use crate::blob::Blob;
use crate::error::{BodyError, Detail};
use crate::json::body::Take;
use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::event::Field;
use crate::json::event::Sink;
use crate::json::items::Items;
use crate::json::shape::{self, CacheScope, ITEM_KEYS, ItemKey, ItemShape, Key, RESULT_KEYS};
use crate::json::validated;
use crate::json::validated::next_key;

/// A validated read-resource result:
/// `{"resultType"?, "ttlMs"?, "cacheScope"?, "contents": […], "_meta"?}`.
///
/// `==` compares the result's JSON text as it stands, byte for byte, as
/// [`RawJson`]'s does: two spellings of one value are two views. Compare
/// the accessors for values (a [`JsonStr`] compares its unescaped text).
///
/// # Examples
///
/// ```
/// use diverge_frame::{CacheScope, Frame};
///
/// let frame = b"\x00{\"ttlMs\":60000,\"cacheScope\":\"public\",\"contents\":[{\"uri\":\"docs://a\",\"text\":\"hi\"}]}";
/// let Frame::Result(result) = Frame::decode(frame)? else { panic!("expected a result") };
/// assert_eq!(result.ttl_ms(), Some(60_000));
/// assert_eq!(result.cache_scope(), Some(CacheScope::Public));
/// assert!(result.result_type().is_none() && result.meta().is_none());
/// assert_eq!(result.contents().len(), 1);
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ResultView<'a> {
    json: &'a [u8],
    contents: &'a [u8],
    len: usize,
    spans: Spans,
    meta: Option<RawJson<'a>>,
    result_type: Option<JsonStr<'a>>,
    ttl_ms: Option<u64>,
    cache_scope: Option<CacheScope>,
}

impl<'a> ResultView<'a> {
    /// Validates result JSON (a frame's body, without its tag byte) exactly
    /// as `serde_json::from_slice::<rmcp::model::ReadResourceResult>`, as
    /// [`RequestView::decode`](crate::RequestView::decode) does for a
    /// request: for a body that came without its tag, or whose tag was
    /// read apart. [`Frame::decode`](crate::Frame::decode) of the tag `0`
    /// and these bytes gives the same view, or the same error one byte
    /// further on.
    ///
    /// # Errors
    ///
    /// [`BodyError`] with the offset of the first defect **from the first
    /// byte of `json`**, for every input the reference rejects (and no
    /// other).
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::{BodyErrorKind, Frame, FrameError, ResultView};
    ///
    /// let view = ResultView::decode(br#"{"contents":[{"uri":"docs://a","text":"hi"}]}"#)?;
    /// assert_eq!(view.contents().len(), 1);
    ///
    /// let bad = br#"{"ttlMs":1}"#;
    /// let err = ResultView::decode(bad).unwrap_err();
    /// assert_eq!(err.kind(), BodyErrorKind::MissingField);
    /// // The frame's error is the same, counted from the tag byte.
    /// let frame = [b"\x00".as_slice(), bad].concat();
    /// let Err(FrameError::Body(framed)) = Frame::decode(&frame) else { panic!() };
    /// assert_eq!((framed.kind(), framed.offset()), (err.kind(), err.offset() + 1));
    /// # Ok::<(), diverge_frame::BodyError>(())
    /// ```
    #[inline(never)]
    pub fn decode(json: &'a [u8]) -> Result<Self, BodyError> {
        Self::decode_body(json)
    }

    /// [`decode`](Self::decode) for the crate's own callers, inlined into
    /// them. The public `decode` is a call of its own (`inline(never)`): as
    /// the public function itself, or as an inlined wrapper of this one, it
    /// changed how the crate's decode was inlined on thumb (the same job
    /// 52 to 172 B of flash and 8 to 16 B of stack more, measured).
    #[inline(always)]
    pub(crate) fn decode_body(json: &'a [u8]) -> Result<Self, BodyError> {
        if crate::json::find::HOST {
            Self::decode_with(json, &mut Spans::default())
        } else {
            // Microcontrollers validate with the sink their item reader uses,
            // so the item walk is compiled once (see `Content::read_scanned`).
            Self::decode_with(json, &mut Found::new())
        }
    }

    /// [`decode`](Self::decode), handing each content item's members and
    /// verdict to `items` as validation meets them (the `alloc` builder
    /// builds rmcp's items from them in the same pass).
    pub(crate) fn decode_with<S: ItemSink<'a>>(
        json: &'a [u8],
        items: &mut S,
    ) -> Result<Self, BodyError> {
        let mut s = Cursor::new(json);
        let mut contents = None;
        let mut meta = None;
        let mut result_type = None;
        let mut ttl_ms = None;
        let mut cache_scope = None;
        let mut fields = Fields::open(&mut s, Detail::RESULT)?;
        while let Some(i) = fields.next(&mut s, RESULT_KEYS)? {
            match i {
                0 => result_type = s.string_field(Field::ResultType)?,
                1 => ttl_ms = s.ttl_field()?,
                2 => cache_scope = s.cache_scope_field()?,
                3 => contents = Some(s.contents_field(items)?),
                _ => meta = items.raw(&mut s, Field::ResultMeta)?,
            }
        }
        let Some((contents, len)) = contents else {
            let at = s.pos.saturating_sub(1);
            return Err(shape::missing(Detail::RESULT, fields.seen(), at));
        };
        s.end()?;
        Ok(Self {
            json,
            contents,
            len,
            spans: items.spans(),
            meta,
            result_type,
            ttl_ms,
            cache_scope,
        })
    }

    /// The content items, in order.
    #[must_use]
    pub fn contents(&self) -> Contents<'a> {
        Contents {
            rest: self.contents.get(1..).unwrap_or_default(),
            left: self.len,
            spans: self.spans,
        }
    }

    /// The result's `_meta` object, if present and not `null`.
    #[must_use]
    pub const fn meta(&self) -> Option<RawJson<'a>> {
        self.meta
    }

    /// `resultType` (any string; absent or `null` is `None`, which clients
    /// treat as `"complete"`).
    #[must_use]
    pub const fn result_type(&self) -> Option<JsonStr<'a>> {
        self.result_type
    }

    /// `ttlMs`, with a negative value clamped to 0 as the reference does.
    #[must_use]
    pub const fn ttl_ms(&self) -> Option<u64> {
        self.ttl_ms
    }

    /// `cacheScope`; `null` and `""` read as absent, as in the reference.
    #[must_use]
    pub const fn cache_scope(&self) -> Option<CacheScope> {
        self.cache_scope
    }

    /// The result's JSON (the frame without its tag byte).
    #[must_use]
    pub const fn json(&self) -> &'a [u8] {
        self.json
    }
}

impl<'a> Cursor<'a> {
    /// `ttlMs`: `Option<i64>` with negatives clamped to 0.
    fn ttl_field(&mut self) -> Result<Option<u64>, BodyError> {
        if self.field_take(Field::Ttl)? == Take::Null {
            return Ok(None);
        }
        let at = self.pos;
        let num = self.number()?;
        shape::ttl_ms(num, at).map(Some)
    }

    /// `cacheScope`: parsed as a `serde_json::Value`, then `null` and `""`
    /// mean absent, and the rest goes through serde's enum rules for a
    /// `Value`: a variant name, or a one-key map whose value is `null`
    /// (duplicate keys collapse first, the last one winning).
    #[inline]
    fn cache_scope_field(&mut self) -> Result<Option<CacheScope>, BodyError> {
        if self.field_take(Field::Scope)? == Take::Null {
            return Ok(None);
        }
        let at = self.pos;
        // Hosts: the two names as they are almost always written, plain,
        // answered at once (the walk below costs a decode of a small frame
        // 8 % of its instructions); any other value takes the walk.
        if crate::json::find::HOST {
            let rest = self.buf.get(at..).unwrap_or_default();
            let (scope, len) = if rest.starts_with(b"\"public\"") {
                (CacheScope::Public, 8)
            } else if rest.starts_with(b"\"private\"") {
                (CacheScope::Private, 9)
            } else {
                (CacheScope::Public, 0)
            };
            if len != 0 {
                self.pos = at + len;
                return Ok(Some(scope));
            }
        }
        self.scope_value(TOP)?.verdict(at)
    }

    /// `contents`: an array of content items, walked by the `contents`
    /// walker's whole-buffer lane ([`json::items`](crate::json::items)).
    /// Returns the array's text and its length.
    fn contents_field<S: ItemSink<'a>>(
        &mut self,
        items: &mut S,
    ) -> Result<(&'a [u8], usize), BodyError> {
        self.field_take(Field::Contents)?;
        let start = self.pos;
        self.pos += 1;
        let len = self.contents_whole(false, items)?;
        let text = self.buf.get(start..self.pos).unwrap_or_default();
        Ok((text, len))
    }
}

/// The validation's item sink ([`Items`]) as the view's decode takes it:
/// with the long strings it noted for the view's own walk.
/// Its raw fields (the result's `_meta`) go to the same sink.
pub(crate) trait ItemSink<'a>: Items<'a> + RawFields<'a> {
    /// The long strings the view remembers for its walk.
    fn spans(&self) -> Spans {
        Spans::default()
    }
}

impl Sink for Spans {}

impl RawFields<'_> for Spans {}

impl ItemSink<'_> for Spans {
    fn spans(&self) -> Spans {
        *self
    }
}

impl<'a> Items<'a> for Spans {
    #[inline]
    fn string(&mut self, s: &mut Cursor<'a>, _: Option<ItemKey>) -> Result<(), BodyError> {
        let at = s.pos + 1;
        let text = s.string(true)?;
        self.note(at, text);
        Ok(())
    }

    #[inline]
    fn other(&mut self, _: Option<ItemKey>, _: RawJson<'a>) {}

    #[inline]
    fn contents_end(&mut self, end: usize) {
        self.measure_from(end);
    }
}

/// Long string values of the first content items, noted during validation
/// (where each text starts, counted back from the end of the `contents`
/// array, its length and whether it holds an escape), so that reading the
/// items jumps over them instead of walking their text a second time.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Spans {
    /// Bytes from each text's first byte to the end of `contents` (absolute
    /// offsets until [`measure_from`](Self::measure_from)).
    at: [u32; SPANS],
    /// Each text's length; bit 31 set when it holds an escape.
    len: [u32; SPANS],
    /// How many are noted.
    n: u8,
}

/// How many long strings a [`ResultView`] remembers: eight on hosts (a
/// result with up to eight text or blob items walks none twice), none on
/// microcontrollers, where the bookkeeping cost 0.3 KB of flash and each
/// span 8 bytes of the view on the stack, to save a walk over text a
/// firmware's short frames hardly have (a test checks that reading the
/// items without spans gives the same items).
const SPANS: usize = if crate::json::find::HOST { 8 } else { 0 };

/// Strings shorter than this are walked again: cheaper than a lookup miss.
const LONG: usize = 64;

impl Spans {
    /// Notes `text`, which starts at offset `at`, if it is long and there is
    /// room.
    fn note(&mut self, at: usize, text: JsonStr<'_>) {
        let i = usize::from(self.n);
        let len = text.raw().len();
        if len < LONG || i >= SPANS {
            return;
        }
        let (Ok(at), Ok(len)) = (u32::try_from(at), u32::try_from(len)) else {
            return;
        };
        if len >= 1 << 31 {
            return;
        }
        if let (Some(a), Some(l)) = (self.at.get_mut(i), self.len.get_mut(i)) {
            *a = at;
            *l = len | u32::from(text.is_escaped()) << 31;
            self.n += 1;
        }
    }

    /// Turns the absolute offsets into distances to `end`, the offset just
    /// after the `contents` array. An `end` beyond `u32` (a body over
    /// 4 GiB) forgets every span: a clamped end would give wrong distances.
    fn measure_from(&mut self, end: usize) {
        let Ok(end) = u32::try_from(end) else {
            self.n = 0;
            return;
        };
        for a in self.at.iter_mut().take(usize::from(self.n)) {
            *a = end.saturating_sub(*a);
        }
    }

    /// The noted string whose text starts `tail` bytes before the end of
    /// `contents`: its length and escape flag.
    #[inline]
    fn find(&self, tail: usize) -> Option<(usize, bool)> {
        let n = usize::from(self.n);
        let i = self
            .at
            .iter()
            .take(n)
            .position(|&a| usize::try_from(a).is_ok_and(|a| a == tail))?;
        let len = *self.len.get(i)?;
        Some(((len & !(1 << 31)) as usize, len >> 31 == 1))
    }
}

/// Iterator over the [`Content`] items of a [`ResultView`].
///
/// # Examples
///
/// ```
/// use diverge_frame::ResultView;
///
/// let json = br#"{"contents":[{"uri":"docs://a","text":"a"},{"uri":"docs://b","blob":"Yg=="}]}"#;
/// let result = ResultView::decode(json)?;
/// let contents = result.contents();
/// assert_eq!(contents.len(), 2); // an ExactSizeIterator
/// let uris: Vec<_> = contents.map(|item| item.uri()).collect();
/// assert!(uris[0] == "docs://a" && uris[1] == "docs://b");
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Clone)]
pub struct Contents<'a> {
    rest: &'a [u8],
    left: usize,
    spans: Spans,
}

impl<'a> Iterator for Contents<'a> {
    type Item = Content<'a>;

    fn next(&mut self) -> Option<Content<'a>> {
        if self.left == 0 {
            return None;
        }
        if !crate::json::find::HOST {
            // The scanner's whitespace skip, which the item walk uses.
            let mut s = Cursor::new(self.rest);
            if s.ws() == Some(b',') {
                s.pos += 1;
                s.ws();
            }
            // Returned as read, so that it is built in place.
            let item = Content::read_scanned(&mut s);
            if item.is_some() {
                self.rest = self.rest.get(s.pos..).unwrap_or_default();
                self.left -= 1;
            }
            return item;
        }
        let mut b = validated::ws(self.rest);
        if let Some((b',', rest)) = b.split_first() {
            b = validated::ws(rest);
        }
        let item = Content::read_walked(&mut b, &self.spans);
        if item.is_some() {
            self.rest = b;
            self.left -= 1;
        }
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for Contents<'_> {}
impl FusedIterator for Contents<'_> {}

/// A content item's payload, chosen as the reference chooses it: an item
/// with a valid `text` is text (even if it also has a `blob`, which the
/// reference drops); otherwise it is a blob.
///
/// # Examples
///
/// ```
/// use diverge_frame::{Body, ResultView};
///
/// let json = br#"{"contents":[{"uri":"t","text":"hi"},{"uri":"b","blob":"aGk="}]}"#;
/// let mut buf = [0u8; 16];
/// for item in ResultView::decode(json)?.contents() {
///     match item.body() {
///         Body::Text(text) => assert_eq!(text.unescape_into(&mut buf)?, "hi"),
///         Body::Blob(base64) => {
///             let n = base64.decode_base64_into(&mut buf)?;
///             assert_eq!(&buf[..n], b"hi");
///         }
///     }
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body<'a> {
    /// `text`: the resource as text.
    Text(JsonStr<'a>),
    /// `blob`: the resource as base64 (not checked by the reference; decode
    /// with [`Blob::decode_base64_into`]).
    Blob(Blob<'a>),
}

/// One item of a result's `contents`.
///
/// `==` compares the item's JSON text as it stands, byte for byte, as
/// [`RawJson`]'s does: two spellings of one value are two views. Compare
/// the accessors for values (a [`JsonStr`] compares its unescaped text).
///
/// # Examples
///
/// ```
/// use diverge_frame::{Body, ResultView};
///
/// let json = br#"{"contents":[{"uri":"docs://a","mimeType":"text/plain","text":"caf\u00e9","_meta":{"v":1}}]}"#;
/// let result = ResultView::decode(json)?;
/// let item = result.contents().next().expect("one item");
/// assert!(item.uri() == "docs://a");
/// assert!(item.mime_type().is_some_and(|m| m == "text/plain"));
/// let Body::Text(text) = item.body() else { panic!("expected text") };
/// assert!(text == "café");
/// assert_eq!(item.meta().map(|m| m.as_bytes()), Some(&br#"{"v":1}"#[..]));
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Content<'a> {
    json: &'a [u8],
    uri: JsonStr<'a>,
    mime_type: Option<JsonStr<'a>>,
    body: Body<'a>,
    meta: Option<RawJson<'a>>,
}

/// The members an item reader keeps, as it meets them: the item
/// reader's notes, and on microcontrollers also the sink that validation
/// hands a result's items to (its notes are then dropped), so that the item
/// walk is compiled once.
struct Found<'a> {
    uri: JsonStr<'a>,
    mime_type: Option<JsonStr<'a>>,
    meta: Option<RawJson<'a>>,
    text: JsonStr<'a>,
    blob: JsonStr<'a>,
    /// The item's keys, which choose its body.
    shape: ItemShape,
}

impl<'a> Found<'a> {
    /// Nothing found yet.
    const fn new() -> Self {
        let empty = JsonStr::new(&[], false);
        Self {
            uri: empty,
            mime_type: None,
            meta: None,
            text: empty,
            blob: empty,
            shape: ItemShape::new(),
        }
    }

    /// Notes a member whose value is the string `text`. In a valid item the
    /// keys that matter come once, so the last value is the one.
    fn string(&mut self, key: Option<ItemKey>, text: JsonStr<'a>) {
        match key {
            Some(ItemKey::Uri) => self.uri = text,
            Some(ItemKey::MimeType) => self.mime_type = Some(text),
            Some(ItemKey::Text) => self.text = text,
            Some(ItemKey::Blob) => self.blob = text,
            _ => {}
        }
    }

    /// Notes a member whose value, `value`, is no string: in a valid item,
    /// a `null` `mimeType` or a `_meta`.
    fn other(&mut self, key: Option<ItemKey>, value: &'a [u8]) {
        match key {
            Some(ItemKey::MimeType) => self.mime_type = None,
            Some(ItemKey::Meta) => self.meta = (value != b"null").then_some(RawJson::new(value)),
            _ => {}
        }
    }

    /// The item whose text is `json`, with the members found in it: text
    /// if it is a valid text item, else a blob.
    fn content(self, json: &'a [u8]) -> Content<'a> {
        let body = if self.shape.is_text() {
            Body::Text(self.text)
        } else {
            Body::Blob(Blob::new(self.blob))
        };
        Content {
            json,
            uri: self.uri,
            mime_type: self.mime_type,
            body,
            meta: self.meta,
        }
    }
}

impl Sink for Found<'_> {}
impl<'a> RawFields<'a> for Found<'a> {}
impl<'a> ItemSink<'a> for Found<'a> {}

impl<'a> Items<'a> for Found<'a> {
    #[inline]
    fn string(&mut self, s: &mut Cursor<'a>, key: Option<ItemKey>) -> Result<(), BodyError> {
        let text = s.string(true)?;
        Found::string(self, key, text);
        Ok(())
    }

    #[inline]
    fn other(&mut self, key: Option<ItemKey>, value: RawJson<'a>) {
        Found::other(self, key, value.as_bytes());
    }

    #[inline]
    fn item_end(&mut self, shape: &ItemShape) -> bool {
        self.shape = *shape;
        shape.is_item()
    }
}

impl<'a> Content<'a> {
    /// Reads a validated item, which `input` starts with, in one pass over
    /// its members; returns it and leaves `input` after it. On hosts: by
    /// the walker over validated text ([`validated`](crate::json::validated)), jumping over the long
    /// strings `spans` noted.
    #[inline]
    fn read_walked(input: &mut &'a [u8], spans: &Spans) -> Option<Self> {
        let json = *input;
        let mut found = Found::new();
        let mut rest = json.strip_prefix(b"{")?;
        while let Some((key, at_value)) = next_key(rest) {
            // The key's offset in the item, so that hosts read it with one
            // 16-byte load (`Key::at`) rather than copying it.
            let start = (key.raw().as_ptr() as usize).wrapping_sub(json.as_ptr() as usize);
            let key = ItemKey::of(Key::find_at(json, start, key, ITEM_KEYS));
            found.shape.note(key, at_value.first().copied());
            // A string value is read once, for its end and its escapes.
            match at_value.split_first() {
                Some((b'"', tail)) => {
                    let (t, escaped, next) = match spans.find(tail.len()) {
                        Some((len, escaped)) if tail.len() > len => {
                            let (t, next) = tail.split_at(len);
                            (t, escaped, next.get(1..).unwrap_or_default())
                        }
                        _ => validated::string(tail),
                    };
                    rest = next;
                    found.string(key, JsonStr::new(t, escaped));
                }
                _ => {
                    let (value, next) = validated::value(at_value);
                    rest = next;
                    found.other(key, value);
                }
            }
        }
        let after = validated::ws(rest).strip_prefix(b"}")?;
        let item = json.get(..json.len() - after.len()).unwrap_or_default();
        *input = after;
        Some(found.content(item))
    }

    /// [`read_walked`](Self::read_walked) on microcontrollers
    /// ([`HOST`](crate::json::find::HOST) false), from the item at `s`'s
    /// position, leaving `s` after it: by validation's own item walk
    /// (the `contents` walker's, one item) into the sink validation uses there,
    /// whose checks cannot fail on text it validated. One grammar's code
    /// instead of two, and one item walk instead of two (a test checks
    /// both read the same items).
    #[inline]
    fn read_scanned(s: &mut Cursor<'a>) -> Option<Self> {
        let start = s.pos;
        let mut found = Found::new();
        s.contents_whole(true, &mut found).ok()?;
        let item = s.buf.get(start..s.pos)?;
        Some(found.content(item))
    }

    /// The item's URI.
    #[must_use]
    pub const fn uri(&self) -> JsonStr<'a> {
        self.uri
    }

    /// The item's `mimeType`, if present and not `null`.
    #[must_use]
    pub const fn mime_type(&self) -> Option<JsonStr<'a>> {
        self.mime_type
    }

    /// The payload: text or blob.
    #[must_use]
    pub const fn body(&self) -> Body<'a> {
        self.body
    }

    /// The item's `_meta` object, if present and not `null`.
    #[must_use]
    pub const fn meta(&self) -> Option<RawJson<'a>> {
        self.meta
    }

    /// The item's JSON text.
    #[must_use]
    pub const fn json(&self) -> &'a [u8] {
        self.json
    }
}

impl fmt::Debug for Content<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The values themselves, as a `String` shows its text: the body
        // as its JSON string, `_meta` as its JSON text.
        f.debug_struct("Content")
            .field("uri", &self.uri)
            .field("mime_type", &self.mime_type)
            .field("body", &self.body)
            .field("meta", &self.meta)
            .finish()
    }
}

impl fmt::Display for Content<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.body {
            Body::Text(t) => write!(f, "{} (text, {} bytes)", self.uri, t.raw().len()),
            Body::Blob(b) => write!(
                f,
                "{} (blob, {} base64 bytes)",
                self.uri,
                b.text().raw().len()
            ),
        }
    }
}

/// The items still to come, as a list (not the iterator's cursor).
impl fmt::Debug for Contents<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

impl fmt::Debug for ResultView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // What each field means: the items themselves (each shows its
        // uri and body), `_meta` as its JSON text.
        f.debug_struct("ResultView")
            .field("contents", &self.contents())
            .field("result_type", &self.result_type)
            .field("ttl_ms", &self.ttl_ms)
            .field("cache_scope", &self.cache_scope)
            .field("meta", &self.meta)
            .finish()
    }
}

impl fmt::Display for ResultView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "result with {} content item(s), {} bytes",
            self.len,
            self.json.len()
        )
    }
}

/// `cacheScope`'s wire spelling, `public` or `private` (as
/// [`CacheScope::as_str`]).
impl fmt::Display for CacheScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl core::str::FromStr for CacheScope {
    type Err = ParseCacheScopeError;

    /// The scope a wire spelling names, exactly as the reference reads a
    /// `cacheScope` string: `public` or `private`, case and all.
    ///
    /// # Errors
    ///
    /// [`ParseCacheScopeError`] for any other text. (The empty string,
    /// which a frame's decoder reads as no scope, is not a scope either.)
    ///
    /// # Examples
    ///
    /// ```
    /// use diverge_frame::CacheScope;
    ///
    /// assert_eq!("private".parse(), Ok(CacheScope::Private));
    /// assert_eq!(CacheScope::Public.to_string(), "public");
    /// assert!("Public".parse::<CacheScope>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseCacheScopeError> {
        match s {
            "public" => Ok(Self::Public),
            "private" => Ok(Self::Private),
            _ => Err(ParseCacheScopeError),
        }
    }
}

/// Text that is not a [`CacheScope`]'s wire spelling (`"public"` or
/// `"private"`), from [`str::parse`].
///
/// # Examples
///
/// ```
/// use diverge_frame::{CacheScope, ParseCacheScopeError};
///
/// assert_eq!("shared".parse::<CacheScope>(), Err(ParseCacheScopeError));
/// assert_eq!("public".parse::<CacheScope>(), Ok(CacheScope::Public));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ParseCacheScopeError;

impl fmt::Display for ParseCacheScopeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown cacheScope (expected \"public\" or \"private\")")
    }
}

impl core::error::Error for ParseCacheScopeError {}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::error::BodyErrorKind as K;

    /// `cacheScope` as it was read before the one-walk form: the whole
    /// value first (`value_full`), then its string or its members from the
    /// validated text. The oracle of `cache_scope_walks_as_the_value_did`.
    fn cache_scope_by_value(s: &mut Cursor<'_>) -> Result<Option<CacheScope>, BodyError> {
        if s.ws() == Some(b'n') {
            s.value_full(0)?;
            return Ok(None);
        }
        let bad = BodyError::new(K::UnknownCacheScope, s.pos);
        let variant = |name: JsonStr<'_>| {
            if name == "public" {
                Some(CacheScope::Public)
            } else if name == "private" {
                Some(CacheScope::Private)
            } else {
                None
            }
        };
        let value = s.value_full(TOP)?;
        match value.as_bytes().split_first() {
            Some((b'"', tail)) => {
                let (text, escaped, _) = validated::string(tail);
                let name = JsonStr::new(text, escaped);
                if name.is_empty() {
                    return Ok(None);
                }
                variant(name).map(Some).ok_or(bad)
            }
            Some((b'{', _)) => {
                let mut scope = None;
                let mut last_is_null = false;
                for (key, val) in value.members() {
                    let this = variant(key).ok_or(bad)?;
                    if scope.is_some_and(|s| s != this) {
                        return Err(bad);
                    }
                    scope = Some(this);
                    last_is_null = val.is_null();
                }
                match scope {
                    Some(scope) if last_is_null => Ok(Some(scope)),
                    _ => Err(bad),
                }
            }
            _ => Err(bad),
        }
    }

    /// `cacheScope` read in one walk answers as the whole-value reading
    /// did (the value, or the error's kind and offset, and where the
    /// scanner stops) on every value of up to three members over a set of
    /// keys and values, on the depth limit's both sides, and on every
    /// prefix of each.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn cache_scope_walks_as_the_value_did() {
        const KEYS: [&str; 6] = [
            r#""public""#,
            r#""private""#,
            r#""\u0070ublic""#,
            r#""x""#,
            r#""""#,
            "1",
        ];
        const VALUES: [&str; 8] = [
            "null",
            " null ",
            "1",
            "[]",
            r#"{"a":null}"#,
            "tru",
            r#""s""#,
            "nul",
        ];
        let mut texts: Vec<std::string::String> = vec![
            r#""public""#.into(),
            r#""private""#.into(),
            r#""\u0070rivate""#.into(),
            r#""""#.into(),
            r#""Public""#.into(),
            "null".into(),
            "1".into(),
            "[null]".into(),
            "{}".into(),
            "{,}".into(),
            r#"{"public":null,}"#.into(),
            r#"{"public" null}"#.into(),
            r#"{"public":null "private":null}"#.into(),
            r#"{"public":null]"#.into(),
            r#"{"public":null,]"#.into(),
            r#"{]"#.into(),
            r#"{"public"]"#.into(),
            r#"{"public":]"#.into(),
        ];
        // After each member, every way an object can go on or go wrong.
        for member in [r#""public":null"#, r#""x":[1]"#, r#""private":{}"#] {
            for next in [",", "}", "]", " ]", " } ", "x", ":", "\"", ", }", ", ]", ""] {
                texts.push(std::format!("{{{member}{next}"));
                texts.push(std::format!("{{{member},{member}{next}"));
            }
        }
        for depth in 124..=129 {
            for key in ["public", "x"] {
                texts.push(std::format!(
                    r#"{{"{key}":{}null{}}}"#,
                    "[".repeat(depth),
                    "]".repeat(depth)
                ));
            }
        }
        let mut members: Vec<std::string::String> = vec![];
        for k in KEYS {
            for v in VALUES {
                members.push(std::format!("{k}:{v}"));
            }
        }
        for a in &members {
            texts.push(std::format!("{{{a}}}"));
            for b in &members {
                texts.push(std::format!("{{ {a} , {b} }}"));
            }
        }
        for a in members.iter().step_by(5) {
            for b in members.iter().step_by(3) {
                for c in members.iter().step_by(7) {
                    texts.push(std::format!("{{{a},{b},{c}}}"));
                }
            }
        }
        let (mut n, mut deep) = (0, 0);
        for text in &texts {
            let text = text.as_bytes();
            for end in 0..=text.len() {
                let bytes = &text[..end];
                let (mut one, mut two) = (Cursor::new(bytes), Cursor::new(bytes));
                let (walked, by_value) = (one.cache_scope_field(), cache_scope_by_value(&mut two));
                assert_eq!(walked, by_value, "{:?}", std::str::from_utf8(bytes));
                match walked {
                    Ok(_) => assert_eq!(one.pos, two.pos, "{:?}", std::str::from_utf8(bytes)),
                    Err(e) if e.kind() == K::RecursionLimitExceeded => deep += 1,
                    Err(_) => {}
                }
                n += 1;
            }
        }
        assert!(n > 100_000 && deep > 100, "{n} texts, {deep} too deep");
    }

    /// The two-bit item shape decides as serde's untagged rule, written out
    /// with a count and a type check per key (the shape's former form), on
    /// every sequence of up to four members over every key and value kind.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn item_shape_follows_the_counting_rule() {
        const KEYS: [ItemKey; 5] = [
            ItemKey::Uri,
            ItemKey::MimeType,
            ItemKey::Text,
            ItemKey::Blob,
            ItemKey::Meta,
        ];
        const FIRSTS: [Option<u8>; 6] = [
            Some(b'"'),
            Some(b'n'),
            Some(b'{'),
            Some(b'['),
            Some(b'1'),
            None,
        ];
        let mut stack = vec![vec![]];
        while let Some(members) = stack.pop() {
            let mut shape = ItemShape::new();
            let mut count = [0u32; 5];
            let mut ok = [false; 5];
            for &(k, first) in &members {
                shape.note_value(KEYS[k], first);
                let string = first == Some(b'"');
                let null = first == Some(b'n');
                count[k] += 1;
                ok[k] = match KEYS[k] {
                    ItemKey::Uri | ItemKey::Text | ItemKey::Blob => string,
                    ItemKey::MimeType => string || null,
                    ItemKey::Meta => null || first == Some(b'{'),
                };
            }
            let once = |k: usize| count[k] == 1 && ok[k];
            let common = once(0) && (count[1] == 0 || once(1)) && (count[4] == 0 || once(4));
            assert_eq!(shape.is_text(), common && once(2), "{members:?}");
            assert_eq!(shape.is_blob(), common && once(3), "{members:?}");
            if members.len() < 4 {
                for k in 0..5 {
                    for first in FIRSTS {
                        let mut next = members.clone();
                        next.push((k, first));
                        stack.push(next);
                    }
                }
            }
        }
    }

    /// Every result vector, and a result with escapes, long strings,
    /// repeated keys and nested `_meta`s.
    fn results() -> Vec<Vec<u8>> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
        let mut out: Vec<Vec<u8>> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("result_")
            })
            .map(|p| std::fs::read(p).unwrap()[1..].to_vec())
            .collect();
        out.push(
            br#" { "contents" : [ { "_meta" : { "a" : [ 1 , { "b" : null } ] } , "uri" : "x\u00e9" , "text" : "t\n" , "x" : -1.5e3 } , {"uri":"b","text":"1","text":"2","blob":"AA==","mimeType":null,"_meta":null} ] }"#
                .to_vec(),
        );
        out
    }

    /// The microcontrollers' item reader (the scanner over validated text)
    /// reads the items the hosts' reader (the walker) reads, with the same
    /// text after each.
    #[test]
    #[cfg_attr(miri, ignore)] // reads tests/vectors: no file system under Miri's isolation
    fn items_read_by_the_scanner_equal_the_walkers() {
        let mut n = 0;
        for json in results() {
            let view = ResultView::decode(&json).unwrap();
            let mut rest = validated::ws(view.contents.get(1..).unwrap());
            for _ in 0..view.len {
                if let Some((b',', r)) = rest.split_first() {
                    rest = validated::ws(r);
                }
                let mut walked = rest;
                let walker = (
                    Content::read_walked(&mut walked, &Spans::default()).unwrap(),
                    walked,
                );
                let mut s = Cursor::new(rest);
                let scanner = (Content::read_scanned(&mut s).unwrap(), &rest[s.pos..]);
                assert!(walker == scanner, "{:?}", std::str::from_utf8(rest));
                rest = validated::ws(walker.1);
                n += 1;
            }
        }
        assert!(n > 10, "{n} items");
    }

    /// Validation into the microcontrollers' sink ([`Found`]) answers as
    /// validation into the hosts' ([`Spans`]): the same view but for the
    /// spans, or the same error, on every result and every prefix of it.
    #[test]
    #[cfg_attr(miri, ignore)] // reads tests/vectors: no file system under Miri's isolation
    fn validation_into_either_sink_answers_alike() {
        for json in results() {
            for end in 0..=json.len() {
                let bytes = &json[..end];
                let hosts =
                    ResultView::decode_with(bytes, &mut Spans::default()).map(|v| ResultView {
                        spans: Spans::default(),
                        ..v
                    });
                let mcus = ResultView::decode_with(bytes, &mut Found::new());
                assert!(hosts == mcus, "{:?}", std::str::from_utf8(bytes));
            }
        }
    }

    /// The items read without spans (microcontrollers) equal the items read
    /// with them (hosts), long strings and escapes included.
    #[test]
    fn items_without_spans_are_the_same_items() {
        let long = "x".repeat(100);
        let escaped = std::format!("{long}\\n\\u00e9");
        let json = std::format!(
            r#"{{"contents":[{{"uri":"a","text":"{long}"}},{{"blob":"{long}","uri":"{escaped}","_meta":{{"k":"{long}"}}}},{{"uri":"b","mimeType":"{escaped}","text":"{escaped}","blob":"{long}"}},{{"uri":"c","text":"x"}}]}}"#
        );
        let view = ResultView::decode(json.as_bytes()).unwrap();
        // Hosts note the six long strings; microcontrollers note none.
        let noted = if crate::json::find::HOST { 6 } else { 0 };
        assert_eq!(view.spans.n, noted);
        let with: Vec<_> = view.contents().collect();
        let without: Vec<_> = Contents {
            spans: Spans::default(),
            ..view.contents()
        }
        .collect();
        assert_eq!(with.len(), 4);
        assert!(with == without);
    }
}
