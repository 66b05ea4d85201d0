//! The resumable core: one pushdown automaton for the structure of the
//! three bodies (result, error, request), fed chunk by chunk, holding no
//! byte of the input but what a lexeme cut by a chunk's end holds.
//!
//! Its states are the places where the whole-buffer decoder (`json::scan`
//! and `view::*`) looks at the next structural byte of a body: the top
//! struct's and the content items' keys, colons, commas and brackets, and
//! the `contents` array. "No next byte" (`None`) is handled by the same arm
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
//! walk compiled with resume points. The key matcher and name tables, and
//! the `cacheScope`, `ttlMs`, `code` and item rules are `json::shape`'s.
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
use crate::json::find;
use crate::json::nest::{self, Word};
use crate::json::scan::{Scanner, WINDOW};
use crate::json::shape::{
    self, CacheScope, ERROR_KEYS, ITEM_KEYS, ItemKey, ItemShape, Key, NameTable, REQUEST_KEYS,
    RESULT_KEYS,
};
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
    /// A content item that is not an object.
    BadItem,
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
const fn named(field: Field) -> Detail {
    Detail::field(field as u8)
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
const ITEM_FIELDS: [Field; 5] = [
    Field::ItemUri,
    Field::ItemMime,
    Field::ItemText,
    Field::ItemBlob,
    Field::ItemMeta,
];

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
    /// `()`, so that its copy folds every check away).
    fn reads(&self) -> bool;
    /// One event.
    fn event(&mut self, ev: Ev<'_>);
}

impl Sink for () {
    #[inline]
    fn reads(&self) -> bool {
        false
    }
    #[inline]
    fn event(&mut self, _: Ev<'_>) {}
}

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

/// The grammar position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// Before the top-level struct.
    Start,
    /// After `{` (top struct, item, or an object inside a value).
    ObjFirst,
    /// After `,` in an object.
    ObjComma,
    /// After a key.
    Colon,
    /// After a value or member: `,` or the close.
    Next,
    /// After `[` (positional struct, `contents`, or an array in a value).
    ArrFirst,
    /// After `,` in an array.
    ArrComma,
    /// At a value (whitespace first).
    Value,
    /// Inside a string (the string lexeme's, [`text::Cut`]).
    Str,
    /// Inside a value the schema does not interpret: the walker's.
    Walk,
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

/// The container the machine is directly in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cont {
    TopObj,
    TopArr,
    Contents,
    Item,
}

/// Which key names a string is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    None,
    Top,
    Item,
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
    /// The container the machine is directly in (derived from the fields
    /// below; recomputed when one changes).
    cont: Cont,
    top_arr: bool,
    in_contents: bool,
    in_item: bool,
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
    item: ItemShape,

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
    names: Names,

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
            cont: Cont::TopObj,
            top_arr: false,
            in_contents: false,
            in_item: false,
            seen: 0,
            index: 0,
            field: Field::Ignored,
            value_at: 0,
            wrong_for: Detail::NONE,
            null: false,
            key_at: 0,
            item: ItemShape::new(),
            walk: Walk::new(false, 0, false),
            stack: [0; STACK_WORDS],
            key: false,
            key_found: NO_MATCH,
            read: false,
            names: Names::None,
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

    const fn name_table(&self, names: Names) -> NameTable {
        match names {
            Names::None => NameTable::NONE,
            Names::Top => match self.kind {
                Kind::Result => RESULT_KEYS,
                Kind::Error => ERROR_KEYS,
                Kind::Request => REQUEST_KEYS,
            },
            Names::Item => ITEM_KEYS,
        }
    }

    /// The container the machine is directly in (kept in `cont`).
    #[inline]
    const fn cont(&self) -> Cont {
        self.cont
    }

    /// Recomputes `cont` after a container opened or closed.
    fn set_cont(&mut self) {
        self.cont = if self.in_item {
            Cont::Item
        } else if self.in_contents {
            Cont::Contents
        } else if self.top_arr {
            Cont::TopArr
        } else {
            Cont::TopObj
        };
    }

    /// Feeds `chunk`; with `eof`, the input ends after it.
    pub(crate) fn run<S: Sink>(
        &mut self,
        chunk: &[u8],
        eof: bool,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        let mut i = 0usize;
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
                        self.set_cont();
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
                        self.close(chunk, i, at, sink)?;
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
                St::Next => {
                    let cont = self.cont();
                    match (cont, c) {
                        (_, None) => return Err(BodyError::new(K::Eof, at)),
                        (Cont::TopObj | Cont::Item, Some(b'}')) | (Cont::Contents, Some(b']')) => {
                            i += 1;
                            self.close(chunk, i, at, sink)?;
                        }
                        (Cont::TopObj | Cont::Item, Some(b',')) => {
                            i += 1;
                            self.st = St::ObjComma;
                        }
                        (Cont::Contents, Some(b',')) => {
                            i += 1;
                            self.st = St::ArrComma;
                        }
                        (Cont::TopObj | Cont::Item, Some(_)) => {
                            return Err(BodyError::new(K::ExpectedCommaOrEndOfObject, at));
                        }
                        (Cont::Contents, Some(_)) => {
                            return Err(BodyError::new(K::ExpectedCommaOrEndOfArray, at));
                        }
                        (Cont::TopArr, Some(c)) => {
                            let n = self.fields().len();
                            if usize::from(self.index) < n {
                                match c {
                                    b',' => {
                                        i += 1;
                                        self.st = St::ArrComma;
                                    }
                                    b']' => return Err(BodyError::new(K::InvalidLength, at)),
                                    _ => {
                                        return Err(BodyError::new(
                                            K::ExpectedCommaOrEndOfArray,
                                            at,
                                        ));
                                    }
                                }
                            } else if c == b']' {
                                i += 1;
                                self.st = St::End;
                            } else {
                                return Err(BodyError::new(K::TrailingCharacters, at));
                            }
                        }
                    }
                }
                St::ArrFirst => match (self.cont(), c) {
                    (Cont::TopArr, Some(b']')) => {
                        return Err(BodyError::new(K::InvalidLength, at));
                    }
                    (Cont::Contents, Some(b']')) => {
                        i += 1;
                        self.close(chunk, i, at, sink)?;
                    }
                    (cont, _) => self.element(cont),
                },
                St::ArrComma => {
                    nest::after_array_comma(c).map_err(|k| BodyError::new(k, at))?;
                    self.element(self.cont());
                }
                St::Value => {
                    i = self.value(i, c, at, sink)?;
                }
                St::Walk => {
                    let mut s = Scanner::chunk(chunk, i, self.base, eof);
                    match s.walk_call(&mut self.walk, &mut self.stack)? {
                        Walked::Done => {
                            i = s.pos;
                            self.value_end(chunk, i, self.base + i, sink)?;
                        }
                        Walked::More | Walked::Deeper => i = chunk.len(),
                    }
                }
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

    /// An array element is next (whitespace skipped): in a positional struct
    /// the next field, in `contents` an item, in a value a nested value.
    fn element(&mut self, cont: Cont) {
        self.field = match cont {
            Cont::TopArr => self
                .fields()
                .get(usize::from(self.index))
                .copied()
                .unwrap_or(Field::Ignored),
            Cont::Contents => Field::BadItem, // refined at the value's first byte
            _ => self.field,
        };
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
        if !find::HOST || self.compact || self.names == Names::None {
            return Ok(i);
        }
        let Some(mut i) = self.whole_key(chunk, i) else {
            return Ok(i);
        };
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
        let cont = self.cont();
        self.names = match cont {
            Cont::TopObj => Names::Top,
            Cont::Item => Names::Item,
            _ => Names::None,
        };
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

/// Fields whose strings a reader is given.
const fn reads_string(field: Field) -> bool {
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
const fn reads_raw(field: Field) -> bool {
    matches!(field, Field::ResultMeta | Field::ItemMeta | Field::Data)
}

/// Index of the first `"`, `\` or control byte of `chunk` from `i` (or its
/// length), and whether a byte >= 0x80 came before it: the string lexeme
/// taking no escape. Not inlined: as a call, the known-key lane that runs
/// it stays inlined in the machine's loop (the validators: 4 to 5 % fewer
/// instructions).
#[inline(never)]
fn scan(chunk: &[u8], i: usize) -> (usize, bool) {
    let run = text::run(chunk, i, false, false, 0);
    (run.at(chunk.len()), run.high)
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
                Some(b'-' | b'0'..=b'9') => Ok(self.number_start(i)),
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::Scope => {
                if c == Some(b'n') {
                    return Ok(self.null_literal(i));
                }
                self.walk.begin_scope(1, c);
                Ok(self.walked(i))
            }
            Field::Contents => match c {
                Some(b'[') => {
                    self.in_contents = true;
                    self.set_cont();
                    self.st = St::ArrFirst;
                    Ok(i + 1)
                }
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::ResultMeta | Field::ReqMeta | Field::InputResponses | Field::Data => match c {
                Some(b'n') => Ok(self.null_literal(i)),
                Some(b'{') => self.captured(field, 1, i, sink),
                _ if field == Field::Data => self.captured(field, 1, i, sink),
                _ => self.wrong(i, c, at, named(field)),
            },
            Field::ItemUri
            | Field::ItemMime
            | Field::ItemText
            | Field::ItemBlob
            | Field::ItemMeta
            | Field::ItemOther => {
                self.note_member(field, c);
                match c {
                    Some(b'"') => Ok(self.typed_string(field, i, sink)),
                    Some(b'{') if field == Field::ItemMeta => self.captured(field, 3, i, sink),
                    _ => {
                        self.walk.begin(true, 3);
                        Ok(self.walked(i))
                    }
                }
            }
            Field::BadItem => {
                if c == Some(b'{') {
                    self.in_item = true;
                    self.set_cont();
                    self.item = ItemShape::new();
                    self.st = St::ObjFirst;
                    if sink.reads() {
                        sink.event(Ev::ItemStart);
                    }
                    return Ok(i + 1);
                }
                self.walk.begin(true, 2);
                Ok(self.walked(i))
            }
            Field::Ignored => {
                self.walk.begin(false, 0);
                Ok(self.walked(i))
            }
            // Never the field of a value's start: `wrong` sets it there.
            Field::Wrong => self.wrong(i, c, at, self.wrong_for),
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
        self.walk.begin(true, 0);
        Ok(self.walked(i))
    }

    /// The value at `i`, which the schema does not interpret, is walked
    /// ([`St::Walk`], with `walk` set up for it).
    const fn walked(&mut self, i: usize) -> usize {
        self.st = St::Walk;
        i
    }

    /// A raw field (`_meta`, `data`) begins: fully checked, and handed to a
    /// reader piece by piece.
    fn captured<S: Sink>(
        &mut self,
        field: Field,
        open: u8,
        i: usize,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        self.walk.begin(true, open);
        let next = self.walked(i);
        if sink.reads() && reads_raw(field) {
            self.cap = Some(field);
            self.cap_from = i;
            sink.event(Ev::Start(field));
        }
        Ok(next)
    }

    /// The member's key and first byte, for the untagged choice.
    fn note_member(&mut self, field: Field, c: Option<u8>) {
        let key = match field {
            Field::ItemUri => ItemKey::Uri,
            Field::ItemMime => ItemKey::MimeType,
            Field::ItemText => ItemKey::Text,
            Field::ItemBlob => ItemKey::Blob,
            Field::ItemMeta => ItemKey::Meta,
            _ => return,
        };
        self.item.note_value(key, c);
    }

    /// `null` for an optional field: the `n` at `i` is consumed.
    fn null_literal(&mut self, i: usize) -> usize {
        self.null = true;
        self.walk.begin(true, 0);
        self.walked(i)
    }

    /// A typed string field's opening quote is at `i`.
    fn typed_string<S: Sink>(&mut self, field: Field, i: usize, sink: &mut S) -> usize {
        self.key = false;
        self.names = Names::None;
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
                self.string_end(chunk, next - 1, self.base + next - 1, sink)?;
                Ok(next)
            }
            None => Ok(chunk.len()),
        }
    }

    /// The closing quote of a string is `chunk[j]`, at absolute `at`.
    fn string_end<S: Sink>(
        &mut self,
        chunk: &[u8],
        j: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        if self.key {
            let found = self.walk.text.name().find(self.name_table(self.names));
            self.key = false;
            self.key_found = found.and_then(|f| u8::try_from(f).ok()).unwrap_or(NO_MATCH);
            self.st = St::Colon;
            return Ok(());
        }
        if self.read {
            self.read = false;
            sink.event(Ev::End(self.field));
        }
        self.after_scalar(chunk, j + 1, at + 1, sink)
    }

    /// The common key: plain ASCII, whole in the chunk from `i` (just after
    /// its opening quote), at most 16 bytes. Matched against the names at
    /// once; `None` for the general string path (escapes, non-ASCII, a cut,
    /// a longer key).
    #[inline]
    fn whole_key(&mut self, chunk: &[u8], i: usize) -> Option<usize> {
        let (j, high) = scan(chunk, i);
        let len = j - i;
        if high || len > 16 || chunk.get(j) != Some(&b'"') {
            return None;
        }
        let found = Key::plain(chunk, i, len).find(self.name_table(self.names));
        self.key = false;
        self.key_found = found.and_then(|f| u8::try_from(f).ok()).unwrap_or(NO_MATCH);
        self.st = St::Colon;
        Some(j + 1)
    }

    // ----- members, scalars and closes ----------------------------------

    /// After a key of the top-level struct: a known field seen before is
    /// [`DuplicateField`](K::DuplicateField), whatever follows the key (as
    /// serde's derived visitor checks it before the colon).
    fn duplicate(&self) -> Result<(), BodyError> {
        if self.cont() == Cont::TopObj
            && self.key_found != NO_MATCH
            && self.seen >> self.key_found & 1 == 1
        {
            let field = Detail::field(self.base() + self.key_found);
            return Err(BodyError::about(K::DuplicateField, self.key_at, field));
        }
        Ok(())
    }

    /// The colon after a key was consumed: the member's field.
    fn member(&mut self) -> Result<(), BodyError> {
        let found = (self.key_found != NO_MATCH).then_some(usize::from(self.key_found));
        match self.cont() {
            Cont::TopObj => {
                self.field = match found {
                    Some(j) => {
                        self.duplicate()?;
                        self.seen |= 1 << j;
                        self.fields().get(j).copied().unwrap_or(Field::Ignored)
                    }
                    None => Field::Ignored,
                };
            }
            Cont::Item => {
                self.field = found
                    .and_then(|j| ITEM_FIELDS.get(j).copied())
                    .unwrap_or(Field::ItemOther);
            }
            _ => {}
        }
        self.st = St::Value;
        Ok(())
    }

    /// A scalar ended; `i` is the chunk index after it (absolute `at`).
    fn after_scalar<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        self.value_end(chunk, i, at, sink)
    }

    /// A closing bracket at absolute `at` was consumed (`i` is the index
    /// after it).
    fn close<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        match self.cont() {
            Cont::Item => {
                let is_text = self.item.is_text();
                if !(is_text || self.item.is_blob()) {
                    let why = self.item.fault();
                    return Err(BodyError::about(K::InvalidContentItem, at, why));
                }
                self.in_item = false;
                self.set_cont();
                self.st = St::Next;
                if sink.reads() {
                    sink.event(Ev::ItemEnd(is_text));
                }
                Ok(())
            }
            Cont::Contents => {
                self.in_contents = false;
                self.set_cont();
                self.field = Field::Contents;
                self.value_end(chunk, i, at + 1, sink)
            }
            Cont::TopObj | Cont::TopArr => {
                let need = shape::required(self.base());
                if self.seen & need != need {
                    return Err(shape::missing(self.base(), self.seen, at));
                }
                self.st = St::End;
                Ok(())
            }
        }
    }

    /// The current field's value is complete; `i` is the chunk index after
    /// it (absolute `at`).
    fn value_end<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        let field = self.field;
        match field {
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
            Field::BadItem => {
                let why = Detail::ITEM_NOT_OBJECT;
                return Err(BodyError::about(K::InvalidContentItem, at, why));
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
        self.st = St::Next;
        if !self.in_item && !self.in_contents && self.top_arr {
            self.index += 1;
        }
        Ok(())
    }

    // ----- numbers -------------------------------------------------------

    /// A number starts at `i` (absolute `at`): `-` or a digit.
    fn number_start(&mut self, i: usize) -> usize {
        self.walk.begin(true, 0);
        self.walked(i)
    }
}
