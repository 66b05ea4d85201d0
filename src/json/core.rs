//! The resumable core: one pushdown automaton for the three bodies
//! (result, error, request), fed chunk by chunk, holding no byte of the
//! input.
//!
//! It is written as a transcription of the whole-buffer decoder
//! (`json::scan` and `view::*`): every place where that decoder looks at the
//! next byte is a state here, and "no next byte" (`None`) is handled by the
//! same arm whether it means the end of the input (after
//! [`Machine::run`] with `eof`) or only the end of a chunk (then the machine
//! stops and resumes in that state). So a cut can fall anywhere: inside a
//! key, an escape, a surrogate pair, a UTF-8 sequence, a number or a
//! literal.
//!
//! What the whole-buffer decoder decides late, this decides late too, with
//! the same offsets: UTF-8 errors of a string are held until its closing
//! quote (the scanner validates a string's text after finding its end, so
//! a bad escape or control byte later in the same string wins); a number's
//! range and type are known at its first non-number byte (or the end); a
//! content item's text/blob verdict at its `}`; `cacheScope` at the end of
//! its value.
//!
//! Leaf code is shared with the scanner, not copied: the string lexeme
//! (`json::text`, the loop over a string's text), the escape lexemes
//! (`json::lex`),
//! the number lexeme (`json::number`, whose state the machine keeps when a
//! chunk ends inside a number), the key matcher and name tables, and the
//! `cacheScope`, `ttlMs`, `code` and item rules (`json::shape`). The machine
//! is compiled for two sinks only (`()` and [`Dyn`]), so the firmware links
//! one copy of it.

use crate::error::{BodyError, BodyErrorKind as K, Detail};
use crate::json::find;
use crate::json::lex::{self, Utf16};
use crate::json::nest::{self, Word};
use crate::json::scan::{Scanner, WINDOW};
use crate::json::shape::{
    self, CacheScope, ERROR_KEYS, ITEM_KEYS, ItemKey, ItemShape, Key, NameTable, REQUEST_KEYS,
    RESULT_KEYS,
};
use crate::json::text::{self, Stop};
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
    /// Inside a string.
    Str,
    /// After a backslash.
    Esc,
    /// Reading `\uXXXX` digits (`hex_n` of them read; the second of a pair
    /// when `pair`).
    Hex,
    /// After a high surrogate: a `\` must follow.
    PairBs,
    /// After a high surrogate and `\`: a `u` must follow.
    PairU,
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
    key: bool,
    /// The string is fully checked (UTF-8, surrogates), not syntax only.
    str_full: bool,
    /// The matched name of the key just read (`NO_MATCH` for none).
    key_found: u8,
    read: bool,
    names: Names,
    /// The key (or `cacheScope` string) read so far, as the name tables
    /// see it.
    name: Key,
    /// First invalid UTF-8 offset of this string, reported at its close.
    utf8_err: Option<usize>,
    /// A UTF-8 sequence cut by a chunk's end (or by a special byte).
    pend: [u8; 4],
    have: u8,
    need: u8,
    pend_at: usize,
    /// The backslash of the escape being read.
    esc_at: usize,
    /// The `\uXXXX` digits read so far, as they came (the last in the low
    /// byte): [`lex::hex4`] reads all four at once.
    hex: u32,
    hex_n: u8,
    pair: bool,
    high: u16,

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
            str_full: false,
            key_found: NO_MATCH,
            read: false,
            names: Names::None,
            name: Key::EMPTY,
            utf8_err: None,
            pend: [0; 4],
            have: 0,
            need: 0,
            pend_at: 0,
            esc_at: 0,
            hex: 0,
            hex_n: 0,
            pair: false,
            high: 0,
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
                    if c.is_none() {
                        return Err(BodyError::new(K::Eof, at));
                    }
                    // A key whose opening quote ended the previous chunk:
                    // the known-key lane, which `key_start` tried right after
                    // the quote when it was in the same chunk.
                    if i == 0 && self.key && self.name.is_empty() {
                        let next = self.known_key(chunk, i)?;
                        if next > i {
                            i = next;
                            continue;
                        }
                    }
                    // `find::HOST` first, so that microcontrollers compile
                    // the compact path alone.
                    i = if !find::HOST || self.compact || self.names != Names::None {
                        self.string_bytes(chunk, i, sink)?
                    } else {
                        self.quiet_string(chunk, i, sink)?
                    };
                }
                St::Esc => {
                    i += 1;
                    match c {
                        Some(b'u') => {
                            self.st = St::Hex;
                            self.hex_n = 0;
                            self.pair = false;
                        }
                        None => return Err(BodyError::new(K::Eof, at)),
                        Some(e) => {
                            let Some(ch) = lex::escape(e) else {
                                return Err(BodyError::new(K::InvalidEscape, at));
                            };
                            self.st = St::Str;
                            self.unescaped(char::from(ch), sink);
                        }
                    }
                }
                St::Hex => {
                    // The scanner wants all four bytes before it looks at
                    // any: a cut-short escape is an early end, whatever its
                    // bytes.
                    let Some(c) = c else {
                        return Err(BodyError::new(K::Eof, at));
                    };
                    i += 1;
                    self.hex = self.hex << 8 | u32::from(c);
                    self.hex_n += 1;
                    if self.hex_n == 4 {
                        match lex::hex4(&self.hex.to_be_bytes()) {
                            Ok(n) => self.hex_done(n, sink)?,
                            // `at` is the fourth digit's offset.
                            Err(k) => {
                                return Err(BodyError::new(K::InvalidEscape, at + k - 3));
                            }
                        }
                    }
                }
                St::PairBs => match c {
                    Some(b'\\') => {
                        i += 1;
                        self.st = St::PairU;
                    }
                    None => return Err(BodyError::new(K::Eof, at)),
                    Some(_) => return Err(BodyError::new(K::LoneSurrogate, self.esc_at)),
                },
                St::PairU => match c {
                    Some(b'u') => {
                        i += 1;
                        self.st = St::Hex;
                        self.hex_n = 0;
                        self.pair = true;
                    }
                    None => return Err(BodyError::new(K::Eof, at)),
                    Some(_) => return Err(BodyError::new(K::LoneSurrogate, self.esc_at)),
                },
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

    fn string_start(&mut self, full: bool) {
        self.st = St::Str;
        self.utf8_err = None;
        self.have = 0;
        self.need = 0;
        // `full` is only consulted inside the string.
        self.str_full = full;
        self.name = Key::EMPTY;
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

/// Length of the UTF-8 sequence a lead byte starts (a lead that
/// `from_utf8` reported as cut short).
const fn sequence_len(lead: u8) -> u8 {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        _ => 2,
    }
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
                self.walk = Walk::scope(1, c, false);
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
                Some(b'{') => self.captured(field, 1, i, c, at, sink),
                _ if field == Field::Data => self.captured(field, 1, i, c, at, sink),
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
                    Some(b'{') if field == Field::ItemMeta => {
                        self.captured(field, 3, i, c, at, sink)
                    }
                    _ => {
                        self.walk = Walk::new(true, 3, false);
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
                self.walk = Walk::new(true, 2, false);
                Ok(self.walked(i))
            }
            Field::Ignored => {
                self.walk = Walk::new(false, 0, false);
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
        self.walk = Walk::new(true, 0, false);
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
        open: usize,
        i: usize,
        c: Option<u8>,
        at: usize,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        let _ = (c, at);
        self.walk = Walk::new(true, open, false);
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
        self.walk = Walk::new(true, 0, false);
        self.walked(i)
    }

    /// A typed string field's opening quote is at `i`.
    fn typed_string<S: Sink>(&mut self, field: Field, i: usize, sink: &mut S) -> usize {
        self.key = false;
        self.names = Names::None;
        self.read = sink.reads() && reads_string(field);
        self.string_start(true);
        if self.read {
            sink.event(Ev::Start(field));
        }
        i + 1
    }

    // ----- strings -------------------------------------------------------

    /// Inside a string at `chunk[i]`: takes the plain run up to the next
    /// special byte and handles that byte. Returns the index to go on from.
    fn string_bytes<S: Sink>(
        &mut self,
        chunk: &[u8],
        mut i: usize,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        loop {
            let (j, high) = scan(chunk, i);
            if j > i {
                let run = chunk.get(i..j).unwrap_or_default();
                self.plain(run, self.base + i, high, sink);
            }
            let at = self.base + j;
            match chunk.get(j) {
                None => return Ok(j),
                Some(b'"') => {
                    self.string_end(chunk, j, at, sink)?;
                    return Ok(j + 1);
                }
                Some(b'\\') => {
                    self.break_sequence();
                    self.esc_at = at;
                    match self.whole_escape(chunk, j, sink) {
                        Some(next) => i = next,
                        None => {
                            // Cut by the chunk's end, or a defect: the
                            // byte-wise states decide, exactly.
                            self.st = St::Esc;
                            return Ok(j + 1);
                        }
                    }
                }
                Some(_) => return Err(BodyError::new(K::ControlCharacterInString, at)),
            }
        }
    }

    /// Inside a string whose text nobody reads (the validators, and every
    /// string of a reader that it does not hand out): the string lexeme
    /// ([`text::run`], the scanner's too) up to the chunk's end, and the
    /// text is checked as UTF-8 in one piece, escapes included, as the
    /// whole-buffer scanner checks it. An escape cut by the chunk's end, or
    /// not valid, goes to the byte-wise states.
    fn quiet_string<S: Sink>(
        &mut self,
        chunk: &[u8],
        i: usize,
        sink: &mut S,
    ) -> Result<usize, BodyError> {
        // A string that goes on from the last chunk is likely long: with a
        // long chunk ahead, the first plain word already jumps (as after 16
        // words in a new string). Short chunks keep the word loop: the jump's
        // fixed cost is more than their bytes.
        let plain = if i == 0 && chunk.len() >= 256 {
            text::JUMP_AFTER - 1
        } else {
            0
        };
        let run = text::run(chunk, i, self.str_full, true, plain);
        if let Stop::Control(p) = run.stop {
            return Err(BodyError::new(K::ControlCharacterInString, self.base + p));
        }
        let stop = run.at(chunk.len());
        if sink.reads() && self.read {
            self.read_segment(chunk, i, stop, sink);
        } else if self.str_full && (run.high || self.have < self.need) && stop > i {
            let text = chunk.get(i..stop).unwrap_or_default();
            self.plain(text, self.base + i, true, sink);
        }
        match run.stop {
            Stop::Quote(p) => {
                self.string_end(chunk, p, self.base + p, sink)?;
                Ok(p + 1)
            }
            // Cut by the chunk's end, or a defect: the byte-wise states
            // decide, exactly.
            Stop::Escape(p) => {
                self.break_sequence();
                self.esc_at = self.base + p;
                self.st = St::Esc;
                Ok(p + 1)
            }
            Stop::End | Stop::Control(_) => Ok(chunk.len()),
        }
    }

    /// Hands out the text of a read string between `chunk[i]` and
    /// `chunk[stop]`, whose escapes are whole and valid: checked as UTF-8 once,
    /// then handed out as slices of that `&str` between escapes, each escape
    /// as its character. A UTF-8 defect or a character cut by the chunk's
    /// end is kept as the general path keeps it.
    fn read_segment<S: Sink>(&mut self, chunk: &[u8], i: usize, stop: usize, sink: &mut S) {
        let mut from = i;
        if self.have < self.need {
            from += self.complete_sequence(chunk.get(i..stop).unwrap_or_default(), sink);
        }
        if self.utf8_err.is_some() || from >= stop {
            return;
        }
        let seg = chunk.get(from..stop).unwrap_or_default();
        let (text, defect) = match core::str::from_utf8(seg) {
            Ok(text) => (text, None),
            Err(e) => {
                let valid = e.valid_up_to();
                let head = seg.get(..valid).and_then(|h| core::str::from_utf8(h).ok());
                (head.unwrap_or_default(), Some((valid, e.error_len())))
            }
        };
        let field = self.field;
        let bytes = text.as_bytes();
        let mut a = 0;
        while let Some(k) = bytes.get(a..).and_then(|b| find::memchr(b'\\', b)) {
            let bs = a + k;
            if let Some(piece) = text.get(a..bs).filter(|p| !p.is_empty()) {
                sink.event(Ev::Str(field, piece));
            }
            match self.whole_escape(chunk, from + bs, sink) {
                Some(next) => a = next - from,
                None => return,
            }
        }
        if let Some(piece) = text.get(a..).filter(|p| !p.is_empty()) {
            sink.event(Ev::Str(field, piece));
        }
        if let Some((valid, len)) = defect {
            let tail = seg.get(valid..).unwrap_or_default();
            self.utf8_defect(tail, len, self.base + from + valid);
        }
    }

    /// The fast path for an escape that lies whole in the chunk and is
    /// valid (the common case): `chunk[j]` is its backslash. Returns the
    /// index after it, or `None` for the byte-wise states to take it.
    #[inline]
    fn whole_escape<S: Sink>(&mut self, chunk: &[u8], j: usize, sink: &mut S) -> Option<usize> {
        let ch = match *chunk.get(j + 1)? {
            b'u' => {
                let n = lex::hex4(chunk.get(j + 2..)?).ok()?;
                if !self.str_full {
                    return Some(j + 6);
                }
                match lex::utf16(n) {
                    Utf16::Scalar => {
                        self.unescaped(char::from_u32(u32::from(n))?, sink);
                        return Some(j + 6);
                    }
                    Utf16::Low => return None,
                    Utf16::High => {}
                }
                let low = match chunk.get(j + 6..)? {
                    [b'\\', b'u', rest @ ..] => lex::hex4(rest).ok()?,
                    _ => return None,
                };
                self.unescaped(lex::pair(n, low)?, sink);
                return Some(j + 12);
            }
            e => char::from(lex::escape(e)?),
        };
        self.unescaped(ch, sink);
        Some(j + 2)
    }

    /// A run of plain string bytes starting at absolute offset `run_at`.
    fn plain<S: Sink>(&mut self, run: &[u8], run_at: usize, high: bool, sink: &mut S) {
        if self.names != Names::None && !self.name.is_long() {
            self.name.push(run);
        }
        if !self.str_full || self.utf8_err.is_some() {
            return;
        }
        let mut run = run;
        let mut run_at = run_at;
        if self.have < self.need {
            let taken = self.complete_sequence(run, sink);
            run = run.get(taken..).unwrap_or_default();
            run_at += taken;
            if self.utf8_err.is_some() || run.is_empty() {
                return;
            }
        }
        if !high && !self.read {
            return;
        }
        match core::str::from_utf8(run) {
            Ok(text) => {
                if self.read {
                    sink.event(Ev::Str(self.field, text));
                }
            }
            Err(e) => {
                let valid = e.valid_up_to();
                if self.read && valid > 0 {
                    let head = run.get(..valid).unwrap_or_default();
                    if let Ok(text) = core::str::from_utf8(head) {
                        sink.event(Ev::Str(self.field, text));
                    }
                }
                let tail = run.get(valid..).unwrap_or_default();
                self.utf8_defect(tail, e.error_len(), run_at + valid);
            }
        }
    }

    /// Text that `from_utf8` stopped at `tail` (absolute `at`), with its
    /// `error_len`: a character cut by the end of the text is held for the
    /// next bytes; anything else is the string's UTF-8 error.
    fn utf8_defect(&mut self, tail: &[u8], error_len: Option<usize>, at: usize) {
        match (error_len, tail.first()) {
            (None, Some(&lead)) if tail.len() < 4 => {
                self.pend = [0; 4];
                if let Some(p) = self.pend.get_mut(..tail.len()) {
                    p.copy_from_slice(tail);
                }
                self.have = tail.len() as u8;
                self.need = sequence_len(lead);
                self.pend_at = at;
            }
            _ => self.utf8_err = Some(at),
        }
    }

    /// Completes the held UTF-8 sequence from the start of `run`; returns
    /// how many bytes it took.
    fn complete_sequence<S: Sink>(&mut self, run: &[u8], sink: &mut S) -> usize {
        let mut taken = 0;
        while self.have < self.need {
            let Some(&b) = run.get(taken) else {
                return taken;
            };
            if let Some(slot) = self.pend.get_mut(usize::from(self.have)) {
                *slot = b;
            }
            self.have += 1;
            taken += 1;
        }
        let seq = self.pend.get(..usize::from(self.need)).unwrap_or_default();
        match core::str::from_utf8(seq) {
            Ok(text) => {
                if self.read {
                    sink.event(Ev::Str(self.field, text));
                }
            }
            Err(_) => self.utf8_err = Some(self.pend_at),
        }
        self.have = 0;
        self.need = 0;
        taken
    }

    /// A special byte (quote, backslash, control) cuts a held sequence:
    /// invalid at its lead byte.
    fn break_sequence(&mut self) {
        if self.have < self.need {
            if self.utf8_err.is_none() {
                self.utf8_err = Some(self.pend_at);
            }
            self.have = 0;
            self.need = 0;
        }
    }

    /// An escape gave `ch`.
    fn unescaped<S: Sink>(&mut self, ch: char, sink: &mut S) {
        if !self.str_full || (!self.read && self.names == Names::None) {
            return;
        }
        let mut buf = [0u8; 4];
        let text = ch.encode_utf8(&mut buf);
        if self.names != Names::None && !self.name.is_long() {
            self.name.push(text.as_bytes());
        }
        if self.read && self.utf8_err.is_none() {
            sink.event(Ev::Str(self.field, text));
        }
    }

    /// The four digits of a `\u` escape are read: their value is `n`.
    fn hex_done<S: Sink>(&mut self, n: u16, sink: &mut S) -> Result<(), BodyError> {
        self.st = St::Str;
        if !self.str_full {
            return Ok(());
        }
        let ch = if self.pair {
            let Some(c) = lex::pair(self.high, n) else {
                return Err(BodyError::new(K::LoneSurrogate, self.esc_at + 6));
            };
            c
        } else {
            match lex::utf16(n) {
                Utf16::Scalar => {
                    char::from_u32(u32::from(n)).unwrap_or(char::REPLACEMENT_CHARACTER)
                }
                Utf16::Low => return Err(BodyError::new(K::LoneSurrogate, self.esc_at)),
                Utf16::High => {
                    self.high = n;
                    self.st = St::PairBs;
                    return Ok(());
                }
            }
        };
        self.unescaped(ch, sink);
        Ok(())
    }

    /// The closing quote of a string is `chunk[j]`, at absolute `at`.
    fn string_end<S: Sink>(
        &mut self,
        chunk: &[u8],
        j: usize,
        at: usize,
        sink: &mut S,
    ) -> Result<(), BodyError> {
        self.break_sequence();
        if let Some(e) = self.utf8_err {
            return Err(BodyError::new(K::InvalidUtf8, e));
        }
        if self.key {
            let found = self.name.find(self.name_table(self.names));
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
        self.walk = Walk::new(true, 0, false);
        self.walked(i)
    }
}
