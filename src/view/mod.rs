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

use crate::error::{BodyError, BodyErrorKind as K, Detail};
use crate::json::nest;
use crate::json::scan::Scanner;
use crate::json::shape::{Key, NameTable};
use crate::json::str::{JsonStr, RawJson};

/// A walk over the top-level struct of a body: an object, or serde's
/// positional array form with exactly `fields.len()` elements.
/// [`next`](Self::next) stops at the value of each known field, which the
/// caller must consume; it skips unknown members after a syntax check and
/// rejects duplicate known fields. The outermost container counts as one
/// open level for the values inside it.
///
/// A cursor rather than a walker with a callback: each view's decode is one
/// loop over `next`, so on microcontrollers `next` is compiled once (a
/// callback, even behind `dyn`, stacked one more frame on every field).
pub(crate) struct Fields {
    /// The positional array form.
    array: bool,
    /// Array form: the elements handed out; object: a bit per known field
    /// seen.
    n: u32,
    members: Members,
}

impl Fields {
    /// `pos` is before the struct (whitespace allowed): opens it. `base`
    /// says which struct it is ([`Detail::RESULT`], [`Detail::ERROR`] or
    /// [`Detail::REQUEST`]), for the errors' words.
    pub(crate) fn open(s: &mut Scanner<'_>, base: u8) -> Result<Self, BodyError> {
        let array = match s.ws() {
            Some(b'{') => false,
            Some(b'[') => true,
            _ => return Err(s.wrong_type(Detail::body(base))),
        };
        s.pos += 1;
        Ok(Self {
            array,
            n: 0,
            members: Members { first: true },
        })
    }

    /// The fields seen so far, a bit each in declaration order (the
    /// positional form has them all, or it failed before its end).
    pub(crate) const fn seen(&self) -> u8 {
        if self.array {
            u8::MAX
        } else {
            // At most five fields: the low byte holds them.
            #[allow(clippy::cast_possible_truncation)]
            {
                self.n as u8
            }
        }
    }

    /// The index in `fields` of the next field, with `pos` at its value, or
    /// `None` after the struct's closing bracket. Inlined on hosts; on
    /// microcontrollers ([`HOST`](crate::json::find::HOST) false) a call.
    #[inline(always)]
    pub(crate) fn next(
        &mut self,
        s: &mut Scanner<'_>,
        fields: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        if crate::json::find::HOST {
            self.next_in(s, fields)
        } else {
            self.next_call(s, fields)
        }
    }

    #[inline(never)]
    fn next_call(
        &mut self,
        s: &mut Scanner<'_>,
        fields: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        self.next_in(s, fields)
    }

    #[inline(always)]
    fn next_in(
        &mut self,
        s: &mut Scanner<'_>,
        fields: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        if self.array {
            let i = self.n as usize;
            if i == fields.len() {
                return match s.ws() {
                    Some(b']') => {
                        s.pos += 1;
                        Ok(None)
                    }
                    None => Err(s.err(K::Eof)),
                    Some(_) => Err(s.err(K::TrailingCharacters)),
                };
            }
            match s.ws() {
                Some(b']') if i == 0 => return Err(s.err(K::InvalidLength)),
                _ if i == 0 => {}
                Some(b',') => {
                    s.pos += 1;
                    let next = s.ws();
                    nest::after_array_comma(next).map_err(|k| s.err(k))?;
                }
                Some(b']') => return Err(s.err(K::InvalidLength)),
                Some(_) => return Err(s.err(K::ExpectedCommaOrEndOfArray)),
                None => return Err(s.err(K::Eof)),
            }
            s.ws();
            self.n += 1;
            return Ok(Some(i));
        }
        // A known key seen before is refused right after it, before its
        // colon, as serde's derived visitor does.
        while let Some(member) = self.members.key(s)? {
            let key_at = member.at;
            // By the packed key on hosts, by the text on microcontrollers.
            let found = member.find(fields);
            if let Some(i) = found
                && self.n & (1 << i) != 0
            {
                // The struct, told by its number of fields.
                let base = match fields.len() {
                    5 => Detail::RESULT,
                    3 => Detail::ERROR,
                    _ => Detail::REQUEST,
                };
                let field = Detail::field(base + i as u8);
                return Err(BodyError::about(K::DuplicateField, key_at, field));
            }
            s.colon()?;
            s.ws();
            match found {
                Some(i) => {
                    self.n |= 1 << i;
                    return Ok(Some(i));
                }
                None => s.value_syntax()?,
            }
        }
        Ok(None)
    }
}

/// A member's key, as [`Members`] hands it out.
pub(crate) struct Member<'a> {
    /// The key's text.
    pub(crate) text: JsonStr<'a>,
    /// The key as the name tables see it.
    pub(crate) key: Key,
    /// The offset of the key's opening quote.
    pub(crate) at: usize,
}

impl<'a> Member<'a> {
    /// A member from its key's text and offset, with no [`Key`]
    /// (microcontrollers).
    #[inline(always)]
    const fn text_at((text, at): (JsonStr<'a>, usize)) -> Self {
        Self {
            text,
            key: Key::EMPTY,
            at,
        }
    }

    /// Which of `names` the key is: by the packed [`Key`] on hosts, by the
    /// text on microcontrollers ([`Key::find_text`]).
    #[inline(always)]
    pub(crate) fn find(&self, names: NameTable) -> Option<usize> {
        if crate::json::find::HOST {
            self.key.find(names)
        } else {
            Key::find_text(self.text, names)
        }
    }
}

/// A walk over an object's members. For each member,
/// [`next`](Self::next) checks the key fully, consumes the colon and stops
/// with `pos` at the value, which the caller must consume
/// ([`key`](Self::key) stops after the key).
pub(crate) struct Members {
    first: bool,
}

impl Members {
    /// `pos` is at the object's `{`: consumes it.
    pub(crate) const fn open(s: &mut Scanner<'_>) -> Self {
        s.pos += 1;
        Self { first: true }
    }

    /// Goes on after a member (the next byte is a `,` or the `}`, after
    /// whitespace).
    pub(crate) const fn after_member() -> Self {
        Self { first: false }
    }

    /// The next member's key and the key's offset, or `None` after the
    /// closing brace; the colon is consumed and `pos` is at the value.
    /// Inlined on hosts, a call on microcontrollers.
    #[inline(always)]
    pub(crate) fn next<'a>(
        &mut self,
        s: &mut Scanner<'a>,
    ) -> Result<Option<Member<'a>>, BodyError> {
        if crate::json::find::HOST {
            let key = self.key_in(s)?;
            if key.is_some() {
                s.colon()?;
                s.ws();
            }
            Ok(key)
        } else {
            Ok(self.next_call(s)?.map(Member::text_at))
        }
    }

    /// [`next`](Self::next) up to the key: `pos` is after the key's closing
    /// quote, and the caller consumes the colon. Inlined on hosts, a call on
    /// microcontrollers.
    #[inline(always)]
    pub(crate) fn key<'a>(&mut self, s: &mut Scanner<'a>) -> Result<Option<Member<'a>>, BodyError> {
        if crate::json::find::HOST {
            self.key_in(s)
        } else {
            Ok(self.key_call(s)?.map(Member::text_at))
        }
    }

    /// [`next`](Self::next) on microcontrollers: the key's code is linked
    /// once, in [`key_call`](Self::key_call). The text and offset only:
    /// microcontrollers match the text ([`Member::find`]), and a
    /// [`Key`] returned through the call was copied by `memcpy` (744 B of
    /// flash at opt-level z).
    #[inline(never)]
    fn next_call<'a>(
        &mut self,
        s: &mut Scanner<'a>,
    ) -> Result<Option<(JsonStr<'a>, usize)>, BodyError> {
        let key = self.key_call(s)?;
        if key.is_some() {
            s.colon()?;
            s.ws();
        }
        Ok(key)
    }

    #[inline(never)]
    fn key_call<'a>(
        &mut self,
        s: &mut Scanner<'a>,
    ) -> Result<Option<(JsonStr<'a>, usize)>, BodyError> {
        Ok(self.key_in(s)?.map(|m| (m.text, m.at)))
    }

    #[inline(always)]
    fn key_in<'a>(&mut self, s: &mut Scanner<'a>) -> Result<Option<Member<'a>>, BodyError> {
        match s.ws() {
            Some(b'}') => {
                s.pos += 1;
                return Ok(None);
            }
            Some(b',') if !self.first => {
                s.pos += 1;
                let next = s.ws();
                nest::after_object_comma(next).map_err(|k| s.err(k))?;
            }
            Some(b'"') if self.first => {}
            Some(_) if self.first => return Err(s.err(K::KeyMustBeString)),
            Some(_) => return Err(s.err(K::ExpectedCommaOrEndOfObject)),
            None => return Err(s.err(K::Eof)),
        }
        self.first = false;
        let at = s.pos;
        let (text, key) = s.key_name()?;
        Ok(Some(Member { text, key, at }))
    }
}

/// The open containers around a top-level field's value: the struct itself.
pub(crate) const TOP: usize = 1;

impl<'a> Scanner<'a> {
    /// A required string field, `field` (for the error's words).
    pub(crate) fn req_string(&mut self, field: Detail) -> Result<JsonStr<'a>, BodyError> {
        match self.ws() {
            Some(b'"') => self.string(true),
            _ => Err(self.wrong_type(field)),
        }
    }

    /// Consumes `null` if it is next; `Ok(true)` if it was.
    pub(crate) fn null(&mut self) -> Result<bool, BodyError> {
        if self.ws() == Some(b'n') {
            self.value_full(0)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// An optional string field (`null` is `None`).
    pub(crate) fn opt_string(&mut self, field: Detail) -> Result<Option<JsonStr<'a>>, BodyError> {
        if self.null()? {
            return Ok(None);
        }
        self.req_string(field).map(Some)
    }

    /// An optional map field (`_meta`, `inputResponses`): `null` or an object.
    pub(crate) fn opt_object(
        &mut self,
        open: usize,
        field: Detail,
    ) -> Result<Option<RawJson<'a>>, BodyError> {
        if self.null()? {
            return Ok(None);
        }
        match self.ws() {
            Some(b'{') => self.value_full(open).map(Some),
            _ => Err(self.wrong_type(field)),
        }
    }

    /// An optional `serde_json::Value` field (`data`): `null` is `None`.
    pub(crate) fn opt_value(&mut self, open: usize) -> Result<Option<RawJson<'a>>, BodyError> {
        if self.null()? {
            return Ok(None);
        }
        self.value_full(open).map(Some)
    }
}
