//! Borrowed views over validated JSON, and the struct rules that produce them.
//!
//! **Contract**: a view exists only after [`Frame::decode`](crate::Frame::decode)
//! or [`RequestView::decode`] returned `Ok`, and then no accessor fails or
//! panics: everything it reads was checked by the decode, the way the
//! reference checks it.

pub(crate) mod error;
pub(crate) mod members;
pub(crate) mod request;
pub(crate) mod result;

use crate::error::BodyError;
use crate::json::body::{Take, take};
use crate::json::borrowed::{JsonStr, RawJson};
use crate::json::cursor::Cursor;
use crate::json::event::{Field, named};

pub(crate) use crate::json::body::Fields;

/// The open containers around a top-level field's value: the struct itself.
pub(crate) const TOP: usize = 1;

/// Where a view's decode hands its raw fields (`_meta`, `inputResponses`,
/// `data`): by default each is checked as a `serde_json::Value`
/// ([`Cursor::raw_field`]); the `alloc` builder builds the `Value` as it
/// checks it.
pub(crate) trait RawFields<'a> {
    /// The raw field `field`, `s` after its key's colon (`null` is `None`).
    #[inline(always)]
    fn raw(&mut self, s: &mut Cursor<'a>, field: Field) -> Result<Option<RawJson<'a>>, BodyError> {
        s.raw_field(field)
    }
}

/// The views' own decodes: every raw field checked, nothing built.
impl RawFields<'_> for () {}

impl<'a> Cursor<'a> {
    /// A top-level field's value is next (after whitespace): what `field`
    /// takes of its first byte, by the one rule ([`take`]). `null` for an
    /// optional field is consumed ([`Take::Null`]); a value the field does
    /// not take is refused here, as serde_json refuses it.
    /// Inlined on hosts (the rule folds to the field's own test); on
    /// microcontrollers ([`HOST`](crate::json::find::HOST) false) one call
    /// for every field.
    #[inline(always)]
    pub(crate) fn field_take(&mut self, field: Field) -> Result<Take, BodyError> {
        if crate::json::find::HOST {
            self.field_take_in(field)
        } else {
            self.field_take_call(field)
        }
    }

    #[inline(never)]
    fn field_take_call(&mut self, field: Field) -> Result<Take, BodyError> {
        self.field_take_in(field)
    }

    #[inline(always)]
    fn field_take_in(&mut self, field: Field) -> Result<Take, BodyError> {
        match take(field, self.ws()) {
            Take::Wrong => Err(self.wrong_type(named(field))),
            Take::Null => {
                self.value_full(0)?;
                Ok(Take::Null)
            }
            t => Ok(t),
        }
    }

    /// A string field (`null` is `None`).
    pub(crate) fn string_field(&mut self, field: Field) -> Result<Option<JsonStr<'a>>, BodyError> {
        match self.field_take(field)? {
            Take::Str => self.string(true).map(Some),
            _ => Ok(None),
        }
    }

    /// A raw field (`_meta`, `inputResponses`, `data`), checked as a
    /// `serde_json::Value` (`null` is `None`).
    pub(crate) fn raw_field(&mut self, field: Field) -> Result<Option<RawJson<'a>>, BodyError> {
        match self.field_take(field)? {
            Take::Raw => self.value_full(TOP).map(Some),
            _ => Ok(None),
        }
    }
}
