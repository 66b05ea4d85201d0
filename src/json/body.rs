//! The bodies' top struct: the object of a result, an error or a request,
//! or serde's positional array form, its keys, colons, commas and brackets,
//! which field each member is, duplicate and missing fields: written once,
//! for the whole buffer and for chunks.
//!
//! [`Fields`] is a cursor, not a walker with a callback: [`Scanner::fields`]
//! stops at the value of each known field, and the caller reads the value
//! (each view's decode with its typed reader, the streaming core with its
//! value states). It is built as the value walker ([`json::walk`](super::walk))
//! and the `contents` walker ([`json::items`](super::items)) are: one
//! function in two compiled lanes chosen by a constant.
//!
//! * `R = false`, the whole-buffer lane (`Frame::decode`,
//!   `RequestView::decode`): keys are read whole by the scanner's lexemes,
//!   an unknown member's value by the walker's whole-buffer lane, and no
//!   resume code is compiled.
//! * `R = true`, the resumable lane (the streaming core's,
//!   [`json::core`](super::core)): the same code, plus the places where a
//!   chunk's end may stop the struct. There the cursor saves where it stands
//!   and returns [`Step::More`]; a key cut by a chunk's end goes through the
//!   resumable string lexeme ([`text::Cut`]); an unknown member's value is
//!   the caller's ([`Step::Skip`]).
//!
//! What each typed field takes is [`take`]'s, for both lanes; the comma
//! rules are [`nest`]'s; the missing-field rule is [`shape`]'s.

use crate::error::{BodyError, BodyErrorKind as K, Detail};

use super::event::Field;
use super::find::HOST;
use super::nest;
use super::scan::Scanner;
use super::shape::{self, Key, NameTable};
use super::text::{self, Cut};

/// Where a [`Fields`] cursor stands between two calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// Object: before the first key, or after a member (`,` or `}` next).
    /// Positional form: before an element, or after one (`,` or `]` next).
    Member,
    /// After a `,`: the byte after it is checked ([`nest`]'s rules).
    Comma,
    /// Inside a key (resumable lane). In the whole-buffer lane on
    /// microcontrollers: the struct is not opened yet ([`Fields::open`]).
    Key,
    /// After a key: its `:` is next (resumable lane).
    Colon,
}

/// What [`Scanner::fields`] stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// The value of the field at this index in the names (declaration
    /// order); `pos` is at the value, whitespace skipped in the whole
    /// buffer. The caller reads the value, then calls again.
    Field(usize),
    /// The value of a member no name matched (resumable lane; the
    /// whole-buffer lane walks it itself). The caller walks it, then
    /// calls again.
    Skip,
    /// After the struct's closing bracket.
    End,
    /// The chunk ran out (resumable lane, not at the end of the input).
    More,
}

/// What a field's value is taken as, by its first byte: the typed fields'
/// rules, the one place of them (each view's reader and the streaming
/// core's value states ask [`take`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Take {
    /// An optional field's `null`.
    Null,
    /// A string field's string.
    Str,
    /// `ttlMs` or `code`: a number (its rule is [`shape`]'s).
    Num,
    /// `cacheScope` (not `null`): a value its rule reads.
    Scope,
    /// `contents`' array.
    Contents,
    /// A raw field (`_meta`, `data`, `inputResponses`): a value, fully
    /// checked.
    Raw,
    /// An unknown member: syntax only.
    Skip,
    /// A value the field does not take: refused as serde_json refuses it
    /// (its own defect first, then [`InvalidType`](K::InvalidType)).
    Wrong,
}

/// What `field` makes of a value whose first byte is `c`.
#[inline(always)]
pub(crate) const fn take(field: Field, c: Option<u8>) -> Take {
    let null = matches!(c, Some(b'n'));
    match field {
        Field::ResultType | Field::RequestState => match c {
            Some(b'"') => Take::Str,
            _ if null => Take::Null,
            _ => Take::Wrong,
        },
        Field::Message | Field::ReqUri => match c {
            Some(b'"') => Take::Str,
            _ => Take::Wrong,
        },
        Field::Ttl | Field::Code => match c {
            Some(b'-' | b'0'..=b'9') => Take::Num,
            _ if null && matches!(field, Field::Ttl) => Take::Null,
            _ => Take::Wrong,
        },
        Field::Scope if null => Take::Null,
        Field::Scope => Take::Scope,
        Field::Contents => match c {
            Some(b'[') => Take::Contents,
            _ => Take::Wrong,
        },
        Field::ResultMeta | Field::ReqMeta | Field::InputResponses => match c {
            Some(b'{') => Take::Raw,
            _ if null => Take::Null,
            _ => Take::Wrong,
        },
        Field::Data if null => Take::Null,
        Field::Data => Take::Raw,
        Field::Ignored => Take::Skip,
        // The items' members are the `contents` walker's; `Wrong` is only
        // ever set by a refusal.
        _ => Take::Wrong,
    }
}

/// The `key_found` of a key no name matched.
const NO_MATCH: u8 = u8::MAX;

/// A walk over the top-level struct of a body: an object, or serde's
/// positional array form with exactly as many elements as the body has
/// fields. Fixed size. The outermost container counts as one open level
/// for the values inside it.
#[derive(Debug, Clone)]
pub(crate) struct Fields {
    /// The positional array form.
    array: bool,
    /// Object: no member yet.
    first: bool,
    /// Array form: the elements handed out; object: a bit per known field
    /// seen.
    n: u8,
    at: At,
    /// The matched name of the key being read (resumable lane).
    found: u8,
    /// The absolute offset of the current key's opening quote (resumable
    /// lane).
    key_at: usize,
}

/// Which struct `names` are the fields of, told by their number, as errors
/// name its fields.
const fn base_of(names: NameTable) -> u8 {
    match names.len() {
        5 => Detail::RESULT,
        3 => Detail::ERROR,
        _ => Detail::REQUEST,
    }
}

/// The known field `found` of the struct `names`, whose key is at `at`,
/// came twice.
#[cold]
fn duplicate(names: NameTable, found: u8, at: usize) -> BodyError {
    BodyError::about(K::DuplicateField, at, Detail::field(base_of(names) + found))
}

/// A known key seen before is refused right after it, before its colon,
/// as serde's derived visitor does: the key just read, matched to `found`
/// of `names`, as an index.
#[inline(always)]
fn dup(f: &Fields, found: Option<usize>, names: NameTable) -> Result<Option<usize>, BodyError> {
    if let Some(i) = found
        && f.n >> i & 1 != 0
    {
        #[allow(clippy::cast_possible_truncation)] // At most 5 names.
        return Err(duplicate(names, i as u8, f.key_at));
    }
    Ok(found)
}

impl Fields {
    /// The fields seen so far, a bit each in declaration order (the
    /// positional form has them all, or it failed before its end).
    pub(crate) const fn seen(&self) -> u8 {
        if self.array { u8::MAX } else { self.n }
    }

    /// A cursor before the struct opens (replaced where it opens,
    /// [`opens`](Self::opens)).
    pub(crate) const START: Self = Self {
        array: false,
        first: true,
        n: 0,
        at: At::Member,
        found: NO_MATCH,
        key_at: 0,
    };

    /// The struct's opening byte `c` (after whitespace): `Some` for a
    /// struct that opens there (`{`, or `[` for the positional form).
    #[inline(always)]
    pub(crate) const fn opens(c: Option<u8>) -> Option<Self> {
        let array = match c {
            Some(b'{') => false,
            Some(b'[') => true,
            _ => return None,
        };
        Some(Self {
            array,
            ..Self::START
        })
    }

    /// `pos` is before the struct (whitespace allowed): opens it. `base`
    /// says which struct it is ([`Detail::RESULT`], [`Detail::ERROR`] or
    /// [`Detail::REQUEST`]), for the errors' words.
    ///
    /// On microcontrollers ([`HOST`] false) the struct is opened by the
    /// first [`next`](Self::next) instead, inside its one function (nothing
    /// reads the scanner in between, so the error is the same, at the same
    /// offset): the views' decodes then call one function, not two.
    #[inline(always)]
    pub(crate) fn open(s: &mut Scanner<'_>, base: u8) -> Result<Self, BodyError> {
        if HOST {
            Self::open_now(s, base)
        } else {
            Ok(Self {
                at: At::Key,
                ..Self::START
            })
        }
    }

    fn open_now(s: &mut Scanner<'_>, base: u8) -> Result<Self, BodyError> {
        let Some(fields) = Self::opens(s.ws()) else {
            return Err(s.wrong_type(Detail::body(base)));
        };
        s.pos += 1;
        Ok(fields)
    }

    /// The whole-buffer lane: the index in `names` of the next field, with
    /// `pos` at its value, or `None` after the struct's closing bracket.
    /// Inlined on hosts; on microcontrollers
    /// ([`HOST`](crate::json::find::HOST) false) a call.
    #[inline(always)]
    pub(crate) fn next(
        &mut self,
        s: &mut Scanner<'_>,
        names: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        if HOST {
            self.next_in(s, names)
        } else {
            self.next_call(s, names)
        }
    }

    #[inline(never)]
    fn next_call(
        &mut self,
        s: &mut Scanner<'_>,
        names: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        self.next_in(s, names)
    }

    #[inline(always)]
    fn next_in(
        &mut self,
        s: &mut Scanner<'_>,
        names: NameTable,
    ) -> Result<Option<usize>, BodyError> {
        // Not opened yet (microcontrollers: see `open`).
        if !HOST && self.at == At::Key {
            *self = Self::open_now(s, base_of(names))?;
        }
        Ok(match s.fields::<false>(self, names, None)? {
            Step::Field(i) => Some(i),
            _ => None,
        })
    }
}

impl Scanner<'_> {
    /// Walks the struct on from `f`'s place to the next known field's
    /// value, or its end (see the module's text). `key` is the resumable
    /// lane's string lexeme for a key cut by a chunk's end.
    #[inline(always)]
    #[allow(clippy::too_many_lines)]
    pub(crate) fn fields<const R: bool>(
        &mut self,
        f: &mut Fields,
        names: NameTable,
        mut key: Option<&mut Cut>,
    ) -> Result<Step, BodyError> {
        // The chunk ran out at `$at`: the resumable lane saves where the
        // cursor stands and asks for more; at the end of the input it falls
        // through to the error.
        macro_rules! more {
            ($at:expr) => {
                if R && !self.last {
                    f.at = $at;
                    self.pos = self.buf.len();
                    return Ok(Step::More);
                }
            };
        }
        // The whole-buffer lane always starts at a member.
        let mut at = if R { f.at } else { At::Member };
        if f.array {
            let i = usize::from(f.n);
            if at == At::Member {
                let c = self.ws();
                if c.is_none() {
                    more!(At::Member);
                }
                if i == names.len() {
                    return match c {
                        Some(b']') => {
                            self.pos += 1;
                            Ok(Step::End)
                        }
                        None => Err(self.err(K::Eof)),
                        Some(_) => Err(self.err(K::TrailingCharacters)),
                    };
                }
                match c {
                    Some(b']') => return Err(self.err(K::InvalidLength)),
                    _ if i == 0 => {}
                    Some(b',') => {
                        self.pos += 1;
                        at = At::Comma;
                    }
                    Some(_) => return Err(self.err(K::ExpectedCommaOrEndOfArray)),
                    None => return Err(self.err(K::Eof)),
                }
            }
            if at == At::Comma {
                let c = self.ws();
                if c.is_none() {
                    more!(At::Comma);
                }
                nest::after_array_comma(c).map_err(|k| self.err(k))?;
            }
            self.ws();
            if R {
                f.at = At::Member;
            }
            f.n += 1;
            return Ok(Step::Field(i));
        }
        loop {
            if at == At::Member {
                let c = self.ws();
                match c {
                    Some(b'}') => {
                        let close = self.base + self.pos;
                        self.pos += 1;
                        // A required field missing: refused here in the
                        // resumable lane; the whole-buffer lane's callers
                        // find it as they unwrap their values, by the same
                        // rule (`shape::missing`), at the same offset
                        // (measured: checking it here too cost 112 B of
                        // flash and 20 instructions a decode).
                        let need = shape::required(base_of(names));
                        if R && f.n & need != need {
                            return Err(shape::missing(base_of(names), f.n, close));
                        }
                        return Ok(Step::End);
                    }
                    Some(b',') if !f.first => {
                        self.pos += 1;
                        at = At::Comma;
                    }
                    Some(b'"') if f.first => {}
                    Some(_) if f.first => return Err(self.err(K::KeyMustBeString)),
                    Some(_) => return Err(self.err(K::ExpectedCommaOrEndOfObject)),
                    None => {
                        more!(At::Member);
                        return Err(self.err(K::Eof));
                    }
                }
            }
            if at == At::Comma {
                let c = self.ws();
                if c.is_none() {
                    more!(At::Comma);
                }
                nest::after_object_comma(c).map_err(|k| self.err(k))?;
            }
            // At a key's opening quote (or inside the key, or at its colon,
            // resuming).
            let found = if R && at == At::Colon {
                // The key was matched, and refused if a duplicate, before.
                (f.found != NO_MATCH).then_some(usize::from(f.found))
            } else if let (true, Some(cut)) = (R, key.as_mut()) {
                if at != At::Key {
                    f.first = false;
                    f.key_at = self.base + self.pos;
                    self.pos += 1;
                    cut.start(true, true);
                }
                // A plain key whole in the chunk is taken at once.
                let plain = if cut.is_empty() {
                    text::plain_key(self.buf, self.pos)
                } else {
                    None
                };
                let name = match plain {
                    Some((end, name)) => {
                        self.pos = end;
                        name
                    }
                    None => match cut.more(self.buf, self.pos, self.base, self.last, None)? {
                        Some(end) => {
                            self.pos = end;
                            cut.name()
                        }
                        None => {
                            f.at = At::Key;
                            self.pos = self.buf.len();
                            return Ok(Step::More);
                        }
                    },
                };
                dup(f, name.find(names), names)?
            } else {
                f.first = false;
                f.key_at = self.pos;
                // By the packed key on hosts, by the text on microcontrollers.
                let found = if HOST {
                    self.key_name()?.1.find(names)
                } else {
                    Key::find_text(self.key_text(true)?, names)
                };
                dup(f, found, names)?
            };
            if R && self.ws().is_none() {
                #[allow(clippy::cast_possible_truncation)] // At most 5 names.
                {
                    f.found = found.map_or(NO_MATCH, |i| i as u8);
                }
                more!(At::Colon);
            }
            self.colon()?;
            at = At::Member;
            if R {
                f.at = At::Member;
            } else {
                self.ws();
            }
            match found {
                Some(i) => {
                    f.n |= 1 << i;
                    return Ok(Step::Field(i));
                }
                None if R => return Ok(Step::Skip),
                None => self.value_syntax()?,
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use crate::error::BodyError;
    use crate::json::core::{Kind, Machine};
    use crate::view::error::ErrorView;
    use crate::view::request::RequestView;
    use crate::view::result::ResultView;

    /// The top struct's tokens: brackets, punctuation, members of all three
    /// bodies (right and wrong types, escaped and cut keys, duplicates by
    /// repetition), and stray values.
    const TOKENS: [&[u8]; 34] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b",",
        b":",
        b" ",
        b"\"uri\":\"u\"",
        b"\"\\u0075ri\":\"v\"",
        b"\"uri\"",
        b"\"_meta\":{\"a\":[1]}",
        b"\"_meta\":null",
        b"\"x\":[1,{\"y\":2}]",
        b"\"requestState\":\"s\"",
        b"\"requestState\":1",
        b"\"inputResponses\":{}",
        b"\"code\":-32002",
        b"\"code\":1.5",
        b"\"message\":\"m\"",
        b"\"data\":null",
        b"\"data\":[1]",
        b"\"contents\":[]",
        b"\"contents\":[{\"uri\":\"a\",\"text\":\"t\"}]",
        b"\"ttlMs\":5",
        b"\"resultType\":\"complete\"",
        b"\"cacheScope\":\"public\"",
        b"\"cacheScope\":null",
        b"\"u\"",
        b"1",
        b"null",
        b"\"ur",
        b"\"\\q\"",
        b"\"caf\xc3\xa9\":0",
        b"\"x\xff\":0",
    ];

    fn whole(kind: Kind, json: &[u8]) -> Result<(), BodyError> {
        match kind {
            Kind::Result => ResultView::decode_body(json).map(drop),
            Kind::Error => ErrorView::decode_body(json).map(drop),
            Kind::Request => RequestView::decode(json).map(drop),
        }
    }

    /// `json` fed to the streaming core in pieces, cut before each index
    /// of `cuts`.
    fn chunked(kind: Kind, json: &[u8], cuts: &[usize]) -> Result<(), BodyError> {
        let mut m = Machine::new(kind, 0);
        let mut from = 0;
        for &cut in cuts {
            m.run(&json[from..cut], false, &mut ())?;
            from = cut;
        }
        m.run(&json[from..], true, &mut ())
    }

    /// The cursor's resumable lane, under the streaming core, answers as
    /// its whole-buffer lane under the views' decode, for every body, at
    /// every single cut and byte by byte: the same verdict, kind and
    /// offset.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn chunks_cut_anywhere_answer_as_the_whole_buffer() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut buf = vec![];
        let mut oks = 0usize;
        for round in 0..3_000 {
            crate::json::xorshift(&mut seed);
            crate::json::soup(seed, 9, &TOKENS, &mut buf);
            match round % 4 {
                // An object or a positional form more often than soup alone
                // makes one.
                0 => {
                    buf.insert(0, b'{');
                    buf.push(b'}');
                }
                1 => {
                    buf.insert(0, b'[');
                    buf.push(b']');
                }
                // Whole members joined by commas: well formed, and often
                // accepted.
                2 => {
                    buf.clear();
                    buf.push(b'{');
                    let members = TOKENS
                        .iter()
                        .filter(|t| t.starts_with(b"\"") && t.contains(&b':'));
                    let members: Vec<&[u8]> = members.copied().collect();
                    let mut r = seed;
                    for i in 0..seed % 5 {
                        r = r.rotate_left(13) ^ i;
                        if i > 0 {
                            buf.push(b',');
                        }
                        buf.extend_from_slice(members[(r % members.len() as u64) as usize]);
                    }
                    buf.push(b'}');
                }
                _ => {}
            }
            let text = String::from_utf8_lossy(&buf);
            for kind in [Kind::Result, Kind::Error, Kind::Request] {
                let want = whole(kind, &buf);
                oks += usize::from(want.is_ok());
                let cuts: Vec<Vec<usize>> = if round % 8 == 0 {
                    vec![(1..buf.len()).collect()]
                } else {
                    (0..=buf.len()).map(|c| vec![c]).collect()
                };
                for cut in &cuts {
                    let got = chunked(kind, &buf, cut);
                    assert_eq!(got, want, "{kind:?} {text:?} cuts {cut:?}");
                }
            }
        }
        assert!(oks > 150, "{oks} accepted");
    }
}
