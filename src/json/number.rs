//! The number lexeme, written once: serde_json's number grammar, its
//! classification (`parse_integer`) and its range check (`f64_from_parts`
//! without `float_roundtrip`), resumable at any byte.
//!
//! [`Number`] is the one reader of numbers. The whole-buffer scanner runs it
//! over the rest of the buffer as the last bytes (it never suspends there);
//! the streaming machine runs it over each chunk and keeps its state when a
//! chunk ends inside a number. Both strengths are one loop: **full** (typed
//! fields and `Value`s: the significand and exponent are kept and the range
//! is checked) and **syntax** (ignored values, serde_json's
//! `ignore_integer`: grammar only).
//!
//! Its digit loops take the significand the way serde_json's chain of
//! `parse_integer`, `parse_long_integer`, `parse_decimal` and
//! `parse_exponent` does, in one accumulator: integer digits go into the
//! significand until one would overflow `u64`, then each counts one power of
//! ten; fraction digits go in (one power of ten less each) until one would
//! overflow, then are dropped (the fraction tries again from its first
//! digit, as `parse_decimal` does after `parse_long_integer`).

use super::find;
use crate::error::{BodyError, BodyErrorKind as K};

/// A number as serde_json's `parse_integer` classifies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Num {
    /// A non-negative integer literal that fits `u64`.
    U64(u64),
    /// A negative integer literal that fits `i64` (never `-0`).
    I64(i64),
    /// Anything else that is in range: a fraction, an exponent, `-0`, or an
    /// integer too large for the types above.
    F64,
}

/// Where a [`Number`] is in the grammar. The phases where a byte must
/// still come (the end of the input there is an error) come first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Phase {
    /// At the first byte: `-` or a digit.
    Sign,
    /// A first integer digit must follow (after `-`, or at the start).
    First,
    /// After `.`: a digit must follow.
    FracFirst,
    /// After `e` or `E`: a sign or a digit.
    ExpSign,
    /// A first exponent digit must follow.
    ExpFirst,
    /// After a leading `0`: no digit may follow.
    Zero,
    /// Integer digits.
    Int,
    /// Fraction digits.
    Frac,
    /// Exponent digits.
    Exp,
}

/// One number being read: the number lexeme, resumable at any byte, in a
/// fixed 32 bytes (on 32-bit targets too: the significand aligns it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Number {
    phase: Phase,
    /// Range checked and classified (typed values), or grammar only.
    full: bool,
    negative: bool,
    /// Not an integer literal that fits: a fraction, an exponent, or an
    /// integer past `u64`.
    float: bool,
    /// The significand stopped taking digits (in the current part).
    overflowed: bool,
    exp_negative: bool,
    /// The exponent passed `i32` on a value that stays in range: its other
    /// digits are skipped and the value is a float, as in serde_json.
    exp_skip: bool,
    significand: u64,
    /// The significand's power of ten so far (integer digits past it count
    /// +1, fraction digits in it -1).
    exponent: i32,
    /// The exponent part's digits.
    exp: i32,
    /// Absolute offset of the first byte (where a range error is reported).
    start: usize,
}

impl Number {
    /// A number whose first byte (`-` or a digit) is at absolute offset
    /// `start`; `full` for a typed value, else grammar only.
    #[inline]
    pub(crate) const fn new(start: usize, full: bool) -> Self {
        Self {
            phase: Phase::Sign,
            full,
            negative: false,
            float: false,
            overflowed: false,
            exp_negative: false,
            exp_skip: false,
            significand: 0,
            exponent: 0,
            exp: 0,
            start,
        }
    }

    /// Reads the number on from `bytes[i]`; `bytes[0]` is at absolute
    /// offset `base`, and with `eof` the input ends after `bytes`.
    ///
    /// `Ok(Some(end))`: the number ended before `bytes[end]` (or at the end
    /// of the input); then [`finish`](Self::finish) gives its class.
    /// `Ok(None)`: `bytes` ran out inside it (only without `eof`); every
    /// byte is taken, and the next chunk goes on from its first byte.
    /// `Err`: serde_json's error there: a missing digit is
    /// [`InvalidNumber`](K::InvalidNumber) at the byte where it was wanted
    /// ([`Eof`](K::Eof) at the end of the input when full: serde_json's
    /// ignore path reads the missing byte as a NUL), a digit after a leading
    /// zero `InvalidNumber` at it, an exponent past `i32` on a nonzero value
    /// [`NumberOutOfRange`](K::NumberOutOfRange) at the start.
    #[inline]
    pub(crate) fn lex(
        &mut self,
        bytes: &[u8],
        i: usize,
        base: usize,
        eof: bool,
    ) -> Result<Option<usize>, BodyError> {
        if find::HOST
            && self.phase == Phase::Sign
            && let Some(end) = self.short_integer(bytes, i)
        {
            return Ok(Some(end));
        }
        self.lex_on(bytes, i, base, eof)
    }

    /// The hosts' lane for the commonest number, taken only from its first
    /// byte: an integer literal of at most 19 digits (no `u64` overflow is
    /// possible) whose end is inside `bytes`, read in locals. Anything else
    /// (a fraction, an exponent, a leading zero with more digits, more
    /// digits, or the end of `bytes` first) changes nothing and is left to
    /// [`lex_on`](Self::lex_on), which reads it from its first byte: the
    /// same answer (a test compares the two on every short text).
    #[inline]
    fn short_integer(&mut self, bytes: &[u8], i: usize) -> Option<usize> {
        let negative = bytes.get(i) == Some(&b'-');
        let from = i + usize::from(negative);
        let mut j = from;
        let mut sig = 0u64;
        while let Some(&d) = bytes.get(j) {
            if !d.is_ascii_digit() {
                break;
            }
            sig = sig.wrapping_mul(10).wrapping_add(u64::from(d - b'0'));
            j += 1;
        }
        let n = j - from;
        let next = *bytes.get(j)?;
        if n == 0
            || n > 19
            || (n > 1 && bytes.get(from) == Some(&b'0'))
            || matches!(next, b'.' | b'e' | b'E')
        {
            return None;
        }
        self.negative = negative;
        self.significand = sig;
        self.phase = Phase::Int;
        Some(j)
    }

    /// [`lex`](Self::lex) through the phases ([`step`](Self::step)) as one
    /// function: a number resumed in a later chunk, and on hosts every
    /// number past [`short_integer`](Self::short_integer)'s lane.
    #[inline(never)]
    fn lex_on(
        &mut self,
        bytes: &[u8],
        i: usize,
        base: usize,
        eof: bool,
    ) -> Result<Option<usize>, BodyError> {
        self.step(bytes, i, base, eof)
    }

    /// The whole-buffer lane of the lexeme: the number that starts at
    /// `bytes[i]`, with the input ending after `bytes`: where it ends and
    /// its class (full) or [`Num::F64`] (syntax), or the error. The same
    /// loop ([`step`](Self::step)) and class ([`class`](Self::class)) over a
    /// local [`Number`] that never leaves the function, so that its state
    /// lives in registers: the microcontrollers' whole-buffer decode calls
    /// it (measured on the same job: 140 B of flash less at opt-level `z`
    /// than [`lex_on`](Self::lex_on) and [`finish`](Self::finish) over a
    /// number in memory).
    #[inline(always)]
    pub(crate) fn whole(bytes: &[u8], i: usize, full: bool) -> Result<(usize, Num), BodyError> {
        let mut n = Self::new(i, full);
        let end = n.step(bytes, i, 0, true)?.unwrap_or(bytes.len());
        Ok((end, n.class()?))
    }

    /// The lexeme's loop: every number, from any byte of it, one byte a
    /// turn. A digit goes to the part its phase is in; any other byte moves
    /// the phase on, ends the number, or is the grammar's error (one exit,
    /// at the byte at `i`), so that microcontrollers link a small loop.
    // Forced: as a call it saved the stream path 368 B of flash but cost a
    // result decode 56 B of stack on thumb (measured).
    #[inline(always)]
    fn step(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        base: usize,
        eof: bool,
    ) -> Result<Option<usize>, BodyError> {
        let kind = loop {
            let phase = self.phase;
            let Some(&c) = bytes.get(i) else {
                if !eof {
                    return Ok(None);
                }
                if phase <= Phase::ExpFirst {
                    break if self.full { K::Eof } else { K::InvalidNumber };
                }
                return Ok(Some(i));
            };
            if c.is_ascii_digit() {
                match phase {
                    // No digit after a leading zero.
                    Phase::Zero => break K::InvalidNumber,
                    // A leading `0` is a part of its own.
                    Phase::Sign | Phase::First if c == b'0' => self.phase = Phase::Zero,
                    Phase::ExpSign | Phase::ExpFirst | Phase::Exp => {
                        self.phase = Phase::Exp;
                        if self.full && !self.exp_skip {
                            let d = i32::from(c - b'0');
                            let exp = self.exp;
                            if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
                                if self.significand != 0 && !self.exp_negative {
                                    return Err(BodyError::new(K::NumberOutOfRange, self.start));
                                }
                                self.exp_skip = true;
                            } else {
                                self.exp = exp * 10 + d;
                            }
                        }
                    }
                    // Integer or fraction digits.
                    _ => {
                        let frac = matches!(phase, Phase::FracFirst | Phase::Frac);
                        let d = u64::from(c - b'0');
                        let sig = self.significand;
                        // `overflows` in one comparison (`u64::MAX` is
                        // `u64::MAX / 10 × 10 + 5`).
                        let over = self.overflowed || sig >= u64::MAX / 10 + u64::from(d <= 5);
                        if !over {
                            self.significand = sig * 10 + d;
                        }
                        self.exponent = self
                            .exponent
                            .wrapping_add(i32::from(over & !frac))
                            .wrapping_sub(i32::from(!over & frac));
                        self.overflowed = over;
                        self.float |= over;
                        self.phase = if frac { Phase::Frac } else { Phase::Int };
                    }
                }
            } else {
                match (phase, c) {
                    (Phase::Sign, b'-') => {
                        self.negative = true;
                        self.phase = Phase::First;
                    }
                    (Phase::ExpSign, b'-' | b'+') => {
                        self.exp_negative = c == b'-';
                        self.phase = Phase::ExpFirst;
                    }
                    (Phase::Zero | Phase::Int, b'.') => {
                        self.float = true;
                        self.overflowed = false;
                        self.phase = Phase::FracFirst;
                    }
                    (Phase::Zero | Phase::Int | Phase::Frac, b'e' | b'E') => {
                        self.float = true;
                        self.phase = Phase::ExpSign;
                    }
                    // A digit was wanted here.
                    _ if phase <= Phase::ExpFirst => break K::InvalidNumber,
                    _ => return Ok(Some(i)),
                }
            }
            i += 1;
        };
        Err(BodyError::new(kind, base + i))
    }

    /// The ended number's class, as serde_json's `parse_integer` gives it,
    /// or its range error (at its first byte). Grammar-only numbers are
    /// [`Num::F64`]. Not inlined: the machine asks it in three places.
    #[inline(never)]
    pub(crate) fn finish(&self) -> Result<Num, BodyError> {
        self.class()
    }

    /// [`finish`](Self::finish), inlined where it is called.
    #[inline(always)]
    fn class(&self) -> Result<Num, BodyError> {
        if !self.full {
            return Ok(Num::F64);
        }
        if !self.float {
            if !self.negative {
                return Ok(Num::U64(self.significand));
            }
            // Reinterpreting the bits is serde_json's own test for `-0` and
            // for magnitudes beyond i64.
            #[allow(clippy::cast_possible_wrap)]
            let neg = (self.significand as i64).wrapping_neg();
            return Ok(if neg >= 0 { Num::F64 } else { Num::I64(neg) });
        }
        if self.exp_skip {
            return Ok(Num::F64);
        }
        let exponent = if self.exp_negative {
            self.exponent.saturating_sub(self.exp)
        } else {
            self.exponent.saturating_add(self.exp)
        };
        f64_from_parts(self.significand, exponent, self.start).map(|()| Num::F64)
    }
}

/// serde_json's `overflow!(significand * 10 + digit, u64::MAX)`.
#[inline]
pub(crate) const fn overflows(significand: u64, digit: u64) -> bool {
    significand >= u64::MAX / 10 && (significand > u64::MAX / 10 || digit > u64::MAX % 10)
}

/// serde_json's `f64_from_parts` (without `float_roundtrip`), reduced to the
/// question it can fail on: is `significand × 10^exponent` out of `f64` range?
///
/// serde_json multiplies `significand as f64` by a table power of ten for a
/// non-negative exponent (failing on infinity, or beyond the table unless the
/// significand is 0) and only divides for a negative one, which never fails.
/// With `d` digits in the significand the value lies in
/// `[10^(d-1+e), 10^(d+e))`: finite whatever the rounding when `d + e ≤ 308`,
/// infinite when `d + e ≥ 310`. Only `d + e = 309` (so `e` in 289..=308)
/// needs serde_json's own multiplication; its answer is
/// `significand ≥ OVERFLOW_AT[e - 289]`, a table computed at compile time
/// from that very multiplication, so no floating point is left at run time
/// (on microcontrollers without an FPU it was 1 KB of soft-float code).
pub(crate) fn f64_from_parts(
    significand: u64,
    exponent: i32,
    start: usize,
) -> Result<(), BodyError> {
    let out_of_range = if super::find::HOST {
        out_of_range_by_digits(significand, exponent)
    } else {
        out_of_range_scaled(significand, exponent)
    };
    if out_of_range {
        Err(BodyError::new(K::NumberOutOfRange, start))
    } else {
        Ok(())
    }
}

/// [`f64_from_parts`]'s question on hosts: by the magnitude, and for
/// `d + e = 309` by [`OVERFLOW_AT`].
#[inline]
fn out_of_range_by_digits(significand: u64, exponent: i32) -> bool {
    if significand == 0 || exponent < 0 {
        return false;
    }
    match i64::from(exponent) + digits(significand) {
        ..=308 => false,
        309 => usize::try_from(exponent - 289)
            .ok()
            .and_then(|k| OVERFLOW_AT.get(k))
            .is_none_or(|&at| significand >= at),
        _ => true,
    }
}

/// [`out_of_range_by_digits`] on microcontrollers ([`HOST`](super::find::HOST)
/// false), without the 160-byte table and without counting digits (a test
/// checks both against the float oracle). A significand has at most 20
/// digits, so below `e = 289` the magnitude is at most 308: in range. For
/// `e = 289 + k` the answer is `significand × 10^k ≥` a bound: the product
/// is multiplied up one step at a time, and one that would pass `u64::MAX`
/// (so at least `1.8 × 10^19`, beyond every bound) is out of range; a
/// nonzero significand gets there within 20 steps. For `k` 0 to 2 the
/// bound is `OVERFLOW_AT[k] × 10^k`, which answers `significand ≥
/// OVERFLOW_AT[k]` whatever the digit count. From `k = 3` on it is
/// [`OVERFLOW_SCALED`], which answers for every magnitude: below 309 the
/// product is under `10^19`, above it at least `10^20`. The four bounds
/// are kept as their distances from the first ([`OVERFLOW_ABOVE`]).
#[inline]
fn out_of_range_scaled(significand: u64, exponent: i32) -> bool {
    let Ok(k) = usize::try_from(i64::from(exponent) - 289) else {
        return false;
    };
    if significand == 0 {
        return false;
    }
    let mut v = significand;
    for _ in 0..k {
        match v.checked_mul(10) {
            Some(x) => v = x,
            None => return true,
        }
    }
    let above = OVERFLOW_ABOVE.get(k).map_or(OVERFLOW_ABOVE[3], |&x| x);
    v >= OVERFLOW_AT[0] + u64::from(above)
}

/// The bounds of [`out_of_range_scaled`] less `OVERFLOW_AT[0]`: for `k` 0
/// to 2, `OVERFLOW_AT[k] × 10^k`, then [`OVERFLOW_SCALED`]. They share
/// their leading 16 digits, so a `u16` each is enough (the build fails if
/// one does not fit): 8 bytes of table instead of the 24 of
/// `OVERFLOW_AT[..3]` and two 64-bit constants.
// Evaluated at compile time: an index out of bounds or an overflow fails the build.
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)]
const OVERFLOW_ABOVE: [u16; 4] = {
    let bounds = [
        OVERFLOW_AT[0],
        OVERFLOW_AT[1] * 10,
        OVERFLOW_AT[2] * 100,
        OVERFLOW_SCALED,
    ];
    let mut t = [0u16; 4];
    let mut k = 0;
    while k < 4 {
        let above = bounds[k] - OVERFLOW_AT[0];
        assert!(above <= u16::MAX as u64);
        t[k] = above as u16;
        k += 1;
    }
    t
};

/// One bound `X` for `OVERFLOW_AT[k]`, `k` in 3..20, scaled: `n ≥
/// OVERFLOW_AT[k]` exactly when `n × 10^k ≥ X`, which holds for every `n`
/// when `(OVERFLOW_AT[k] - 1) × 10^k < X ≤ OVERFLOW_AT[k] × 10^k`. The least
/// such `X`, computed at compile time; the build fails if one `k`'s range
/// misses it (`k` 0 to 2 do, so they keep their bounds).
// Evaluated at compile time: an index out of bounds or an overflow fails the build.
#[allow(clippy::indexing_slicing, clippy::cast_possible_truncation)]
const OVERFLOW_SCALED: u64 = {
    let mut x = 0u128;
    let mut k = 3;
    while k < 20 {
        let low = (OVERFLOW_AT[k] as u128 - 1) * 10u128.pow(k as u32) + 1;
        if low > x {
            x = low;
        }
        k += 1;
    }
    let mut k = 3;
    while k < 20 {
        assert!(x <= OVERFLOW_AT[k] as u128 * 10u128.pow(k as u32));
        k += 1;
    }
    assert!(x <= u64::MAX as u128);
    x as u64
};

/// The number of decimal digits of `n` (at least 1), by comparisons only:
/// `ilog10` on a `u64` divides, which on 32-bit microcontrollers pulls in
/// the 64-bit division routine (about 0.9 KB of flash) for this one use.
#[inline]
fn digits(n: u64) -> i64 {
    let mut d = 1;
    let mut bound = 10u64;
    while n >= bound {
        d += 1;
        match bound.checked_mul(10) {
            Some(b) => bound = b,
            None => break,
        }
    }
    d
}

/// `1e289` to `1e308`, the powers serde_json's table holds for them.
const POW10_289_TO_308: [f64; 20] = [
    1e289, 1e290, 1e291, 1e292, 1e293, 1e294, 1e295, 1e296, 1e297, 1e298, 1e299, 1e300, 1e301,
    1e302, 1e303, 1e304, 1e305, 1e306, 1e307, 1e308,
];

/// For `e` in 289..=308 (index `e - 289`): the least `n: u64` for which
/// serde_json's `n as f64 * 1e{e}` is infinite. Rounding is monotone, so
/// the product is infinite exactly for `n ≥` this bound, and a binary search
/// over `u64` with the very expression finds it; it runs at compile time
/// (IEEE arithmetic, round to nearest, as at run time), so only the 20
/// integers reach the binary.
// Evaluated at compile time: an index out of bounds fails the build.
#[allow(clippy::indexing_slicing, clippy::cast_precision_loss)]
const OVERFLOW_AT: [u64; 20] = {
    let mut t = [0u64; 20];
    let mut i = 0;
    while i < 20 {
        let pow = POW10_289_TO_308[i];
        // Invariant: `lo as f64 * pow` finite, `hi as f64 * pow` infinite
        // (0 and `u64::MAX` ≈ 1.8e19, times at least 1e289).
        let (mut lo, mut hi) = (0u64, u64::MAX);
        assert!((hi as f64 * pow).is_infinite());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if (mid as f64 * pow).is_infinite() {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        t[i] = hi;
        i += 1;
    }
    t
};

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec;
    use std::vec::Vec;

    use super::*;

    #[test]
    fn the_state_is_small() {
        // Kept in the streaming machine between chunks.
        assert_eq!(core::mem::size_of::<Number>(), 32);
    }

    /// serde_json's number functions (`parse_integer`, `parse_long_integer`,
    /// `parse_decimal`, `parse_exponent`, `ignore_integer`) transcribed as
    /// this crate had them before the one lexeme: the oracle of its tests.
    struct Chain<'a> {
        buf: &'a [u8],
        pos: usize,
    }

    #[allow(clippy::needless_pass_by_ref_mut)]
    impl Chain<'_> {
        fn peek(&self) -> Option<u8> {
            self.buf.get(self.pos).copied()
        }

        fn err(&self, kind: K) -> BodyError {
            BodyError::new(kind, self.pos)
        }

        fn expected(&self, kind: K) -> BodyError {
            if self.pos >= self.buf.len() {
                self.err(K::Eof)
            } else {
                self.err(kind)
            }
        }

        #[inline]
        fn digit(&self) -> Option<u8> {
            match self.peek() {
                Some(c @ b'0'..=b'9') => Some(c - b'0'),
                _ => None,
            }
        }

        fn skip_digits(&mut self) {
            while self.digit().is_some() {
                self.pos += 1;
            }
        }

        /// Number grammar only (serde_json's `ignore_integer`). `pos` is at `-`
        /// or a digit. A number cut short by the end of the input is an
        /// `InvalidNumber` here, not an `Eof`: serde_json's ignore path reads
        /// the missing digit as a NUL (`next_char_or_null`), while a typed
        /// number (and a `Value`) reports the end.
        fn skip_number(&mut self) -> Result<(), BodyError> {
            if self.peek() == Some(b'-') {
                self.pos += 1;
            }
            match self.peek() {
                Some(b'0') => {
                    self.pos += 1;
                    if self.digit().is_some() {
                        return Err(self.err(K::InvalidNumber));
                    }
                }
                Some(b'1'..=b'9') => self.skip_digits(),
                _ => return Err(self.err(K::InvalidNumber)),
            }
            if self.peek() == Some(b'.') {
                self.pos += 1;
                if self.digit().is_none() {
                    return Err(self.err(K::InvalidNumber));
                }
                self.skip_digits();
            }
            if matches!(self.peek(), Some(b'e' | b'E')) {
                self.pos += 1;
                if matches!(self.peek(), Some(b'+' | b'-')) {
                    self.pos += 1;
                }
                if self.digit().is_none() {
                    return Err(self.err(K::InvalidNumber));
                }
                self.skip_digits();
            }
            Ok(())
        }

        /// [`number`](Self::number) as serde_json writes it.
        fn number_split(&mut self) -> Result<Num, BodyError> {
            let start = self.pos;
            let positive = if self.peek() == Some(b'-') {
                self.pos += 1;
                false
            } else {
                true
            };
            let mut significand: u64 = match self.peek() {
                Some(b'0') => {
                    self.pos += 1;
                    if self.digit().is_some() {
                        return Err(self.err(K::InvalidNumber));
                    }
                    0
                }
                Some(c @ b'1'..=b'9') => {
                    self.pos += 1;
                    u64::from(c - b'0')
                }
                _ => return Err(self.expected(K::InvalidNumber)),
            };
            if significand != 0 {
                while let Some(d) = self.digit() {
                    let d = u64::from(d);
                    if overflows(significand, d) {
                        self.long_integer(start, positive, significand)?;
                        return Ok(Num::F64);
                    }
                    self.pos += 1;
                    significand = significand * 10 + d;
                }
            }
            match self.peek() {
                Some(b'.') => {
                    self.decimal(start, positive, significand, 0)?;
                    Ok(Num::F64)
                }
                Some(b'e' | b'E') => {
                    self.exponent(start, positive, significand, 0)?;
                    Ok(Num::F64)
                }
                _ if positive => Ok(Num::U64(significand)),
                _ => {
                    // Reinterpreting the bits is serde_json's own test for `-0`
                    // and for magnitudes beyond i64.
                    #[allow(clippy::cast_possible_wrap)]
                    let neg = (significand as i64).wrapping_neg();
                    Ok(if neg >= 0 { Num::F64 } else { Num::I64(neg) })
                }
            }
        }

        fn long_integer(
            &mut self,
            start: usize,
            positive: bool,
            significand: u64,
        ) -> Result<(), BodyError> {
            let mut exponent: i32 = 0;
            loop {
                match self.peek() {
                    Some(b'0'..=b'9') => {
                        self.pos += 1;
                        exponent = exponent.wrapping_add(1);
                    }
                    Some(b'.') => return self.decimal(start, positive, significand, exponent),
                    Some(b'e' | b'E') => {
                        return self.exponent(start, positive, significand, exponent);
                    }
                    _ => return f64_from_parts(significand, exponent, start),
                }
            }
        }

        fn decimal(
            &mut self,
            start: usize,
            positive: bool,
            mut significand: u64,
            before: i32,
        ) -> Result<(), BodyError> {
            self.pos += 1; // '.'
            let mut after: i32 = 0;
            while let Some(d) = self.digit() {
                let d = u64::from(d);
                if overflows(significand, d) {
                    let exponent = before.wrapping_add(after);
                    self.skip_digits();
                    return match self.peek() {
                        Some(b'e' | b'E') => self.exponent(start, positive, significand, exponent),
                        _ => f64_from_parts(significand, exponent, start),
                    };
                }
                self.pos += 1;
                significand = significand * 10 + d;
                after = after.wrapping_sub(1);
            }
            if after == 0 {
                return Err(self.expected(K::InvalidNumber));
            }
            let exponent = before.wrapping_add(after);
            match self.peek() {
                Some(b'e' | b'E') => self.exponent(start, positive, significand, exponent),
                _ => f64_from_parts(significand, exponent, start),
            }
        }

        fn exponent(
            &mut self,
            start: usize,
            _positive: bool,
            significand: u64,
            starting: i32,
        ) -> Result<(), BodyError> {
            self.pos += 1; // 'e' | 'E'
            let positive_exp = match self.peek() {
                Some(b'+') => {
                    self.pos += 1;
                    true
                }
                Some(b'-') => {
                    self.pos += 1;
                    false
                }
                _ => true,
            };
            let Some(first) = self.digit() else {
                return Err(self.expected(K::InvalidNumber));
            };
            self.pos += 1;
            let mut exp = i32::from(first);
            while let Some(d) = self.digit() {
                self.pos += 1;
                let d = i32::from(d);
                if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || d > i32::MAX % 10) {
                    if significand != 0 && positive_exp {
                        return Err(BodyError::new(K::NumberOutOfRange, start));
                    }
                    self.skip_digits();
                    return Ok(());
                }
                exp = exp * 10 + d;
            }
            let exponent = if positive_exp {
                starting.saturating_add(exp)
            } else {
                starting.saturating_sub(exp)
            };
            f64_from_parts(significand, exponent, start)
        }
    }

    /// The lexeme over all of `bytes` as the last bytes: the end and the
    /// class (full) or `()` (syntax), or the error.
    fn whole(bytes: &[u8], full: bool) -> Result<(usize, Num), BodyError> {
        let mut n = Number::new(0, full);
        let end = n.lex(bytes, 0, 0, true)?.unwrap_or(bytes.len());
        Ok((end, n.finish()?))
    }

    /// The lexeme fed `bytes` cut at `cuts` (ascending): the same answer.
    fn pieces(bytes: &[u8], full: bool, cuts: &[usize]) -> Result<(usize, Num), BodyError> {
        let mut n = Number::new(0, full);
        let mut from = 0;
        for &cut in cuts.iter().chain(core::iter::once(&bytes.len())) {
            let eof = cut == bytes.len();
            let chunk = &bytes[from..cut];
            match n.lex(chunk, 0, from, eof)? {
                Some(end) => return Ok((from + end, n.finish()?)),
                None => assert!(!eof, "no answer at the end"),
            }
            from = cut;
        }
        unreachable!()
    }

    fn num(text: &str) -> Result<Num, K> {
        let (end, n) = whole(text.as_bytes(), true).map_err(|e| e.kind())?;
        assert_eq!(end, text.len(), "{text}: number stopped early");
        Ok(n)
    }

    #[test]
    fn numbers_are_classified_like_serde_json() {
        assert_eq!(num("0"), Ok(Num::U64(0)));
        assert_eq!(num("18446744073709551615"), Ok(Num::U64(u64::MAX)));
        assert_eq!(num("-9223372036854775808"), Ok(Num::I64(i64::MIN)));
        assert_eq!(num("-1"), Ok(Num::I64(-1)));
        // `-0` and magnitudes past i64 become floats in serde_json.
        assert_eq!(num("-0"), Ok(Num::F64));
        assert_eq!(num("-9223372036854775809"), Ok(Num::F64));
        assert_eq!(num("18446744073709551616"), Ok(Num::F64));
        assert_eq!(num("1.0"), Ok(Num::F64));
        assert_eq!(num("1e3"), Ok(Num::F64));
    }

    /// The float `f64_from_parts` this module had before `OVERFLOW_AT`
    /// (serde_json's multiplication itself): the oracle for the integer one.
    fn f64_from_parts_float(significand: u64, exponent: i32) -> bool {
        if significand == 0 || exponent < 0 {
            return true;
        }
        let magnitude = i64::from(exponent) + digits(significand);
        let out_of_range = match magnitude {
            ..=308 => false,
            309 => {
                let pow = usize::try_from(exponent - 289)
                    .ok()
                    .and_then(|i| POW10_289_TO_308.get(i));
                #[allow(clippy::cast_precision_loss)]
                pow.is_none_or(|&pow| (significand as f64 * pow).is_infinite())
            }
            _ => true,
        };
        !out_of_range
    }

    fn agree(significand: u64, exponent: i32) {
        assert_eq!(
            !out_of_range_scaled(significand, exponent),
            f64_from_parts_float(significand, exponent),
            "{significand}e{exponent} (microcontrollers)"
        );
        assert_eq!(
            f64_from_parts(significand, exponent, 0).is_ok(),
            f64_from_parts_float(significand, exponent),
            "{significand}e{exponent}"
        );
    }

    /// The integer range check against the float one. Both are monotone in
    /// the significand for each exponent (rounding is monotone), so agreeing
    /// on both sides of each bound is agreeing everywhere; the test also
    /// compares every significand of up to 7 digits at its one exponent that
    /// needs the multiplication, both ends of every digit count, 20 000
    /// pseudo-random significands per exponent 289..=308 and, for every
    /// exponent from -400 to 400, the digit-count boundaries.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn integer_range_check_equals_the_float_one() {
        for (i, &at) in OVERFLOW_AT.iter().enumerate() {
            let e = 289 + i as i32;
            assert!(f64_from_parts_float(at - 1, e) && !f64_from_parts_float(at, e));
            for n in at.saturating_sub(1000)..=at.saturating_add(1000) {
                agree(n, e);
            }
        }
        for d in 1..=7u32 {
            let e = 309 - d as i32;
            for n in 10u64.pow(d - 1)..10u64.pow(d) {
                agree(n, e);
            }
        }
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for e in 289..=308 {
            let d = 309 - e as u32;
            let lo = 10u64.pow(d - 1);
            let span = 10u64.checked_pow(d).map_or(u64::MAX - lo, |hi| hi - lo);
            for _ in 0..20_000 {
                crate::json::xorshift(&mut seed);
                agree(lo + seed % span, e);
            }
        }
        for e in -400..=400 {
            for d in 1..=20u32 {
                let lo = 10u64.pow(d - 1);
                let hi = 10u64.checked_pow(d).map_or(u64::MAX, |h| h - 1);
                for n in [lo, lo + 1, hi / 2, hi - 1, hi] {
                    agree(n, e);
                }
            }
            agree(0, e);
        }
        agree(u64::MAX, i32::MAX);
        agree(1, i32::MIN);
    }

    #[test]
    fn float_range_follows_serde_json() {
        assert_eq!(num("1.7976931348623157e308"), Ok(Num::F64));
        assert_eq!(num("1e400"), Err(K::NumberOutOfRange));
        assert_eq!(num("-1e309"), Err(K::NumberOutOfRange));
        assert_eq!(num("1e-400"), Ok(Num::F64));
        assert_eq!(num("0e999999999999"), Ok(Num::F64));
        assert_eq!(num("1e999999999999"), Err(K::NumberOutOfRange));
    }

    #[test]
    fn number_grammar_is_json() {
        for bad in ["01", "1.", "1e", "1e+", "-", "-a", ".5"] {
            if bad.starts_with('.') {
                continue; // no number starts there: the callers refuse it
            }
            let full = whole(bad.as_bytes(), true);
            let syntax = whole(bad.as_bytes(), false);
            assert!(full.is_err() && syntax.is_err(), "{bad} accepted");
        }
    }

    /// The lexeme, whole and cut, gives serde_json's chain of functions'
    /// answer ([`Chain::number_split`], transcribed): class, value, error
    /// and offset, and end, on every text of up to five pieces, and on
    /// pseudo-random long digit runs.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn the_lexeme_answers_as_serde_json_chain() {
        const PIECES: [&[u8]; 22] = [
            b"-",
            b"0",
            b"1",
            b"5",
            b"9",
            b"1844674407370955161",
            b"18446744073709551615",
            b"9223372036854775808",
            b".",
            b"e",
            b"E",
            b"+",
            b"999",
            b"e400",
            b"e2147483647",
            b"e2147483648",
            b"e-2147483648",
            b"00",
            b"x",
            b"17976931348623157",
            b"e292",
            b"e-400",
        ];
        let mut n = 0usize;
        let mut check = |text: &[u8]| {
            let mut a = Chain { buf: text, pos: 0 };
            let want = a.number_split().map(|c| (a.pos, c));
            let got = whole(text, true);
            assert_eq!(got, want, "{:?}", std::str::from_utf8(text));
            // The general path alone (what a resumed number takes) too.
            let mut lexeme = Number::new(0, true);
            let general = lexeme
                .lex_on(text, 0, 0, true)
                .and_then(|end| Ok((end.unwrap_or(text.len()), lexeme.finish()?)));
            assert_eq!(general, want, "general {:?}", std::str::from_utf8(text));
            // The whole-buffer lane (the microcontrollers' decode), here
            // with text before the number: offsets are the buffer's.
            let padded = [b"  ", text].concat();
            let shifted = want
                .map(|(end, c)| (end + 2, c))
                .map_err(|e| BodyError::new(e.kind(), e.offset() + 2));
            assert_eq!(Number::whole(&padded, 2, true), shifted, "whole lane");
            // Cut once at every place, and (every 7th text) byte by byte.
            for cut in 0..=text.len() {
                assert_eq!(pieces(text, true, &[cut]), want, "cut {cut}");
            }
            n += 1;
            if n.is_multiple_of(7) {
                let cuts: Vec<usize> = (1..text.len()).collect();
                assert_eq!(pieces(text, true, &cuts), want, "bytes");
            }
        };
        let mut stack = vec![(vec![], 0usize)];
        while let Some((text, len)) = stack.pop() {
            if !text.is_empty() && matches!(text[0], b'-' | b'0'..=b'9') {
                check(&text);
            }
            if len < 5 {
                for piece in PIECES {
                    stack.push(([&text[..], piece].concat(), len + 1));
                }
            }
        }
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..200_000 {
            crate::json::xorshift(&mut seed);
            let mut text = vec![];
            let mut r = seed;
            for _ in 0..seed % 48 {
                r = r.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                text.push(b"0123456789999999.e-+"[(r >> 59) as usize % 20]);
            }
            if text
                .first()
                .is_some_and(|c| c.is_ascii_digit() || *c == b'-')
            {
                check(&text);
            }
        }
    }

    /// The lexeme's syntax strength answers as serde_json's
    /// `ignore_integer` ([`Chain::skip_number`], transcribed): verdict,
    /// error offset and end, on every text of up to 6 pieces, whole and
    /// cut in two at every place.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn syntax_strength_answers_as_ignore_integer() {
        const PIECES: [&[u8]; 14] = [
            b"-",
            b"0",
            b"1",
            b"9",
            b"18446744073709551615",
            b".",
            b"e",
            b"E",
            b"+",
            b"-",
            b"999",
            b"e400",
            b"e99999999999",
            b"x",
        ];
        let mut stack = vec![(vec![], 0usize)];
        let mut n = 0usize;
        while let Some((text, len)) = stack.pop() {
            if !text.is_empty() && matches!(text[0], b'-' | b'0'..=b'9') {
                let mut a = Chain { buf: &text, pos: 0 };
                let want = a.skip_number().map(|()| (a.pos, Num::F64));
                assert_eq!(
                    whole(&text, false),
                    want,
                    "{:?}",
                    std::str::from_utf8(&text)
                );
                assert_eq!(Number::whole(&text, 0, false), want, "whole lane");
                if n.is_multiple_of(5) {
                    for cut in 0..=text.len() {
                        assert_eq!(pieces(&text, false, &[cut]), want, "cut {cut}");
                    }
                }
                n += 1;
            }
            if len < 6 {
                for piece in PIECES {
                    stack.push(([&text[..], piece].concat(), len + 1));
                }
            }
        }
        assert!(n > 1_000_000, "{n}");
    }

    #[test]
    fn digits_counts_like_ilog10() {
        let mut n = 1u64;
        loop {
            for m in [
                n - 1,
                n,
                n + 1,
                n.saturating_mul(5),
                n.saturating_mul(10) - 1,
            ] {
                if m > 0 {
                    assert_eq!(digits(m), i64::from(m.ilog10()) + 1, "{m}");
                }
            }
            match n.checked_mul(10) {
                Some(next) => n = next,
                None => break,
            }
        }
        assert_eq!(digits(u64::MAX), 20);
        assert_eq!(digits(0), 1);
    }
}
