//! The resumable core: one pushdown automaton for the structure of the
//! three bodies (result, error, request), fed chunk by chunk, holding no
//! byte of the input but what a lexeme cut by a chunk's end holds.
//!
//! Its states are the places where the whole-buffer decoder (`json::scan`
//! and `view::*`) looks at the next structural byte of a body: the top
//! struct's keys, colons, commas and brackets. "No next byte" (`None`) is handled by the same arm
//! whether it means the end of the input (after [`Machine::run`] with
//! `eof`) or only the end of a chunk (then the machine stops and resumes in
//! that state).
//!
//! What lies inside a value it hands to code shared with the whole-buffer
//! decoder: its keys and typed strings to the resumable string lexeme
//! ([`text::Cut`]: cut anywhere, inside an escape, a surrogate pair or a
//! UTF-8 sequence), and every value the schema does not interpret (`_meta`,
//! `data`, ignored members, `cacheScope`, an item's other members, a
//! wrong-typed scalar) and its numbers and `null`s to the value walker's
//! resumable lane ([`json::walk`](super::walk)), which is the scanner's
//! walk compiled with resume points, and the `contents` array with its
//! items to the `contents` walker's resumable lane
//! ([`json::items`](super::items)), which is `Frame::decode`'s. The key
//! matcher and name tables, and the `cacheScope`, `ttlMs`, `code` and item
//! rules are `json::shape`'s.
//!
//! What the whole-buffer decoder decides late, this decides late too, with
//! the same offsets: UTF-8 errors of a string are held until its closing
//! quote (the scanner validates a string's text after finding its end, so
//! a bad escape or control byte later in the same string wins); a number's
//! range and type are known at its first non-number byte (or the end); a
//! content item's text/blob verdict at its `}`; `cacheScope` at the end of
//! its value.
//!
//! The machine is compiled for two sinks only (`()` and [`Dyn`]), so the
//! firmware links one copy of it.

use crate::error::{BodyError, BodyErrorKind as K, Detail};
use crate::json::event::{Ev, Field, Sink, named, reads_raw, reads_string};
use crate::json::find;
use crate::json::items::{ContentsWalk, Items};
use crate::json::nest::{self, Word};
use crate::json::scan::{Scanner, WINDOW};
use crate::json::shape::{self, ERROR_KEYS, NameTable, REQUEST_KEYS, RESULT_KEYS};
use crate::json::text;
use crate::json::walk::{Walk, Walked};

/// Which body the machine validates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `ReadResourceResult` (tag 0).
    Result,
    /// `ErrorData` (tag 1).
    Error,
    /// `ReadResourceRequestParams`.
    Request,
}

const RESULT_FIELDS: [Field; 5] = [
    Field::ResultType,
    Field::Ttl,
    Field::Scope,
    Field::Contents,
    Field::ResultMeta,
];
const ERROR_FIELDS: [Field; 3] = [Field::Code, Field::Message, Field::Data];
const REQUEST_FIELDS: [Field; 4] = [
    Field::ReqMeta,
    Field::ReqUri,
    Field::InputResponses,
    Field::RequestState,
];

/// The grammar position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// Before the top-level struct.
    Start,
    /// After the top struct's `{`.
    ObjFirst,
    /// After `,` in an object.
    ObjComma,
    /// After a key.
    Colon,
    /// After a value or member: `,` or the close.
    Next,
    /// After the positional struct's `[`.
    ArrFirst,
    /// After `,` in an array.
    ArrComma,
    /// At a value (whitespace first).
    Value,
    /// Inside a string (the string lexeme's, [`text::Cut`]).
    Str,
    /// Inside a value the schema does not interpret: the walker's.
    Walk,
    /// Inside `contents`: the `contents` walker's.
    Contents,
    /// After the top-level value: whitespace only.
    End,
}

impl St {
    const fn skips_ws(self) -> bool {
        matches!(
            self,
            Self::Start
                | Self::ObjFirst
                | Self::ObjComma
                | Self::Colon
                | Self::Next
                | Self::ArrFirst
                | Self::ArrComma
                | Self::Value
                | Self::End
        )
    }
}

/// `key_found` when the key is none of the names.
const NO_MATCH: u8 = u8::MAX;

/// Bit-stack words: one bit (object or array) per open level of a value.
const STACK_WORDS: usize = WINDOW / nest::BITS;

/// The state of one body's validation. Fixed size; holds no input byte
/// except a partial UTF-8 sequence (at most three bytes).
#[derive(Debug, Clone)]
pub(crate) struct Machine {
    kind: Kind,
    st: St,
    /// Absolute offset of the current chunk's first byte.
    base: usize,

    /// The compact paths only (microcontrollers; tests force it on hosts
    /// to pin both paths to the same answers).
    pub(crate) compact: bool,

    // ----- schema -----
    /// The struct is in serde's positional form (an array).
    top_arr: bool,
    /// Known top-level fields seen (bit per field index).
    seen: u8,
    /// Positional form: index of the next field.
    index: u8,
    /// The value being read.
    field: Field,
    /// The value's first byte (for errors reported at it).
    value_at: usize,
    /// What a [`Field::Wrong`] value was read for (the field or the struct).
    wrong_for: Detail,
    /// The value is an optional field's `null`.
    null: bool,
    /// The key that started the current member (for `DuplicateField`).
    key_at: usize,
    /// The walk of `contents` ([`json::items`](super::items)).
    items: ContentsWalk,

    // ----- a value the schema does not interpret (`_meta`, `data`, ignored, `cacheScope`) -----
    /// The walk of that value ([`json::walk`](super::walk)).
    walk: Walk,
    stack: [Word; STACK_WORDS],

    // ----- strings -----
    // (The string being read is the walk's string lexeme, `walk.text`: a
    // walk and a string of the machine's own never run at once.)
    key: bool,
    /// The matched name of the key just read (`NO_MATCH` for none).
    key_found: u8,
    read: bool,

    // ----- a raw field being handed out -----
    cap: Option<Field>,
    cap_from: usize,
}

impl Machine {
    /// A machine for a body of `kind` whose first byte is at absolute offset
    /// `base`.
    pub(crate) const fn new(kind: Kind, base: usize) -> Self {
        Self {
            kind,
            st: St::Start,
            base,
            compact: !find::HOST,
            top_arr: false,
            seen: 0,
            index: 0,
            field: Field::Ignored,
            value_at: 0,
            wrong_for: Detail::NONE,
            null: false,
            key_at: 0,
            items: ContentsWalk::new(),
            walk: Walk::new(false, 0, false),
            stack: [0; STACK_WORDS],
            key: false,
            key_found: NO_MATCH,
            read: false,
            cap: None,
            cap_from: 0,
        }
    }

    /// Sets the body's kind of a machine that has not been fed yet.
    pub(crate) const fn set_kind(&mut self, kind: Kind) {
        self.kind = kind;
    }

    /// Bytes fed so far, counted from the body's first byte's `base`.
    pub(crate) const fn offset(&self) -> usize {
        self.base
    }

    /// Where the body's fields start in the names errors give.
    const fn base(&self) -> u8 {
        match self.kind {
            Kind::Result => Detail::RESULT,
            Kind::Error => Detail::ERROR,
            Kind::Request => Detail::REQUEST,
        }
    }

    const fn fields(&self) -> &'static [Field] {
        match self.kind {
            Kind::Result => &RESULT_FIELDS,
            Kind::Error => &ERROR_FIELDS,
            Kind::Request => &REQUEST_FIELDS,
        }
    }

    /// The names of the body's fields.
    const fn name_table(&self) -> NameTable {
        match self.kind {
            Kind::Result => RESULT_KEYS,
            Kind::Error => ERROR_KEYS,
            Kind::Request => REQUEST_KEYS,
        }
    }

    /// Feeds `chunk`; with `eof`, the input ends after it.
    #[inline]
    pub(crate) fn run<'c, S: Items<'c>>(
        &mut self,
        chunk: &'c [u8],
        eof: bool,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        let mut i = 0;
        // A chunk that goes on inside `contents` (most of a result's bytes)
        // goes to the `contents` walker first, without the state loop's
        // frame.
        if self.st == St::Contents {
            match self.contents(chunk, 0, eof, sink)? {
                Some(next) => i = next,
                None => return Ok(()),
            }
        }
        self.run_from(chunk, i, eof, sink)
    }

    /// Runs the `contents` walker's resumable lane from `chunk[i]`: the
    /// index after the array when it ended in the chunk, or `None` when
    /// the chunk ran out inside it (the chunk is then consumed). One
    /// function per sink, outside the state loop, so that neither pays
    /// for the other's registers.
    #[inline(never)]
    fn contents<'c, S: Items<'c>>(
        &mut self,
        chunk: &'c [u8],
        i: usize,
        eof: bool,
        sink: &mut S,
    ) -> Result<Option<usize>, BodyError> {
        let mut s = Scanner::chunk(chunk, i, self.base, eof);
        let (items, walk, stack) = (&mut self.items, &mut self.walk, &mut self.stack);
        match s.contents_resume(items, walk, stack, sink)? {
            Walked::Done => {
                self.value_end();
                Ok(Some(s.pos))
            }
            Walked::More | Walked::Deeper => {
                self.base += chunk.len();
                Ok(None)
            }
        }
    }

    /// The state loop, from `chunk[i]`.
    #[inline(never)]
    fn run_from<'c, S: Items<'c>>(
        &mut self,
        chunk: &'c [u8],
        mut i: usize,
        eof: bool,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        loop {
            let c = match chunk.get(i) {
                Some(&c) => Some(c),
                None if eof => None,
                None => break,
            };
            if matches!(c, Some(b' ' | b'\t' | b'\n' | b'\r')) && self.st.skips_ws() {
                i += 1;
                while matches!(chunk.get(i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
                    i += 1;
                }
                continue;
            }
            let at = self.base + i;
            match self.st {
                St::Str => {
                    // A key whose opening quote ended the previous chunk:
                    // the known-key lane, which `key_start` tried right after
                    // the quote when it was in the same chunk.
                    if i == 0 && self.key && self.walk.text.is_empty() {
                        let next = self.known_key(chunk, i)?;
                        if next > i {
                            i = next;
                            continue;
                        }
                    }
                    i = self.string(chunk, i, eof, sink)?;
                }
                St::Start => match c {
                    Some(b'{') => {
                        i += 1;
                        self.st = St::ObjFirst;
                    }
                    Some(b'[') => {
                        i += 1;
                        self.top_arr = true;
                        self.st = St::ArrFirst;
                    }
                    _ => {
                        self.value_at = at;
                        i = self.wrong(i, c, at, Detail::body(self.base()))?;
                    }
                },
                St::ObjFirst => match c {
                    Some(b'}') => {
                        i += 1;
                        self.close(at)?;
                    }
                    Some(b'"') => {
                        i = self.key_start(chunk, i + 1, at)?;
                    }
                    None => return Err(BodyError::new(K::Eof, at)),
                    Some(_) => return Err(BodyError::new(K::KeyMustBeString, at)),
                },
                St::ObjComma => {
                    nest::after_object_comma(c).map_err(|k| BodyError::new(k, at))?;
                    i = self.key_start(chunk, i + 1, at)?;
                }
                St::Colon => match c {
                    Some(b':') => {
                        i += 1;
                        self.member()?;
                    }
                    // A duplicate known key is refused before its colon is
                    // looked at (`member` refuses it on the colon).
                    None => {
                        self.duplicate()?;
                        return Err(BodyError::new(K::Eof, at));
                    }
                    Some(_) => {
                        self.duplicate()?;
                        return Err(BodyError::new(K::ExpectedColon, at));
                    }
                },
                St::Next => match (self.top_arr, c) {
                    (_, None) => return Err(BodyError::new(K::Eof, at)),
                    (false, Some(b'}')) => {
                        i += 1;
                        self.close(at)?;
                    }
                    (false, Some(b',')) => {
                        i += 1;
                        self.st = St::ObjComma;
                    }
                    (false, Some(_)) => {
                        return Err(BodyError::new(K::ExpectedCommaOrEndOfObject, at));
                    }
                    (true, Some(c)) => {
                        let n = self.fields().len();
                        if usize::from(self.index) < n {
                            match c {
                                b',' => {
                                    i += 1;
                                    self.st = St::ArrComma;
                                }
                                b']' => return Err(BodyError::new(K::InvalidLength, at)),
                                _ => {
                                    return Err(BodyError::new(K::ExpectedCommaOrEndOfArray, at));
                                }
                            }
                        } else if c == b']' {
                            i += 1;
                            self.st = St::End;
                        } else {
                            return Err(BodyError::new(K::TrailingCharacters, at));
                        }
                    }
                },
                St::ArrFirst => match c {
                    Some(b']') => return Err(BodyError::new(K::InvalidLength, at)),
                    _ => self.element(),
                },
                St::ArrComma => {
                    nest::after_array_comma(c).map_err(|k| BodyError::new(k, at))?;
                    self.element();
                }
                St::Value => {
                    i = self.value(i, c, at, sink)?;
                }
                St::Walk => {
                    let mut s = Scanner::chunk(chunk, i, self.base, eof);
                    match s.walk_call(&mut self.walk, &mut self.stack)? {
                        Walked::Done => {
                            i = s.pos;
                            self.field_end(chunk, i, sink)?;
                        }
                        Walked::More | Walked::Deeper => i = chunk.len(),
                    }
                }
                St::Contents => match self.contents(chunk, i, eof, sink)? {
                    Some(next) => i = next,
                    None => return Ok(()),
                },
                St::End => match c {
                    None => return Ok(()),
                    Some(_) => return Err(BodyError::new(K::TrailingCharacters, at)),
                },
            }
        }
        if sink.reads() {
            if let Some(field) = self.cap {
                let piece = chunk.get(self.cap_from..).unwrap_or_default();
                if !piece.is_empty() {
                    sink.event(Ev::Raw(field, piece));
                }
            }
            self.cap_from = 0;
        }
        self.base += chunk.len();
        Ok(())
    }

    /// An element of the positional struct is next (whitespace skipped):
    /// the next field.
    fn element(&mut self) {
        self.field = self
            .fields()
            .get(usize::from(self.index))
            .copied()
            .unwrap_or(Field::Ignored);
        self.st = St::Value;
    }

    /// Hosts' lane for a key the names are matched against, from `i` (just
    /// after its opening quote): a plain key whole in the chunk and its
    /// colon right after it are taken at once (two trips through the state
    /// loop fewer); anything else is left to the loop, from `i`.
    /// Microcontrollers take the compact general path (the lane costs flash
    /// and stack there).
    #[inline(always)]
    fn known_key(&mut self, chunk: &[u8], i: usize) -> Result<usize, BodyError> {
        if self.compact {
            return Ok(i);
        }
        let Some((mut i, key)) = text::plain_key(chunk, i) else {
            return Ok(i);
        };
        self.key_found(key.find(self.name_table()));
        if chunk.get(i) == Some(&b':') {
            i += 1;
            self.member()?;
        }
        Ok(i)
    }

    /// An object key's opening quote was at `at`; its text starts at `i`.
    /// Returns the index to go on from (past the key and its colon when
    /// the known-key lane took them).
    #[inline(always)]
    fn key_start(&mut self, chunk: &[u8], i: usize, at: usize) -> Result<usize, BodyError> {
        self.key_at = at;
        self.key = true;
        self.read = false;
        self.string_start(true);
        self.known_key(chunk, i)
    }

    /// A string of the machine's own begins: a key (its text gathered for
    /// the name tables) or a typed string field.
    fn string_start(&mut self, key: bool) {
        self.st = St::Str;
        self.walk.text.start(true, key);
    }
}

impl Machine {
    /// `pos` is at a value's first non-whitespace byte `c` (`None` at the
    /// end of the input): starts it as its field wants. Returns the index to
    /// go on from.
    fn value<S: Sink>(
        &mut self,
        i: usize,
        c: Option<u8>,
        at: usize,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        self.value_at = at;
        self.null = false;
        let field = self.field;
        match field {
            Field::ResultType | Field::RequestState | Field::Message | Field::ReqUri => match c {
                Some(b'n') if matches!(field, Field::ResultType | Field::RequestState) => {
                    Ok(self.null_literal(i))
                }
                Some(b'"') => Ok(self.typed_string(field, i, sink)),
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::Ttl | Field::Code => match c {
                Some(b'n') if field == Field::Ttl => Ok(self.null_literal(i)),
                Some(b'-' | b'0'..=b'9') => Ok(self.walked(i, false)),
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::Scope => {
                if c == Some(b'n') {
                    return Ok(self.null_literal(i));
                }
                self.walk.begin_scope(1, c);
                self.st = St::Walk;
                Ok(i)
            }
            Field::Contents => match c {
                Some(b'[') => {
                    self.items = ContentsWalk::new();
                    self.st = St::Contents;
                    Ok(i + 1)
                }
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::ResultMeta | Field::ReqMeta | Field::InputResponses | Field::Data => match c {
                Some(b'n') => Ok(self.null_literal(i)),
                Some(b'{') => Ok(self.captured(field, i, sink)),
                _ if field == Field::Data => Ok(self.captured(field, i, sink)),
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::Ignored => {
                self.walk.begin(false, 0);
                self.st = St::Walk;
                Ok(i)
            }
            // Never the field of a value's start: `wrong` sets it there, and
            // the items' members are the `contents` walker's.
            _ => self.wrong(i, c, at, self.wrong_for),
        }
    }

    /// At `c`, a value the field (or the struct) `what` does not take, whose
    /// first byte is `value_at`: the scanner's `wrong_type`. An opening
    /// bracket is [`InvalidType`](K::InvalidType) at once; a scalar is read
    /// whole as a value ([`Field::Wrong`]), so that its own defect wins; any
    /// other byte is [`ExpectedValue`](K::ExpectedValue), the end of the
    /// input [`Eof`](K::Eof).
    #[cold]
    #[inline(never)]
    fn wrong(
        &mut self,
        i: usize,
        c: Option<u8>,
        at: usize,
        what: Detail,
    ) -> Result<usize, BodyError> {
        if let Some(b'[' | b'{') = c {
            return Err(BodyError::about(K::InvalidType, at, what));
        }
        self.wrong_for = what;
        self.field = Field::Wrong;
        Ok(self.walked(i, false))
    }

    /// The scalar at `i` (a number, `null` when `null`, or a value of the
    /// wrong type) is walked fully ([`St::Walk`]).
    const fn walked(&mut self, i: usize, null: bool) -> usize {
        self.null = null;
        self.walk.begin(true, 0);
        self.st = St::Walk;
        i
    }

    /// `null` for an optional field: the `n` at `i` is walked.
    const fn null_literal(&mut self, i: usize) -> usize {
        self.walked(i, true)
    }

    /// A raw field (`_meta`, `data`) begins: fully checked, and handed to a
    /// reader piece by piece.
    fn captured<S: Sink>(&mut self, field: Field, i: usize, sink: &mut S) -> usize {
        self.walk.begin(true, 1);
        self.st = St::Walk;
        if sink.reads() && reads_raw(field) {
            self.cap = Some(field);
            self.cap_from = i;
            sink.event(Ev::Start(field));
        }
        i
    }

    /// A typed string field's opening quote is at `i`.
    fn typed_string<S: Sink>(&mut self, field: Field, i: usize, sink: &mut S) -> usize {
        self.key = false;
        self.read = sink.reads() && reads_string(field);
        self.string_start(false);
        if self.read {
            sink.event(Ev::Start(field));
        }
        i + 1
    }

    // ----- strings -------------------------------------------------------

    /// Inside a string of the machine's own at `chunk[i]`: the string
    /// lexeme reads on (handing a read field's text to the reader). Returns
    /// the index to go on from.
    fn string<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        eof: bool,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        let field = self.field;
        // (`reads` first: a constant `false` for the validators' sink.)
        let read = sink.reads() && self.read;
        let mut to_reader = |piece: &str| sink.event(Ev::Str(field, piece));
        let emit: Option<&mut dyn FnMut(&str)> = if read { Some(&mut to_reader) } else { None };
        match self.walk.text.more(chunk, i, self.base, eof, emit)? {
            Some(next) => {
                self.string_end(sink);
                Ok(next)
            }
            None => Ok(chunk.len()),
        }
    }

    /// A string of the machine's own ended.
    fn string_end<S: Sink>(&mut self, sink: &mut S) {
        if self.key {
            self.key = false;
            let found = self.walk.text.name().find(self.name_table());
            self.key_found(found);
            return;
        }
        if self.read {
            self.read = false;
            sink.event(Ev::End(self.field));
        }
        self.value_end();
    }

    /// A key was read whole, matched to the name `found`: its colon is
    /// next.
    fn key_found(&mut self, found: Option<usize>) {
        self.key = false;
        self.key_found = found.and_then(|f| u8::try_from(f).ok()).unwrap_or(NO_MATCH);
        self.st = St::Colon;
    }

    // ----- members, scalars and closes ----------------------------------

    /// After a key of the top-level struct: a known field seen before is
    /// [`DuplicateField`](K::DuplicateField), whatever follows the key (as
    /// serde's derived visitor checks it before the colon).
    fn duplicate(&self) -> Result<(), BodyError> {
        if !self.top_arr && self.key_found != NO_MATCH && self.seen >> self.key_found & 1 == 1 {
            let field = Detail::field(self.base() + self.key_found);
            return Err(BodyError::about(K::DuplicateField, self.key_at, field));
        }
        Ok(())
    }

    /// The colon after a key was consumed: the member's field.
    fn member(&mut self) -> Result<(), BodyError> {
        let found = (self.key_found != NO_MATCH).then_some(usize::from(self.key_found));
        self.field = match found {
            Some(j) => {
                self.duplicate()?;
                self.seen |= 1 << j;
                self.fields().get(j).copied().unwrap_or(Field::Ignored)
            }
            None => Field::Ignored,
        };
        self.st = St::Value;
        Ok(())
    }

    /// The struct's closing bracket at absolute `at` was consumed.
    fn close(&mut self, at: usize) -> Result<(), BodyError> {
        let need = shape::required(self.base());
        if self.seen & need != need {
            return Err(shape::missing(self.base(), self.seen, at));
        }
        self.st = St::End;
        Ok(())
    }

    /// A walked value ended; `i` is the chunk index after it: what its
    /// field makes of it.
    fn field_end<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        match self.field {
            Field::Ttl => {
                let ttl = if self.null {
                    None
                } else {
                    Some(shape::ttl_ms(self.walk.number().finish()?, self.value_at)?)
                };
                if sink.reads() {
                    sink.event(Ev::Ttl(ttl));
                }
            }
            Field::Code => {
                let code = shape::code(self.walk.number().finish()?, self.value_at)?;
                if sink.reads() {
                    sink.event(Ev::Code(code));
                }
            }
            Field::Scope => {
                let scope = if self.null {
                    None
                } else {
                    self.walk.rule.verdict(self.value_at)?
                };
                if sink.reads() {
                    sink.event(Ev::Scope(scope));
                }
            }
            Field::Wrong => {
                return Err(BodyError::about(
                    K::InvalidType,
                    self.value_at,
                    self.wrong_for,
                ));
            }
            _ => {}
        }
        if sink.reads()
            && let Some(f) = self.cap.take()
        {
            let piece = chunk.get(self.cap_from..i).unwrap_or_default();
            if !piece.is_empty() {
                sink.event(Ev::Raw(f, piece));
            }
            sink.event(Ev::End(f));
        }
        self.value_end();
        Ok(())
    }

    /// The current field's value is complete.
    const fn value_end(&mut self) {
        self.st = St::Next;
        if self.top_arr {
            self.index += 1;
        }
    }
}
