//! JSON: the lexemes and shape rules written once, the validating scanner,
//! the value walker, the walker over validated text, and the borrowed
//! string and value types.
//!
//! The lexemes and rules that both engines (the whole-buffer [`scan`] and
//! the resumable machine in [`core`]) run, one copy each:
//!
//! * [`text`]: the string lexeme, the one loop over a string's text (the
//!   hosts' word masks and `memchr` jump, the microcontrollers' byte loop),
//!   and its resumable form ([`text::Cut`]) for strings cut by a chunk's
//!   end;
//! * [`lex`]: the one-character escape set, `\uXXXX`, surrogate pairing,
//!   and the whole escape check with its errors;
//! * [`nest`]: the bit stack of bracket kinds and what may follow a comma;
//! * [`number`]: the number lexeme (grammar, class and range), resumable at
//!   any byte;
//! * [`walk`]: the walk of a value the schema does not interpret (brackets,
//!   commas, colons inside it), in a whole-buffer lane and a resumable one;
//! * [`shape`]: the key matcher and the name tables ([`shape::Key`]), the
//!   content item verdict, the `cacheScope`, `ttlMs` and `code` rules.
//!
//! And the bodies' structure, in the same two lanes:
//!
//! * [`body`]: the top struct of a result, an error or a request (keys,
//!   colons, commas, brackets, the positional form, duplicate and missing
//!   fields) as a cursor that stops at each field's value, and what each
//!   typed field takes ([`body::take`]);
//! * [`items`]: the `contents` array and its content items.

pub(crate) mod body;
pub(crate) mod core;
pub(crate) mod event;
pub(crate) mod find;
pub(crate) mod items;
pub(crate) mod lex;
pub(crate) mod nest;
pub(crate) mod number;
pub(crate) mod scan;
pub(crate) mod shape;
pub(crate) mod skip;
pub(crate) mod str;
pub(crate) mod text;
pub(crate) mod walk;

/// One step of xorshift64 (shifts 13, 7, 17), the new state: the unit
/// tests' one deterministic source of generated inputs.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[cfg(test)]
extern crate std;

/// Token soup: `out` becomes `seed % most` tokens of `tokens`, each picked
/// by a linear congruential step from `seed`: the unit tests' generated
/// inputs of every kind, defects included.
#[cfg(test)]
pub(crate) fn soup(seed: u64, most: u64, tokens: &[&[u8]], out: &mut std::vec::Vec<u8>) {
    out.clear();
    let mut r = seed;
    for _ in 0..seed % most {
        r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        if let Some(token) = tokens.get((r >> 33) as usize % tokens.len()) {
            out.extend_from_slice(token);
        }
    }
}
