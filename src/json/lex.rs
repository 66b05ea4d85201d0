//! The lexemes of a JSON string's escapes, each written once: every engine
//! (the whole-buffer scanner, the resumable machine, the views' walker and
//! unescaper) asks these functions and restates none of their rules.
//!
//! - [`escape`]: the one-character escapes (`\"` `\\` `\/` `\b` `\f` `\n`
//!   `\r` `\t`) and the byte each stands for.
//! - [`hex4`]: the four hex digits of `\uXXXX`, or where they stop being
//!   hex digits.
//! - [`utf16`] and [`pair`]: what a `\uXXXX` code unit is (a character, or
//!   the high or low half of a surrogate pair), and the character of a pair.
//! - [`escape_end`]: the whole escape at a backslash, where it ends or the
//!   error serde_json names for it; [`escape_ok`], its answer without the
//!   error (the hosts' string loop detects with a lane of its own).
//!
//! Where a host lane (speed) and a compact lane (flash, on microcontrollers:
//! [`HOST`](super::find::HOST) false) differ, both live inside the one
//! function, the lane is chosen at compile time, and a test pins the two to
//! each other on every input.

use crate::error::{BodyError, BodyErrorKind as K};

/// The one-character escapes: each letter after the backslash, then the
/// byte it stands for. The only statement of the set.
const ESCAPES: &[u8; 16] = b"\"\"\\\\//b\x08f\x0cn\nr\rt\t";

/// The byte the one-character escape `\e` stands for (`e` is the byte after
/// the backslash): `Some(b'\n')` for `n`, `Some(b'"')` for `"`, …; `None`
/// for every byte that starts no one-character escape, `u` included.
///
/// Hosts look it up in [`BY_LETTER`] (one load: the unescaper and the
/// string lexeme take it once per escape); microcontrollers
/// ([`HOST`](super::find::HOST) false) search the 16-byte [`ESCAPES`] in
/// one call, which all the engines share (no 256-byte table in flash).
#[inline(always)]
pub(crate) fn escape(e: u8) -> Option<u8> {
    if super::find::HOST {
        BY_LETTER.get(usize::from(e)).copied().filter(|&b| b != 0)
    } else {
        Some(escape_call(e)).filter(|&b| b != 0)
    }
}

/// [`escape`] on microcontrollers: one copy of the search, whose answer is
/// a byte, 0 for none (no escape stands for 0), so that it comes back in
/// one register.
#[inline(never)]
fn escape_call(e: u8) -> u8 {
    escape_search(e).unwrap_or(0)
}

/// The search of [`ESCAPES`].
#[inline]
fn escape_search(e: u8) -> Option<u8> {
    ESCAPES
        .as_chunks::<2>()
        .0
        .iter()
        .find(|p| p[0] == e)
        .map(|p| p[1])
}

/// [`escape`] by byte, built from [`ESCAPES`]: the byte each letter stands
/// for, 0 for every byte that starts no one-character escape (no escape
/// stands for 0). What hosts look a letter up in.
// Evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
static BY_LETTER: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < ESCAPES.len() {
        t[ESCAPES[i] as usize] = ESCAPES[i + 1];
        i += 2;
    }
    t
};

/// Whether `e` starts a one-character escape ([`escape`] would answer
/// `Some`), by one lookup in [`BY_LETTER`]: what the hosts' string loop
/// asks of an escape whose letter is in the block it holds.
#[inline(always)]
pub(crate) fn is_letter(e: u8) -> bool {
    BY_LETTER.get(usize::from(e)).is_some_and(|&b| b != 0)
}

/// The value of the hex digit `d` (`0`-`9`, `a`-`f`, `A`-`F`), `None` for
/// every other byte, by comparisons. The only statement of what a hex digit
/// is; [`HEX`] is built from it.
#[inline]
const fn digit(d: u8) -> Option<u8> {
    // `| 0x20` maps `A`..=`F` onto `a`..=`f` and no other byte into them.
    match (d, d | 0x20) {
        (b'0'..=b'9', _) => Some(d - b'0'),
        (_, l @ b'a'..=b'f') => Some(l - b'a' + 10),
        _ => None,
    }
}

/// [`digit`] by byte, 0xFF for bytes that are no hex digit: what hosts look
/// a digit up in.
// Evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing)]
const HEX: [u8; 256] = {
    let mut t = [0xFFu8; 256];
    let mut i = 0;
    while i < 256 {
        if let Some(v) = digit(i as u8) {
            t[i] = v;
        }
        i += 1;
    }
    t
};

/// The value of the four hex digits that `b` starts with (the `XXXX` of
/// `\uXXXX`, `b` being the bytes after the `u`), or `Err(i)`: `b[i]` is the
/// first of the four that is no hex digit, or `b` ends at `i`, before four.
/// The scanner reports an invalid escape at that `i`; the machine, which
/// gets the digits byte by byte, hands it the four it kept.
///
/// Hosts ([`HOST`](super::find::HOST)) read the four digits together,
/// as one `u32` ([`hex_word`]: SDKs escape every non-ASCII character as
/// `\uXXXX`, so text dense with them pays this once per character), and
/// take the loop ([`hex_prefix`], each digit looked up in [`HEX`]) only
/// where fewer than four bytes are left; microcontrollers run the loop,
/// comparing ([`digit`]: no 256-byte table), as one call. A test pins the
/// lanes to each other and to the rule.
#[inline(always)]
pub(crate) fn hex4(b: &[u8]) -> Result<u16, usize> {
    let (n, k) = if super::find::HOST {
        match b.first_chunk::<4>() {
            Some(word) => hex_word(u32::from_le_bytes(*word)),
            None => hex_prefix::<true>(b),
        }
    } else {
        hex_prefix_call(b)
    };
    if k == 4 { Ok(n) } else { Err(k) }
}

/// [`hex_prefix`] of four bytes read as one little-endian word, without a
/// branch: each byte's low seven bits are tested against `0`..=`9` and
/// (case folded) `a`..=`f` at once, a byte >= 0x80 is no digit, and the
/// four nibbles are gathered by two shifts. Agrees with [`digit`] on every
/// byte (a test runs every byte at every place).
#[inline(always)]
const fn hex_word(v: u32) -> (u16, usize) {
    const L: u32 = 0x0101_0101;
    const H: u32 = 0x8080_8080;
    // Below 0x80 in every byte, so no sum below carries out of its byte.
    let x = v & !H;
    // Bit 7 of each byte: `x >= lo` from `x + (0x80 - lo)`, `x > hi` from
    // `x + (0x7F - hi)`.
    let digit = (x + L * (0x80 - b'0' as u32)) & !(x + L * (0x7F - b'9' as u32));
    let l = x | (L * 0x20);
    let letter = (l + L * (0x80 - b'a' as u32)) & !(l + L * (0x7F - b'f' as u32)) & H;
    let bad = (!((digit & H) | letter) & H) | (v & H);
    // Each byte's value: its low nibble, plus 9 for a letter.
    let nib = (x & (L * 0x0F)) + (letter >> 7) * 9;
    // Byte 0 is the first (highest) digit.
    let pairs = ((nib << 4) | (nib >> 8)) & 0x00FF_00FF;
    #[allow(clippy::cast_possible_truncation)]
    let n = ((pairs & 0xFF) << 8 | pairs >> 16) as u16;
    if bad == 0 {
        (n, 4)
    } else {
        // The digits before the first bad byte are not needed: a caller
        // that gets fewer than four takes only the count.
        (n, (bad.trailing_zeros() / 8) as usize)
    }
}

/// [`hex_prefix`] on microcontrollers: one copy of the loop.
#[inline(never)]
fn hex_prefix_call(b: &[u8]) -> (u16, usize) {
    hex_prefix::<false>(b)
}

/// The value of the hex digits that start `b`, at most four, and how many
/// there are, each digit by [`HEX`] (`TABLE`) or by [`digit`]. (A pair, not
/// a `Result`: microcontrollers get it back in two registers.)
#[inline]
fn hex_prefix<const TABLE: bool>(b: &[u8]) -> (u16, usize) {
    let mut n = 0u16;
    let mut k = 0;
    for &d in b.iter().take(4) {
        let v = if TABLE {
            HEX.get(usize::from(d)).copied().filter(|&v| v < 16)
        } else {
            digit(d)
        };
        let Some(v) = v else {
            break;
        };
        n = n << 4 | u16::from(v);
        k += 1;
    }
    (n, k)
}

/// The bytes a literal must spell after its first byte `first` (`t`, `f`
/// or `n`): `rue`, `alse` or `ull`, packed into a word, the next byte
/// lowest and zero once spelled. The one statement of `true`, `false` and
/// `null` for every engine.
#[inline(always)]
pub(crate) const fn literal_rest(first: u8) -> u32 {
    u32::from_le_bytes(match first {
        b't' => *b"rue\0",
        b'f' => *b"alse",
        _ => *b"ull\0",
    })
}

/// Whether `c` is JSON whitespace (space, tab, line feed, carriage
/// return): the one statement of the set, for every engine (the cursor,
/// the streaming driver, the walk over validated text).
#[inline(always)]
pub(crate) const fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// What the code unit of a `\uXXXX` escape is: [`utf16`]'s answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Utf16 {
    /// No surrogate: a character by itself (`char::from_u32` takes it).
    Scalar,
    /// A high surrogate (`D800`-`DBFF`): a low one must follow, in the next
    /// escape, to make a character ([`pair`]).
    High,
    /// A low surrogate (`DC00`-`DFFF`): never valid first.
    Low,
}

/// What the code unit `n` is: a character by itself, or a high or a low
/// surrogate. The only statement of the surrogate ranges. (No `char` in the
/// answer: the scanner needs none, and an enum around one costs
/// microcontrollers an encoding and a decoding of it.)
#[inline(always)]
pub(crate) const fn utf16(n: u16) -> Utf16 {
    match n {
        0xD800..=0xDBFF => Utf16::High,
        0xDC00..=0xDFFF => Utf16::Low,
        _ => Utf16::Scalar,
    }
}

/// The character of the surrogate pair `high`, `low` (a `\uD83D\uDE00`'s
/// two units), or `None` when `low` is no low surrogate. `high` is one
/// that [`utf16`] called [`High`](Utf16::High); only its ten low bits
/// count.
#[inline]
pub(crate) fn pair(high: u16, low: u16) -> Option<char> {
    if !matches!(utf16(low), Utf16::Low) {
        return None;
    }
    let n = 0x1_0000 + ((u32::from(high) & 0x3FF) << 10 | (u32::from(low) & 0x3FF));
    // Never `None`: 0x1_0000..=0x10_FFFF are all scalar values.
    char::from_u32(n)
}

/// Where the escape whose backslash is `b[j]` ends, if it lies whole in `b`
/// and is valid: a one-character escape, or `\uXXXX` (with `full`, a high
/// surrogate must be followed by a `\uXXXX` low one, and a low one alone is
/// refused). Otherwise the error the whole-buffer decoder reports for it,
/// as serde_json names it, offsets in `b`: an escape cut by the end of `b`
/// is [`Eof`](K::Eof) (at the end), a byte that starts no escape or is no
/// hex digit is [`InvalidEscape`](K::InvalidEscape) (at that byte), a
/// surrogate that does not pair is [`LoneSurrogate`](K::LoneSurrogate) (at
/// its backslash, or at the second escape's when that one is no low
/// surrogate). The machine, which sees a chunk, takes any error as "decide
/// byte by byte". The whole escape check of every engine, and of the
/// string lexeme ([`text::run`](super::text::run)).
///
/// One call, for the errors and for the microcontrollers' string lexeme;
/// hosts detect with [`escape_ok`]'s lane and call this one to name.
#[inline(never)]
pub(crate) fn escape_end(b: &[u8], j: usize, full: bool) -> Result<usize, BodyError> {
    escape_end_in(b, j, full)
}

/// The error of an escape that [`escape_ok`] refused (whose backslash is
/// `b[j]`): [`escape_end`]'s. (A test pins the two to each other, so the
/// `InvalidEscape` at `j + 1` for an escape that both took is never
/// reported.)
pub(crate) fn escape_fault(b: &[u8], j: usize, full: bool) -> BodyError {
    escape_end(b, j, full)
        .err()
        .unwrap_or(BodyError::new(K::InvalidEscape, j + 1))
}

/// [`escape_end`] without the error: where the escape ends, or `None`, for
/// the string loops. On hosts a lane of its own, inlined in the word loop,
/// that only detects (as a `Result`, the error's value cost the loops 2 to
/// 7 % more instructions); a test pins it to [`escape_end`] on every input.
/// On microcontrollers [`escape_end`] itself.
#[inline(always)]
pub(crate) fn escape_ok(b: &[u8], j: usize, full: bool) -> Option<usize> {
    if super::find::HOST {
        escape_whole(b, j, full)
    } else {
        escape_end(b, j, full).ok()
    }
}

/// The hosts' lane of [`escape_ok`]: the letter looked up in [`BY_LETTER`]
/// first (the common escape), then `\\uXXXX` with its digits read by
/// [`hex4`].
#[inline(always)]
fn escape_whole(b: &[u8], j: usize, full: bool) -> Option<usize> {
    let e = *b.get(j + 1)?;
    if is_letter(e) {
        return Some(j + 2);
    }
    if e != b'u' {
        return None;
    }
    let unit = |at: usize| hex4(b.get(at..)?).ok();
    let n = unit(j + 2)?;
    if !full {
        return Some(j + 6);
    }
    match utf16(n) {
        Utf16::Scalar => Some(j + 6),
        Utf16::Low => None,
        Utf16::High => match b.get(j + 6..j + 8)? {
            b"\\u" => matches!(utf16(unit(j + 8)?), Utf16::Low).then_some(j + 12),
            _ => None,
        },
    }
}

/// The escape whose backslash is `b[j]`, checked as [`escape_ok`] checks
/// it with `full` (a one-character escape, or `\\uXXXX` with a high
/// surrogate followed by a `\\uXXXX` low one, a low one alone refused),
/// and decoded in the same reading: its character and where it ends.
/// `None` where [`escape_ok`] refuses (a test holds the two together); the
/// `alloc` builder's one pass, which leaves every refusal to the validating
/// lexeme to name.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn escape_char(b: &[u8], j: usize) -> Option<(char, usize)> {
    if let Some(c) = escape(*b.get(j + 1)?) {
        return Some((char::from(c), j + 2));
    }
    unicode_escape_char(b, j)
}

/// [`escape_char`] past its one-character escapes: `\uXXXX` (a high
/// surrogate with its low one) decoded, `None` for anything else. For a
/// caller that has looked the escape's letter up in the table already.
#[cfg(feature = "alloc")]
#[inline(always)]
pub(crate) fn unicode_escape_char(b: &[u8], j: usize) -> Option<(char, usize)> {
    if *b.get(j + 1)? != b'u' {
        return None;
    }
    let unit = |at: usize| hex4(b.get(at..)?).ok();
    let n = unit(j + 2)?;
    match utf16(n) {
        Utf16::Scalar => Some((char::from_u32(u32::from(n))?, j + 6)),
        Utf16::Low => None,
        Utf16::High => match b.get(j + 6..j + 8)? {
            b"\\u" => Some((pair(n, unit(j + 8)?)?, j + 12)),
            _ => None,
        },
    }
}

#[inline(always)]
fn escape_end_in(b: &[u8], j: usize, full: bool) -> Result<usize, BodyError> {
    escape_span(b, j, full).map_err(|(kind, at)| BodyError::new(kind, at))
}

/// [`escape_end`] with the error as its kind and offset, built once by the
/// caller (on microcontrollers each `BodyError` built in place costs
/// flash).
#[inline(always)]
fn escape_span(b: &[u8], j: usize, full: bool) -> Result<usize, (K, usize)> {
    // Every escape cut by the end of `b` ends the input there.
    let cut = (K::Eof, b.len());
    let e = *b.get(j + 1).ok_or(cut)?;
    if e != b'u' {
        return match escape(e) {
            Some(_) => Ok(j + 2),
            None => Err((K::InvalidEscape, j + 1)),
        };
    }
    // One pass per `\uXXXX`: the first, and a low surrogate's after a high
    // one (at `u`, its backslash).
    let mut u = j;
    loop {
        let n = hex4_at(b, u + 2)?;
        let next = u + 6;
        if !full {
            return Ok(next);
        }
        match (utf16(n), u == j) {
            (Utf16::Scalar, true) | (Utf16::Low, false) => return Ok(next),
            (Utf16::Low, true) => return Err((K::LoneSurrogate, j)),
            (_, false) => return Err((K::LoneSurrogate, u)),
            (Utf16::High, true) => {}
        }
        match (b.get(next), b.get(next + 1)) {
            (Some(b'\\'), Some(b'u')) => u = next,
            (None, _) | (Some(b'\\'), None) => return Err(cut),
            _ => return Err((K::LoneSurrogate, j)),
        }
    }
}

/// The four hex digits of a `\uXXXX` at `b[at..]`. All four must be there
/// before any is looked at: fewer is an early end ([`Eof`](K::Eof) at the
/// end of `b`), whatever they are.
#[inline(always)]
fn hex4_at(b: &[u8], at: usize) -> Result<u16, (K, usize)> {
    let Some(digits) = b.get(at..at + 4) else {
        return Err((K::Eof, b.len()));
    };
    hex4(digits).map_err(|i| (K::InvalidEscape, at + i))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

    /// The hosts' detecting lane of the escape check takes exactly the
    /// escapes the naming one takes, ending at the same byte, on every
    /// escape of generated text cut anywhere, in both strengths; and every
    /// error the naming one gives lies within the escape (or at the end).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn the_escape_lanes_agree() {
        extern crate std;
        const PIECES: [&[u8]; 14] = [
            b"\\n",
            b"\\\\",
            b"\\u00e9",
            b"\\uD83D\\uDE00",
            b"\\ud83d",
            b"\\ude00",
            b"\\ud83d\\u0041",
            b"\\ud83d\\n",
            b"\\q",
            b"\\u12G4",
            b"\\uDBFF\\uDFFF",
            b"\\u",
            b"x",
            b"\\ud83d\\uDBFF",
        ];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut text = std::vec::Vec::new();
        for _ in 0..40_000 {
            crate::json::xorshift(&mut seed);
            text.clear();
            let mut r = seed;
            for _ in 0..1 + seed % 4 {
                r = r.rotate_left(7);
                text.extend_from_slice(PIECES[(r % 14) as usize]);
            }
            let cut = (r >> 8) as usize % (text.len() + 1);
            let b = &text[..cut];
            for (j, _) in b.iter().enumerate().filter(|(_, c)| **c == b'\\') {
                for full in [false, true] {
                    let named = escape_end(b, j, full);
                    assert_eq!(
                        escape_whole(b, j, full),
                        named.ok(),
                        "{b:?} at {j} full={full}"
                    );
                    assert_eq!(
                        escape_ok(b, j, full),
                        named.ok(),
                        "{b:?} at {j} full={full}"
                    );
                    if let Err(e) = named {
                        assert!((j..=b.len()).contains(&e.offset()), "{b:?} at {j}: {e:?}");
                        assert_eq!(escape_fault(b, j, full), e);
                    }
                }
            }
        }
    }

    /// [`escape`] gives, on every byte, what the engines' `match`es gave
    /// before they asked it.
    #[test]
    fn escapes_agree_with_the_old_match_on_every_byte() {
        for e in 0..=255u8 {
            let old = match e {
                b'"' => Some(b'"'),
                b'\\' => Some(b'\\'),
                b'/' => Some(b'/'),
                b'b' => Some(0x08),
                b'f' => Some(0x0C),
                b'n' => Some(b'\n'),
                b'r' => Some(b'\r'),
                b't' => Some(b'\t'),
                _ => None,
            };
            assert_eq!(escape(e), old, "{e:#04x}");
            assert_eq!(Some(escape_call(e)).filter(|&b| b != 0), old, "{e:#04x}");
            assert_eq!(is_letter(e), old.is_some(), "{e:#04x}");
        }
    }

    /// [`digit`] on every byte is what `char::to_digit(16)` says.
    #[test]
    fn hex_digits_agree_with_to_digit_on_every_byte() {
        for d in 0..=255u8 {
            let want = char::from(d).to_digit(16).map(|v| v as u8);
            assert_eq!(digit(d), want, "{d:#04x}");
            let table = Some(HEX[usize::from(d)]).filter(|&v| v < 16);
            assert_eq!(table, want, "{d:#04x}");
        }
    }

    /// What the scanner's loop gave before it asked [`hex4`]: the value, or
    /// the index of the first byte of the four that is no hex digit (or
    /// where `b` ends).
    fn old_hex4(b: &[u8]) -> Result<u16, usize> {
        let mut n = 0u16;
        for i in 0..4 {
            let v = b
                .get(i)
                .and_then(|&d| char::from(d).to_digit(16))
                .ok_or(i)?;
            n = n << 4 | v as u16;
        }
        Ok(n)
    }

    /// Both lanes of [`hex4`] agree with the old readers: on every value
    /// (written in lower and upper case, with a byte after), on every byte
    /// at each of the four places, and on every prefix (0 to 5 bytes) of
    /// every word over a set of edge bytes.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn hex4_lanes_agree_with_the_old_readers() {
        let check = |b: &[u8]| {
            let want = old_hex4(b);
            let lane = |(n, k): (u16, usize)| if k == 4 { Ok(n) } else { Err(k) };
            assert_eq!(lane(hex_prefix::<true>(b)), want, "{b:?}");
            assert_eq!(lane(hex_prefix::<false>(b)), want, "{b:?}");
            assert_eq!(lane(hex_prefix_call(b)), want, "{b:?}");
            if let Some(word) = b.first_chunk::<4>() {
                let (n, k) = hex_word(u32::from_le_bytes(*word));
                assert_eq!(k, want.err().unwrap_or(4), "{b:?}");
                if k == 4 {
                    assert_eq!(Ok(n), want, "{b:?}");
                }
            }
            assert_eq!(hex4(b), want, "{b:?}");
        };
        for n in 0..=u16::MAX {
            let at = |digits: &[u8; 16], shift: u16| digits[usize::from(n >> shift & 0xF)];
            let (l, u) = (b"0123456789abcdef", b"0123456789ABCDEF");
            let lower = [at(l, 12), at(l, 8), at(l, 4), at(l, 0), b'"'];
            let upper = [at(u, 12), at(u, 8), at(u, 4), at(u, 0)];
            assert_eq!(hex4(&lower), Ok(n));
            check(&lower);
            check(&upper);
        }
        for at in 0..4 {
            for d in 0..=255u8 {
                let mut w = *b"09aF";
                w[at] = d;
                check(&w);
            }
        }
        let bytes = b"09afAFgG/:@`\x00\xff7cE";
        for &a in bytes {
            for &b in bytes {
                for &c in bytes {
                    for &d in bytes {
                        let x = [a, b, c, d, a];
                        for len in 0..=5 {
                            check(&x[..len]);
                        }
                    }
                }
            }
        }
    }

    /// [`utf16`] classifies all 65 536 code units as the engines' range
    /// checks did; [`pair`] gives what they computed (and what
    /// `char::decode_utf16` says) for every high surrogate with every low
    /// one, and for the first and last high ones with every code unit.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn surrogates_agree_with_the_old_checks_on_every_unit() {
        for n in 0..=u16::MAX {
            let want = if !(0xD800..0xE000).contains(&n) {
                Utf16::Scalar
            } else if n < 0xDC00 {
                Utf16::High
            } else {
                Utf16::Low
            };
            assert_eq!(utf16(n), want, "{n:#06x}");
            let scalar = char::from_u32(u32::from(n)).is_some();
            assert_eq!(utf16(n) == Utf16::Scalar, scalar, "{n:#06x}");
        }
        let check = |high: u16, low: u16| {
            let old = (0xDC00..0xE000)
                .contains(&low)
                .then(|| 0x1_0000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00));
            let got = pair(high, low);
            assert_eq!(got.map(u32::from), old, "{high:#06x} {low:#06x}");
            let std = char::decode_utf16([high, low]).next().and_then(Result::ok);
            assert_eq!(got, std, "{high:#06x} {low:#06x}");
        };
        for high in 0xD800..0xDC00u16 {
            for low in 0xDC00..0xE000u16 {
                check(high, low);
            }
        }
        for high in [0xD800, 0xD83D, 0xDBFF] {
            for low in 0..=u16::MAX {
                check(high, low);
            }
        }
    }
}
