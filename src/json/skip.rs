//! Walking JSON that has already been validated.
//!
//! Views re-read their input lazily. The decoder has already checked every
//! byte they touch, so these helpers assume well-formed JSON and never fail on
//! it. On input that was *not* validated they still cannot panic or loop: every
//! step moves forward or stops, and an unexpected byte ends the walk.

use super::str::{JsonStr, RawJson};

/// Skips JSON whitespace (space, tab, line feed, carriage return).
#[inline]
pub(crate) fn ws(mut b: &[u8]) -> &[u8] {
    while let Some((&c, rest)) = b.split_first() {
        if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            break;
        }
        b = rest;
    }
    b
}

/// `b` starts just after an opening quote: returns the string's text, whether
/// it holds an escape, and the bytes after the closing quote.
#[inline]
pub(crate) fn string(b: &[u8]) -> (&[u8], bool, &[u8]) {
    let mut at = 0usize;
    let mut escaped = false;
    loop {
        let Some(tail) = b.get(at..) else {
            return (b, escaped, &[]);
        };
        match memchr::memchr2(b'"', b'\\', tail) {
            Some(i) => {
                at += i;
                if b.get(at) == Some(&b'"') {
                    let (text, rest) = b.split_at(at);
                    return (text, escaped, rest.get(1..).unwrap_or_default());
                }
                escaped = true;
                at += 2; // the backslash and the byte it escapes
            }
            None => return (b, escaped, &[]),
        }
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

/// `b` is inside an object, after `{` or after a member: returns the next
/// member and the bytes after it, or `None` at `}`.
pub(crate) fn next_member(b: &[u8]) -> Option<(JsonStr<'_>, RawJson<'_>, &[u8])> {
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
    let (val, rest) = value(ws(rest));
    Some((JsonStr::new(key, escaped), RawJson::new(val), rest))
}

/// `b` is inside an array, after `[` or after an element: returns the next
/// element and the bytes after it, or `None` at `]`.
pub(crate) fn next_element(b: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut b = ws(b);
    match b.split_first() {
        Some((b',', rest)) => b = ws(rest),
        Some((b']', _)) | None => return None,
        Some(_) => {}
    }
    if matches!(b.first(), Some(b']') | None) {
        return None;
    }
    Some(value(b))
}

fn hex4(b: &[u8]) -> Option<u16> {
    let digits = b.get(..4)?;
    let mut n = 0u16;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        n = (n << 4) | u16::from(v);
    }
    Some(n)
}

/// `b` starts just after a backslash of a validated string: returns the
/// character and the rest. Never fails; defects (impossible after
/// validation) decode as U+FFFD.
pub(crate) fn decode_escape(b: &[u8]) -> (char, &[u8]) {
    let Some((&e, rest)) = b.split_first() else {
        return ('\u{fffd}', b);
    };
    let c = match e {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let Some(hi) = hex4(rest) else {
                return ('\u{fffd}', rest);
            };
            let after = rest.get(4..).unwrap_or_default();
            if (0xD800..0xDC00).contains(&hi)
                && let Some(lo) = after.strip_prefix(b"\\u").and_then(hex4)
                && (0xDC00..0xE000).contains(&lo)
            {
                let n = 0x1_0000 + ((u32::from(hi) - 0xD800) << 10) + (u32::from(lo) - 0xDC00);
                return (
                    char::from_u32(n).unwrap_or('\u{fffd}'),
                    after.get(6..).unwrap_or_default(),
                );
            }
            return (char::from_u32(u32::from(hi)).unwrap_or('\u{fffd}'), after);
        }
        _ => '\u{fffd}',
    };
    (c, rest)
}
