//! Standard base64 (RFC 4648 §4 alphabet), written for this crate: a
//! streaming decoder into a caller's buffer and a padded encoder.
//!
//! The decoder accepts exactly what `base64` 0.22's `GeneralPurpose` engine
//! accepts with the standard alphabet, `DecodePaddingMode::Indifferent` and
//! no trailing bits, and reports the same offsets (the index its
//! `DecodeError` names, or the length for a bad length):
//!
//! * every quad but the last is four alphabet characters (`=` there is
//!   invalid);
//! * the last 1 to 4 characters are 2 to 4 alphabet characters, then any
//!   `=` (none, one or two: `AA`, `AA=`, `AA==`, `AAA`, `AAA=`); one lone
//!   character is a bad length;
//! * the bits of the last character that do not make a whole byte are zero;
//! * when the length is 1 mod 4 and the last character is neither in the
//!   alphabet nor `=`, that character is reported, before anything else.
//!
//! The hot loop takes 8 characters at a time through a table of each
//! character's value (-1 outside the alphabet; on hosts also a copy
//! pre-shifted for the first character of each pair): lookups OR-ed make 48
//! bits, and any bad character makes the combined word negative, so one sign
//! test checks 8 characters. On microcontrollers ([`HOST`] false), where
//! flash counts more than speed, the decoder takes a character at a time
//! instead: each is checked and its 6 bits shifted into the quad's bits as
//! it comes (so `finish` only completes the last quad with `=` and writes
//! it), and a whole quad is written when the next character comes.

use crate::json::find::HOST;

/// `=`.
const PAD: u8 = b'=';

/// The alphabet, by value.
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Value of each byte, -1 outside the alphabet: the source of the hosts'
/// tables (microcontrollers classify by [`sextet`] instead; a test checks
/// it against this table on every byte).
#[allow(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: a bad index fails the build"
)]
const TABLE: [i8; 256] = {
    let mut t = [-1i8; 256];
    let mut v = 0;
    while v < 64 {
        t[ALPHABET[v] as usize] = v as i8;
        v += 1;
    }
    t
};

/// [`TABLE`] widened and shifted left by `shift`: the two 1 KiB tables hosts
/// use (a lookup per character and no shift: about 15 % faster there).
const fn wide(shift: u32) -> [i32; 256] {
    let mut t = [0i32; 256];
    let mut i = 0;
    while i < 256 {
        #[allow(
            clippy::indexing_slicing,
            reason = "evaluated at compile time: a bad index fails the build"
        )]
        {
            t[i] = (TABLE[i] as i32) << shift;
        }
        i += 1;
    }
    t
}

/// First character of a pair, on hosts: value << 6, or negative.
static HI: [i32; 256] = wide(6);
/// Second character of a pair, on hosts: value, or -1.
static LO: [i32; 256] = wide(0);

/// Value of `b`, or -1, by table. Only the hosts' lane calls it: on
/// microcontrollers `feed` and `finish` go to `feed_bytewise` and
/// `finish_bytewise`, which classify by comparisons ([`sextet`], less flash
/// than a table; a test checks it against [`TABLE`] on every byte).
#[inline(always)]
fn value(b: u8) -> i32 {
    LO.get(usize::from(b)).copied().unwrap_or(-1)
}

/// What `b` is, on microcontrollers: its value (0 to 63) if it is in the
/// alphabet, [`PAD_CLASS`] for `=`, [`BAD_CLASS`] for any other byte.
#[inline]
fn sextet(b: u8) -> u32 {
    // On `u32`, so that no subtraction needs narrowing before its test.
    let b = u32::from(b);
    if b.wrapping_sub(u32::from(b'A')) < 26 {
        b - u32::from(b'A')
    } else if b.wrapping_sub(u32::from(b'a')) < 26 {
        b - u32::from(b'a') + 26
    } else if b.wrapping_sub(u32::from(b'0')) < 10 {
        b - u32::from(b'0') + 52
    } else if b == u32::from(b'+') || b == u32::from(b'/') {
        // (43 + 205) / 4 and (47 + 205) / 4 are 62 and 63.
        (b + 205) >> 2
    } else if b == u32::from(PAD) {
        PAD_CLASS
    } else {
        BAD_CLASS
    }
}

/// [`sextet`] of `=`.
const PAD_CLASS: u32 = 64;
/// [`sextet`] of a byte that is neither in the alphabet nor `=`.
const BAD_CLASS: u32 = 65;

/// 12 bits from two characters; negative if either is bad (a -1 stays
/// negative through the shift and the OR). The hosts' lane only, as
/// [`value`].
#[inline(always)]
fn pair(a: u8, b: u8) -> i32 {
    HI.get(usize::from(a)).copied().unwrap_or(-1) | value(b)
}

/// 24 bits from a quad; negative if any character is bad.
#[inline(always)]
fn quad(&[a, b, c, d]: &[u8; 4]) -> i32 {
    (pair(a, b) << 12) | pair(c, d)
}

/// Index of the first byte outside the alphabet.
fn first_invalid(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| value(b) < 0)
        .unwrap_or(bytes.len())
}

/// Decodes whole quads (no padding) into `dst`, which holds at least
/// `src.len() / 4 * 3` bytes; on a bad character, its index.
fn decode_quads(src: &[u8], dst: &mut [u8]) -> Result<(), usize> {
    let (src8, src4) = src.as_chunks::<8>();
    let (dst6, _) = dst.as_chunks_mut::<6>();
    for (s, d) in src8.iter().zip(dst6.iter_mut()) {
        let [a, b, c, e, f, g, h, i] = *s;
        let x = (i64::from(quad(&[a, b, c, e])) << 24) | i64::from(quad(&[f, g, h, i]));
        if x < 0 {
            return Err(first_invalid(src));
        }
        let y = (x << 16).to_be_bytes();
        if let Some(y) = y.first_chunk::<6>() {
            *d = *y;
        }
    }
    // `src` is whole quads: at most one is left.
    if let Some(s) = src4.first_chunk::<4>() {
        let x = quad(s);
        if x < 0 {
            return Err(first_invalid(src));
        }
        let [_, y @ ..] = x.to_be_bytes();
        let done = src8.len() * 6;
        if let Some(d) = dst.get_mut(done..done + 3) {
            crate::json::find::copy(d, &y);
        }
    }
    Ok(())
}

/// Checks whole quads (no padding) without storing them; on a bad
/// character, its index.
fn check_quads(src: &[u8]) -> Result<(), usize> {
    let (src8, src4) = src.as_chunks::<8>();
    for s in src8 {
        let [a, b, c, e, f, g, h, i] = *s;
        if (quad(&[a, b, c, e]) | quad(&[f, g, h, i])) < 0 {
            return Err(first_invalid(src));
        }
    }
    if let Some(s) = src4.first_chunk::<4>()
        && quad(s) < 0
    {
        return Err(first_invalid(src));
    }
    Ok(())
}

/// Why text did not decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DecodeError {
    /// Not base64: index of the offending character (the length, for a bad
    /// length), as the `base64` crate reports it.
    Invalid(usize),
    /// Valid, but the output needs this many bytes.
    TooSmall(usize),
}

/// What a [`Decoder`] remembers of the text between two buffers: its
/// fields of the same names, whatever they mean on the target.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Carry {
    read: usize,
    tail: [u8; 4],
    held: usize,
    error: Option<usize>,
}

impl Carry {
    /// Before the first character.
    pub(crate) const fn new() -> Self {
        Self {
            read: 0,
            tail: [0; 4],
            held: 0,
            error: None,
        }
    }
}

/// Decodes base64 text fed in pieces of any size into a caller's buffer.
///
/// Every quad but the last is decoded as soon as a character after it is
/// seen; the last 1 to 4 characters are held until [`finish`](Self::finish).
/// When the buffer fills, the rest is still checked (and counted), so invalid
/// text is told from a small buffer and the exact size is known. After a bad
/// character the rest is only counted: the engine reports a bad last
/// character of a 1-mod-4 length first.
pub(crate) struct Decoder<'o> {
    out: &'o mut [u8],
    /// Bytes decoded so far (stored while they fit).
    written: usize,
    /// Characters fed so far.
    read: usize,
    /// The last `held` characters fed, not decoded yet (on
    /// microcontrollers: the bits of the current quad and its alphabet
    /// characters; see [`feed_bytewise`](Self::feed_bytewise)).
    tail: [u8; 4],
    /// See `tail`.
    held: usize,
    /// The first bad character of a decoded quad (on microcontrollers: of
    /// a quad that the engine would report were the text to end later).
    error: Option<usize>,
}

impl<'o> Decoder<'o> {
    /// A decoder writing into `out`.
    pub(crate) fn new(out: &'o mut [u8]) -> Self {
        Self {
            out,
            written: 0,
            read: 0,
            tail: [0; 4],
            held: 0,
            error: None,
        }
    }

    /// A decoder writing into `out` that goes on from a [`suspend`](Self::suspend)ed
    /// one: the text so far is remembered, its output is not (it went into
    /// the earlier buffer). This is how a stream decodes piece by piece
    /// through one small buffer.
    pub(crate) fn resume(out: &'o mut [u8], carry: Carry) -> Self {
        Self {
            out,
            written: 0,
            read: carry.read,
            tail: carry.tail,
            held: carry.held,
            error: carry.error,
        }
    }

    /// Stops feeding: the bytes written into this decoder's buffer, and what
    /// [`resume`](Self::resume) needs to go on.
    pub(crate) fn suspend(self) -> (usize, Carry) {
        let carry = Carry {
            read: self.read,
            tail: self.tail,
            held: self.held,
            error: self.error,
        };
        (self.written, carry)
    }

    /// Decodes (or checks) whole quads starting at character `base`.
    fn quads(&mut self, src: &[u8], base: usize) {
        let room = self.out.len().saturating_sub(self.written) / 3 * 4;
        let dst = self.out.get_mut(self.written..).unwrap_or_default();
        let (store, check) = src.split_at(room.min(src.len()));
        let result = decode_quads(store, dst)
            .and_then(|()| check_quads(check).map_err(|at| at + store.len()));
        match result {
            Ok(()) => self.written += src.len() / 4 * 3,
            Err(at) => self.error = Some(base + at),
        }
    }

    /// Feeds the next piece of text.
    pub(crate) fn feed(&mut self, mut bytes: &[u8]) {
        if !HOST {
            self.feed_bytewise(bytes);
            return;
        }
        if self.error.is_some() {
            self.count_only(bytes);
            return;
        }
        if self.held > 0 {
            // Complete the held quad; it is not the last one if more follows.
            let (head, rest) = bytes
                .split_at_checked(4 - self.held)
                .unwrap_or((bytes, &[]));
            if let Some(slot) = self.tail.get_mut(self.held..self.held + head.len()) {
                crate::json::find::copy(slot, head);
            }
            self.held += head.len();
            self.read += head.len();
            if rest.is_empty() {
                return;
            }
            let tail = self.tail;
            self.held = 0;
            self.quads(&tail, self.read - 4);
            bytes = rest;
            if self.error.is_some() {
                self.count_only(bytes);
                return;
            }
        }
        let Some(keep) = bytes.len().checked_sub(1).map(|n| n % 4 + 1) else {
            return;
        };
        // Keep the last 1 to 4 characters: they may be the last quad.
        let (whole, last) = bytes
            .split_at_checked(bytes.len() - keep)
            .unwrap_or((&[], bytes));
        self.quads(whole, self.read);
        self.read += bytes.len();
        self.held = last.len();
        if let Some(tail) = self.tail.get_mut(..last.len()) {
            crate::json::find::copy(tail, last);
        }
    }

    /// [`feed`](Self::feed) on microcontrollers: a character at a time, each
    /// checked and its bits shifted into the quad's bits as it comes, so
    /// that [`finish_bytewise`](Self::finish_bytewise) has little left to do.
    ///
    /// The fields mean something else here: `tail` holds the bits of the
    /// current quad (its characters' values, `=` as 0, shifted in from the
    /// right; `u32::from_ne_bytes`), `held` the alphabet characters in it
    /// (a whole quad is written when the next character comes, so the last
    /// quad stays for `finish_bytewise`, as `feed` leaves it), and
    /// `error` the first character the engine would name if the text
    /// ended at a later quad. An `=` in the third or fourth place is only
    /// an error once something other than `=` follows it (then the first
    /// `=` of its quad is named). After an error, `held` is the last
    /// character's [`sextet`], for the 1-mod-4 rule. Tests check that both
    /// ways answer alike, fed at once, in pieces and through [`Carry`].
    fn feed_bytewise(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.step(b);
        }
    }

    /// One character into the state [`feed_bytewise`](Self::feed_bytewise)
    /// keeps.
    #[inline(always)]
    fn step(&mut self, b: u8) {
        let c = sextet(b);
        let at = self.read;
        self.read += 1;
        if self.error.is_some() {
            self.held = c as usize;
            return;
        }
        let q = at % 4;
        if q == 0 && self.held != 0 {
            // The quad before (none at the start: `held` is 0 there, and
            // only there, as a quad's first character is in the alphabet or
            // an error) is not the last one.
            if self.held != 4 {
                self.error = Some(at + self.held - 4);
                self.held = c as usize;
                return;
            }
            self.put();
            self.held = 0;
        }
        // `=` first or second in its quad, an alphabet character after
        // `=`, or neither: the first `=` or the bad character is named.
        // (`=` comes after `held` alphabet characters, 2 unless it is first or
        // second: an `=` before it is an error already.)
        let bad = c == BAD_CLASS || self.held < if c == PAD_CLASS { 2 } else { q };
        if bad {
            self.error = Some(at - q + self.held);
            return;
        }
        let v = if c == PAD_CLASS { 0 } else { c };
        self.tail = (u32::from_ne_bytes(self.tail) << 6 | v).to_ne_bytes();
        self.held += usize::from(c != PAD_CLASS);
    }

    /// Writes the bytes of the quad in `tail` (`held` alphabet characters
    /// make `held * 3 / 4` of them) if they fit, and counts them either
    /// way.
    #[inline(never)]
    fn put(&mut self) {
        let n = self.held * 3 / 4;
        if let Some(d) = self
            .out
            .get_mut(self.written..)
            .and_then(|d| d.get_mut(..n))
        {
            let mut bits = u32::from_ne_bytes(self.tail) << 8;
            for d in d {
                let [b, ..] = bits.to_be_bytes();
                *d = b;
                bits <<= 8;
            }
        }
        self.written += n;
    }

    /// [`finish`](Self::finish) on microcontrollers, after
    /// [`feed_bytewise`](Self::feed_bytewise): the last quad is completed
    /// with `=` (a lone last character is then a bad length at the length,
    /// as the engine says), its spare bits checked and its bytes written.
    fn finish_bytewise(mut self) -> Result<usize, DecodeError> {
        let len = self.read;
        if let Some(at) = self.error {
            let lone = len % 4 == 1 && self.held == BAD_CLASS as usize;
            return Err(DecodeError::Invalid(if lone { len - 1 } else { at }));
        }
        self.feed_bytewise([PAD; 3].get(..len.wrapping_neg() % 4).unwrap_or_default());
        if let Some(at) = self.error {
            return Err(DecodeError::Invalid(at));
        }
        // 2, 3 or 4 alphabet characters (or none at all) make 1, 2 or 3
        // bytes (or none), and the bits after them are zero.
        let n = self.held * 3 / 4;
        if u32::from_ne_bytes(self.tail) & (0x00ff_ffff >> (n * 8)) != 0 {
            return Err(DecodeError::Invalid(self.read + self.held - 5));
        }
        self.put();
        if self.written > self.out.len() {
            return Err(DecodeError::TooSmall(self.written));
        }
        Ok(self.written)
    }

    /// After a bad character only the length and the last character
    /// matter: counts `bytes` and keeps its last one.
    fn count_only(&mut self, bytes: &[u8]) {
        if let Some(&last) = bytes.last() {
            self.read += bytes.len();
            self.tail = [last; 4];
            self.held = 1;
        }
    }

    /// Decodes the last quad and returns the decoded size.
    ///
    /// # Errors
    ///
    /// [`DecodeError::Invalid`] for text that is not base64,
    /// [`DecodeError::TooSmall`] with the exact size when it does not fit.
    pub(crate) fn finish(self) -> Result<usize, DecodeError> {
        if !HOST {
            return self.finish_bytewise();
        }
        let len = self.read;
        let tail = self.tail.get(..self.held).unwrap_or_default();
        if len % 4 == 1
            && let Some(&b) = tail.last()
            && b != PAD
            && value(b) < 0
        {
            return Err(DecodeError::Invalid(len - 1));
        }
        if let Some(at) = self.error {
            return Err(DecodeError::Invalid(at));
        }
        if tail.is_empty() {
            return Ok(0);
        }
        let base = len - tail.len();
        let mut acc = 0u32;
        let mut morsels = 0usize;
        let mut first_pad = None;
        for (i, &b) in tail.iter().enumerate() {
            if b == PAD {
                if i < 2 {
                    return Err(DecodeError::Invalid(base + i));
                }
                first_pad.get_or_insert(i);
                continue;
            }
            if let Some(p) = first_pad {
                return Err(DecodeError::Invalid(base + p));
            }
            let v = value(b);
            if v < 0 {
                return Err(DecodeError::Invalid(base + i));
            }
            acc = (acc << 6) | v.unsigned_abs();
            morsels += 1;
        }
        if morsels < 2 {
            return Err(DecodeError::Invalid(base + morsels));
        }
        // 2, 3 or 4 characters make 1, 2 or 3 bytes and 4, 2 or 0 spare bits.
        let n = morsels * 3 / 4;
        let spare = morsels * 6 - n * 8;
        if acc & ((1 << spare) - 1) != 0 {
            return Err(DecodeError::Invalid(base + morsels - 1));
        }
        let bytes = (acc << (32 - morsels * 6)).to_be_bytes();
        let total = self.written + n;
        match (self.out.get_mut(self.written..total), bytes.get(..n)) {
            (Some(dst), Some(src)) => crate::json::find::copy(dst, src),
            _ => return Err(DecodeError::TooSmall(total)),
        }
        Ok(total)
    }
}

/// Length of the padded encoding of `n` bytes.
pub(crate) const fn encoded_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Encodes `src` (padded) into the start of `dst` and returns the length
/// written, or `None` if `dst` is shorter than [`encoded_len`]. Whole groups
/// of 3 bytes encode alike wherever a stream is cut, so a stream fed in
/// pieces of multiples of 3 bytes encodes as a whole.
pub(crate) fn encode(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    let n = encoded_len(src.len());
    let dst = dst.get_mut(..n)?;
    let (groups, rest) = src.as_chunks::<3>();
    let (quads, _) = dst.as_chunks_mut::<4>();
    let symbol = |v: u32| ALPHABET.get((v & 63) as usize).copied().unwrap_or(PAD);
    for (&[a, b, c], q) in groups.iter().zip(quads.iter_mut()) {
        let x = u32::from_be_bytes([0, a, b, c]);
        *q = [symbol(x >> 18), symbol(x >> 12), symbol(x >> 6), symbol(x)];
    }
    let q = quads.last_mut().filter(|_| !rest.is_empty());
    match (rest, q) {
        (&[a], Some(q)) => {
            let x = u32::from(a) << 16;
            *q = [symbol(x >> 18), symbol(x >> 12), PAD, PAD];
        }
        (&[a, b], Some(q)) => {
            let x = (u32::from(a) << 16) | (u32::from(b) << 8);
            *q = [symbol(x >> 18), symbol(x >> 12), symbol(x >> 6), PAD];
        }
        _ => {}
    }
    Some(n)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    extern crate std;
    use std::vec::Vec;

    use super::*;

    #[test]
    fn computed_values_agree_with_the_table() {
        for b in 0..=255u8 {
            let want = match TABLE[usize::from(b)] {
                -1 if b == PAD => PAD_CLASS,
                -1 => BAD_CLASS,
                v => u32::try_from(v).unwrap(),
            };
            assert_eq!(sextet(b), want, "{b:#04x}");
        }
    }

    #[test]
    fn pair_tables_agree_with_the_table_on_every_pair() {
        // HI/LO (the hosts' lane, `pair`) against TABLE (which the
        // microcontrollers' `sextet` is checked against above): the same
        // 12 bits for every pair of alphabet characters, negative for every
        // pair with another byte.
        // Under Miri (slow), every 17th first byte.
        let step = if cfg!(miri) { 17 } else { 1 };
        for a in (0..=255u8).step_by(step) {
            for b in 0..=255u8 {
                let host = HI[usize::from(a)] | LO[usize::from(b)];
                let small =
                    (i32::from(TABLE[usize::from(a)]) << 6) | i32::from(TABLE[usize::from(b)]);
                if host < 0 || small < 0 {
                    assert!(host < 0 && small < 0, "{a:#04x} {b:#04x}");
                } else {
                    assert_eq!(host, small, "{a:#04x} {b:#04x}");
                }
                let valid = ALPHABET.contains(&a) && ALPHABET.contains(&b);
                assert_eq!(host >= 0, valid, "{a:#04x} {b:#04x}");
            }
        }
    }

    fn decode(text: &[u8], room: usize) -> Result<Vec<u8>, DecodeError> {
        let mut out = std::vec![0u8; room];
        let mut d = Decoder::new(&mut out);
        d.feed(text);
        let n = d.finish()?;
        out.truncate(n);
        Ok(out)
    }

    #[test]
    fn rfc4648_vectors() {
        for (plain, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(decode(enc.as_bytes(), 8).unwrap(), plain.as_bytes());
            let mut buf = [0u8; 8];
            let n = encode(plain.as_bytes(), &mut buf).unwrap();
            assert_eq!(&buf[..n], enc.as_bytes());
        }
    }

    #[test]
    fn text_fed_in_pieces_decodes_as_fed_at_once() {
        // The held tail (a quad completed by the next piece, or kept as the
        // last one) and the count-only mode after a bad character, at every
        // cut into two and three pieces.
        let texts: [&[u8]; 10] = [
            b"Zm9vYmFyYmF6cXV4",
            b"Zm9vYmFyYmF6cXU=",
            b"Zm9vYmFyYmF6cQ==",
            b"Zm9vYmFyYmF6cQ=",
            b"Zm9v!mFyYmF6cXV4",
            b"Zm9vYmFyYmF6cXV4!",
            b"Zm9v=mFyYmF6cXV4",
            b"Zm9vYmFyYmF6cXV",
            b"Zm9vYmFyYmF6cXF=",
            // An early bad character, then a 1-mod-4 length whose last
            // character is bad too: the engine reports the last one.
            b"Zm9v!mFyYmF6cXV4!",
        ];
        let pieces = |cuts: &[usize], text: &[u8], room: usize| {
            let mut out = std::vec![0u8; room];
            let mut d = Decoder::new(&mut out);
            let mut at = 0;
            for &cut in cuts.iter().chain([&text.len()]) {
                d.feed(&text[at..cut]);
                at = cut;
            }
            d.finish().map(|n| out[..n].to_vec())
        };
        for text in texts {
            for room in [0, 5, 12] {
                let whole = decode(text, room);
                for i in 0..=text.len() {
                    assert_eq!(pieces(&[i], text, room), whole, "{text:?} cut at {i}");
                    for j in i..=text.len() {
                        assert_eq!(
                            pieces(&[i, j], text, room),
                            whole,
                            "{text:?} cut at {i}, {j}"
                        );
                    }
                }
            }
        }
    }

    /// Feeds `bytes` the microcontrollers' way (`bytewise`) or the hosts'.
    fn feed_either(d: &mut Decoder<'_>, bytes: &[u8], bytewise: bool) {
        if bytewise {
            d.feed_bytewise(bytes);
        } else {
            d.feed(bytes);
        }
    }

    /// Finishes the microcontrollers' way (`bytewise`) or the hosts'.
    fn finish_either(d: Decoder<'_>, bytewise: bool) -> Result<usize, DecodeError> {
        if bytewise {
            d.finish_bytewise()
        } else {
            d.finish()
        }
    }

    /// Every text of `len` characters over `alphabet`, in turn in `text`.
    fn each_text(alphabet: &[u8], len: u32, text: &mut Vec<u8>, mut f: impl FnMut(&[u8])) {
        for mut k in 0..alphabet.len().pow(len) {
            text.clear();
            for _ in 0..len {
                text.push(alphabet[k % alphabet.len()]);
                k /= alphabet.len();
            }
            f(text);
        }
    }

    /// The microcontrollers' character-at-a-time feed leaves a decoder that
    /// finishes as the hosts' does (the same size, bytes or error and
    /// offset), on every text of up to 7 characters over an alphabet of
    /// good, bad and padding characters, whole and cut in two, in every
    /// room from 0 to 7 bytes, and on longer texts cut in three.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn bytewise_feed_agrees_with_the_runs() {
        fn run(
            text: &[u8],
            cuts: &[usize],
            room: usize,
            bytewise: bool,
        ) -> (Result<usize, DecodeError>, Vec<u8>) {
            let mut out = std::vec![0u8; room];
            let mut d = Decoder::new(&mut out);
            let mut at = 0;
            for &cut in cuts.iter().chain([&text.len()]) {
                feed_either(&mut d, &text[at..cut], bytewise);
                at = cut;
            }
            let r = finish_either(d, bytewise);
            let n = *r.as_ref().unwrap_or(&0);
            (r, out[..n.min(room)].to_vec())
        }
        let mut text = Vec::new();
        for len in 0..=7u32 {
            each_text(b"AQ/=!g", len, &mut text, |text| {
                for room in 0..=7 {
                    let whole = run(text, &[], room, false);
                    assert_eq!(run(text, &[], room, true), whole, "{text:?} {room}");
                    let half = [text.len() / 2];
                    assert_eq!(run(text, &half, room, true), whole, "{text:?} {room}");
                }
            });
        }
        let long: [&[u8]; 4] = [
            b"Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXU=",
            b"Zm9vYmFyYmF6cXV4Zm9v!mFyYmF6cQ=",
            b"Zm9v!mFyYmF6cXV4Zm9vYmFyYmF6cXV4!",
            b"Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cQ==",
        ];
        for text in long {
            for room in [0, 5, 12, 24, 40] {
                let whole = run(text, &[], room, false);
                for i in 0..=text.len() {
                    for j in i..=text.len() {
                        assert_eq!(run(text, &[i, j], room, true), whole, "{text:?} {i} {j}");
                    }
                }
            }
        }
    }

    /// The microcontrollers' state goes through [`Carry`] as the hosts'
    /// does: a text decoded piece by piece, each piece into a fresh
    /// decoder [`resume`](Decoder::resume)d on one small buffer (as the
    /// streaming reader does), gives the same bytes after each piece and
    /// the same answer at the end, on every text of up to 5 characters
    /// over good, bad and padding characters (6 over fewer), at every cut
    /// into up to three pieces, with buffers of 0 to 4 bytes.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn bytewise_suspend_and_resume_agree_with_the_runs() {
        type Pieces = (Vec<Vec<u8>>, Result<usize, DecodeError>, Vec<u8>);
        fn run(text: &[u8], cuts: &[usize], room: usize, bytewise: bool) -> Pieces {
            let mut buf = std::vec![0u8; room];
            let mut carry = Carry::new();
            let mut pieces = Vec::new();
            let mut at = 0;
            for &cut in cuts.iter().chain([&text.len()]) {
                let mut d = Decoder::resume(&mut buf, carry);
                feed_either(&mut d, &text[at..cut], bytewise);
                let (n, c) = d.suspend();
                carry = c;
                pieces.push(buf.get(..n).unwrap_or_default().to_vec());
                at = cut;
            }
            let r = finish_either(Decoder::resume(&mut buf, carry), bytewise);
            let n = *r.as_ref().unwrap_or(&0);
            (pieces, r, buf[..n.min(room)].to_vec())
        }
        let mut text = Vec::new();
        for len in 0..=6u32 {
            let alphabet: &[u8] = if len < 6 { b"AQ/=!g" } else { b"A/=!" };
            each_text(alphabet, len, &mut text, |text| {
                for room in 0..=4 {
                    for i in 0..=text.len() {
                        for j in i..=text.len() {
                            let host = run(text, &[i, j], room, false);
                            let small = run(text, &[i, j], room, true);
                            assert_eq!(small, host, "{text:?} {room} {i} {j}");
                        }
                    }
                }
            });
        }
    }

    #[test]
    fn offsets() {
        assert_eq!(decode(b"AA==AAAA", 8), Err(DecodeError::Invalid(2)));
        assert_eq!(decode(b"!AAA!", 8), Err(DecodeError::Invalid(4)));
        assert_eq!(decode(b"AAAAA", 8), Err(DecodeError::Invalid(5)));
        assert_eq!(decode(b"AAF=", 8), Err(DecodeError::Invalid(2)));
        assert_eq!(decode(b"AAAA", 2), Err(DecodeError::TooSmall(3)));
    }
}
