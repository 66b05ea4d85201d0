//! The string-text lexeme: the one loop over a JSON string's text, which
//! every engine that checks strings runs (the whole-buffer scanner behind
//! `Frame::decode`, and the resumable machine behind `stream`).
//!
//! [`run`] reads text from a given index up to the first byte it cannot
//! take: the closing quote, an escape it does not take (not valid, cut by
//! the end of the input, or every escape when asked not to take any), a
//! control byte, or the end of the input. It says which ([`Stop`]), whether
//! the text before the stop holds a byte >= 0x80 (then the caller checks it
//! as UTF-8), and whether it took an escape. It names no error: the caller
//! knows what the stop means where it stands (the scanner: the end of the
//! input is [`Eof`](crate::BodyErrorKind::Eof) and a refused escape is
//! named by the escape lexeme, `lex::escape_end`; the machine: the end of a chunk, and the
//! byte-wise states take the escape).
//!
//! Two lanes inside the one function, chosen at compile time and pinned to
//! each other by a test on every input:
//!
//! - hosts ([`HOST`](super::find::HOST)): 16 bytes at a time. One vector
//!   compare per class marks every `"`, `\` and control byte of the block
//!   ([`find::marks`](super::find::marks), through the `wide` crate: SSE2,
//!   NEON or wasm simd128, no `unsafe` here), and the loop visits the marks
//!   only (an escape clears the marks it covers; a one-character escape
//!   whose letter is in the block is decided from the block), so dense
//!   escapes cost no reloads; after [`JUMP_AFTER`] plain blocks in a row, a
//!   `memchr` jump to the next `"` or `\` and one vector pass over the bytes
//!   passed for controls and non-ASCII. The last bytes, which fill no
//!   block, are the input's last 16 read as a block, the marks shifted to
//!   them and the end marked ([`tail_marks`]);
//! - microcontrollers: a byte at a time, one copy of the function for every
//!   caller (the word code costs flash there and buys little on the short
//!   text a firmware handles).
//!
//! [`Cut`] is the same lexeme where a chunk's end may cut the string: it
//! runs [`run`] over each chunk, holds what a cut leaves unfinished (an
//! escape, a character) and finishes it from the next chunk, and hands
//! the text out unescaped (to a reader, or to the name tables) as it goes.

use super::lex;
use super::shape::Key;
use crate::error::{BodyError, BodyErrorKind as K};

/// Plain blocks (16 bytes) in a row after which the hosts' lane jumps with
/// `memchr`.
pub(crate) const JUMP_AFTER: u32 = 8;

/// Where a run of string text stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Stop {
    /// The closing quote, at this index.
    Quote(usize),
    /// A backslash, at this index, whose escape the run did not take: it is
    /// not valid, or the end of the input cuts it, or the run was asked to
    /// take no escape.
    Escape(usize),
    /// A control byte (< 0x20), at this index.
    Control(usize),
    /// The end of the input, inside the text.
    End,
}

/// What [`run`] read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Run {
    /// Where it stopped.
    pub(crate) stop: Stop,
    /// Whether the text before the stop holds a byte >= 0x80 (then it must
    /// be checked as UTF-8). Not meaningful after a [`Stop::Control`].
    pub(crate) high: bool,
    /// Whether it took an escape.
    pub(crate) escaped: bool,
}

impl Run {
    /// The index of the stop; the input's length at its end.
    #[inline]
    pub(crate) const fn at(&self, len: usize) -> usize {
        match self.stop {
            Stop::Quote(p) | Stop::Escape(p) | Stop::Control(p) => p,
            Stop::End => len,
        }
    }
}

/// The string text of `bytes` from index `at` (inside a string, not on an
/// escape's later bytes) up to the first byte the text does not take (see
/// [`Stop`]). With `escapes`, a valid escape that lies whole in `bytes` is
/// taken (with `full`, a `\uXXXX` surrogate must pair, as
/// [`lex::escape_ok`] checks); without, every backslash stops the run.
/// `plain` counts the plain words the caller has seen already (the hosts'
/// lane jumps after [`JUMP_AFTER`]; 0 for a fresh string).
#[inline(always)]
pub(crate) fn run(bytes: &[u8], at: usize, full: bool, escapes: bool, plain: u32) -> Run {
    if super::find::HOST {
        run_in::<true>(bytes, at, full, escapes, plain)
    } else {
        run_call(bytes, at, full, escapes)
    }
}

/// [`run`] on microcontrollers: one copy, the byte lane.
#[inline(never)]
fn run_call(bytes: &[u8], at: usize, full: bool, escapes: bool) -> Run {
    run_in::<false>(bytes, at, full, escapes, 0)
}

/// The lexeme; `BLOCKS` selects the hosts' lane (16-byte blocks).
#[inline(always)]
fn run_in<const BLOCKS: bool>(
    bytes: &[u8],
    at: usize,
    full: bool,
    escapes: bool,
    plain: u32,
) -> Run {
    if BLOCKS {
        run_blocks(bytes, at, full, escapes, plain)
    } else {
        run_bytes(bytes, at, full, escapes)
    }
}

/// The microcontrollers' lane: a byte at a time.
#[inline(always)]
fn run_bytes(bytes: &[u8], mut at: usize, full: bool, escapes: bool) -> Run {
    // OR of the text's bytes: bit 7 set means non-ASCII.
    let mut or = 0u8;
    let mut escaped = false;
    let stop = loop {
        match bytes.get(at) {
            None => break Stop::End,
            Some(b'"') => break Stop::Quote(at),
            Some(b'\\') => match escapes.then(|| lex::escape_ok(bytes, at, full)).flatten() {
                Some(next) => {
                    escaped = true;
                    at = next;
                }
                None => break Stop::Escape(at),
            },
            Some(&c) if c < 0x20 => break Stop::Control(at),
            Some(&c) => {
                or |= c;
                at += 1;
            }
        }
    };
    Run {
        stop,
        high: or >= 0x80,
        escaped,
    }
}

/// The hosts' lane: 16 bytes at a time. One mask marks every `"`, `\` and
/// control byte of the block ([`find::marks`](super::find::marks)), and the
/// loop visits the marks only: a one-character escape whose letter is in
/// the block clears its two marks without a load, any other escape the
/// marks it covers, so dense escapes cost no reloads. After [`JUMP_AFTER`]
/// plain blocks in a row, a `memchr` jump to the next `"` or `\` and one
/// vector pass over the bytes passed for controls and non-ASCII. The last
/// bytes, which fill no block, are marked by [`tail_marks`], the end with
/// them: a mark at or past the end is the end.
#[inline(always)]
fn run_blocks(bytes: &[u8], mut at: usize, full: bool, escapes: bool, mut plain: u32) -> Run {
    let mut high = false;
    let mut escaped = false;
    let stop = 'text: loop {
        let (mut marks, hi) = match bytes.get(at..at + 16).and_then(<[u8]>::first_chunk::<16>) {
            Some(block) => super::find::marks(*block),
            None => tail_marks(bytes, at),
        };
        if marks == 0 {
            high |= hi != 0;
            at += 16;
            plain += 1;
            if plain == JUMP_AFTER {
                plain = 0;
                match jump(bytes, at) {
                    Ok((next, h)) => {
                        at = next;
                        high |= h;
                    }
                    Err(bad) => break 'text Stop::Control(bad),
                }
            }
            continue;
        }
        plain = 0;
        loop {
            // Below 16: `marks` has a bit per byte of the block.
            let n = marks.trailing_zeros() as usize;
            let p = at + n;
            // Read from the input, not from the block (whose copy would
            // then go through the stack and lengthen every block's path):
            // at the end, which the last bytes' marks mark, the input has
            // no byte, and 0 stands for one.
            let mark = bytes.get(p).copied().unwrap_or_default();
            // A one-character escape whose letter is in the block (the
            // common escape): both its marks go (the letter may be `"` or
            // `\\`), and the next mark is visited.
            if escapes
                && mark == b'\\'
                && n < 15
                && let Some(&e) = bytes.get(p + 1)
                && lex::is_letter(e)
            {
                escaped = true;
                marks &= u32::MAX << (n + 2);
                if marks == 0 {
                    high |= hi != 0;
                    at += 16;
                    break;
                }
                continue;
            }
            // Only the bytes before the mark are text.
            let before = hi & !(u32::MAX << n) != 0;
            match mark {
                b'"' => {
                    high |= before;
                    break 'text Stop::Quote(p);
                }
                b'\\' => {
                    let next = if escapes {
                        lex::escape_ok(bytes, p, full)
                    } else {
                        None
                    };
                    let Some(next) = next else {
                        high |= before;
                        break 'text Stop::Escape(p);
                    };
                    escaped = true;
                    let covered = next - at;
                    if covered >= 16 {
                        high |= hi != 0;
                        at = next;
                        break;
                    }
                    marks &= u32::MAX << covered;
                    if marks == 0 {
                        high |= hi != 0;
                        at += 16;
                        break;
                    }
                }
                // A control byte, or the padding past the end.
                _ if p < bytes.len() => break 'text Stop::Control(p),
                _ => {
                    high |= before;
                    break 'text Stop::End;
                }
            }
        }
    };
    Run {
        stop,
        high,
        escaped,
    }
}

/// [`find::marks`](super::find::marks) of the last bytes of `bytes`, from
/// `at` (fewer than 16 of them), with a mark at the end. Where the input
/// is 16 bytes long or more, its last 16 are read as a block and the marks
/// shifted to `at` (no copy: a copy into a padded block costs a `memcpy`
/// call per string near the end); where it is shorter, they are
/// copied into a block padded with controls (marks from the end on). A
/// call, not inlined: inlined, it lengthened the block loop of [`run`]
/// (`Frame::decode` on medium +2.4 % instructions; as a call, -1.1 %).
#[inline(never)]
fn tail_marks(bytes: &[u8], at: usize) -> (u32, u32) {
    if let Some(base) = bytes.len().checked_sub(16)
        && at > base
        && at <= bytes.len()
        && let Some(block) = bytes.get(base..).and_then(<[u8]>::first_chunk::<16>)
    {
        // 1 <= k <= 16 (from `at`, the last bytes do not fill a block; at
        // the end, none are left).
        let k = at - base;
        let (marks, hi) = super::find::marks(*block);
        return ((marks >> k) | (1 << (16 - k)), hi >> k);
    }
    let tail = bytes.get(at..).unwrap_or_default();
    let mut block = [0u8; 16];
    if let Some(head) = block.get_mut(..tail.len()) {
        head.copy_from_slice(tail);
    }
    super::find::marks(block)
}

/// A long plain run from `at`: jumps to the next `"` or `\` (or the end)
/// with `memchr`, then checks the bytes passed for controls and non-ASCII
/// in one pass. Returns that index and whether non-ASCII was seen; `Err`
/// with the index of the first control byte. (Inlined where the compiler
/// likes: as a forced call it cost the reader 5 % on long plain text.)
#[inline]
fn jump(bytes: &[u8], at: usize) -> Result<(usize, bool), usize> {
    let tail = bytes.get(at..).unwrap_or_default();
    let run = super::find::memchr2(b'"', b'\\', tail).unwrap_or(tail.len());
    let text = tail.get(..run).unwrap_or_default();
    let (controls, high) = controls_and_high(text);
    if controls {
        return Err(at + text.iter().position(|&c| c < 0x20).unwrap_or(run));
    }
    Ok((at + run, high))
}

/// Whether `run` holds a control byte, and whether it holds a byte >= 0x80:
/// 32 bytes per step in lane-wise accumulators (which the compiler turns
/// into vector minimum and OR where it has vectors), then a byte at a time.
#[inline]
fn controls_and_high(run: &[u8]) -> (bool, bool) {
    let mut low = [0xFFu8; 32];
    let mut high = [0u8; 32];
    let mut blocks = run.chunks_exact(32);
    for block in &mut blocks {
        for ((l, h), &c) in low.iter_mut().zip(high.iter_mut()).zip(block) {
            *l = (*l).min(c);
            *h |= c;
        }
    }
    let mut controls = low.iter().any(|&l| l < 0x20);
    let mut any_high = high.iter().fold(0, |a, &h| a | h) >= 0x80;
    for &c in blocks.remainder() {
        controls |= c < 0x20;
        any_high |= c >= 0x80;
    }
    (controls, any_high)
}

/// The index of the next `"`, `\\` or control byte of `bytes` from `at`,
/// found as [`run`]'s lane finds it (on hosts 16-byte blocks, a `memchr`
/// jump after [`JUMP_AFTER`] plain ones); `None` at the end of the input,
/// and where the jump meets a control byte (the validating lexeme names
/// it). The `alloc` builder's one pass steps from escape to escape with it.
/// The last bytes, which fill no block, are marked by [`tail_marks`].
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn next_mark(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut plain = 0u32;
    loop {
        match bytes.get(at..at + 16).and_then(<[u8]>::first_chunk::<16>) {
            Some(&block) if super::find::HOST => {
                let (marks, _) = super::find::marks(block);
                if marks != 0 {
                    return Some(at + marks.trailing_zeros() as usize);
                }
                at += 16;
                plain += 1;
                if plain == JUMP_AFTER {
                    plain = 0;
                    at = jump(bytes, at).ok()?.0;
                }
            }
            // The last bytes, which fill no block (a mark at the end
            // stands for the end).
            None if super::find::HOST => {
                let (marks, _) = tail_marks(bytes, at);
                let p = at + marks.trailing_zeros() as usize;
                return (p < bytes.len()).then_some(p);
            }
            // Microcontrollers: a byte at a time.
            _ => {
                let tail = bytes.get(at..)?;
                let n = tail
                    .iter()
                    .position(|&c| matches!(c, b'"' | b'\\') || c < 0x20)?;
                return Some(at + n);
            }
        }
    }
}

/// The string lexeme that unescapes as it validates, a block at a time:
/// the `alloc` builder's one pass over a long kept string
/// (`rmcp::one_pass`), which has pushed the text before index `at` (a mark
/// of the text: an escape, or the closing quote) as the first `w` bytes of
/// `out`. From `at` it takes the rest of the text as [`run`] does with
/// `full` (every escape checked and decoded as [`lex::escape_char`] does,
/// surrogates paired, a control byte refused) and writes it unescaped after
/// them: `out` is grown to `w` and the rest of `bytes` (zeroed: the lane
/// writes into a slice; unescaping never lengthens text). Returns the index
/// of the closing quote and the length of the whole unescaped text; `None`
/// for every other stop, for the validating lexeme to name. UTF-8 is not
/// checked: the caller's body is known to be text.
///
/// On hosts each block of 16 bytes is stored whole (one store, no call)
/// and the cursor moves to its first mark; the escapes from there on, as
/// many as follow one another, are decided from the 32 bytes at hand, and
/// a reload follows the run; after [`JUMP_AFTER`] plain blocks, a
/// `memchr` jump and one copy of the run. The text and the room are
/// slices advanced together: where 32 bytes of each lie ahead (one check
/// of each per block), the block, its escapes and the step past them need
/// no check of their own (indices checked at each access cost medium 4 %
/// more instructions). The last 32 bytes of the input, and
/// microcontrollers: a byte at a time.
#[cfg(feature = "alloc")]
pub(crate) fn unescape_rest(
    bytes: &[u8],
    at: usize,
    w: usize,
    out: &mut alloc::vec::Vec<u8>,
) -> Option<(usize, usize)> {
    let room = w + bytes.len().saturating_sub(at);
    if out.len() < room {
        out.resize(room, 0);
    }
    let total = out.len();
    // The text from the cursor on, and the room from the write position
    // on: advanced together, so that where 32 bytes of each are known to
    // be there, no step past an escape (at most 17 bytes) checks a bound.
    let mut src = bytes.get(at..)?;
    let mut dst = out.get_mut(w..)?;
    let mut plain = 0u32;
    loop {
        if super::find::HOST
            && let (Some(window), Some(room)) =
                (src.first_chunk::<32>(), dst.first_chunk_mut::<32>())
        {
            let (head, _) = window.split_first_chunk::<16>()?;
            let (marks, _) = super::find::marks(*head);
            *room.first_chunk_mut::<16>()? = *head;
            if marks == 0 {
                src = src.get(16..)?;
                dst = core::mem::take(&mut dst).get_mut(16..)?;
                plain += 1;
                if plain == JUMP_AFTER {
                    plain = 0;
                    let at = bytes.len() - src.len();
                    let (next, _) = jump(bytes, at).ok()?;
                    let run = src.get(..next - at)?;
                    dst.get_mut(..run.len())?.copy_from_slice(run);
                    src = src.get(run.len()..)?;
                    dst = core::mem::take(&mut dst).get_mut(run.len()..)?;
                }
                continue;
            }
            plain = 0;
            // Below 16: the mask has a bit per byte of the block.
            let n = (marks.trailing_zeros() & 15) as usize;
            // The escapes from the mark on, as many as follow one another
            // (`\n\t` in code, `\u00e9\u00e8` from Python's `json.dumps`),
            // decided from the window with no reload between them (a
            // reload is a longer chain of dependent steps than a byte's
            // test): a one-character escape is its byte, from the table;
            // `\uXXXX` (a pair at most 12 bytes) its character.
            let (mut i, mut o) = (n, n);
            while i < 20 && window.get(i) == Some(&b'\\') {
                if let Some(c) = window.get(i + 1).and_then(|&e| lex::escape(e)) {
                    *room.get_mut(o)? = c;
                    i += 2;
                    o += 1;
                } else if let Some((c, next)) = lex::unicode_escape_char(window, i) {
                    o += c.encode_utf8(room.get_mut(o..)?).len();
                    i = next;
                } else {
                    // Not valid, or cut by the window's end: the general
                    // way below decides.
                    break;
                }
            }
            if i > n {
                src = src.get(i..)?;
                dst = core::mem::take(&mut dst).get_mut(o..)?;
                continue;
            }
            src = src.get(n..)?;
            dst = core::mem::take(&mut dst).get_mut(n..)?;
        } else {
            // The last bytes, and microcontrollers: a byte at a time (the
            // end of the input inside the text is `None`). Not through
            // `next_mark`, which answers the same: inlined here, it
            // lengthened the block loop (medium +1.2 % instructions).
            let n = src
                .iter()
                .position(|&c| matches!(c, b'"' | b'\\') || c < 0x20)?;
            dst.get_mut(..n)?.copy_from_slice(src.get(..n)?);
            src = src.get(n..)?;
            dst = core::mem::take(&mut dst).get_mut(n..)?;
        }
        // At a mark: the closing quote, an escape the window did not
        // decide (`\uXXXX`, a letter past it, one that is not valid), or
        // a control byte.
        loop {
            match src.first() {
                Some(b'"') => return Some((bytes.len() - src.len(), total - dst.len())),
                Some(b'\\') => {
                    // Decoded as the window's loop above decodes (one
                    // helper for both cost medium 4.6 % more instructions).
                    let (k, taken) = match src.get(1).and_then(|&e| lex::escape(e)) {
                        Some(c) => {
                            *dst.first_mut()? = c;
                            (1, 2)
                        }
                        // (`dst` is never shorter than `src`: unescaping
                        // never lengthens text, so `encode_utf8` has room.)
                        None => {
                            let p = bytes.len() - src.len();
                            let (c, next) = lex::unicode_escape_char(bytes, p)?;
                            (c.encode_utf8(dst).len(), next - p)
                        }
                    };
                    src = src.get(taken..)?;
                    dst = core::mem::take(&mut dst).get_mut(k..)?;
                    // An escape right after it (`\\uXXXX` text, as Python's
                    // `json.dumps` writes non-ASCII) is taken without a
                    // block's reload.
                    if src.first() != Some(&b'\\') {
                        break;
                    }
                }
                _ => return None,
            }
        }
    }
}

/// Length of the UTF-8 sequence a lead byte starts (a lead that
/// `from_utf8` reported as cut short).
pub(crate) const fn sequence_len(lead: u8) -> usize {
    match lead {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        _ => 2,
    }
}

/// A key whole in `buf` from `i` (just after its opening quote): plain
/// ASCII, at most 16 bytes, its closing quote in `buf`. Returns the index
/// after the quote and the key as the name tables see it; `None` for the
/// string lexeme's general path (escapes, non-ASCII, a cut, a longer key),
/// and always on microcontrollers ([`HOST`](super::find::HOST) false),
/// where the lane costs flash and stack.
#[inline]
pub(crate) fn plain_key(buf: &[u8], i: usize) -> Option<(usize, Key)> {
    if !super::find::HOST {
        return None;
    }
    let (j, high) = plain_run(buf, i);
    let len = j - i;
    if high || len > 16 || buf.get(j) != Some(&b'"') {
        return None;
    }
    Some((j + 1, Key::plain(buf, i, len)))
}

/// Index of the first `"`, `\` or control byte of `buf` from `i` (or its
/// length), and whether a byte >= 0x80 came before it: [`run`] taking no
/// escape. Not inlined: as a call, the known-key lanes that run it stay
/// inlined in their loops (the validators: 4 to 5 % fewer instructions).
#[inline(never)]
fn plain_run(buf: &[u8], i: usize) -> (usize, bool) {
    let run = run(buf, i, false, false, 0);
    (run.at(buf.len()), run.high)
}

/// A string read across chunks: the string lexeme where a chunk's end may
/// fall anywhere in the text (inside an escape, a surrogate pair or a UTF-8
/// sequence). [`more`](Self::more) runs [`run`] over each chunk; what a cut
/// leaves unfinished (at most twelve bytes of an escape, or three of a
/// character) is held and finished from the next chunk's first bytes, by
/// the same escape lexeme ([`lex::escape_end`]) and the same UTF-8 check,
/// so every answer and offset is the whole-buffer scanner's: a defect of
/// the text's UTF-8 is held until the closing quote (the scanner checks the
/// text after finding its end, so a bad escape, a control byte or the end
/// of the input later in the string wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cut {
    /// Fully checked (UTF-8, surrogates), not syntax only.
    full: bool,
    /// The text is gathered as a [`Key`] (unescaped) for the name tables.
    names: bool,
    name: Key,
    /// The first UTF-8 defect (absolute offset).
    utf8_err: Option<usize>,
    /// Bytes held from the last chunk: an escape from its backslash
    /// (`escape`), or a character from its lead byte.
    carry: [u8; 12],
    carried: u8,
    escape: bool,
    /// Absolute offset of `carry[0]`.
    carry_at: usize,
}

impl Cut {
    /// A string whose text begins: checked fully or for syntax only, its
    /// text gathered for the name tables with `names`.
    pub(crate) const fn new(full: bool, names: bool) -> Self {
        Self {
            full,
            names,
            name: Key::EMPTY,
            utf8_err: None,
            carry: [0; 12],
            carried: 0,
            escape: false,
            carry_at: 0,
        }
    }

    /// [`new`](Self::new) in place: the held bytes themselves are left
    /// as they are (none is held).
    pub(crate) const fn start(&mut self, full: bool, names: bool) {
        self.full = full;
        self.names = names;
        self.name = Key::EMPTY;
        self.utf8_err = None;
        self.carried = 0;
    }

    /// Whether the text is gathered for the name tables.
    pub(crate) const fn gathers(&self) -> bool {
        self.names
    }

    /// The text as the name tables see it (with `names`).
    pub(crate) const fn name(&self) -> Key {
        self.name
    }

    /// Whether nothing of a gathered text was read yet (no byte gathered,
    /// held or found bad).
    pub(crate) const fn is_empty(&self) -> bool {
        self.name.is_empty() && self.carried == 0 && self.utf8_err.is_none()
    }

    /// Reads the string on from `bytes[i]`; `bytes[0]` is at absolute offset
    /// `base`, and with `last` the input ends after `bytes`. With `emit`
    /// (a reader's string, fully checked), the text is handed to it
    /// unescaped, piece by piece, as it is read (up to a UTF-8 defect).
    ///
    /// `Ok(Some(j))`: the string closed, `j` is the index after its quote.
    /// `Ok(None)`: `bytes` ran out inside it (only without `last`).
    /// `Err`: the whole-buffer scanner's error for the string.
    #[inline(always)]
    pub(crate) fn more(
        &mut self,
        bytes: &[u8],
        i: usize,
        base: usize,
        last: bool,
        emit: Option<&mut (dyn FnMut(&str) + '_)>,
    ) -> Result<Option<usize>, BodyError> {
        if super::find::HOST {
            self.more_in(bytes, i, base, last, emit)
        } else {
            self.more_call(bytes, i, base, last, emit)
        }
    }

    /// [`more`](Self::more) as one function: microcontrollers link one
    /// copy for every caller.
    #[inline(never)]
    fn more_call(
        &mut self,
        bytes: &[u8],
        i: usize,
        base: usize,
        last: bool,
        emit: Option<&mut (dyn FnMut(&str) + '_)>,
    ) -> Result<Option<usize>, BodyError> {
        self.more_in(bytes, i, base, last, emit)
    }

    /// [`more`](Self::more); hosts inline it at each caller (the machine's
    /// string state and the walker), as the word loop it holds wants.
    #[inline(always)]
    fn more_in(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        base: usize,
        last: bool,
        mut emit: Option<&mut (dyn FnMut(&str) + '_)>,
    ) -> Result<Option<usize>, BodyError> {
        if self.carried > 0 {
            match self.finish_carry(bytes, i, base, last, emit.as_deref_mut())? {
                Some(next) => i = next,
                None => return Ok(None),
            }
        }
        // A string that goes on from the last chunk is likely long: with a
        // long chunk ahead, the first plain word already jumps.
        let plain = if i == 0 && bytes.len() >= 256 {
            JUMP_AFTER - 1
        } else {
            0
        };
        let run = run(bytes, i, self.full, true, plain);
        let stop = run.at(bytes.len());
        if let Stop::Control(p) = run.stop {
            return Err(BodyError::new(K::ControlCharacterInString, base + p));
        }
        let gather = self.names || emit.is_some();
        if self.full && (run.high || gather) && self.utf8_err.is_none() {
            let seg = bytes.get(i..stop).unwrap_or_default();
            let cut = !last && run.stop == Stop::End;
            let text = self.utf8(seg, base + i, cut);
            if gather {
                self.gather(text, run.escaped, emit);
            }
        }
        match run.stop {
            Stop::Quote(p) => match self.utf8_err {
                Some(at) => Err(BodyError::new(K::InvalidUtf8, at)),
                None => Ok(Some(p + 1)),
            },
            // Refused by the lexeme: not valid, or cut by the chunk's end.
            Stop::Escape(p) => {
                let e = lex::escape_fault(bytes, p, self.full);
                if e.kind() == K::Eof && !last {
                    self.hold(bytes.get(p..).unwrap_or_default(), base + p, true);
                    Ok(None)
                } else {
                    Err(e.shifted(base))
                }
            }
            Stop::End if last => Err(BodyError::new(K::Eof, base + bytes.len())),
            Stop::End | Stop::Control(_) => Ok(None),
        }
    }

    /// The UTF-8 check of a run of text at absolute `at`; `cut`: the
    /// chunk's end (not a quote, escape or control) ends the run. Returns
    /// the run's valid text: all of it, or what comes before a defect (the
    /// string's UTF-8 error) or before a character the cut holds.
    fn utf8<'t>(&mut self, run: &'t [u8], at: usize, cut: bool) -> &'t str {
        match super::find::from_utf8(run) {
            Ok(text) => text,
            Err(e) => {
                let valid = e.valid_up_to();
                let tail = run.get(valid..).unwrap_or_default();
                if cut && e.error_len().is_none() {
                    self.hold(tail, at + valid, false);
                } else {
                    self.utf8_err = Some(at + valid);
                }
                let head = run.get(..valid).unwrap_or_default();
                core::str::from_utf8(head).unwrap_or_default()
            }
        }
    }

    /// Gathers valid text whose escapes are whole and valid (`escaped`:
    /// it has some): the pieces between escapes as they are, each escape
    /// as its character.
    fn gather(&mut self, text: &str, escaped: bool, mut emit: Option<&mut (dyn FnMut(&str) + '_)>) {
        if !escaped {
            self.piece(text, emit);
            return;
        }
        let bytes = text.as_bytes();
        let mut a = 0;
        while let Some(k) = bytes.get(a..).and_then(|b| super::find::memchr(b'\\', b)) {
            let bs = a + k;
            self.piece(text.get(a..bs).unwrap_or_default(), emit.as_deref_mut());
            let rest = bytes.get(bs + 1..).unwrap_or_default();
            let after = self.escape_piece(rest, emit.as_deref_mut());
            a = bytes.len() - after.len();
        }
        self.piece(text.get(a..).unwrap_or_default(), emit);
    }

    /// The valid escape that `rest` starts with (just after its
    /// backslash), as one piece of its character; returns what follows it.
    fn escape_piece<'t>(
        &mut self,
        rest: &'t [u8],
        emit: Option<&mut (dyn FnMut(&str) + '_)>,
    ) -> &'t [u8] {
        let (ch, after) = super::unescape::decode_escape(rest);
        let mut buf = [0u8; 4];
        self.piece(ch.encode_utf8(&mut buf), emit);
        after
    }

    /// One piece of unescaped text: to the key, and to the reader unless
    /// the text already has a UTF-8 defect.
    fn piece(&mut self, piece: &str, emit: Option<&mut (dyn FnMut(&str) + '_)>) {
        if piece.is_empty() {
            return;
        }
        if self.names && !self.name.is_long() {
            self.name.push(piece.as_bytes());
        }
        if let Some(emit) = emit
            && self.utf8_err.is_none()
        {
            emit(piece);
        }
    }

    fn hold(&mut self, bytes: &[u8], at: usize, escape: bool) {
        let n = bytes.len().min(self.carry.len());
        if let (Some(to), Some(from)) = (self.carry.get_mut(..n), bytes.get(..n)) {
            to.copy_from_slice(from);
        }
        // At most twelve.
        #[allow(clippy::cast_possible_truncation)]
        {
            self.carried = n as u8;
        }
        self.escape = escape;
        self.carry_at = at;
    }

    /// Finishes what the last chunk's end cut, from `bytes[i]`: the index
    /// to go on from, or `None` when `bytes` ran out again.
    #[cold]
    #[inline(never)]
    fn finish_carry(
        &mut self,
        bytes: &[u8],
        i: usize,
        base: usize,
        last: bool,
        emit: Option<&mut (dyn FnMut(&str) + '_)>,
    ) -> Result<Option<usize>, BodyError> {
        let old = usize::from(self.carried);
        let rest = bytes.get(i..).unwrap_or_default();
        let want = if self.escape {
            self.carry.len()
        } else {
            sequence_len(self.carry.first().copied().unwrap_or(0))
        };
        let take = rest.len().min(want.saturating_sub(old));
        if let (Some(to), Some(from)) = (self.carry.get_mut(old..old + take), rest.get(..take)) {
            to.copy_from_slice(from);
        }
        let held = self.carry.get(..old + take).unwrap_or_default();
        // At most twelve.
        #[allow(clippy::cast_possible_truncation)]
        let n = (old + take) as u8;
        let all = take == rest.len();
        if self.escape {
            match lex::escape_end(held, 0, self.full) {
                Ok(end) => {
                    let esc = self.carry;
                    let escape = esc.get(..end).unwrap_or_default();
                    if self.full && (self.names || emit.is_some()) {
                        self.escape_piece(escape.get(1..).unwrap_or_default(), emit);
                    }
                    self.carried = 0;
                    Ok(Some(i + end - old))
                }
                Err(e) if e.kind() == K::Eof && !last && all => {
                    self.carried = n;
                    Ok(None)
                }
                Err(e) => Err(e.shifted(self.carry_at)),
            }
        } else {
            match core::str::from_utf8(held) {
                Ok(ch) => {
                    let mut buf = [0u8; 4];
                    let ch = ch.chars().next().unwrap_or_default();
                    self.piece(ch.encode_utf8(&mut buf), emit);
                    self.carried = 0;
                    Ok(Some(i + take))
                }
                Err(e) if e.error_len().is_none() && all => {
                    if last {
                        return Err(BodyError::new(K::Eof, base + bytes.len()));
                    }
                    self.carried = n;
                    Ok(None)
                }
                // Broken (by a quote, an escape, a control or a bad byte):
                // the string's UTF-8 defect is at the lead; the bytes after
                // it are read again as text.
                Err(_) => {
                    self.utf8_err = Some(self.carry_at);
                    self.carried = 0;
                    Ok(Some(i))
                }
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;

    use super::*;

    /// The lexeme written out byte by byte from JSON's grammar, as the
    /// oracle of both lanes.
    fn oracle(bytes: &[u8], mut at: usize, full: bool, escapes: bool) -> (Stop, bool, bool) {
        let (mut high, mut escaped) = (false, false);
        loop {
            match bytes.get(at) {
                None => return (Stop::End, high, escaped),
                Some(b'"') => return (Stop::Quote(at), high, escaped),
                Some(b'\\') => {
                    // Take a valid whole escape: a one-character escape, or
                    // `\uXXXX` (with `full`, a high surrogate then `\u` and
                    // a low one; a low one alone is refused).
                    let hex = |i: usize| {
                        bytes
                            .get(i..i + 4)
                            .and_then(|h| core::str::from_utf8(h).ok())
                            .filter(|h| h.bytes().all(|c| c.is_ascii_hexdigit()))
                            .and_then(|h| u16::from_str_radix(h, 16).ok())
                    };
                    let next = match bytes.get(at + 1) {
                        _ if !escapes => None,
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            Some(at + 2)
                        }
                        Some(b'u') => match hex(at + 2) {
                            Some(_) if !full => Some(at + 6),
                            Some(0xD800..=0xDBFF) => {
                                match (bytes.get(at + 6..at + 8), hex(at + 8)) {
                                    (Some(b"\\u"), Some(0xDC00..=0xDFFF)) => Some(at + 12),
                                    _ => None,
                                }
                            }
                            Some(0xDC00..=0xDFFF) | None => None,
                            Some(_) => Some(at + 6),
                        },
                        _ => None,
                    };
                    match next {
                        Some(n) => {
                            escaped = true;
                            at = n;
                        }
                        None => return (Stop::Escape(at), high, escaped),
                    }
                }
                Some(&c) if c < 0x20 => return (Stop::Control(at), high, escaped),
                Some(&c) => {
                    high |= c >= 0x80;
                    at += 1;
                }
            }
        }
    }

    /// Both lanes give the oracle's answer on generated text: every kind of
    /// escape (valid, cut, invalid, unpaired), controls, non-ASCII, long
    /// plain runs (the jump), cut anywhere, in every mode, from every start
    /// the plain-word count allows.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn both_lanes_answer_as_the_grammar_does() {
        const PIECES: [&[u8]; 15] = [
            b"\"",
            b"\\",
            b"\\n",
            b"\\/",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\ud83d",
            b"\\ude00",
            b"\\ud83dx",
            b"\\q",
            b"\\u12",
            b"\xC3\xA9",
            b"\xFF",
            b"\x01",
            b"\x7f",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut buf = vec![];
        for round in 0..60_000 {
            crate::json::xorshift(&mut seed);
            buf.clear();
            let mut r = seed;
            for _ in 0..seed % 24 {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let k = (r >> 58) as usize;
                if k < PIECES.len() {
                    buf.extend_from_slice(PIECES[k]);
                } else if k < 60 {
                    buf.extend_from_slice(&b"abcdefghijklmnopq"[..k % 16 + 1]);
                } else {
                    // A long plain run, past the jump, sometimes non-ASCII.
                    buf.extend(std::iter::repeat_n(b'x', 100 + k));
                    if k & 1 == 0 {
                        buf.extend_from_slice("\u{e9}".as_bytes());
                    }
                }
            }
            let cut = if round % 3 == 0 {
                buf.len()
            } else {
                (r as usize) % (buf.len() + 1)
            };
            let bytes = &buf[..cut];
            for full in [false, true] {
                for escapes in [false, true] {
                    let want = oracle(bytes, 0, full, escapes);
                    for (plain, got) in [
                        (0, run_in::<true>(bytes, 0, full, escapes, 0)),
                        (
                            JUMP_AFTER - 1,
                            run_in::<true>(bytes, 0, full, escapes, JUMP_AFTER - 1),
                        ),
                        (0, run_in::<false>(bytes, 0, full, escapes, 0)),
                    ] {
                        let high = matches!(got.stop, Stop::Control(_)) || got.high == want.1;
                        assert!(
                            got.stop == want.0 && got.escaped == want.2 && high,
                            "{bytes:?} full={full} escapes={escapes} plain={plain}: \
                             {got:?} against {want:?}"
                        );
                    }
                }
            }
        }
    }

    /// The last bytes' marks, from the input's last block shifted or from
    /// a padded copy, are the padded block's marks up to the end (a mark
    /// there) on every length and start: the lanes stop at the first mark
    /// at or past the end.
    #[test]
    fn tail_marks_are_the_padded_blocks_up_to_the_end() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        // (Under Miri one input per length: twenty took a minute.)
        let per_len = if cfg!(miri) { 1 } else { 20 };
        for len in 0usize..48 {
            for _ in 0..per_len {
                let bytes: vec::Vec<u8> = (0..len)
                    .map(|_| b"a\\\"\x01\xC3\xA9 z"[crate::json::xorshift(&mut seed) as usize % 8])
                    .collect();
                for at in len.saturating_sub(15)..=len + 1 {
                    let mut padded = [0u8; 16];
                    let tail = bytes.get(at..).unwrap_or_default();
                    padded[..tail.len()].copy_from_slice(tail);
                    let (want, want_hi) = super::super::find::marks(padded);
                    let (got, got_hi) = tail_marks(&bytes, at);
                    let end = len.saturating_sub(at);
                    let upto = (2u32 << end) - 1;
                    assert_eq!(got & upto, want & upto, "{bytes:?} from {at}");
                    assert_eq!(got & (1 << end), 1 << end, "{bytes:?} from {at}");
                    let below = (1u32 << end) - 1;
                    assert_eq!(got_hi & below, want_hi & below, "{bytes:?} from {at}");
                }
            }
        }
    }

    #[test]
    fn controls_and_high_scan_blocks_and_tails() {
        for len in [0usize, 1, 31, 32, 33, 64, 95] {
            let plain = vec![b'a'; len];
            assert_eq!(controls_and_high(&plain), (false, false), "len {len}");
            for at in 0..len {
                let mut v = plain.clone();
                v[at] = 0x1F;
                assert_eq!(
                    controls_and_high(&v),
                    (true, false),
                    "control at {at} of {len}"
                );
                v[at] = 0xE9;
                assert_eq!(
                    controls_and_high(&v),
                    (false, true),
                    "high at {at} of {len}"
                );
            }
        }
    }
}
