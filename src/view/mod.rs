//! Borrowed views over validated JSON, and the struct rules that produce them.
//!
//! **Contract**: a view exists only after [`Frame::decode`](crate::Frame::decode)
//! or [`RequestView::decode`] returned `Ok`, and then no accessor fails or
//! panics: everything it reads was checked by the decode, the way the
//! reference checks it.

pub(crate) mod error;
pub(crate) mod request;
pub(crate) mod result;

use crate::error::{BodyError, BodyErrorKind as K};
use crate::json::scan::Scanner;
use crate::json::str::{JsonStr, RawJson};

/// Walks the top-level struct of a body: an object, or serde's positional
/// array form with exactly `fields.len()` elements. Calls `field(scanner, i)`
/// with `pos` at the value of field `i` (which it must consume); skips unknown
/// members after a syntax check; rejects duplicate known fields. The
/// outermost container counts as one open level for the values inside it.
pub(crate) fn walk_struct<'a, const N: usize>(
    s: &mut Scanner<'a>,
    fields: [&str; N],
    mut field: impl FnMut(&mut Scanner<'a>, usize) -> Result<(), BodyError>,
) -> Result<(), BodyError> {
    match s.ws() {
        Some(b'{') => {
            let mut seen = 0u32;
            object(s, |s, key, key_at| {
                match fields.iter().position(|name| key == *name) {
                    Some(i) => {
                        if seen & (1 << i) != 0 {
                            return Err(BodyError::new(K::DuplicateField, key_at));
                        }
                        seen |= 1 << i;
                        field(s, i)
                    }
                    None => s.value_syntax(),
                }
            })
        }
        Some(b'[') => {
            s.pos += 1;
            for i in 0..N {
                match s.ws() {
                    Some(b']') if i == 0 => return Err(s.err(K::InvalidLength)),
                    _ if i == 0 => {}
                    Some(b',') => {
                        s.pos += 1;
                        if s.ws() == Some(b']') {
                            return Err(s.err(K::TrailingComma));
                        }
                    }
                    Some(b']') => return Err(s.err(K::InvalidLength)),
                    Some(_) => return Err(s.err(K::ExpectedCommaOrEndOfArray)),
                    None => return Err(s.err(K::Eof)),
                }
                s.ws();
                field(s, i)?;
            }
            match s.ws() {
                Some(b']') => {
                    s.pos += 1;
                    Ok(())
                }
                None => Err(s.err(K::Eof)),
                Some(_) => Err(s.err(K::TrailingCharacters)),
            }
        }
        None => Err(s.err(K::Eof)),
        Some(b'"' | b'-' | b'0'..=b'9' | b't' | b'f' | b'n') => Err(s.err(K::InvalidType)),
        Some(_) => Err(s.err(K::ExpectedValue)),
    }
}

/// Walks an object's members; `pos` is at its `{`. For each member, checks
/// the key fully, consumes the colon and calls `member(scanner, key,
/// key_offset)` with `pos` at the value, which it must consume.
pub(crate) fn object<'a>(
    s: &mut Scanner<'a>,
    mut member: impl FnMut(&mut Scanner<'a>, JsonStr<'a>, usize) -> Result<(), BodyError>,
) -> Result<(), BodyError> {
    s.pos += 1;
    let mut first = true;
    loop {
        match s.ws() {
            Some(b'}') => {
                s.pos += 1;
                return Ok(());
            }
            Some(b',') if !first => {
                s.pos += 1;
                match s.ws() {
                    Some(b'"') => {}
                    Some(b'}') => return Err(s.err(K::TrailingComma)),
                    _ => return Err(s.expected(K::KeyMustBeString)),
                }
            }
            Some(b'"') if first => {}
            Some(_) if first => return Err(s.err(K::KeyMustBeString)),
            Some(_) => return Err(s.err(K::ExpectedCommaOrEndOfObject)),
            None => return Err(s.err(K::Eof)),
        }
        first = false;
        let key_at = s.pos;
        let key = s.key_text(true)?;
        s.colon()?;
        s.ws();
        member(s, key, key_at)?;
    }
}

/// The open containers around a top-level field's value: the struct itself.
pub(crate) const TOP: usize = 1;

impl<'a> Scanner<'a> {
    /// A required string field.
    pub(crate) fn req_string(&mut self) -> Result<JsonStr<'a>, BodyError> {
        match self.ws() {
            Some(b'"') => self.string(true),
            _ => Err(self.expected(K::InvalidType)),
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
    pub(crate) fn opt_string(&mut self) -> Result<Option<JsonStr<'a>>, BodyError> {
        if self.null()? {
            return Ok(None);
        }
        self.req_string().map(Some)
    }

    /// An optional map field (`_meta`, `inputResponses`): `null` or an object.
    pub(crate) fn opt_object(&mut self, open: usize) -> Result<Option<RawJson<'a>>, BodyError> {
        if self.null()? {
            return Ok(None);
        }
        match self.ws() {
            Some(b'{') => self.value_full(open).map(Some),
            _ => Err(self.expected(K::InvalidType)),
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
