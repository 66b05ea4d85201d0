//! The lexemes of a JSON string's escapes, each written once: every engine
//! (the whole-buffer scanner, the resumable machine, the views' walker and
//! unescaper) asks these functions and restates none of their rules.
//!
//! - [`escape`]: the one-character escapes (`\"` `\\` `\/` `\b` `\f` `\n`
//!   `\r` `\t`) and the byte each stands for.
//!
//! Where a host lane (speed) and a compact lane (flash, on microcontrollers:
//! [`HOST`](super::find::HOST) false) differ, both live inside the one
//! function, the lane is chosen at compile time, and a test pins the two to
//! each other on every input.

/// The one-character escapes: each letter after the backslash, then the
/// byte it stands for. The only statement of the set.
const ESCAPES: &[u8; 16] = b"\"\"\\\\//b\x08f\x0cn\nr\rt\t";

/// The byte the one-character escape `\e` stands for (`e` is the byte after
/// the backslash): `Some(b'\n')` for `n`, `Some(b'"')` for `"`, …; `None`
/// for every byte that starts no one-character escape, `u` included.
///
/// A search of the 16-byte [`ESCAPES`] on hosts and microcontrollers alike.
/// On hosts it is inlined, and measured no slower than the `match`es and
/// the 256-byte table the engines had before (a table lookup in the
/// scanner's string loop took a register there, which cost three
/// instructions a word); on microcontrollers ([`HOST`](super::find::HOST)
/// false) it is one call, which the engines' five callers share.
#[inline]
pub(crate) fn escape(e: u8) -> Option<u8> {
    if super::find::HOST {
        escape_search(e)
    } else {
        escape_call(e)
    }
}

/// [`escape`] on microcontrollers: one copy of the search.
#[inline(never)]
fn escape_call(e: u8) -> Option<u8> {
    escape_search(e)
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;

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
            assert_eq!(escape_call(e), old, "{e:#04x}");
        }
    }
}
