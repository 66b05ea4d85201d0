//! The bodies' shape rules that the whole-buffer decoder and the streaming
//! machine share, written once: a content item's text-or-blob verdict
//! (serde's untagged choice, [`ItemShape`]), the `cacheScope` names
//! ([`CacheScope`]) and the integer fields' rules ([`ttl_ms`], [`code`]).

use crate::error::{BodyError, BodyErrorKind as K, Detail};
use crate::json::borrowed::JsonStr;
use crate::json::number::Num;

/// Who may cache a result (`cacheScope`, SEP-2549).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum CacheScope {
    /// `"public"`: any client or intermediary may cache it.
    Public,
    /// `"private"`: only the requesting user's client may cache it.
    Private,
}

impl CacheScope {
    /// The wire name: `"public"` or `"private"`.
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Public => "public",
            Self::Private => "private",
        }
    }
}

/// What a content item's keys looked like, for serde's untagged choice: the
/// one place of that rule, for the whole-buffer decoder and the streaming
/// machine alike. Two bits a key ([`ItemKey`] order): whether it was not
/// seen, seen once with a value of the right type, seen once with another,
/// or seen more than once.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct ItemShape {
    seen: u16,
}

/// A key not seen.
const NONE: u16 = 0;
/// A key seen once, its value of the right type.
const ONCE_OK: u16 = 1;
/// A key seen once, its value of another type.
const ONCE_BAD: u16 = 2;
/// A key seen more than once.
const MORE: u16 = 3;

/// The content item keys serde's untagged choice looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemKey {
    Uri,
    MimeType,
    Text,
    Blob,
    Meta,
}

impl ItemKey {
    /// The item member whose index in [`ITEM_KEYS`] is `found`, if any.
    #[inline]
    pub(crate) const fn of(found: Option<usize>) -> Option<Self> {
        Some(match found {
            None => return None,
            Some(0) => Self::Uri,
            Some(1) => Self::MimeType,
            Some(2) => Self::Text,
            Some(3) => Self::Blob,
            Some(_) => Self::Meta,
        })
    }
}

impl ItemShape {
    /// No member seen yet.
    pub(crate) const fn new() -> Self {
        Self { seen: NONE }
    }

    /// A member whose key is `key` (none of the five: nothing to note) and
    /// whose value starts with the byte `first`.
    pub(crate) fn note(&mut self, key: Option<ItemKey>, first: Option<u8>) {
        if let Some(key) = key {
            self.note_value(key, first);
        }
    }

    /// A member `key` whose value starts with the byte `first`.
    pub(crate) fn note_value(&mut self, key: ItemKey, first: Option<u8>) {
        // The value's kind, one bit each: a string, `null`, an object.
        let kind: u32 = match first {
            Some(b'"') => 1,
            Some(b'n') => 2,
            Some(b'{') => 4,
            _ => 0,
        };
        // The kinds each key takes, four bits a key in `ItemKey` order:
        // `uri`, `text`, `blob` a string; `mimeType` also `null`; `_meta`
        // `null` or an object.
        const TAKES: u32 = 1 | 3 << 4 | 1 << 8 | 1 << 12 | 6 << 16;
        let ok = TAKES >> (4 * key as u32) & kind != 0;
        let shift = 2 * key as u32;
        // The states only grow, and `MORE` has both bits: an OR moves on.
        let state = if self.seen >> shift & 3 == NONE {
            ONCE_BAD - u16::from(ok)
        } else {
            MORE
        };
        self.seen |= state << shift;
    }

    /// Whether `uri` and `body` (`text` or `blob`) were seen once with a
    /// string, and `mimeType` and `_meta` at most once with the right type.
    const fn has(&self, body: ItemKey) -> bool {
        const fn at(key: ItemKey, state: u16) -> u16 {
            state << (2 * key as u32)
        }
        // At most once, right type: the high bit clear.
        let mask = at(ItemKey::Uri, 3)
            | at(body, 3)
            | at(ItemKey::MimeType, ONCE_BAD)
            | at(ItemKey::Meta, ONCE_BAD);
        self.seen & mask == at(ItemKey::Uri, ONCE_OK) | at(body, ONCE_OK)
    }

    pub(crate) const fn is_text(&self) -> bool {
        self.has(ItemKey::Text)
    }

    /// Whether the item is a content item at all, a text or a blob one
    /// (serde's untagged choice takes one of the two or fails): the one
    /// statement of the item verdict.
    pub(crate) const fn is_item(&self) -> bool {
        self.is_text() || self.is_blob()
    }

    pub(crate) const fn is_blob(&self) -> bool {
        self.has(ItemKey::Blob)
    }

    /// Why an item of this shape is neither a text nor a blob item (called
    /// only for such an item), as the error names it: `uri` if it is not
    /// there once as a string; else no body at all; else `mimeType` or
    /// `_meta` there twice or of a wrong type; else what is wrong with
    /// `text` (or, without a `text`, with `blob`).
    #[cold]
    pub(crate) fn fault(&self) -> Detail {
        let state = |key: ItemKey| self.seen >> (2 * key as u32) & 3;
        let (text, blob) = (state(ItemKey::Text), state(ItemKey::Blob));
        let key = if state(ItemKey::Uri) != ONCE_OK {
            ItemKey::Uri
        } else if text == NONE && blob == NONE {
            return Detail::ITEM_NO_BODY;
        } else if state(ItemKey::MimeType) >= ONCE_BAD {
            ItemKey::MimeType
        } else if state(ItemKey::Meta) >= ONCE_BAD {
            ItemKey::Meta
        } else if text != NONE {
            ItemKey::Text
        } else {
            ItemKey::Blob
        };
        Detail::member(key as u8, state(key))
    }
}

/// The `cacheScope` rule, written once for the scanner and the streaming
/// machine: the reference parses the value as a `serde_json::Value`, takes
/// `null` and `""` as absent, and reads the rest through serde's enum rules
/// for a `Value`: a variant name, or a one-key map whose value is `null`
/// (duplicate keys collapse first, the last one winning). Fed what the
/// value is as it is read ([`start`](Self::start), [`name`](Self::name),
/// [`member_value`](Self::member_value)); the [`verdict`](Self::verdict)
/// comes after the whole value was checked, as serde_json checks it first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScopeRule {
    /// A bit each for: no variant (a name that is none, or another type),
    /// `public`, `private`, the empty string, and an object whose last
    /// member's value is not `null` (yet). Exactly one of `public`,
    /// `private` and the empty string, alone, is an answer.
    seen: u8,
}

impl ScopeRule {
    const NONE: u8 = 1;
    const EMPTY: u8 = 8;
    const NOT_NULL: u8 = 16;

    /// A value that is not `null`, whose first byte is `first`, begins.
    pub(crate) const fn start(first: Option<u8>) -> Self {
        Self {
            seen: match first {
                Some(b'"') => 0,
                Some(b'{') => Self::NOT_NULL,
                _ => Self::NONE,
            },
        }
    }

    /// The string value, or a key of the object, was read: `found` is its
    /// index in [`SCOPE_KEYS`], and `empty` says it is the string `""`
    /// (keys pass `false`: an empty key names no variant).
    pub(crate) const fn name(&mut self, found: Option<usize>, empty: bool) {
        self.seen |= match found {
            Some(0) => 2,
            Some(_) => 4,
            None if empty => Self::EMPTY,
            None => Self::NONE,
        };
    }

    /// An object member's value begins with `first`.
    pub(crate) const fn member_value(&mut self, first: Option<u8>) {
        if matches!(first, Some(b'n')) {
            self.seen &= !Self::NOT_NULL;
        } else {
            self.seen |= Self::NOT_NULL;
        }
    }

    /// The answer once the whole value (first byte at `at`) was checked:
    /// the scope, `None` for `""`, or
    /// [`UnknownCacheScope`](K::UnknownCacheScope) at `at`.
    pub(crate) const fn verdict(&self, at: usize) -> Result<Option<CacheScope>, BodyError> {
        match self.seen {
            Self::EMPTY => Ok(None),
            2 => Ok(Some(CacheScope::Public)),
            4 => Ok(Some(CacheScope::Private)),
            _ => Err(BodyError::new(K::UnknownCacheScope, at)),
        }
    }
}

/// The fields a body requires, a bit each in declaration order: the
/// result's `contents`, the error's `code` and `message`, the request's
/// `uri`. `base` is [`Detail::RESULT`], [`Detail::ERROR`] or
/// [`Detail::REQUEST`].
pub(crate) const fn required(base: u8) -> u8 {
    match base {
        Detail::RESULT => 1 << 3,
        Detail::ERROR => 0b11,
        _ => 1 << 1,
    }
}

/// The missing-field rule, written once: a body that closed at `at` with
/// the fields `seen` (a bit each, declaration order) lacks a required one,
/// and serde names the first missing in declaration order.
pub(crate) fn missing(base: u8, seen: u8, at: usize) -> BodyError {
    // At most 7: `required` has a bit below 8 that `seen` lacks.
    #[allow(clippy::cast_possible_truncation)]
    let first = (required(base) & !seen).trailing_zeros() as u8;
    BodyError::about(K::MissingField, at, Detail::field(base + first))
}

/// The result's `ttlMs` field, in the errors' words.
pub(crate) const TTL_MS: Detail = Detail::field(Detail::RESULT + 1);

/// The error's `code` field, in the errors' words.
pub(crate) const CODE: Detail = Detail::field(Detail::ERROR);

/// The rule of `ttlMs` (`Option<i64>` in the reference, negatives read as
/// 0), for a number of class `num` whose first byte is at `at`: the value,
/// or [`IntegerOutOfRange`](K::IntegerOutOfRange) past `i64`, or
/// [`InvalidType`](K::InvalidType) for a float. The one copy of the rule:
/// the scanner and the streaming machine both ask it.
pub(crate) fn ttl_ms(num: Num, at: usize) -> Result<u64, BodyError> {
    match num {
        Num::U64(v) if i64::try_from(v).is_ok() => Ok(v),
        Num::U64(_) => Err(BodyError::about(K::IntegerOutOfRange, at, TTL_MS)),
        Num::I64(_) => Ok(0),
        Num::F64 => Err(BodyError::about(K::InvalidType, at, TTL_MS)),
    }
}

/// The rule of the error's `code` (serde_json's `deserialize_i32`): an
/// integer literal in `i32`, else [`IntegerOutOfRange`](K::IntegerOutOfRange)
/// or, for a float, [`InvalidType`](K::InvalidType), at `at`.
pub(crate) fn code(num: Num, at: usize) -> Result<i32, BodyError> {
    let out = || BodyError::about(K::IntegerOutOfRange, at, CODE);
    match num {
        Num::U64(v) => i32::try_from(v).map_err(|_| out()),
        Num::I64(v) => i32::try_from(v).map_err(|_| out()),
        Num::F64 => Err(BodyError::about(K::InvalidType, at, CODE)),
    }
}

/// A key as the name tables see it: the one key matcher, for every field
/// name and `cacheScope` name that the scanner, the streaming machine and
/// the views match. Its first 16 unescaped bytes as one little-endian
/// integer (zero past its end), and its length; a longer key (no name is)
/// has length [`LONG`](Key::LONG) and matches nothing, so a key is matched
/// with two compares per name. Built whole from a string
/// ([`of`](Key::of), [`at`](Key::at), [`plain`](Key::plain)) or piece by
/// piece as the machine reads a key across chunks ([`push`](Key::push)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Key {
    /// Stored as bytes, read as a `u128`: the byte alignment keeps the
    /// machine's state from growing to a 16-byte alignment.
    packed: [u8; 16],
    len: u8,
}

impl Key {
    /// No byte yet.
    pub(crate) const EMPTY: Self = Self {
        packed: [0; 16],
        len: 0,
    };

    /// The length of a key of more than 16 bytes.
    const LONG: u8 = 17;

    /// Every key of more than 16 bytes.
    const TOO_LONG: Self = Self {
        packed: [0; 16],
        len: Self::LONG,
    };

    /// A name of a table, at compile time.
    #[allow(
        clippy::indexing_slicing,
        clippy::cast_possible_truncation,
        reason = "evaluated at compile time: a bad index fails the build"
    )]
    const fn name(name: &str) -> Self {
        let name = name.as_bytes();
        assert!(name.len() <= 16);
        let mut packed = 0u128;
        let mut i = 0;
        while i < name.len() {
            packed |= (name[i] as u128) << (8 * i);
            i += 1;
        }
        Self {
            packed: packed.to_le_bytes(),
            len: name.len() as u8,
        }
    }

    /// [`name`](Self::name) of every name of a table.
    #[allow(
        clippy::indexing_slicing,
        reason = "evaluated at compile time: a bad index fails the build"
    )]
    const fn table<const N: usize>(names: [&str; N]) -> [Self; N] {
        let mut out = [Self::EMPTY; N];
        let mut i = 0;
        while i < N {
            out[i] = Self::name(names[i]);
            i += 1;
        }
        out
    }

    /// Appends unescaped bytes of the key.
    #[inline]
    pub(crate) fn push(&mut self, more: &[u8]) {
        let at = usize::from(self.len);
        match self
            .packed
            .get_mut(at..)
            .and_then(|rest| rest.get_mut(..more.len()))
        {
            Some(to) => {
                to.copy_from_slice(more);
                // At most 16 in all.
                #[allow(clippy::cast_possible_truncation)]
                {
                    self.len += more.len() as u8;
                }
            }
            None => *self = Self::TOO_LONG,
        }
    }

    /// No byte yet.
    pub(crate) const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Past 16 bytes: it can match no name.
    pub(crate) const fn is_long(&self) -> bool {
        self.len == Self::LONG
    }

    /// The key the string `s` is, unescaped.
    pub(crate) fn of(s: JsonStr<'_>) -> Self {
        let mut key = Self::EMPTY;
        let mut pieces = s.pieces();
        while let Some(piece) = pieces.next() {
            key.push(piece);
        }
        key
    }

    /// The key of `len` plain bytes (no escape, no quote) at `buf[start..]`:
    /// on hosts with one 16-byte load and a mask when the buffer has 16
    /// bytes there, else byte by byte.
    #[inline]
    pub(crate) fn plain(buf: &[u8], start: usize, len: usize) -> Self {
        if len > 16 {
            return Self::TOO_LONG;
        }
        if super::find::HOST
            && let Some(window) = buf.get(start..).and_then(<[u8]>::first_chunk::<16>)
        {
            return Self::block(*window, len);
        }
        let mut key = Self::EMPTY;
        key.push(buf.get(start..start + len).unwrap_or_default());
        key
    }

    /// The key of the `len` (at most 16) plain bytes that start `block`
    /// (hosts: the key reader, which loaded it, and [`plain`](Self::plain)).
    #[inline]
    pub(crate) fn block(block: [u8; 16], len: usize) -> Self {
        // `len` is at most 16 here.
        #[allow(clippy::cast_possible_truncation)]
        Self {
            packed: (u128::from_le_bytes(block) & LOW_BYTES.get(len).copied().unwrap_or_default())
                .to_le_bytes(),
            len: len as u8,
        }
    }

    /// The key the string `s`, whose text starts at `buf[start]`, is: by
    /// [`plain`](Self::plain) when it has no escape.
    #[inline]
    pub(crate) fn at(buf: &[u8], start: usize, s: JsonStr<'_>) -> Self {
        if s.is_escaped() {
            Self::of(s)
        } else {
            Self::plain(buf, start, s.raw().len())
        }
    }

    /// The name's bytes.
    fn bytes(&self) -> &[u8] {
        self.packed.get(..usize::from(self.len)).unwrap_or_default()
    }

    /// Which of `names` the string `text` is (unescaped), the
    /// microcontrollers' way: the text compared with each name in place,
    /// which links no copy of it and no packed table. Hosts pack the key
    /// instead ([`of`](Self::of) or [`at`](Self::at), then
    /// [`find`](Self::find)); the two lanes give the same answers (a test
    /// compares them, and `--cfg diverge_compact` runs every test on this
    /// one).
    #[inline]
    pub(crate) fn find_text(text: JsonStr<'_>, names: NameTable) -> Option<usize> {
        Self::find_text_call(text, names.text)
    }

    /// [`find_text`](Self::find_text) for a string whose text starts at
    /// `buf[start]`: hosts pack it with [`at`](Self::at).
    #[inline]
    pub(crate) fn find_at(
        buf: &[u8],
        start: usize,
        text: JsonStr<'_>,
        names: NameTable,
    ) -> Option<usize> {
        if super::find::HOST {
            Self::at(buf, start, text).find(names)
        } else {
            Self::find_text_call(text, names.text)
        }
    }

    #[inline(never)]
    fn find_text_call(text: JsonStr<'_>, names: &[&str]) -> Option<usize> {
        names.iter().position(|name| text.eq_bytes(name.as_bytes()))
    }

    /// The index of the key in `names`, if it is one of them: two integer
    /// compares per name on hosts, the bytes compared on microcontrollers.
    #[inline]
    pub(crate) fn find(&self, names: NameTable) -> Option<usize> {
        if super::find::HOST {
            names.keys.iter().position(|name| {
                name.len == self.len
                    && u128::from_le_bytes(name.packed) == u128::from_le_bytes(self.packed)
            })
        } else {
            self.find_call(names.text)
        }
    }

    #[inline(never)]
    fn find_call(&self, names: &[&str]) -> Option<usize> {
        let bytes = self.bytes();
        names.iter().position(|name| name.as_bytes() == bytes)
    }
}

/// `LOW_BYTES[n]`: the low `n` bytes of a `u128` set (hosts' [`Key::plain`]:
/// a load, where a shift by a variable costs a dozen instructions).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: a bad index fails the build"
)]
const LOW_BYTES: [u128; 17] = {
    let mut t = [0u128; 17];
    let mut n = 1;
    while n <= 16 {
        t[n] = t[n - 1] << 8 | 0xFF;
        n += 1;
    }
    t
};

/// A table of names: their text (what microcontrollers compare a key's
/// text with) and, derived from it at compile time, their packed keys (what
/// hosts compare). Passed by value, so that a build links only the half its
/// lane reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NameTable {
    text: &'static [&'static str],
    keys: &'static [Key],
}

impl NameTable {
    /// The number of names.
    pub(crate) const fn len(self) -> usize {
        self.text.len()
    }
}

/// A [`NameTable`] of the names `text`, its packed keys derived at compile
/// time.
macro_rules! name_table {
    ($($name:literal),+ $(,)?) => {{
        const TEXT: &[&str] = &[$($name),+];
        NameTable {
            text: TEXT,
            keys: &Key::table([$($name),+]),
        }
    }};
}

/// The result's fields, in declaration order (the errors' and the
/// positional form's order).
pub(crate) const RESULT_KEYS: NameTable =
    name_table!("resultType", "ttlMs", "cacheScope", "contents", "_meta");
/// The error's fields.
pub(crate) const ERROR_KEYS: NameTable = name_table!("code", "message", "data");
/// The request's fields.
pub(crate) const REQUEST_KEYS: NameTable =
    name_table!("_meta", "uri", "inputResponses", "requestState");
/// A content item's members the untagged choice looks at ([`ItemKey`] order).
pub(crate) const ITEM_KEYS: NameTable = name_table!("uri", "mimeType", "text", "blob", "_meta");
/// The `cacheScope` names ([`CacheScope`] order).
pub(crate) const SCOPE_KEYS: NameTable = name_table!("public", "private");

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    /// Every way of building a key (whole from escaped text, from a window,
    /// from words, piece by piece at every cut) and both lanes of the
    /// matcher give the same answer as comparing the unescaped text with
    /// each name, on every name, near-misses of each, and escaped forms.
    #[test]
    fn every_lane_of_the_matcher_agrees() {
        let tables = [RESULT_KEYS, ERROR_KEYS, REQUEST_KEYS, ITEM_KEYS, SCOPE_KEYS];
        let mut texts: Vec<(Vec<u8>, bool)> = Vec::new();
        for table in tables {
            for name in table.keys {
                let name = name.bytes().to_vec();
                texts.push((name.clone(), false));
                // One byte less, one more, one changed.
                texts.push((name[..name.len() - 1].to_vec(), false));
                texts.push(([&name[..], b"x"].concat(), false));
                let mut changed = name.clone();
                changed[0] ^= 0x20;
                texts.push((changed, false));
                // The first byte escaped, and a NUL escaped after it.
                let mut escaped = std::format!("\\u{:04x}", name[0]).into_bytes();
                escaped.extend_from_slice(&name[1..]);
                texts.push((escaped.clone(), true));
                texts.push(([&escaped[..], b"\\u0000"].concat(), true));
            }
        }
        for long in [16usize, 17, 40] {
            texts.push((std::vec![b'k'; long], false));
        }
        texts.push((b"".to_vec(), false));
        texts.push((br"\n".to_vec(), true));
        for (raw, escaped) in &texts {
            let text = JsonStr::new(raw, *escaped);
            let mut unescaped = std::vec![0u8; 64];
            let unescaped = text
                .unescape_into(&mut unescaped)
                .unwrap()
                .as_bytes()
                .to_vec();
            // The text in a buffer with room after it (the hosts' window)
            // and without.
            let mut buf = std::vec![b'"'];
            buf.extend_from_slice(raw);
            buf.extend_from_slice(b"\": 1, \"padding\": 2}");
            let whole = Key::of(text);
            assert_eq!(Key::at(&buf, 1, text), whole, "{raw:?}");
            assert_eq!(Key::at(&buf[..=raw.len()], 1, text), whole, "{raw:?}");
            if !escaped && raw.len() < 16 {
                let mut block = [b'x'; 16];
                block[..raw.len()].copy_from_slice(raw);
                assert_eq!(Key::block(block, raw.len()), whole, "{raw:?}");
            }
            for cut in 0..=unescaped.len() {
                let mut pieces = Key::EMPTY;
                pieces.push(&unescaped[..cut]);
                pieces.push(&unescaped[cut..]);
                assert_eq!(pieces, whole, "{raw:?} cut at {cut}");
            }
            for table in tables {
                let want = table.text.iter().position(|n| n.as_bytes() == unescaped);
                assert_eq!(whole.find(table), want, "{raw:?}");
                assert_eq!(whole.find_call(table.text), want, "{raw:?}");
                assert_eq!(Key::find_text(text, table), want, "{raw:?}");
                assert_eq!(Key::find_text_call(text, table.text), want, "{raw:?}");
                assert_eq!(Key::find_at(&buf, 1, text, table), want, "{raw:?}");
            }
        }
    }
}
