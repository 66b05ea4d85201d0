//! The validating scanner: one forward pass, no heap, no recursion.
//!
//! It checks JSON the way `serde_json::from_slice` checks it on the way into
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

use super::number::{Num, Number};
use super::shape::Key;
use super::str::JsonStr;
use super::text::{self, Stop};

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

/// The UTF-8 check of a string's raw text, which starts at offset `start`:
/// the error the whole-buffer decoder reports for it.
#[inline]
pub(crate) fn utf8_error(text: &[u8], start: usize) -> Result<(), BodyError> {
    match super::find::from_utf8(text) {
        Ok(_) => Ok(()),
        Err(e) => Err(BodyError::new(K::InvalidUtf8, start + e.valid_up_to())),
    }
}

/// A cursor over one JSON text.
pub(crate) struct Scanner<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
    /// Absolute offset of `buf[0]` (0 but for a chunk of the streaming
    /// core), added to every error's offset.
    pub(crate) base: usize,
    /// The input ends after `buf` (always, but for a chunk of the
    /// streaming core that is not the last).
    pub(crate) last: bool,
}

impl<'a> Scanner<'a> {
    pub(crate) const fn new(buf: &'a [u8]) -> Self {
        Self {
            buf,
            pos: 0,
            base: 0,
            last: true,
        }
    }

    /// A scanner over a chunk of the streaming core: `chunk[0]` is at
    /// absolute offset `base`, and `last` says whether the input ends
    /// after it.
    pub(crate) const fn chunk(chunk: &'a [u8], pos: usize, base: usize, last: bool) -> Self {
        Self {
            buf: chunk,
            pos,
            base,
            last,
        }
    }

    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.buf.get(self.pos).copied()
    }

    #[inline]
    pub(crate) const fn err(&self, kind: K) -> BodyError {
        BodyError::new(kind, self.base + self.pos)
    }

    /// Skips whitespace and returns the next byte, not consumed. On hosts
    /// the check for "no whitespace here" is inlined at every call and the
    /// loop is not; on microcontrollers ([`HOST`](super::find::HOST) false)
    /// every call is a call of the loop, which answers alike: the inline
    /// check, at some 90 places, cost 2.5 KB of flash.
    #[inline]
    pub(crate) fn ws(&mut self) -> Option<u8> {
        if !super::find::HOST {
            return self.ws_run();
        }
        match self.buf.get(self.pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r') => self.ws_run(),
            other => other.copied(),
        }
    }

    #[inline(never)]
    fn ws_run(&mut self) -> Option<u8> {
        loop {
            match self.buf.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                other => return other.copied(),
            }
        }
    }

    /// The error for a missing or wrong byte where `kind` was expected.
    #[inline]
    pub(crate) fn expected(&self, kind: K) -> BodyError {
        if self.pos >= self.buf.len() {
            self.err(K::Eof)
        } else {
            self.err(kind)
        }
    }

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

    /// After the top-level value: only whitespace may follow.
    pub(crate) fn end(&mut self) -> Result<(), BodyError> {
        match self.ws() {
            None => Ok(()),
            Some(_) => Err(self.err(K::TrailingCharacters)),
        }
    }

    // ----- strings -------------------------------------------------------

    /// `pos` is at an opening quote. Checks the string (fully: UTF-8 and
    /// surrogates too, when `full`) and returns its text.
    ///
    /// The text is read by the string lexeme ([`text::run`]: the hosts'
    /// word loop and `memchr` jump, the microcontrollers' byte loop); this
    /// names what stopped it: the end of the input is `Eof`, an escape it
    /// refused is named by [`lex::escape_end`](super::lex::escape_end).
    #[inline]
    pub(crate) fn string(&mut self, full: bool) -> Result<JsonStr<'a>, BodyError> {
        self.string_utf8::<true>(full)
    }

    /// [`string`](Self::string) with `full`, except that it leaves the
    /// UTF-8 check of the text to the caller, who must make it, on the
    /// unescaped text or on the raw one (they are valid or invalid together:
    /// runs are copied as they are, and each validated escape becomes whole
    /// characters, which neither complete nor continue a broken sequence),
    /// and report a failure as [`utf8_error`]'s error: the `alloc` builder
    /// checks each string it keeps once, on the text it keeps.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn string_unchecked_utf8(&mut self) -> Result<JsonStr<'a>, BodyError> {
        self.string_utf8::<false>(true)
    }

    /// The string check, with the UTF-8 check of the text when `UTF8`.
    #[inline(never)]
    fn string_utf8<const UTF8: bool>(&mut self, full: bool) -> Result<JsonStr<'a>, BodyError> {
        let buf = self.buf;
        let start = self.pos + 1;
        let run = text::run(buf, start, full, true, 0);
        let end = match run.stop {
            Stop::Quote(p) => p,
            // Refused by the lexeme: not valid, or cut by the end.
            Stop::Escape(p) => return Err(super::lex::escape_fault(buf, p, full)),
            Stop::Control(p) => return Err(BodyError::new(K::ControlCharacterInString, p)),
            Stop::End => return Err(BodyError::new(K::Eof, buf.len())),
        };
        let text = buf.get(start..end).unwrap_or_default();
        if UTF8
            && full
            && run.high
            && let Err(e) = utf8_error(text, start)
        {
            return Err(e);
        }
        self.pos = end + 1;
        Ok(JsonStr::new(text, run.escaped))
    }

    /// `pos` is at the opening quote of an object key: [`string`](Self::string)
    /// with the common case, a key of at most fifteen plain ASCII bytes,
    /// decided inline from one 16-byte block ([`find::marks`](super::find::marks)).
    /// Always inlined: as a call, the block costs more than it saves. On microcontrollers,
    /// where the inline copies cost 1.7 KB of flash, it is
    /// [`string`](Self::string) alone.
    #[inline(always)]
    pub(crate) fn key_text(&mut self, full: bool) -> Result<JsonStr<'a>, BodyError> {
        self.key_read::<false>(full).map(|(text, _)| text)
    }

    /// [`key_text`](Self::key_text) fully, with the key as the name tables
    /// see it ([`Key`]): from the words already loaded in the common case.
    #[inline(always)]
    pub(crate) fn key_name(&mut self) -> Result<(JsonStr<'a>, Key), BodyError> {
        self.key_read::<true>(true)
    }

    #[inline(always)]
    fn key_read<const NAME: bool>(&mut self, full: bool) -> Result<(JsonStr<'a>, Key), BodyError> {
        let start = self.pos + 1;
        // A key of at most fifteen plain ASCII bytes, from one block: its
        // first mark is its closing quote, with no byte >= 0x80 before it.
        if super::find::HOST
            && let Some(block) = self
                .buf
                .get(start..start + 16)
                .and_then(<[u8]>::first_chunk::<16>)
        {
            let (marks, high) = super::find::marks(*block);
            let n = marks.trailing_zeros() as usize;
            if block.get(n) == Some(&b'"') && high & !(u32::MAX << n) == 0 {
                let end = start + n;
                self.pos = end + 1;
                let text = JsonStr::new(self.buf.get(start..end).unwrap_or_default(), false);
                return Ok((text, Key::block(*block, n)));
            }
        }
        let text = self.string(full)?;
        // Microcontrollers match the text itself (`Member::find`).
        let key = if NAME && super::find::HOST {
            Key::at(self.buf, start, text)
        } else {
            Key::EMPTY
        };
        Ok((text, key))
    }

    // ----- literals and numbers ----------------------------------------

    pub(super) fn literal(&mut self, word: &[u8]) -> Result<(), BodyError> {
        for (i, &expected) in word.iter().enumerate() {
            match self.buf.get(self.pos + i) {
                None => return Err(BodyError::new(K::Eof, self.buf.len())),
                Some(&c) if c == expected => {}
                Some(_) => return Err(BodyError::new(K::InvalidLiteral, self.pos + i)),
            }
        }
        self.pos += word.len();
        Ok(())
    }

    /// A number, fully: serde_json's class for it, or its error (the
    /// [`Number`] lexeme over the rest of the buffer as the last bytes).
    #[inline]
    pub(crate) fn number(&mut self) -> Result<Num, BodyError> {
        if super::find::HOST {
            self.number_of(true)
        } else {
            self.number_call(true)
        }
    }

    /// A number in a value the walker checks: fully (`full`, serde_json's
    /// `Value`) or its grammar only (serde_json's `ignore_integer`, in
    /// ignored values). Hosts compile each strength apart; microcontrollers
    /// make one call with the strength as an argument.
    #[inline]
    pub(super) fn number_value(&mut self, full: bool) -> Result<(), BodyError> {
        if super::find::HOST {
            if full {
                self.number_of(true).map(drop)
            } else {
                self.number_of(false).map(drop)
            }
        } else {
            self.number_call(full).map(drop)
        }
    }

    /// The number lexeme's whole-buffer lane ([`Number::whole`]) as one
    /// function: microcontrollers link one copy for every caller (inlined,
    /// it cost 350 B of flash).
    #[inline(never)]
    fn number_call(&mut self, full: bool) -> Result<Num, BodyError> {
        let (end, n) = Number::whole(self.buf, self.pos, full)?;
        self.pos = end;
        Ok(n)
    }

    #[inline(always)]
    fn number_of(&mut self, full: bool) -> Result<Num, BodyError> {
        let mut n = Number::new(self.pos, full);
        self.pos = n
            .lex(self.buf, self.pos, 0, true)?
            .unwrap_or(self.buf.len());
        n.finish()
    }

    /// Expects `:` (after whitespace) and consumes it.
    pub(crate) fn colon(&mut self) -> Result<(), BodyError> {
        match self.ws() {
            Some(b':') => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.expected(K::ExpectedColon)),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;
    use crate::json::nest::{BITS, Word};
    use crate::json::walk::{Walk, Walked};

    #[test]
    fn key_text_agrees_with_string_on_every_short_key() {
        // The inline path for short keys (one 16-byte block) against
        // the full string loop: a key of every length around both words,
        // with each kind of special or high byte at every position, in
        // inputs that end early too.
        let specials: [&[u8]; 8] = [
            b"a",
            b"\\n",
            b"\\u00e9",
            "\u{e9}".as_bytes(),
            b"\x01",
            b"\\",
            b"\xff",
            b"\"",
        ];
        for len in 0..20 {
            for at in 0..=len {
                for piece in specials {
                    let mut text = std::vec![b'"'];
                    text.extend(std::iter::repeat_n(b'k', at));
                    text.extend_from_slice(piece);
                    text.extend(std::iter::repeat_n(b'k', len - at));
                    text.extend_from_slice(b"\":1}");
                    let cuts = [
                        text.len(),
                        text.len().min(18),
                        text.len().min(17),
                        text.len().min(9),
                        text.len().min(4),
                    ];
                    for cut in cuts {
                        let input = &text[..cut];
                        let mut a = Scanner::new(input);
                        let mut b = Scanner::new(input);
                        for full in [true, false] {
                            a.pos = 0;
                            b.pos = 0;
                            let fast = a.key_text(full);
                            let slow = b.string(full);
                            assert_eq!(
                                fast,
                                slow,
                                "{:?} full={full}",
                                std::string::String::from_utf8_lossy(input)
                            );
                            assert_eq!(a.pos, b.pos);
                        }
                    }
                }
            }
        }
    }

    /// The microcontrollers' machine, with the strength a run-time flag,
    /// answers as the hosts' two compiled strengths do: verdict, error
    /// offset and end, on token soup of every kind.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn machine_with_a_runtime_strength_agrees() {
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
                let mut a = Scanner::new(&buf);
                let mut b = Scanner::new(&buf);
                let (mut sa, mut sb) = ([0; 2], [0; 2]);
                let x = a.machine::<true>(&mut sa, open, false);
                let y = resumable(&mut b, true, &mut sb, open);
                oks += usize::from(x.is_ok());
                // (Where a scanner stands after an error is no answer.)
                let (x, y) = (x.map(|d| (d, a.pos)), y.map(|d| (d, b.pos)));
                assert_eq!(x, y, "{buf:?} full, open {open}");
            }
            let mut a = Scanner::new(&buf);
            let mut b = Scanner::new(&buf);
            let (mut sa, mut sb) = ([0; 2], [0; 2]);
            let x = a.machine::<false>(&mut sa, 0, false);
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
        s: &mut Scanner<'_>,
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
        let mut s = Scanner::new(input);
        let mut stack = vec![0; words];
        s.machine::<false>(&mut stack, 0, false).map(|done| {
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
            let mut host = Scanner::new(input);
            let got = host.value_syntax().map(|()| host.pos);
            assert_eq!(got, want, "value_syntax, {} bytes", input.len());
            assert_eq!(sliding(input, WINDOW / BITS), want, "first stack");
            let mut s = Scanner::new(input);
            let got = resumable(&mut s, false, &mut [0; WINDOW / BITS], 0);
            assert_eq!(got.map(|_| s.pos), want, "run-time strength");
        }
        // The issue's case: a wrong closer below 1 100 opened arrays.
        let mut bad = vec![b'['; 1100];
        bad.push(b'}');
        let e = Scanner::new(&bad).value_syntax().unwrap_err();
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
                let mut host = Scanner::new(input);
                assert_eq!(host.value_syntax().map(|()| host.pos), want);
            }
        }
        assert!(oks >= 100, "{oks} accepted");
        // Deep enough for several slides of the smallest window.
        assert!(deepest > 3 * 2 * BITS, "{deepest} levels at most");
    }

    /// The microcontrollers' whitespace skip (the loop alone) answers as
    /// the hosts' inline check does, and stops at the same place.
    #[test]
    fn ws_loop_agrees_with_the_inline_check() {
        for text in [&b""[..], b"x", b" ", b" \t\r\nx", b"\n", b"  {", b"\x0b1"] {
            for start in 0..=text.len() {
                let (mut a, mut b) = (Scanner::new(text), Scanner::new(text));
                a.pos = start;
                b.pos = start;
                assert_eq!((a.ws(), a.pos), (b.ws_run(), b.pos), "{text:?} at {start}");
            }
        }
    }

    #[test]
    fn strings_check_escapes_surrogates_and_utf8_when_full() {
        let check = |text: &[u8], full: bool| {
            Scanner::new(text)
                .string(full)
                .map(|s| s.raw().len())
                .map_err(|e| e.kind())
        };
        assert_eq!(check(br#""\uD83D\uDE00""#, true), Ok(12));
        assert_eq!(check(br#""\ud800""#, true), Err(K::LoneSurrogate));
        assert_eq!(check(br#""\ud800""#, false), Ok(6));
        assert_eq!(check(br#""\udc00""#, true), Err(K::LoneSurrogate));
        assert_eq!(check(b"\"\xff\"", true), Err(K::InvalidUtf8));
        assert_eq!(check(b"\"\xff\"", false), Ok(1));
        assert_eq!(check(b"\"a\tb\"", false), Err(K::ControlCharacterInString));
        assert_eq!(check(br#""\q""#, false), Err(K::InvalidEscape));
        assert_eq!(check(br#""\u12G4""#, false), Err(K::InvalidEscape));
        assert_eq!(check(br#""abc"#, false), Err(K::Eof));
        // Long strings take the block path; the result is the same.
        let long = [
            b"\"".as_slice(),
            &[b'a'; 100],
            "é".as_bytes(),
            &[b'b'; 50],
            b"\"",
        ]
        .concat();
        assert_eq!(check(&long, true), Ok(152));
    }

    #[test]
    fn ignored_values_have_no_depth_limit_but_typed_ones_do() {
        let nest = |n: usize| [vec![b'['; n], vec![b']'; n]].concat();
        assert!(Scanner::new(&nest(5000)).value_syntax().is_ok());
        assert!(Scanner::new(&nest(MAX_DEPTH)).value_full(0).is_ok());
        let err = Scanner::new(&nest(MAX_DEPTH + 1))
            .value_full(0)
            .unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (K::RecursionLimitExceeded, MAX_DEPTH)
        );
        // A mismatched bracket deep below the first pass's window is still found.
        let mut bad = nest(3000);
        bad[3000 + 10] = b'}';
        assert_eq!(
            Scanner::new(&bad).value_syntax().unwrap_err().kind(),
            K::MismatchedBracket
        );
    }
}
