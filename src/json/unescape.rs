//! The unescaper of validated string text: one escape
//! ([`decode_escape`]), a text's runs between escapes ([`split_escape`],
//! under `alloc`), and a whole text into a buffer ([`unescape`]).
//!
//! Like the walker over validated text ([`validated`](super::validated)),
//! it assumes text the string lexeme has accepted and never fails on it; on
//! other input it cannot panic or loop, and a defect decodes as U+FFFD.

use super::lex::{self, Utf16};

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
                let m = super::find::eq_mask(u64::from_le_bytes(*src), b'\\');
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
}
