//! The value walker: one JSON value the schema does not interpret (an
//! ignored member, `_meta`, `data`, `inputResponses`, a content item's other
//! members, `cacheScope`, a scalar of the wrong type), checked in one
//! forward pass with a bit stack of bracket kinds: written once, for the
//! whole buffer and for chunks.
//!
//! It is built as Boost.JSON builds its resumable parser: one function,
//! [`Cursor::walk`], in two compiled lanes chosen by a constant.
//!
//! * `R = false`, the whole-buffer lane (`Frame::decode`, the views, the
//!   encoders' checks): the position, depth and state are locals, strings
//!   and numbers are read whole by the scanner's lexemes, and no resume
//!   code is compiled at all. Hosts compile it per strength at each
//!   caller; microcontrollers once, with the strength a run-time flag.
//! * `R = true`, the resumable lane (the streaming core, one copy): the
//!   same states, plus the places where a chunk's end may stop a
//!   value. There the walk saves its state in a [`Walk`] and returns
//!   [`Walked::More`]; fed the next chunk, it goes on from that state.
//!   Strings go through the resumable string lexeme ([`text::Cut`]),
//!   numbers through the number lexeme's own state ([`Number`]).
//!
//! Both lanes name every defect as serde_json does (`ignore_value` for
//! syntax checks, `Value` for full ones), the first in reading order. Deep
//! syntax checks keep the scanner's window over the bit stack when the
//! whole value is in the buffer (the whole-buffer decoders); a chunked
//! walk cannot count brackets again, and refuses a value deeper than its
//! stack ([`StreamDepthExceeded`](K::StreamDepthExceeded)).
//!
//! ## The strengths and the stack
//!
//! The walk checks JSON the way `serde_json::from_slice` checks it on the way into
//! the rmcp types, in two strengths:
//!
//! * **full** (typed fields, `_meta`, `data`, `inputResponses`, every member
//!   of a content item): grammar, escapes, paired surrogates, UTF-8, number
//!   range as serde_json computes it, and the 127-container depth limit;
//! * **syntax** (unknown top-level members, which serde_json skips with
//!   `ignore_value`): grammar, escape syntax, control characters and number
//!   grammar only, at any depth.
//!
//! Both run one iterative state machine with a fixed bit stack of bracket
//! kinds, in one forward pass, so the first defect in reading order is the
//! one named, as serde_json names it. A syntax check deeper than its stack
//! keeps going with the stack as a window over levels `base+1 ..= base+w`:
//!
//! * a bracket that would open level `base+w+1` slides the window up by
//!   half (the upper half's bits move down, `base += w/2`);
//! * a close down to level `base` or below, where the kind of the now
//!   current level is needed, recovers the window: the value's text from
//!   its start to the current position, all of it already validated, is
//!   scanned again counting brackets outside strings only, and the kinds
//!   of levels `depth-w+1 ..= depth` are recorded (the last opener at each
//!   level is the container open there).
//!
//! Shallow values never slide. A recovery costs one bracket count over the
//! value so far, at most once per `w/2` levels of descent followed by
//! ascent (`[`×10⁶`]`×10⁶ on hosts: 15 counts of at most its 2 MB). The
//! stack stays bounded whatever the input's depth: [`WINDOW`] levels (128
//! bytes) first; on 64-bit targets a value that goes deeper is checked
//! again from its start on a [`DEEP_WINDOW`] stack (an 8 KiB frame, below
//! the first), so that recoveries stay rare; elsewhere the first stack
//! slides (same answer, more recoveries).

use crate::error::{BodyError, BodyErrorKind as K, Detail};

use super::borrowed::RawJson;
use super::cursor::Cursor;
use super::lex;
use super::nest::{self, BITS, Word};
use super::number::{Num, Number};
use super::shape::{Key, SCOPE_KEYS, ScopeRule};
use super::text::Cut;

/// The reference's container limit: serde_json allows 127 open containers,
/// the outermost included.
pub(crate) const MAX_DEPTH: usize = 127;

/// Levels of bracket kinds a syntax check keeps on its first bit stack.
pub(crate) const WINDOW: usize = 1024;

/// Levels of the deep window (syntax checks of values nested deeper than
/// [`WINDOW`], checked again on this stack).
#[cfg(target_pointer_width = "64")]
pub(crate) const DEEP_WINDOW: usize = 65_536;
/// Levels of the deep window: on these targets the first stack's, which
/// slides instead.
#[cfg(not(target_pointer_width = "64"))]
pub(crate) const DEEP_WINDOW: usize = WINDOW;

/// What the whole-buffer lane hands on as it checks a value: its parts, in
/// reading order, each once it is checked (the `alloc` builder makes the
/// `serde_json::Value` of them: the rmcp path checks and builds `_meta`,
/// `data` and `inputResponses` in one pass). The walk stays the one
/// statement of the grammar; the sink only builds. `()` takes nothing, and
/// with it the walk compiles to exactly what it is without a sink.
pub(crate) trait ValueSink<'a> {
    /// Whether the sink takes the parts (false: the walk makes no call).
    const TAKES: bool;

    /// A container opened (`object`: `{`, else `[`).
    fn open(&mut self, object: bool);

    /// The container opened last closed.
    fn close(&mut self);

    /// A string (`key`: an object's key), `s` at its opening quote. The
    /// sink reads it, checked exactly as [`Cursor::string`] checks it
    /// fully (the same errors, the first in reading order), and leaves `s`
    /// after its closing quote.
    ///
    /// # Errors
    ///
    /// [`Cursor::string`]'s.
    fn string(&mut self, s: &mut Cursor<'a>, key: bool) -> Result<(), BodyError>;

    /// A number, checked: its text and its class.
    fn number(&mut self, raw: &'a [u8], class: Num);

    /// `true`, `false` or `null`, by its first byte.
    fn literal(&mut self, first: u8);
}

/// No sink: the walk checks only.
impl<'a> ValueSink<'a> for () {
    const TAKES: bool = false;

    fn open(&mut self, _: bool) {}

    fn close(&mut self) {}

    fn string(&mut self, s: &mut Cursor<'a>, _: bool) -> Result<(), BodyError> {
        s.string(true).map(drop)
    }

    fn number(&mut self, _: &'a [u8], _: Num) {}

    fn literal(&mut self, _: u8) {}
}

/// Where a walk stands (and, in the resumable lane, where it goes on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum At {
    /// A value is next (whitespace first).
    Value,
    /// After `{`.
    OpenObj,
    /// After `[`.
    OpenArr,
    /// After a value: `,`, a close, or the walk's end.
    After,
    /// After `,`.
    Comma,
    /// Inside a key (resumable lane).
    Key,
    /// After a key: `:`.
    Colon,
    /// Inside a string value (resumable lane).
    Str,
    /// Inside a number (resumable lane).
    Num,
    /// Inside `true`, `false` or `null` (resumable lane).
    Lit,
}

/// What a walk did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Walked {
    /// The value ended; the scanner stands after it.
    Done,
    /// (Whole-buffer syntax checks asked to `grow`.) The value goes deeper
    /// than the stack; the scanner stands at the bracket.
    Deeper,
    /// The chunk ran out inside the value (resumable lane only).
    More,
}

/// A walk's state: what it checks, and in the resumable lane where a
/// chunk's end left it. Fixed size; holds no input byte except what the
/// string lexeme holds of a cut escape or character.
#[derive(Debug, Clone)]
pub(crate) struct Walk {
    at: At,
    /// Open containers inside the value (saved only by a chunked walk, so
    /// at most its stack's levels).
    depth: u32,
    /// Containers open around the value (for the depth limit: at most 3).
    open: u8,
    /// Full checks (serde_json's `Value`), or syntax only (`ignore_value`).
    full: bool,
    /// The whole value is in the buffer from where the walk started: a
    /// syntax check deeper than the stack may slide its window and count
    /// brackets again. Otherwise it refuses to go deeper.
    whole: bool,
    /// The value is a `cacheScope`: its string, or its object's keys and
    /// their values' first bytes, go to `rule`.
    scope: bool,
    /// The `cacheScope` rule's answer so far.
    pub(crate) rule: ScopeRule,
    /// The string being read (the core machine reads its own strings, keys
    /// and typed fields, with it too: they never run at once with a walk).
    pub(crate) text: Cut,
    number: Number,
    /// The literal being read (`true`, `false` or `null`): its first
    /// byte, and how many bytes of its rest were read.
    lit: u8,
    lit_i: u8,
}

impl Walk {
    /// A walk of a value with `open` containers open around it, checked
    /// fully or for syntax only; `whole`: the buffer holds the value whole.
    pub(crate) const fn new(full: bool, open: usize, whole: bool) -> Self {
        // 0 to 3 (the result, `contents`, an item) from the bodies; past
        // the depth limit, any count is the same.
        #[allow(clippy::cast_possible_truncation)]
        let open = if open > u8::MAX as usize {
            u8::MAX
        } else {
            open as u8
        };
        Self {
            at: At::Value,
            depth: 0,
            open,
            full,
            whole,
            scope: false,
            rule: ScopeRule::start(None),
            text: Cut::new(false, false),
            number: Number::new(0, false),
            lit: 0,
            lit_i: 0,
        }
    }

    /// Sets up a chunked walk (the streaming core's) of a value with `open`
    /// containers around it, fully or for syntax only: [`new`](Self::new)
    /// without rewriting the lexemes' state, which each lexeme sets up
    /// when it begins.
    pub(crate) const fn begin(&mut self, full: bool, open: u8) {
        self.at = At::Value;
        self.depth = 0;
        self.open = open;
        self.full = full;
        self.whole = false;
        self.scope = false;
    }

    /// [`begin`](Self::begin) for a `cacheScope` value (see
    /// [`scope`](Self::scope)).
    pub(crate) const fn begin_scope(&mut self, open: u8, first: Option<u8>) {
        self.begin(true, open);
        self.scope = true;
        self.rule = ScopeRule::start(first);
    }

    /// The number the walk read last (a walk of one number: its class is
    /// `number().finish()`).
    pub(crate) const fn number(&self) -> &Number {
        &self.number
    }

    /// The walk of a `cacheScope` value (not `null`) whose first byte is
    /// `first`, `open` containers around it: fully checked, and its names
    /// matched (the answer is `rule.verdict` at the end).
    pub(crate) const fn scope(open: usize, first: Option<u8>, whole: bool) -> Self {
        let mut w = Self::new(true, open, whole);
        w.scope = true;
        w.rule = ScopeRule::start(first);
        w
    }
}

impl<'a> Cursor<'a> {
    /// The error for a value a typed field (or the struct) does not take,
    /// next after whitespace, in serde_json's order (`peek_invalid_type`): a
    /// scalar is read first, as a `Value` would be, and its own defect wins
    /// (a bad literal, number, escape, control character or UTF-8, or the
    /// end of the input inside it); a whole scalar, or an opening bracket at
    /// once, is [`InvalidType`](K::InvalidType) at the value's first byte,
    /// about `what` (the field, or the struct).
    /// A byte that starts no value is [`ExpectedValue`](K::ExpectedValue),
    /// the end of the input [`Eof`](K::Eof).
    #[cold]
    #[inline(never)]
    pub(crate) fn wrong_type(&mut self, what: Detail) -> BodyError {
        let first = self.ws();
        let at = self.pos;
        // `value_full` reads a scalar, and refuses the end of the input and
        // a byte that starts no value as wanted here.
        if !matches!(first, Some(b'[' | b'{'))
            && let Err(e) = self.value_full(0)
        {
            return e;
        }
        BodyError::about(K::InvalidType, at, what)
    }

    /// Validates one value fully, the way serde_json parses a `Value`, with
    /// `open` containers already open around it.
    pub(crate) fn value_full(&mut self, open: usize) -> Result<RawJson<'a>, BodyError> {
        let start = self.pos;
        if super::find::HOST {
            let mut stack = [0; MAX_DEPTH.div_ceil(BITS)];
            self.walk_whole::<true>(&mut stack, open, false)?;
        } else {
            self.whole_fixed(true, open, None)?;
        }
        Ok(RawJson::new(
            self.buf.get(start..self.pos).unwrap_or_default(),
        ))
    }

    /// [`value_full`](Self::value_full), handing the value's parts to `v`
    /// as they are checked (hosts: the `alloc` builder's one pass).
    #[cfg(feature = "alloc")]
    pub(crate) fn value_built<V: ValueSink<'a>>(
        &mut self,
        open: usize,
        v: &mut V,
    ) -> Result<RawJson<'a>, BodyError> {
        let start = self.pos;
        let mut stack = [0; MAX_DEPTH.div_ceil(BITS)];
        let mut w = Walk::new(true, open, true);
        self.walk::<false, V>(&mut w, &mut stack, false, v)?;
        Ok(RawJson::new(
            self.buf.get(start..self.pos).unwrap_or_default(),
        ))
    }

    /// Checks one ignored value's syntax, at any depth, naming the first
    /// defect in reading order as serde_json's `ignore_value` does.
    pub(crate) fn value_syntax(&mut self) -> Result<(), BodyError> {
        if !super::find::HOST {
            return self.whole_fixed(false, 0, None).map(drop);
        }
        let start = self.pos;
        let mut stack = [0; WINDOW / BITS];
        let done = self.walk_whole::<false>(&mut stack, 0, DEEP_WINDOW > WINDOW)?;
        if DEEP_WINDOW > WINDOW && !done {
            // Deeper than [`WINDOW`] levels on a host: again from the start,
            // on the deep window.
            self.pos = start;
            self.value_syntax_deep()
        } else {
            Ok(())
        }
    }

    /// [`value_syntax`](Self::value_syntax) on a [`DEEP_WINDOW`]-level
    /// stack, for values nested deeper than [`WINDOW`] (hosts only: on
    /// microcontrollers the first stack slides instead).
    #[inline(never)]
    #[cold]
    fn value_syntax_deep(&mut self) -> Result<(), BodyError> {
        let mut stack = [0; DEEP_WINDOW / BITS];
        self.walk_whole::<false>(&mut stack, 0, false).map(drop)
    }

    /// The walk of a whole-buffer value ([`walk`](Self::walk)): `FULL`
    /// selects full checks with the depth limit (`open` containers already
    /// open); otherwise syntax checks at any depth. Returns `Ok(true)` at
    /// the value's end, `Ok(false)` when `grow` asked to stop deeper than
    /// the stack.
    ///
    /// On hosts the walker's whole-buffer lane, compiled for each strength;
    /// on microcontrollers ([`HOST`](super::find::HOST) false) the same
    /// lane with the strength a run-time flag (never `grow`) on `stack`,
    /// whatever its size: the tests' small stacks, which slide sooner (the
    /// microcontrollers' decode calls [`whole_fixed`](Self::whole_fixed)).
    pub(crate) fn walk_whole<const FULL: bool>(
        &mut self,
        stack: &mut [Word],
        open: usize,
        grow: bool,
    ) -> Result<bool, BodyError> {
        if !super::find::HOST {
            return self.whole_in(FULL, open, None, stack).map(|_| true);
        }
        let mut w = Walk::new(FULL, open, true);
        Ok(self.walk::<false, ()>(&mut w, stack, grow, &mut ())? == Walked::Done)
    }

    /// Walks a `cacheScope` value (not `null`) with `open` containers
    /// around it, fully: the rule's answer so far (its
    /// [`verdict`](ScopeRule::verdict) is the field's).
    pub(crate) fn scope_value(&mut self, open: usize) -> Result<ScopeRule, BodyError> {
        if !super::find::HOST {
            return self.whole_fixed(true, open, Some(self.peek()));
        }
        let mut stack = [0; MAX_DEPTH.div_ceil(BITS)];
        let mut w = Walk::scope(open, self.peek(), true);
        self.walk::<false, ()>(&mut w, &mut stack, false, &mut ())?;
        Ok(w.rule)
    }

    /// The whole-buffer lane as one function, with the strength a run-time
    /// flag (`scope`: a `cacheScope` value whose first byte is given), on
    /// its own stack of [`WINDOW`] levels: the microcontrollers'
    /// `value_full`, `value_syntax` and `scope_value`, one copy for every
    /// caller. (Their streaming core runs the resumable lane; as the
    /// decode's lane it cost 2.4 KB of flash more than this one.) Returns
    /// the scope rule's answer. The stack's size is a constant, so the
    /// window's arithmetic folds and no caller makes a stack and passes it
    /// (measured on the same job: 116 B of flash less at opt-level `z`; a
    /// full walk's stack grows from 16 to 128 B, inside the 1 KiB bound).
    #[inline(never)]
    fn whole_fixed(
        &mut self,
        full: bool,
        open: usize,
        scope: Option<Option<u8>>,
    ) -> Result<ScopeRule, BodyError> {
        let mut stack = [0; WINDOW / BITS];
        self.whole_in(full, open, scope, &mut stack)
    }

    /// [`whole_fixed`](Self::whole_fixed) on a stack of any size.
    #[inline(always)]
    fn whole_in(
        &mut self,
        full: bool,
        open: usize,
        scope: Option<Option<u8>>,
        stack: &mut [Word],
    ) -> Result<ScopeRule, BodyError> {
        let mut w = match scope {
            Some(first) => Walk::scope(open, first, true),
            None => Walk::new(full, open, true),
        };
        self.walk::<false, ()>(&mut w, stack, false, &mut ())?;
        Ok(w.rule)
    }

    /// The walker's resumable lane as one function: the streaming core's.
    #[inline(never)]
    pub(crate) fn walk_call(
        &mut self,
        w: &mut Walk,
        stack: &mut [Word],
    ) -> Result<Walked, BodyError> {
        self.walk::<true, ()>(w, stack, false, &mut ())
    }
}

impl<'a> Cursor<'a> {
    /// Walks one value from `pos` as `w` says, on the bit stack `stack`
    /// (levels `base+1 ..= base+window`, [`BITS`] per word, at least two
    /// words). `R` selects the resumable lane (see the module's text); with
    /// `R` the walk goes on from `w`'s state, and a chunk's end (when the
    /// scanner's buffer is not the last) saves it there.
    ///
    /// Whole-buffer syntax checks deeper than the window slide it up by
    /// half (`grow` false), or stop with [`Walked::Deeper`] at that bracket
    /// (`grow` true: the caller starts again on a deeper stack); a close
    /// down to the window's base, where the kind of the now current level
    /// is needed, recovers the window by one bracket count from the value's
    /// start ([`recover`](Self::recover)).
    #[inline(always)]
    #[allow(clippy::too_many_lines)]
    pub(crate) fn walk<const R: bool, V: ValueSink<'a>>(
        &mut self,
        w: &mut Walk,
        stack: &mut [Word],
        grow: bool,
        v: &mut V,
    ) -> Result<Walked, BodyError> {
        // The sink's calls: the whole-buffer lane's, with a sink that takes
        // them (with `()`, none is compiled).
        let takes = !R && V::TAKES;
        let start = self.pos;
        let window = window(stack.len());
        let full = w.full;
        let (mut at, mut depth, mut base) = if R {
            // Levels below the stack's window: only whole-buffer syntax
            // checks have any, and they never stop for more bytes.
            (w.at, w.depth as usize, 0)
        } else {
            (At::Value, 0, 0)
        };
        // The chunk ran out at `$at`: the resumable lane saves the walk and
        // asks for more; at the end of the input it falls through to the
        // error.
        macro_rules! more {
            ($at:expr) => {
                if R && !self.last {
                    w.at = $at;
                    // A chunked walk is never deeper than its stack.
                    #[allow(clippy::cast_possible_truncation)]
                    {
                        w.depth = depth as u32;
                    }
                    return Ok(Walked::More);
                }
            };
        }
        loop {
            match at {
                At::Value => {
                    let c = self.ws();
                    if w.scope && depth == 1 && nest::is_obj(stack, 0) {
                        w.rule.member_value(c);
                    }
                    match c {
                        Some(c @ (b'[' | b'{')) => {
                            if full && usize::from(w.open) + depth + 1 > MAX_DEPTH {
                                return Err(self.err(K::RecursionLimitExceeded));
                            }
                            if !full && depth == base + window {
                                if !w.whole {
                                    return Err(self.err(K::StreamDepthExceeded));
                                }
                                if grow {
                                    return Ok(Walked::Deeper);
                                }
                                base = slide(stack, base);
                            }
                            self.pos += 1;
                            depth += 1;
                            nest::set(stack, depth - base - 1, c == b'{');
                            if takes {
                                v.open(c == b'{');
                            }
                            at = if c == b'{' { At::OpenObj } else { At::OpenArr };
                            continue;
                        }
                        Some(b'"') => {
                            let names = w.scope && depth == 0;
                            if R {
                                self.pos += 1;
                                w.text.start(full, names);
                                at = At::Str;
                                continue;
                            }
                            if takes {
                                v.string(self, false)?;
                                at = At::After;
                                continue;
                            }
                            let from = self.pos + 1;
                            let text = self.string(full)?;
                            if names {
                                let found = Key::find_at(self.buf, from, text, SCOPE_KEYS);
                                w.rule.name(found, text.is_empty());
                            }
                        }
                        Some(b'-' | b'0'..=b'9') => {
                            if R {
                                w.number = Number::new(self.base + self.pos, full);
                                at = At::Num;
                                continue;
                            }
                            if takes {
                                let from = self.pos;
                                let class = self.number_of(full)?;
                                v.number(self.buf.get(from..self.pos).unwrap_or_default(), class);
                                at = At::After;
                                continue;
                            }
                            self.number_value(full)?;
                        }
                        Some(c @ (b't' | b'f' | b'n')) => {
                            self.pos += 1;
                            w.lit = c;
                            w.lit_i = 0;
                            if R {
                                at = At::Lit;
                                continue;
                            }
                            // The whole-buffer lane reads it here, whole.
                            if !self.literal(w)? {
                                return Err(self.err(K::Eof));
                            }
                            if takes {
                                v.literal(c);
                            }
                        }
                        Some(_) => return Err(self.err(K::ExpectedValue)),
                        None => {
                            more!(At::Value);
                            return Err(self.err(K::Eof));
                        }
                    }
                    at = At::After;
                }
                At::OpenObj => match self.ws() {
                    Some(b'}') => {
                        self.pos += 1;
                        depth -= 1;
                        at = At::After;
                        if takes {
                            v.close();
                        }
                    }
                    Some(b'"') if takes => {
                        v.string(self, true)?;
                        self.colon()?;
                        at = At::Value;
                    }
                    Some(b'"') => at = self.key_start::<R>(w, depth)?,
                    Some(_) => return Err(self.err(K::KeyMustBeString)),
                    None => {
                        more!(At::OpenObj);
                        return Err(self.err(K::Eof));
                    }
                },
                At::OpenArr => match self.ws() {
                    Some(b']') => {
                        self.pos += 1;
                        depth -= 1;
                        at = At::After;
                        if takes {
                            v.close();
                        }
                    }
                    None => {
                        more!(At::OpenArr);
                        return Err(self.err(K::Eof));
                    }
                    Some(_) => at = At::Value,
                },
                At::After => {
                    if depth <= base {
                        if full || depth == 0 {
                            if R {
                                w.at = At::Value;
                            }
                            return Ok(Walked::Done);
                        }
                        base = self.recover(stack, start, depth);
                    }
                    let obj = nest::is_obj(stack, depth - base - 1);
                    match self.ws() {
                        Some(b',') => {
                            self.pos += 1;
                            at = At::Comma;
                        }
                        Some(b']') if !obj => {
                            self.pos += 1;
                            depth -= 1;
                            if takes {
                                v.close();
                            }
                        }
                        Some(b'}') if obj => {
                            self.pos += 1;
                            depth -= 1;
                            if takes {
                                v.close();
                            }
                        }
                        Some(b']' | b'}') => return Err(self.err(K::MismatchedBracket)),
                        None => {
                            more!(At::After);
                            return Err(self.err(K::Eof));
                        }
                        Some(_) if obj => return Err(self.err(K::ExpectedCommaOrEndOfObject)),
                        Some(_) => return Err(self.err(K::ExpectedCommaOrEndOfArray)),
                    }
                }
                At::Comma => {
                    let next = self.ws();
                    if next.is_none() {
                        more!(At::Comma);
                    }
                    if nest::is_obj(stack, depth - base - 1) {
                        nest::after_object_comma(next).map_err(|k| self.err(k))?;
                        if takes || (!R && !super::find::HOST) {
                            // At the key's quote: `OpenObj` reads it, so
                            // microcontrollers link one copy of the key's
                            // code.
                            at = At::OpenObj;
                            continue;
                        }
                        at = self.key_start::<R>(w, depth)?;
                    } else {
                        nest::after_array_comma(next).map_err(|k| self.err(k))?;
                        at = At::Value;
                    }
                }
                At::Colon => match self.ws() {
                    Some(b':') => {
                        self.pos += 1;
                        at = At::Value;
                    }
                    Some(_) => return Err(self.err(K::ExpectedColon)),
                    None => {
                        more!(At::Colon);
                        return Err(self.err(K::Eof));
                    }
                },
                // The resumable lane's lexemes (the whole-buffer lane never
                // enters these states: its lexemes read whole).
                At::Key | At::Str | At::Num | At::Lit if !R => return Err(self.err(K::Eof)),
                At::Key | At::Str => {
                    let Some(end) = w
                        .text
                        .more(self.buf, self.pos, self.base, self.last, None)?
                    else {
                        self.pos = self.buf.len();
                        more!(at);
                        return Err(self.err(K::Eof));
                    };
                    self.pos = end;
                    if w.text.gathers() {
                        let name = w.text.name();
                        let key = at == At::Key;
                        w.rule.name(name.find(SCOPE_KEYS), !key && name.is_empty());
                    }
                    at = if at == At::Key { At::Colon } else { At::After };
                }
                At::Num => {
                    let Some(end) = w.number.lex(self.buf, self.pos, self.base, self.last)? else {
                        self.pos = self.buf.len();
                        more!(At::Num);
                        return Err(self.err(K::Eof));
                    };
                    self.pos = end;
                    w.number.finish()?;
                    at = At::After;
                }
                // A literal, in both lanes: the rest of its word (the
                // resumable lane resumes inside it).
                At::Lit => {
                    if !self.literal(w)? {
                        more!(At::Lit);
                        return Err(self.err(K::Eof));
                    }
                    at = At::After;
                }
            }
        }
    }

    /// The rest of the literal `w.lit` starts ([`lex::literal_rest`]) from
    /// its byte `w.lit_i` on:
    /// `Ok(true)` once it is whole, `Ok(false)` where the buffer ends
    /// inside it (the end of the input, or of a chunk: the caller decides),
    /// [`InvalidLiteral`](K::InvalidLiteral) at the first byte that
    /// differs. The one reader of literals, for both lanes; inlined in each
    /// (a call of it cost the stream path 188 B of flash).
    #[inline(always)]
    fn literal(&mut self, w: &mut Walk) -> Result<bool, BodyError> {
        let mut rest = lex::literal_rest(w.lit) >> (8 * u32::from(w.lit_i));
        while rest != 0 {
            match self.peek() {
                Some(c) if c == rest.to_le_bytes()[0] => {
                    self.pos += 1;
                    w.lit_i += 1;
                    rest >>= 8;
                }
                Some(_) => return Err(self.err(K::InvalidLiteral)),
                None => return Ok(false),
            }
        }
        Ok(true)
    }

    /// `pos` is at a key's opening quote, in an object `depth` levels into
    /// the value. The whole-buffer lane reads the key and its colon; the
    /// resumable lane starts the key's string. Returns where the walk goes
    /// on.
    #[inline(always)]
    fn key_start<const R: bool>(&mut self, w: &mut Walk, depth: usize) -> Result<At, BodyError> {
        let names = w.scope && depth == 1;
        if R {
            self.pos += 1;
            w.text.start(w.full, names);
            return Ok(At::Key);
        }
        if names {
            let from = self.pos + 1;
            let text = self.key_text(true)?;
            w.rule
                .name(Key::find_at(self.buf, from, text, SCOPE_KEYS), false);
            self.colon()?;
        } else {
            self.key(w.full)?;
        }
        Ok(At::Value)
    }

    /// `pos` is at a key's opening quote: checks the key and the colon
    /// (the whole-buffer lane; left to the compiler to inline).
    #[inline]
    fn key(&mut self, full: bool) -> Result<(), BodyError> {
        if full {
            self.key_text(true)?;
        } else {
            self.key_text(false)?;
        }
        self.colon()
    }

    /// Puts back on `stack` the kinds of the open containers at levels
    /// `base+1 ..= depth` of the value that starts at `start`, with
    /// `base = depth - window` (or 0), and returns `base`. `pos` is where
    /// the walk stands: everything before it was validated, so counting
    /// brackets outside strings is safe (strings skipped by the views'
    /// walker, [`validated::string`](super::validated::string)). The last opener at
    /// each level before `pos` is the container open there.
    #[inline(never)]
    #[cold]
    fn recover(&self, stack: &mut [Word], start: usize, depth: usize) -> usize {
        let base = depth.saturating_sub(window(stack.len()));
        let buf = self.buf;
        let mut pos = start;
        let mut level = 0usize;
        while pos < self.pos {
            match buf.get(pos) {
                Some(b'"') => {
                    // Validated text: the views' walker finds its end.
                    let rest = buf.get(pos + 1..).unwrap_or_default();
                    let (_, _, after) = super::validated::string(rest);
                    pos = buf.len() - after.len();
                }
                Some(&c @ (b'[' | b'{')) => {
                    pos += 1;
                    level += 1;
                    if level > base {
                        nest::set(stack, level - base - 1, c == b'{');
                    }
                }
                Some(b']' | b'}') => {
                    pos += 1;
                    level = level.saturating_sub(1);
                }
                _ => pos += 1,
            }
        }
        debug_assert_eq!(level, depth);
        base
    }
}

/// Levels a walk keeps on `words` words of bit stack: an even number of
/// words, so that the window slides by exactly half (an odd last word is
/// left unused).
const fn window(words: usize) -> usize {
    words / 2 * 2 * BITS
}

/// Slides the window of a full `stack` up by half: the upper half's bits
/// move down, and the new base is returned. (A copy of one half onto the
/// other, not `copy_within`: that is a `memmove`, 1.6 KB of flash more on
/// the Cortex-M3, where `memcpy` is there anyway.)
#[inline(never)]
#[cold]
fn slide(stack: &mut [Word], base: usize) -> usize {
    let half = stack.len() / 2;
    debug_assert!(half > 0, "a window of at least two words");
    let (low, high) = stack.split_at_mut(half);
    for (l, h) in low.iter_mut().zip(high.iter()) {
        *l = *h;
    }
    base + half * BITS
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;

    const TOKENS: [&[u8]; 34] = [
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"k\":",
        b"\"public\":",
        b"\"private\"",
        b"\"\\u0070ublic\"",
        b",",
        b" ",
        b":",
        b"1",
        b"-0.5e3",
        b"01",
        b"1e400",
        b"123456789012345678901234567890",
        b"\"\\u00e9\"",
        b"\"\\ud83d\\ude00\"",
        b"\"\\ud800\"",
        b"\"\\udc00x\"",
        b"\"\\ud800\\n\"",
        b"\"\xff\"",
        b"\"\xe2\x82\xac\"",
        b"\"\xe2\x82\"",
        b"\"\\q\"",
        b"\"\\u12G4\"",
        b"\"ab\x01\"",
        b"\"",
        b"true",
        b"tru",
        b"null",
        b"\"a\"",
        b"\x01",
        b"[[[[",
    ];

    /// The walk of `input` through the whole-buffer lane: the verdict,
    /// the end, and a scope walk's answer.
    fn whole(input: &[u8], w: &mut Walk) -> Result<usize, BodyError> {
        let mut s = Cursor::new(input);
        let mut stack = [0; WINDOW / BITS];
        let walked = s.walk::<false, ()>(w, &mut stack, false, &mut ())?;
        assert_eq!(walked, Walked::Done);
        Ok(s.pos)
    }

    /// The same walk fed as chunks ending at `cuts` (then the rest).
    fn chunked(input: &[u8], cuts: &[usize], w: &mut Walk) -> Result<usize, BodyError> {
        let mut stack = [0; WINDOW / BITS];
        let mut from = 0;
        for &to in cuts.iter().chain([input.len()].iter()) {
            let last = to == input.len();
            let mut s = Cursor::chunk(&input[from..to], 0, from, last);
            match s.walk_call(w, &mut stack)? {
                Walked::Done => return Ok(from + s.pos),
                Walked::More => assert!(!last && s.pos == to - from),
                Walked::Deeper => panic!("a resumable walk never grows"),
            }
            from = to;
        }
        panic!("the last chunk ends the walk");
    }

    fn walks(full: bool, scope: bool, first: Option<u8>) -> Walk {
        if scope {
            Walk::scope(1, first, false)
        } else {
            Walk::new(full, if full { 120 } else { 0 }, false)
        }
    }

    /// Fed in chunks cut anywhere (every single cut, and byte by byte), the
    /// resumable lane answers as the whole-buffer lane does: verdict, error
    /// kind and offset, the value's end, and the `cacheScope` rule's answer,
    /// on token soup of every kind (escapes, pairs, UTF-8 and numbers cut
    /// anywhere), in both strengths.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn chunks_cut_anywhere_answer_as_the_whole_buffer() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut buf = vec![];
        let mut oks = 0usize;
        for round in 0..12_000 {
            crate::json::xorshift(&mut seed);
            crate::json::soup(seed, 16, &TOKENS, &mut buf);
            let first = skip_ws(&buf);
            for (full, scope) in [(true, false), (false, false), (true, true)] {
                let mut a = walks(full, scope, first);
                let want = whole(&buf, &mut a);
                oks += usize::from(want.is_ok());
                let verdict = |w: &Walk| w.rule.verdict(0).ok();
                let cuts: Vec<Vec<usize>> = if round % 8 == 0 {
                    vec![(1..buf.len()).collect()]
                } else {
                    (0..=buf.len()).map(|c| vec![c]).collect()
                };
                for cut in &cuts {
                    let mut b = walks(full, scope, first);
                    let got = chunked(&buf, cut, &mut b);
                    let text = std::string::String::from_utf8_lossy(&buf);
                    assert_eq!(got, want, "{text:?} full={full} scope={scope} cuts {cut:?}");
                    if scope && want.is_ok() {
                        assert_eq!(verdict(&b), verdict(&a), "{text:?} cuts {cut:?}");
                    }
                }
            }
        }
        assert!(oks > 1000, "{oks} accepted");
    }

    fn skip_ws(b: &[u8]) -> Option<u8> {
        b.iter().copied().find(|&c| !crate::json::lex::is_ws(c))
    }

    /// A chunked syntax check refuses to go deeper than its stack, at the
    /// bracket that would; the whole-buffer lane goes on.
    #[test]
    fn chunked_walks_stop_below_their_stack() {
        let deep = [vec![b'['; WINDOW + 1], vec![b']'; WINDOW + 1]].concat();
        let mut w = Walk::new(false, 0, false);
        let e = chunked(&deep, &[3], &mut w).unwrap_err();
        assert_eq!((e.kind(), e.offset()), (K::StreamDepthExceeded, WINDOW));
        let mut w = Walk::new(false, 0, true);
        assert_eq!(whole(&deep, &mut w), Ok(deep.len()));
    }

    /// The microcontrollers' machine, with the strength a run-time flag,
    /// answers as the hosts' two compiled strengths do: verdict, error
    /// offset and end, on token soup of every kind.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn walk_whole_with_a_runtime_strength_agrees() {
        const TOKENS: [&[u8]; 22] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"k\":",
            b",",
            b"1",
            b"-0.5e3",
            b"01",
            b"1e400",
            b"\"\\u00e9\"",
            b"\"\\ud800\"",
            b"\"\xff\"",
            b"\"\\q\"",
            b"true",
            b"tru",
            b"null",
            b" ",
            b":",
            b"\"a\"",
            b"\x01",
            b"[[[[",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut buf = vec![];
        let mut oks = 0usize;
        for _ in 0..100_000 {
            crate::json::xorshift(&mut seed);
            crate::json::soup(seed, 24, &TOKENS, &mut buf);
            for open in [0, 126] {
                let mut a = Cursor::new(&buf);
                let mut b = Cursor::new(&buf);
                let (mut sa, mut sb) = ([0; 2], [0; 2]);
                let x = a.walk_whole::<true>(&mut sa, open, false);
                let y = resumable(&mut b, true, &mut sb, open);
                oks += usize::from(x.is_ok());
                // (Where a scanner stands after an error is no answer.)
                let (x, y) = (x.map(|d| (d, a.pos)), y.map(|d| (d, b.pos)));
                assert_eq!(x, y, "{buf:?} full, open {open}");
            }
            let mut a = Cursor::new(&buf);
            let mut b = Cursor::new(&buf);
            let (mut sa, mut sb) = ([0; 2], [0; 2]);
            let x = a.walk_whole::<false>(&mut sa, 0, false);
            let y = resumable(&mut b, false, &mut sb, 0);
            let (x, y) = (x.map(|d| (d, a.pos)), y.map(|d| (d, b.pos)));
            assert_eq!(x, y, "{buf:?} syntax");
        }
        assert!(oks > 1000, "{oks} accepted");
    }

    /// The walker's resumable lane (the streaming core's, with the
    /// strength a run-time flag) fed the whole buffer as its last chunk:
    /// whether the value ended.
    fn resumable(
        s: &mut Cursor<'_>,
        full: bool,
        stack: &mut [Word],
        open: usize,
    ) -> Result<bool, BodyError> {
        let mut w = Walk::new(full, open, true);
        s.walk_call(&mut w, stack).map(|d| d == Walked::Done)
    }

    /// A value's syntax check with `words` words of bit stack that never
    /// grows (the microcontrollers' way: the window slides and is
    /// recovered): verdict and end.
    fn sliding(input: &[u8], words: usize) -> Result<usize, BodyError> {
        let mut s = Cursor::new(input);
        let mut stack = vec![0; words];
        s.walk_whole::<false>(&mut stack, 0, false).map(|done| {
            assert!(done);
            s.pos
        })
    }

    /// The same with a stack deep enough never to slide: the plain one
    /// forward pass, which names the first defect in reading order.
    fn unbounded(input: &[u8]) -> Result<usize, BodyError> {
        sliding(input, input.len() / BITS + 2)
    }

    /// Deep nesting checked through a sliding window (the first pass's
    /// stack, as on 32-bit targets, and the hosts' grow-then-restart
    /// `value_syntax`) answers as one pass with room for every level:
    /// well-formed, and broken at, below and above the window's levels.
    #[test]
    fn sliding_windows_agree_with_an_unbounded_stack() {
        let nest = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        let mut inputs = vec![nest(1024), nest(1025), nest(1500), nest(3000), nest(5000)];
        // Under Miri fewer and shallower (each input is walked four ways,
        // with the window recovered on the way back: minutes there).
        let (deep, places): (usize, &[usize]) = if cfg!(miri) {
            inputs.truncate(2);
            (1500, &[1, 1025, 1400])
        } else {
            (5000, &[1, 100, 1023, 1024, 1025, 1100, 2500, 4000, 4999])
        };
        for &at in places {
            let mut bad = nest(deep);
            bad[2 * deep - at] = b'}';
            inputs.push(bad);
            let mut bad = nest(deep);
            bad[at] = b'}';
            inputs.push(bad);
            let mut bad = nest(deep);
            bad.insert(2 * deep - at, b',');
            inputs.push(bad);
            let mut bad = nest(deep);
            bad.remove(2 * deep - at);
            inputs.push(bad);
        }
        for input in &inputs {
            let want = unbounded(input);
            let mut host = Cursor::new(input);
            let got = host.value_syntax().map(|()| host.pos);
            assert_eq!(got, want, "value_syntax, {} bytes", input.len());
            assert_eq!(sliding(input, WINDOW / BITS), want, "first stack");
            let mut s = Cursor::new(input);
            let got = resumable(&mut s, false, &mut [0; WINDOW / BITS], 0);
            assert_eq!(got.map(|_| s.pos), want, "run-time strength");
        }
        // The case: a wrong closer below 1 100 opened arrays.
        let mut bad = vec![b'['; 1100];
        bad.push(b'}');
        let e = Cursor::new(&bad).value_syntax().unwrap_err();
        assert_eq!((e.kind(), e.offset()), (K::ExpectedValue, 1100));
    }

    /// Random deep values (objects, arrays, strings holding brackets and
    /// escaped quotes), well-formed or with one defect, checked with
    /// stacks of two, three (its last word unused) and six words: each
    /// answers as the unbounded stack.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn sliding_windows_agree_on_random_deep_values() {
        const LEAVES: [&[u8]; 8] = [
            b"1",
            b"-0.5e3",
            b"true",
            b"null",
            b"\"a]}\\\"[{\"",
            b"\"\\\\\"",
            b"[]",
            b"{}",
        ];
        const DEFECTS: [&[u8]; 10] = [
            b"}", b"]", b",", b"01", b"1.", b"\"k\"", b":", b"x", b"\"\\q\"", b"\x01",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || crate::json::xorshift(&mut seed);
        let (mut oks, mut deepest) = (0usize, 0usize);
        for _ in 0..100 {
            // A random walk down to a few hundred levels and back up.
            let mut text = vec![];
            let mut open: Vec<u8> = vec![];
            let peak = 50 + next() as usize % 450;
            let (mut first, mut rising) = (true, false);
            loop {
                let r = next();
                if !first {
                    text.push(b',');
                }
                if open.last() == Some(&b'}') {
                    text.extend_from_slice(b"\"k\":");
                }
                let down = text.is_empty() || if rising { r % 8 == 0 } else { r % 8 < 6 };
                if down && open.len() < peak {
                    let obj = r & 256 != 0;
                    text.push(if obj { b'{' } else { b'[' });
                    open.push(if obj { b'}' } else { b']' });
                    first = true;
                    deepest = deepest.max(open.len());
                    continue;
                }
                text.extend_from_slice(LEAVES[(r >> 20) as usize % LEAVES.len()]);
                first = false;
                rising |= open.len() >= peak;
                let closes = if rising {
                    1 + (r >> 40) % 3
                } else {
                    u64::from((r >> 40) % 4 == 0)
                };
                for _ in 0..closes {
                    text.extend(open.pop());
                }
                if open.is_empty() {
                    break;
                }
            }
            let mut inputs = vec![text.clone()];
            for _ in 0..4 {
                let mut bad = text.clone();
                let at = next() as usize % bad.len();
                let d = DEFECTS[next() as usize % DEFECTS.len()];
                match next() % 3 {
                    0 => drop(bad.splice(at..at, d.iter().copied())),
                    1 => drop(bad.splice(at..=at, d.iter().copied())),
                    _ => drop(bad.remove(at)),
                }
                inputs.push(bad);
            }
            inputs.push(text[..next() as usize % text.len()].to_vec());
            for input in &inputs {
                let want = unbounded(input);
                oks += usize::from(want.is_ok());
                for words in [2, 3, 6] {
                    assert_eq!(sliding(input, words), want, "{words} words");
                }
                let mut host = Cursor::new(input);
                assert_eq!(host.value_syntax().map(|()| host.pos), want);
            }
        }
        assert!(oks >= 100, "{oks} accepted");
        // Deep enough for several slides of the smallest window.
        assert!(deepest > 3 * 2 * BITS, "{deepest} levels at most");
    }

    #[test]
    fn ignored_values_have_no_depth_limit_but_typed_ones_do() {
        let nest = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        assert!(Cursor::new(&nest(5000)).value_syntax().is_ok());
        assert!(Cursor::new(&nest(MAX_DEPTH)).value_full(0).is_ok());
        let err = Cursor::new(&nest(MAX_DEPTH + 1)).value_full(0).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (K::RecursionLimitExceeded, MAX_DEPTH)
        );
        // A mismatched bracket deep below the first pass's window is still found.
        let mut bad = nest(3000);
        bad[3000 + 10] = b'}';
        assert_eq!(
            Cursor::new(&bad).value_syntax().unwrap_err().kind(),
            K::MismatchedBracket
        );
    }
}
