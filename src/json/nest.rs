//! The rules of nesting, each written once for every engine: the bit stack
//! of bracket kinds (one bit per open level, object or array), and what may
//! follow a comma inside a container.
//!
//! Where the commas, brackets and levels are is each engine's structure;
//! what they mean is asked here.

use crate::error::BodyErrorKind as K;

/// A word of the bit stacks of bracket kinds: pointer-sized, so that on
/// 32-bit microcontrollers the stacks are cleared by the 4-byte-aligned
/// `memclr` the firmware has anyway, not a second, 8-byte one (174 B).
/// On 64-bit hosts it is `u64`.
pub(crate) type Word = usize;

/// Levels (bits) per [`Word`].
pub(crate) const BITS: usize = Word::BITS as usize;

/// Records at bit `i` of `stack` whether the container open there is an
/// object (`obj`) or an array. A bit past the stack is not kept (the
/// engines bound their depth first).
#[inline]
pub(crate) fn set(stack: &mut [Word], i: usize, obj: bool) {
    if let Some(w) = stack.get_mut(i / BITS) {
        let mask = 1 << (i % BITS);
        if obj {
            *w |= mask;
        } else {
            *w &= !mask;
        }
    }
}

/// Whether the container recorded at bit `i` of `stack` is an object.
#[inline]
pub(crate) fn is_obj(stack: &[Word], i: usize) -> bool {
    stack
        .get(i / BITS)
        .is_some_and(|w| w >> (i % BITS) & 1 == 1)
}

/// What the byte `c` after a comma inside an object (whitespace skipped;
/// `None` at the end of the input) says: a key's quote goes on (`Ok`);
/// `}` is a trailing comma; anything else is no key (the end of the input:
/// [`Eof`](K::Eof)). The error is at `c`.
#[inline]
pub(crate) const fn after_object_comma(c: Option<u8>) -> Result<(), K> {
    match c {
        Some(b'"') => Ok(()),
        Some(b'}') => Err(K::TrailingComma),
        Some(_) => Err(K::KeyMustBeString),
        None => Err(K::Eof),
    }
}

/// What the byte `c` after a comma inside an array says: `]` is a trailing
/// comma (at `c`); anything else starts the next element, which the value's
/// own rules check (the end of the input among them).
#[inline]
pub(crate) const fn after_array_comma(c: Option<u8>) -> Result<(), K> {
    match c {
        Some(b']') => Err(K::TrailingComma),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_keep_each_level_apart() {
        let mut stack = [0 as Word; 3];
        let levels = 3 * BITS;
        for i in 0..levels {
            set(&mut stack, i, i % 3 == 0);
        }
        set(&mut stack, levels, true);
        for i in 0..levels {
            assert_eq!(is_obj(&stack, i), i % 3 == 0, "level {i}");
        }
        assert!(!is_obj(&stack, levels));
        set(&mut stack, 0, false);
        assert!(!is_obj(&stack, 0));
        assert!(!is_obj(&stack, 1) && !is_obj(&stack, 2) && is_obj(&stack, 3));
    }

    #[test]
    fn what_follows_a_comma() {
        assert_eq!(after_object_comma(Some(b'"')), Ok(()));
        assert_eq!(after_object_comma(Some(b'}')), Err(K::TrailingComma));
        assert_eq!(after_object_comma(Some(b']')), Err(K::KeyMustBeString));
        assert_eq!(after_object_comma(Some(b'1')), Err(K::KeyMustBeString));
        assert_eq!(after_object_comma(None), Err(K::Eof));
        assert_eq!(after_array_comma(Some(b']')), Err(K::TrailingComma));
        assert_eq!(after_array_comma(Some(b'}')), Ok(()));
        assert_eq!(after_array_comma(None), Ok(()));
    }
}
