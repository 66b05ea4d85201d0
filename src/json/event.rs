//! What the streaming core tells a reader: the fields of the three bodies
//! as the schema reads them ([`Field`]), the events ([`Ev`]) and where they
//! go ([`Sink`]). Shared by the core's machine and the `contents` walker
//! ([`json::items`](super::items)), and read by the stream's reader.

use crate::error::Detail;
use crate::json::shape::{CacheScope, ItemKey};

/// What the value being read is, to the schema. The first twelve are the
/// bodies' fields in the order errors name them (`Detail::field`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Field {
    ResultType,
    Ttl,
    Scope,
    Contents,
    ResultMeta,
    Code,
    Message,
    Data,
    ReqMeta,
    ReqUri,
    InputResponses,
    RequestState,
    ItemUri,
    ItemMime,
    ItemText,
    ItemBlob,
    ItemMeta,
    ItemOther,
    /// A scalar where a typed field (or the struct) takes another type:
    /// read whole as a value would be, since its own defect wins (serde_json's
    /// `peek_invalid_type`); [`InvalidType`](K::InvalidType) at its end.
    Wrong,
    /// An unknown top-level member: syntax only.
    Ignored,
}

const _: () = assert!(
    Field::ResultType as u8 == Detail::RESULT
        && Field::Code as u8 == Detail::ERROR
        && Field::ReqMeta as u8 == Detail::REQUEST
        && Field::RequestState as u8 == Detail::REQUEST + 3
);

/// A field of [`Field`]'s first twelve, as errors name it.
pub(crate) const fn named(field: Field) -> Detail {
    Detail::field(field as u8)
}

/// The field of a content item's member whose key is `key` (none of the
/// five: [`Field::ItemOther`]).
pub(crate) const fn item_field(key: Option<ItemKey>) -> Field {
    match key {
        Some(ItemKey::Uri) => Field::ItemUri,
        Some(ItemKey::MimeType) => Field::ItemMime,
        Some(ItemKey::Text) => Field::ItemText,
        Some(ItemKey::Blob) => Field::ItemBlob,
        Some(ItemKey::Meta) => Field::ItemMeta,
        None => Field::ItemOther,
    }
}

/// What the machine tells a reader, borrowed from the chunk being fed (or,
/// for one character made by an escape or completed across a cut, from the
/// machine's stack frame).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ev<'e> {
    /// A string or raw value of a read field begins.
    Start(Field),
    /// A piece of a read string field, unescaped.
    Str(Field, &'e str),
    /// A piece of a raw JSON field (`_meta`, `data`).
    Raw(Field, &'e [u8]),
    /// The read field's value ended.
    End(Field),
    Ttl(Option<u64>),
    Scope(Option<CacheScope>),
    Code(i32),
    ItemStart,
    /// The item ended and is valid: `true` when its body is the text.
    ItemEnd(bool),
}

/// Where the machine's events go. The machine is compiled once per sink
/// type, so there are two: `()` for the validators on hosts (its `reads` is
/// false, so no event is built at all) and [`Dyn`] for every reader, whatever
/// its closure, and on microcontrollers for the validators too: what a
/// caller wants out of the grammar is a run-time choice there, and the
/// firmware links one copy of it (a copy per sink cost 4.5 KiB more).
/// Tests that force the compact paths on hosts run the validators on
/// [`Dyn`] too.
pub(crate) trait Sink {
    /// Whether events are wanted by this sink (a constant `false` for
    /// `()` and the whole-buffer sinks, so that their copies fold every
    /// check away).
    #[inline]
    fn reads(&self) -> bool {
        false
    }
    /// One event.
    #[inline]
    fn event(&mut self, _ev: Ev<'_>) {}
}

impl Sink for () {}

/// The sink of every reader and of the microcontrollers' validators: an
/// event handler chosen at run time, or none.
pub(crate) struct Dyn<'s>(pub(crate) Option<&'s mut dyn FnMut(Ev<'_>)>);

impl Sink for Dyn<'_> {
    #[inline]
    fn reads(&self) -> bool {
        self.0.is_some()
    }
    fn event(&mut self, ev: Ev<'_>) {
        if let Some(on) = &mut self.0 {
            on(ev);
        }
    }
}

/// Fields whose strings a reader is given.
pub(crate) const fn reads_string(field: Field) -> bool {
    matches!(
        field,
        Field::ResultType
            | Field::Message
            | Field::ItemUri
            | Field::ItemMime
            | Field::ItemText
            | Field::ItemBlob
    )
}

/// Fields whose raw JSON a reader is given.
pub(crate) const fn reads_raw(field: Field) -> bool {
    matches!(field, Field::ResultMeta | Field::ItemMeta | Field::Data)
}
