//! Walking JSON that has already been validated.
//!
//! Views re-read their input lazily. The decoder has already checked every
//! byte they touch, so these helpers assume well-formed JSON and never fail on
//! it. On input that was *not* validated they still cannot panic or loop: every
//! step moves forward or stops, and an unexpected byte ends the walk.

use super::lex::{self, Utf16};

/// Skips JSON whitespace (space, tab, line feed, carriage return). Inlined
/// on hosts; on microcontrollers ([`HOST`](super::find::HOST) false) a call
/// of the same loop, which inlined at every step of the views' walks cost
/// 0.5 KB of flash.
#[inline]
pub(crate) fn ws(b: &[u8]) -> &[u8] {
    if super::find::HOST {
        ws_loop(b)
    } else {
        ws_call(b)
    }
}

/// [`ws`] as a call.
#[inline(never)]
fn ws_call(b: &[u8]) -> &[u8] {
    ws_loop(b)
}

#[inline]
fn ws_loop(mut b: &[u8]) -> &[u8] {
    while let Some((&c, rest)) = b.split_first() {
        if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            break;
        }
        b = rest;
    }
    b
}

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// High bit set in the lowest byte of `w` equal to `byte` (higher bytes may
/// show false positives, so only the lowest set bit is meaningful).
#[inline]
const fn eq_mask(w: u64, byte: u8) -> u64 {
    let x = w ^ (LO * byte as u64);
    x.wrapping_sub(LO) & !x & HI
}

/// Index of the quote that closes the string `b` starts inside of, and
/// whether an escape came before it. Escapes are stepped over forward (a
/// backslash and the byte after it: `\uXXXX` digits hold neither quote nor
/// backslash), a word at a time; after 64 plain bytes, with memchr2. On
/// microcontrollers (`WORDS` false: [`HOST`](super::find::HOST)) a byte at a
/// time: the same answer from less flash (inlined four times).
#[inline]
fn closing_quote(b: &[u8]) -> (Option<usize>, bool) {
    closing_quote_in::<{ super::find::HOST }>(b)
}

#[inline]
fn closing_quote_in<const WORDS: bool>(b: &[u8]) -> (Option<usize>, bool) {
    let mut at = 0usize;
    let mut escaped = false;
    let mut plain = 0u32;
    loop {
        let chunk = if WORDS {
            b.get(at..).and_then(<[u8]>::first_chunk::<8>)
        } else {
            None
        };
        let Some(chunk) = chunk else {
            while let Some(&c) = b.get(at) {
                match c {
                    b'"' => return (Some(at), escaped),
                    b'\\' => {
                        escaped = true;
                        at += 2;
                    }
                    _ => at += 1,
                }
            }
            return (None, escaped);
        };
        let w = u64::from_le_bytes(*chunk);
        // The lowest set bit of either mask is exact, so is their OR's.
        let m = eq_mask(w, b'"') | eq_mask(w, b'\\');
        if m == 0 {
            at += 8;
            plain += 1;
            if WORDS && plain == 8 {
                plain = 0;
                let tail = b.get(at..).unwrap_or_default();
                at += super::find::memchr2(b'"', b'\\', tail).unwrap_or(tail.len());
            }
            continue;
        }
        plain = 0;
        let i = at + (m.trailing_zeros() / 8) as usize;
        if b.get(i) == Some(&b'"') {
            return (Some(i), escaped);
        }
        escaped = true;
        at = i + 2;
    }
}

/// `b` starts just after an opening quote: returns the string's text, whether
/// it holds an escape, and the bytes after the closing quote.
#[inline]
pub(crate) fn string(b: &[u8]) -> (&[u8], bool, &[u8]) {
    match closing_quote(b) {
        // `split_at_checked`, not `split_at`: the only panic path left in the
        // firmware (2.3 KB of panic formatting with panic-semihosting).
        (Some(at), escaped) => match b.split_at_checked(at) {
            Some((text, rest)) => (text, escaped, rest.get(1..).unwrap_or_default()),
            None => (b, escaped, &[][..]),
        },
        (None, escaped) => (b, escaped, &[][..]),
    }
}

/// `b` starts at a value: returns the value's text and what follows it.
pub(crate) fn value(b: &[u8]) -> (&[u8], &[u8]) {
    let Some((&first, tail)) = b.split_first() else {
        return (b, b);
    };
    let len = match first {
        b'"' => {
            let (text, _, _) = string(tail);
            text.len() + 2
        }
        b'[' | b'{' => {
            let mut depth = 0usize;
            let mut at = 0usize;
            loop {
                let Some(&c) = b.get(at) else { break b.len() };
                at += 1;
                match c {
                    b'[' | b'{' => depth += 1,
                    b']' | b'}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break at;
                        }
                    }
                    b'"' => {
                        let (text, _, _) = string(b.get(at..).unwrap_or_default());
                        at += text.len() + 1;
                    }
                    _ => {}
                }
            }
        }
        _ => b
            .iter()
            .position(|&c| matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
            .unwrap_or(b.len()),
    };
    b.split_at(len.min(b.len()))
}

/// `b` is inside an array, after `[` or after an element: returns the next
/// element and the bytes after it, or `None` at `]`.
pub(crate) fn next_element(b: &[u8]) -> Option<(&[u8], &[u8])> {
    element_start(b).map(value)
}

/// `b` is inside an array, after `[` or after an element: the bytes from
/// the next element on, or `None` at `]`.
#[inline]
pub(crate) fn element_start(b: &[u8]) -> Option<&[u8]> {
    let mut b = ws(b);
    match b.split_first() {
        Some((b',', rest)) => b = ws(rest),
        Some((b']', _)) | None => return None,
        Some(_) => {}
    }
    if matches!(b.first(), Some(b']') | None) {
        return None;
    }
    Some(b)
}

/// `b` starts just after a backslash of a validated string: returns the
/// character and the rest. Never fails; defects (impossible after
/// validation) decode as U+FFFD.
pub(crate) fn decode_escape(b: &[u8]) -> (char, &[u8]) {
    let Some((&e, rest)) = b.split_first() else {
        return ('\u{fffd}', b);
    };
    let c = match e {
        b'u' => {
            let Ok(hi) = lex::hex4(rest) else {
                return ('\u{fffd}', rest);
            };
            let after = rest.get(4..).unwrap_or_default();
            if lex::utf16(hi) == Utf16::High
                && let Some((b"\\u", low)) = after.split_at_checked(2)
                && let Ok(lo) = lex::hex4(low)
                && let Some(c) = lex::pair(hi, lo)
            {
                return (c, after.get(6..).unwrap_or_default());
            }
            // A lone surrogate (impossible after validation) is no `char`.
            return (char::from_u32(u32::from(hi)).unwrap_or('\u{fffd}'), after);
        }
        _ => lex::escape(e).map_or('\u{fffd}', char::from),
    };
    (c, rest)
}

/// Validated escaped text, known to be UTF-8 (a `str`), split at its first
/// escape: the run before it, the escape's character and the text after
/// it; `None` when no escape is left. Every split falls on an ASCII byte (a
/// backslash, or the byte after an escape), so the slices never fail.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn split_escape(text: &str) -> Option<(&str, char, &str)> {
    let b = text.as_bytes();
    let i = backslash(b)?;
    let (c, rest) = decode_escape(b.get(i + 1..)?);
    let after = b.len() - rest.len();
    Some((text.get(..i)?, c, text.get(after..)?))
}

/// Index of the first backslash of `b`: in the first block by one vector
/// compare ([`find::backslashes`](super::find::backslashes)), which finds
/// the next escape of escape-dense text without a call, then `memchr`.
#[cfg(feature = "alloc")]
#[inline]
fn backslash(b: &[u8]) -> Option<usize> {
    let Some(block) = b.first_chunk::<16>() else {
        return super::find::memchr(b'\\', b);
    };
    match super::find::backslashes(*block) {
        0 => super::find::memchr(b'\\', b.get(16..)?).map(|i| i + 16),
        m => Some(m.trailing_zeros() as usize),
    }
}

/// The code point of a `\uXXXX` escape at `r` (the backslash), or of a
/// `\uD8xx\uDCxx` surrogate pair, and the escape's length; `None` for
/// anything else (a lone surrogate: `decode_escape` decides).
#[inline]
fn unicode_escape(raw: &[u8], r: usize) -> Option<(u32, usize)> {
    let (b'u', digits) = raw.get(r + 1..)?.split_first()? else {
        return None;
    };
    let cp = lex::hex4(digits).ok()?;
    match lex::utf16(cp) {
        Utf16::Scalar => return Some((u32::from(cp), 6)),
        Utf16::Low => return None,
        Utf16::High => {}
    }
    let (b"\\u", low) = digits.get(4..)?.split_at_checked(2)? else {
        return None;
    };
    let c = lex::pair(cp, lex::hex4(low).ok()?)?;
    Some((u32::from(c), 12))
}

/// Unescapes the text of a validated escaped string into `out`; returns
/// the length written, or `None` when `out` runs out of room (the caller
/// then takes the careful path). Runs between escapes are copied a block at
/// a time (whole blocks are stored, then the cursor moves past the run
/// only), long runs with `memchr` and `copy_from_slice`: on hosts
/// ([`HOST`](super::find::HOST)) 16-byte blocks, their backslashes found by
/// one vector compare ([`find::backslashes`](super::find::backslashes)),
/// elsewhere 8-byte words.
#[inline]
pub(crate) fn unescape(raw: &[u8], out: &mut [u8]) -> Option<usize> {
    unescape_in::<{ super::find::HOST }>(raw, out)
}

/// [`unescape`]; `BLOCKS` selects the hosts' lane.
fn unescape_in<const BLOCKS: bool>(raw: &[u8], out: &mut [u8]) -> Option<usize> {
    let mut r = 0usize;
    let mut w = 0usize;
    loop {
        // Copy the run before the next backslash.
        'run: {
            let mut words = 0u32;
            if BLOCKS {
                loop {
                    let src = raw.get(r..r + 16).and_then(<[u8]>::first_chunk::<16>);
                    let dst = out
                        .get_mut(w..w + 16)
                        .and_then(<[u8]>::first_chunk_mut::<16>);
                    let (Some(src), Some(dst)) = (src, dst) else {
                        // Fewer than 16 bytes left: the words' loop.
                        break;
                    };
                    *dst = *src;
                    let m = super::find::backslashes(*src);
                    if m != 0 {
                        let n = m.trailing_zeros() as usize;
                        r += n;
                        w += n;
                        break 'run;
                    }
                    r += 16;
                    w += 16;
                    words += 1;
                    if words == 4 {
                        break;
                    }
                }
            }
            loop {
                let src = raw.get(r..).and_then(<[u8]>::first_chunk::<8>);
                let dst = out.get_mut(w..).and_then(<[u8]>::first_chunk_mut::<8>);
                let (Some(src), Some(dst)) = (src, dst) else {
                    while let Some(&c) = raw.get(r) {
                        if c == b'\\' {
                            break;
                        }
                        *out.get_mut(w)? = c;
                        r += 1;
                        w += 1;
                    }
                    break;
                };
                *dst = *src;
                let m = eq_mask(u64::from_le_bytes(*src), b'\\');
                if m != 0 {
                    let n = (m.trailing_zeros() / 8) as usize;
                    r += n;
                    w += n;
                    break;
                }
                r += 8;
                w += 8;
                words += 1;
                if words >= 4 {
                    // A long run: find its end with memchr, copy it in one go.
                    let tail = raw.get(r..).unwrap_or_default();
                    let n = super::find::memchr(b'\\', tail).unwrap_or(tail.len());
                    out.get_mut(w..w + n)?.copy_from_slice(tail.get(..n)?);
                    r += n;
                    w += n;
                    break;
                }
            }
        }
        // At a backslash, or at the end.
        let Some(&e) = raw.get(r + 1) else {
            return if r >= raw.len() { Some(w) } else { None };
        };
        if let Some(simple) = lex::escape(e) {
            *out.get_mut(w)? = simple;
            r += 2;
            w += 1;
        } else if let Some((cp, len)) = unicode_escape(raw, r) {
            // Written as one to four bytes of UTF-8. (Lint: every cast
            // below keeps bits that fit a byte.)
            #[allow(clippy::cast_possible_truncation)]
            if cp < 0x80 {
                *out.get_mut(w)? = cp as u8;
                w += 1;
            } else if cp < 0x800 {
                *out.get_mut(w..w + 2)?.first_chunk_mut::<2>()? =
                    [0xC0 | (cp >> 6) as u8, 0x80 | (cp & 0x3F) as u8];
                w += 2;
            } else if cp < 0x1_0000 {
                *out.get_mut(w..w + 3)?.first_chunk_mut::<3>()? = [
                    0xE0 | (cp >> 12) as u8,
                    0x80 | ((cp >> 6) & 0x3F) as u8,
                    0x80 | (cp & 0x3F) as u8,
                ];
                w += 3;
            } else {
                *out.get_mut(w..w + 4)?.first_chunk_mut::<4>()? = [
                    0xF0 | (cp >> 18) as u8,
                    0x80 | ((cp >> 12) & 0x3F) as u8,
                    0x80 | ((cp >> 6) & 0x3F) as u8,
                    0x80 | (cp & 0x3F) as u8,
                ];
                w += 4;
            }
            r += len;
        } else {
            let tail = raw.get(r + 1..).unwrap_or_default();
            let (c, rest) = decode_escape(tail);
            let n = c.len_utf8();
            c.encode_utf8(out.get_mut(w..w + n)?);
            r = raw.len() - rest.len();
            w += n;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use super::*;
    use std::{vec, vec::Vec};

    #[test]
    fn ws_call_agrees_with_the_loop() {
        for b in [&b""[..], b"x", b" \t\r\n{", b"\x0b", b"   "] {
            assert_eq!(ws_call(b), ws_loop(b));
        }
    }

    /// The unescaper's block lane (hosts) writes what its word lane
    /// (microcontrollers) writes, and runs out of room where it does, on
    /// validated escaped text of every kind, into every length of buffer.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn unescape_blocks_agree_with_words() {
        const PIECES: [&[u8]; 12] = [
            b"a",
            b"0123456789abcdef",
            b"xyz ",
            "é".as_bytes(),
            b"\\n",
            b"\\\"",
            b"\\\\",
            b"\\/",
            b"\\u00e9",
            b"\\u0041",
            b"\\ud83d\\ude00",
            b"\\t",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..4000 {
            crate::json::xorshift(&mut seed);
            let mut raw = Vec::new();
            let mut r = seed;
            for _ in 0..seed % 16 {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let piece = PIECES[(r >> 33) as usize % PIECES.len()];
                for _ in 0..=(r >> 60) % 8 {
                    raw.extend_from_slice(piece);
                }
            }
            for len in 0..=raw.len() + 1 {
                let (mut a, mut b) = (vec![0u8; len], vec![0u8; len]);
                let blocks = unescape_in::<true>(&raw, &mut a);
                let words = unescape_in::<false>(&raw, &mut b);
                assert_eq!(blocks, words, "{raw:?} into {len}");
                if let Some(n) = blocks {
                    assert_eq!(a[..n], b[..n], "{raw:?} into {len}");
                }
            }
        }
    }

    /// The byte-at-a-time search of microcontrollers finds what the word
    /// search of hosts finds, on every input (validated or not).
    #[test]
    #[cfg_attr(miri, ignore)]
    fn closing_quote_bytes_agree_with_words() {
        const BYTES: [u8; 8] = [b'"', b'\\', b'a', b'u', b'0', 0xC3, 0xA9, 0x01];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200_000 {
            crate::json::xorshift(&mut seed);
            let len = (seed % 90) as usize;
            let mut b = [0u8; 90];
            let mut r = seed;
            for x in &mut b[..len] {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                // Mostly plain bytes, so that long runs occur.
                let k = (r >> 59) as usize;
                *x = if k < 8 { BYTES[k] } else { b'a' };
            }
            let b = &b[..len];
            assert_eq!(
                closing_quote_in::<true>(b),
                closing_quote_in::<false>(b),
                "{b:?}"
            );
        }
    }
}
