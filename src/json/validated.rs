//! Walking JSON that has already been validated: whitespace, a string's
//! extent, a value's extent, the elements of an array, the members and keys
//! of an object.
//!
//! Views re-read their input lazily. The decoder has already checked every
//! byte they touch, so these helpers assume well-formed JSON and never fail on
//! it. On input that was *not* validated they still cannot panic or loop: every
//! step moves forward or stops, and an unexpected byte ends the walk.

use super::borrowed::{JsonStr, RawJson};
use super::lex;

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
        if !lex::is_ws(c) {
            break;
        }
        b = rest;
    }
    b
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
        let m = super::find::eq_mask(w, b'"') | super::find::eq_mask(w, b'\\');
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
            .position(|&c| matches!(c, b',' | b']' | b'}') || lex::is_ws(c))
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

/// `b` is inside an object, after `{` or after a member: returns the next
/// member and the bytes after it, or `None` at `}`.
pub(crate) fn next_member(b: &[u8]) -> Option<(JsonStr<'_>, RawJson<'_>, &[u8])> {
    let (key, rest) = next_key(b)?;
    let (val, rest) = value(rest);
    Some((key, RawJson::new(val), rest))
}

/// `b` is inside an object, after `{` or after a member: returns the next
/// member's key and the bytes from its value on, or `None` at `}`.
#[inline]
pub(crate) fn next_key(b: &[u8]) -> Option<(JsonStr<'_>, &[u8])> {
    let mut b = ws(b);
    if let Some((b',', rest)) = b.split_first() {
        b = ws(rest);
    }
    let (b'"', rest) = b.split_first()? else {
        return None;
    };
    let (key, escaped, rest) = string(rest);
    let rest = ws(rest);
    let (b':', rest) = rest.split_first()? else {
        return None;
    };
    Some((JsonStr::new(key, escaped), ws(rest)))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use super::*;

    #[test]
    fn ws_call_agrees_with_the_loop() {
        for b in [&b""[..], b"x", b" \t\r\n{", b"\x0b", b"   "] {
            assert_eq!(ws_call(b), ws_loop(b));
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
