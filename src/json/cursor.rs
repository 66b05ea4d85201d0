//! The cursor over one JSON text ([`Cursor`]: the bytes, the position,
//! the offset of a chunk) and its lexeme calls: whitespace, strings and
//! keys (through the string lexeme, [`text`](super::text)), numbers
//! (through [`number`](super::number)), the colon, the errors at the
//! cursor, the end of the input. It depends on the lexemes only.
//!
//! The grammar's larger parts are methods of the same cursor, each in the
//! file of the part it serves (those files import this one, never the
//! other way):
//!
//! * [`walk`](super::walk): a value the schema does not interpret, in both
//!   strengths (`value_full`, `value_syntax`, `walk`, `walk_call`,
//!   `walk_whole`, `scope_value`) and the wrong-type refusal
//!   (`wrong_type`), with the bounded stack of bracket kinds and its
//!   window (its [`WINDOW`](super::walk::WINDOW) and
//!   [`DEEP_WINDOW`](super::walk::DEEP_WINDOW), and [`MAX_DEPTH`](super::walk::MAX_DEPTH));
//! * [`body`](super::body): the top struct's fields (`fields`);
//! * [`items`](super::items): the `contents` array (`contents_whole`,
//!   `contents_resume`);
//! * `view`: the typed fields a view reads (`field_take`, `string_field`,
//!   `raw_field`; `ttl_field`, `cache_scope_field`, `contents_field` for a
//!   result, `i32_field` for an error).

use crate::error::{BodyError, BodyErrorKind as K};

use super::borrowed::JsonStr;
use super::lex;
use super::number::{Num, Number};
use super::shape::Key;
use super::text::{self, Stop};

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
pub(crate) struct Cursor<'a> {
    pub(crate) buf: &'a [u8],
    pub(crate) pos: usize,
    /// Absolute offset of `buf[0]` (0 but for a chunk of the streaming
    /// core), added to every error's offset.
    pub(crate) base: usize,
    /// The input ends after `buf` (always, but for a chunk of the
    /// streaming core that is not the last).
    pub(crate) last: bool,
}

impl<'a> Cursor<'a> {
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
            Some(&c) if lex::is_ws(c) => self.ws_run(),
            other => other.copied(),
        }
    }

    #[inline(never)]
    fn ws_run(&mut self) -> Option<u8> {
        loop {
            match self.buf.get(self.pos) {
                Some(&c) if lex::is_ws(c) => self.pos += 1,
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

    // ----- numbers ----------------------------------------------------

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
    pub(super) fn number_of(&mut self, full: bool) -> Result<Num, BodyError> {
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

    use super::*;

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
                        let mut a = Cursor::new(input);
                        let mut b = Cursor::new(input);
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

    /// The microcontrollers' whitespace skip (the loop alone) answers as
    /// the hosts' inline check does, and stops at the same place.
    #[test]
    fn ws_loop_agrees_with_the_inline_check() {
        for text in [&b""[..], b"x", b" ", b" \t\r\nx", b"\n", b"  {", b"\x0b1"] {
            for start in 0..=text.len() {
                let (mut a, mut b) = (Cursor::new(text), Cursor::new(text));
                a.pos = start;
                b.pos = start;
                assert_eq!((a.ws(), a.pos), (b.ws_run(), b.pos), "{text:?} at {start}");
            }
        }
    }

    #[test]
    fn strings_check_escapes_surrogates_and_utf8_when_full() {
        let check = |text: &[u8], full: bool| {
            Cursor::new(text)
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

    /// The resumable string lexeme, fed a string in two chunks cut at every
    /// position (and byte by byte), answers as the whole-buffer scanner's
    /// string check does: verdict, error kind and offset, where the string
    /// ends; and what it hands a reader and gathers for the name tables is
    /// the string unescaped.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn cut_strings_answer_as_the_whole_string() {
        use crate::json::text::*;
        use std::string::String;
        use std::vec;
        use std::vec::Vec;
        const PIECES: [&[u8]; 16] = [
            b"\\",
            b"\\n",
            b"\\/",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\ud83d",
            b"\\ude00",
            b"\\ud83d\\n",
            b"\\q",
            b"\\u12G4",
            b"\xC3\xA9",
            b"\xE2\x82\xAC",
            b"\xF0\x9F\x98\x80",
            b"\xE2\x82",
            b"\xFF",
            b"\x01",
        ];
        let mut seed = 0x0123_4567_89AB_CDEFu64;
        let mut buf = vec![];
        for round in 0..20_000 {
            crate::json::xorshift(&mut seed);
            buf.clear();
            buf.push(b'"');
            let mut r = seed;
            for _ in 0..seed % 10 {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (r >> 58) as usize;
                if k < PIECES.len() {
                    buf.extend_from_slice(PIECES[k]);
                } else {
                    buf.extend_from_slice(&b"key-text abcdefgh"[..k % 17]);
                }
            }
            if round % 5 != 0 {
                buf.push(b'"');
            }
            buf.extend_from_slice(b",1");
            for full in [true, false] {
                let mut s = Cursor::new(&buf);
                let want = s.string(full).map(|text| {
                    let mut unescaped = Vec::new();
                    let mut pieces = text.pieces();
                    while let Some(p) = pieces.next() {
                        unescaped.extend_from_slice(p);
                    }
                    (s.pos, unescaped)
                });
                let cuts: Vec<Vec<usize>> = if round % 16 == 0 {
                    vec![(2..buf.len()).collect()]
                } else {
                    (1..=buf.len()).map(|c| vec![c]).collect()
                };
                for cut in &cuts {
                    let mut c = Cut::new(full, full);
                    let mut got_text = String::new();
                    let mut from = 1;
                    let mut got = None;
                    for &to in cut.iter().chain([buf.len()].iter()) {
                        let last = to == buf.len();
                        let mut emit = |p: &str| got_text.push_str(p);
                        let emit: Option<&mut dyn FnMut(&str)> =
                            if full { Some(&mut emit) } else { None };
                        match c.more(&buf[from..to], 0, from, last, emit) {
                            Ok(Some(j)) => {
                                got = Some(Ok(from + j));
                                break;
                            }
                            Ok(None) => assert!(!last),
                            Err(e) => {
                                got = Some(Err(e));
                                break;
                            }
                        }
                        from = to;
                    }
                    let got = got.unwrap();
                    let text = String::from_utf8_lossy(&buf);
                    assert_eq!(
                        got,
                        want.clone().map(|w| w.0),
                        "{text:?} full={full} cuts {cut:?}"
                    );
                    if full && let Ok((_, unescaped)) = &want {
                        assert_eq!(got_text.as_bytes(), &unescaped[..], "{text:?} cuts {cut:?}");
                        let key = Key::of(crate::json::borrowed::JsonStr::new(
                            &buf[1..buf.len() - 3],
                            true,
                        ));
                        assert_eq!(c.name(), key, "{text:?} cuts {cut:?}");
                    }
                }
            }
        }
    }
}
