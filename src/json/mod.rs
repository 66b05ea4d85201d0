//! JSON: the validating scanner, the walker over validated text, and the
//! borrowed string and value types.

pub(crate) mod find;
pub(crate) mod lex;
pub(crate) mod number;
pub(crate) mod scan;
pub(crate) mod shape;
pub(crate) mod skip;
pub(crate) mod str;

/// One step of xorshift64 (shifts 13, 7, 17), the new state: the unit
/// tests' one deterministic source of generated inputs.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}
