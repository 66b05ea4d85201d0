//! The bodies' shape rules that the whole-buffer decoder and the streaming
//! machine share, written once: a content item's text-or-blob verdict
//! (serde's untagged choice, [`ItemShape`]), the `cacheScope` names
//! ([`CacheScope`]) and the integer fields' rules ([`ttl_ms`], [`code`]).

use crate::error::{BodyError, BodyErrorKind as K, Detail};
use crate::json::number::Num;
use crate::json::str::JsonStr;

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
    /// The key `key` is, unescaped, if any.
    #[inline(always)]
    pub(crate) fn of(key: JsonStr<'_>) -> Option<Self> {
        Some(if key == "uri" {
            Self::Uri
        } else if key == "mimeType" {
            Self::MimeType
        } else if key == "text" {
            Self::Text
        } else if key == "blob" {
            Self::Blob
        } else if key == "_meta" {
            Self::Meta
        } else {
            return None;
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
