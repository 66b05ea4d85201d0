//! The resumable core: the driver that feeds the bodies' structure, chunk
//! by chunk, holding no byte of the input but what a lexeme cut by a
//! chunk's end holds.
//!
//! Its states say whose code runs next: the top struct's cursor
//! ([`json::body`](super::body), its resumable lane: keys, colons, commas,
//! brackets, duplicate and missing fields), a field's value as
//! [`body::take`](super::body::take) says its field takes it, or after the
//! struct. "No next byte" (`None`) is handled by the same code whether it
//! means the end of the input (after [`Machine::run`] with `eof`) or only
//! the end of a chunk (then the machine stops and resumes in that state).
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
//! matcher and name tables, and the `cacheScope`, `ttlMs`, `code`,
//! missing-field and item rules are `json::shape`'s.
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
use crate::json::body::{Fields, Step, Take, take};
use crate::json::cursor::Cursor;
use crate::json::event::{Ev, Field, Sink, named, reads_raw, reads_string};
use crate::json::find;
use crate::json::items::{ContentsWalk, Items};
use crate::json::lex;
use crate::json::nest::{self, Word};
use crate::json::shape::{self, ERROR_KEYS, NameTable, REQUEST_KEYS, RESULT_KEYS};
use crate::json::walk::WINDOW;
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
    /// In the top struct, between its values: the cursor's
    /// ([`json::body`](super::body)).
    Top,
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
        matches!(self, Self::Start | Self::Value | Self::End)
    }
}

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
    /// The top struct's cursor ([`json::body`](super::body)).
    top: Fields,
    /// The value being read.
    field: Field,
    /// The value's first byte (for errors reported at it).
    value_at: usize,
    /// What a [`Field::Wrong`] value was read for (the field or the struct).
    wrong_for: Detail,
    /// The value is an optional field's `null`.
    null: bool,
    /// The walk of `contents` ([`json::items`](super::items)).
    items: ContentsWalk,

    // ----- a value the schema does not interpret (`_meta`, `data`, ignored, `cacheScope`) -----
    /// The walk of that value ([`json::walk`](super::walk)).
    walk: Walk,
    stack: [Word; STACK_WORDS],

    // ----- strings -----
    // (The string being read, a key or a typed field, is the walk's string
    // lexeme, `walk.text`: a walk and a string of the machine's own never
    // run at once.)
    /// The typed string is handed to a reader.
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
            top: Fields::START,
            field: Field::Ignored,
            value_at: 0,
            wrong_for: Detail::NONE,
            null: false,
            items: ContentsWalk::new(),
            walk: Walk::new(false, 0, false),
            stack: [0; STACK_WORDS],
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

    /// Runs the top struct's cursor ([`json::body`](super::body)) in its
    /// resumable lane from `chunk[i]`: the index to go on from, and where
    /// it stopped.
    #[inline(always)]
    fn top(&mut self, chunk: &[u8], i: usize, eof: bool) -> Result<(usize, Step), BodyError> {
        let mut s = Cursor::chunk(chunk, i, self.base, eof);
        let names = self.name_table();
        let step = s.fields::<true>(&mut self.top, names, Some(&mut self.walk.text))?;
        Ok((s.pos, step))
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
        let mut s = Cursor::chunk(chunk, i, self.base, eof);
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
            if matches!(c, Some(c) if lex::is_ws(c)) && self.st.skips_ws() {
                i += 1;
                while matches!(chunk.get(i), Some(&c) if lex::is_ws(c)) {
                    i += 1;
                }
                continue;
            }
            let at = self.base + i;
            match self.st {
                St::Str => {
                    i = self.string(chunk, i, eof, sink)?;
                }
                St::Start => match Fields::opens(c) {
                    Some(top) => {
                        i += 1;
                        self.top = top;
                        self.st = St::Top;
                    }
                    None => {
                        self.value_at = at;
                        i = self.wrong(i, c, at, Detail::body(self.base()))?;
                    }
                },
                St::Top => {
                    let step;
                    (i, step) = self.top(chunk, i, eof)?;
                    match step {
                        Step::Field(j) => {
                            self.field = self.fields().get(j).copied().unwrap_or(Field::Ignored);
                            self.st = St::Value;
                        }
                        Step::Skip => {
                            self.field = Field::Ignored;
                            self.st = St::Value;
                        }
                        Step::End => self.st = St::End,
                        Step::More => {}
                    }
                }
                St::Value => {
                    i = self.value(i, c, at, sink)?;
                }
                St::Walk => {
                    let mut s = Cursor::chunk(chunk, i, self.base, eof);
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

    /// A typed string field begins.
    fn string_start(&mut self) {
        self.st = St::Str;
        self.walk.text.start(true, false);
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
        match take(field, c) {
            Take::Null => Ok(self.null_literal(i)),
            Take::Str => Ok(self.typed_string(field, i, sink)),
            Take::Num => Ok(self.walked(i, false)),
            Take::Scope => {
                self.walk.begin_scope(1, c);
                self.st = St::Walk;
                Ok(i)
            }
            Take::Contents => {
                self.items = ContentsWalk::new();
                self.st = St::Contents;
                Ok(i + 1)
            }
            Take::Raw => Ok(self.captured(field, i, sink)),
            Take::Skip => {
                self.walk.begin(false, 0);
                self.st = St::Walk;
                Ok(i)
            }
            Take::Wrong => self.wrong(i, c, at, named(field)),
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
        self.read = sink.reads() && reads_string(field);
        self.string_start();
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

    /// A typed string field ended.
    fn string_end<S: Sink>(&mut self, sink: &mut S) {
        if self.read {
            self.read = false;
            sink.event(Ev::End(self.field));
        }
        self.value_end();
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

    /// The current field's value is complete: the cursor goes on.
    const fn value_end(&mut self) {
        self.st = St::Top;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    use super::{Kind, Machine};
    use crate::error::BodyError;
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
