//! Byte search inside string text, and the string lexeme's 16-byte block
//! masks.
//!
//! On host-class targets, vector code: [`memchr`](https://docs.rs/memchr)
//! for the searches, and [`wide`](https://docs.rs/wide)'s `u8x16` (SSE2,
//! NEON or wasm simd128 behind a safe API) for [`marks`] and
//! [`backslashes`]. Elsewhere — microcontrollers — plain loops: memchr's
//! word-at-a-time fallback costs flash and buys little on the short text a
//! firmware handles, and no lane there asks for a block's masks (the byte
//! loops answer alike, for tests). Both give the same answers: the index of
//! the first match, the bit of each byte.

/// A host-class target (x86, x86-64, `AArch64`, wasm32 with simd128), where
/// [`memchr`] has vector code and flash is plentiful, so code that trades
/// size for speed is compiled: the string lexeme's and the unescaper's
/// 16-byte blocks, the long-run jump, the inline path for short keys, the
/// escape and base64 tables. Elsewhere
/// (microcontrollers) the compact paths are taken; tests on the host check
/// that both agree where they differ, and `--cfg diverge_compact` makes a
/// host build take the compact paths everywhere, so that every test runs
/// on them too (`.ci/run` does).
pub(crate) const HOST: bool = !cfg!(diverge_compact)
    && cfg!(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ));

#[cfg(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) use vector::{backslashes, from_utf8, marks, memchr, memchr2};

#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
pub(crate) use bytes::{backslashes, from_utf8, marks, memchr, memchr2};

/// The `alloc` builder's UTF-8 check of a whole body.
#[cfg(all(
    feature = "alloc",
    not(any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))
))]
pub(crate) use bytes::utf8;
/// The `alloc` builder's UTF-8 check of a whole body.
#[cfg(all(
    feature = "alloc",
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )
))]
pub(crate) use vector::utf8;

/// Host-class targets: vector code.
#[cfg(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod vector {
    pub(crate) use memchr::{memchr, memchr2};
    use wide::u8x16;

    /// The marks of a 16-byte block of string text: bit `i` of the first
    /// is set where `block[i]` ends a run of plain text (`"`, `\\` or a
    /// control byte below 0x20), bit `i` of the second where `block[i]` >=
    /// 0x80. One vector compare per class.
    #[inline]
    pub(crate) fn marks(block: [u8; 16]) -> (u32, u32) {
        let v = u8x16::new(block);
        let quote = v.cmp_eq(u8x16::splat(b'"'));
        let backslash = v.cmp_eq(u8x16::splat(b'\\'));
        // `min(v, 0x1F) == v` exactly where `v <= 0x1F`.
        let control = v.min(u8x16::splat(0x1F)).cmp_eq(v);
        #[allow(clippy::cast_sign_loss)]
        (
            (quote | backslash | control).move_mask() as u32,
            v.move_mask() as u32,
        )
    }

    /// Bit `i` set where `block[i]` is a backslash: the unescaper's block
    /// lane (one vector compare).
    #[inline]
    pub(crate) fn backslashes(block: [u8; 16]) -> u32 {
        #[allow(clippy::cast_sign_loss)]
        let mask = u8x16::new(block).cmp_eq(u8x16::splat(b'\\')).move_mask() as u32;
        mask
    }

    /// `core::str::from_utf8`, with the same answers, checked first by
    /// [simdutf8](https://docs.rs/simdutf8) (simdjson's validator: AVX2 or
    /// SSE4.2 chosen at run time under `std`, which the `alloc` feature
    /// turns on; NEON on `AArch64`; core's check below 64 bytes and on
    /// baseline x86-64 without `std`). Its error carries no position, so
    /// on invalid text core's check runs again and names the first bad
    /// byte.
    #[inline]
    pub(crate) fn from_utf8(text: &[u8]) -> Result<&str, core::str::Utf8Error> {
        match simdutf8::basic::from_utf8(text) {
            Ok(text) => Ok(text),
            Err(_) => core::str::from_utf8(text),
        }
    }

    /// `text` as a `str` when it is valid UTF-8, by simdutf8 alone: the
    /// `alloc` builder's one check of a whole body, which needs no position.
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn utf8(text: &[u8]) -> Option<&str> {
        simdutf8::basic::from_utf8(text).ok()
    }
}

/// Elsewhere (microcontrollers): byte loops.
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod bytes {
    /// Index of the first `needle` in `haystack`.
    #[inline]
    pub(crate) fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
        haystack.iter().position(|&b| b == needle)
    }

    /// Index of the first `a` or `b` in `haystack`.
    #[inline]
    pub(crate) fn memchr2(a: u8, b: u8, haystack: &[u8]) -> Option<usize> {
        haystack.iter().position(|&c| c == a || c == b)
    }

    /// The vector lane's `marks`, byte by byte (no lane here asks for it:
    /// the string lexeme runs a byte at a time).
    #[inline]
    pub(crate) fn marks(block: [u8; 16]) -> (u32, u32) {
        let (mut special, mut high) = (0, 0);
        for (i, &c) in block.iter().enumerate() {
            special |= u32::from(c == b'"' || c == b'\\' || c < 0x20) << i;
            high |= u32::from(c >= 0x80) << i;
        }
        (special, high)
    }

    /// The vector lane's `backslashes`, byte by byte (no lane here asks
    /// for it: the unescaper copies words).
    #[inline]
    pub(crate) fn backslashes(block: [u8; 16]) -> u32 {
        let mut mask = 0;
        for (i, &c) in block.iter().enumerate() {
            mask |= u32::from(c == b'\\') << i;
        }
        mask
    }

    /// `core::str::from_utf8` itself (no second validator in flash).
    #[inline]
    pub(crate) fn from_utf8(text: &[u8]) -> Result<&str, core::str::Utf8Error> {
        core::str::from_utf8(text)
    }

    /// `text` as a `str` when it is valid UTF-8 (core's check).
    #[cfg(feature = "alloc")]
    #[inline]
    pub(crate) fn utf8(text: &[u8]) -> Option<&str> {
        core::str::from_utf8(text).ok()
    }
}

/// `dst.copy_from_slice(src)` for slices of equal length, without its
/// length-mismatch panic on microcontrollers ([`HOST`] false), where at
/// opt-level `z` the outlined `copy_from_slice` keeps that panic and,
/// with a panic handler that prints, its formatting (3 KB of flash): there
/// a zipped copy (a `memcpy` or a byte loop). The same bytes either way.
#[inline]
pub(crate) fn copy(dst: &mut [u8], src: &[u8]) {
    if HOST {
        dst.copy_from_slice(src);
    } else {
        copy_zipped(dst, src);
    }
}

/// [`copy`] on microcontrollers: a byte loop. Each byte passes through
/// [`black_box`](core::hint::black_box), so that LLVM does not turn the loop
/// into a call of `memcpy`: that call linked `compiler_builtins`' `memcpy`,
/// 756 B of flash, into a firmware that had no other use for it (measured
/// with `examples/cortex-m/ci.sh`, the same job at `s`).
#[inline]
fn copy_zipped(dst: &mut [u8], src: &[u8]) {
    for (d, &b) in dst.iter_mut().zip(src) {
        *d = core::hint::black_box(b);
    }
}

/// A word of `0x01` bytes and one of `0x80` bytes: the SWAR constants of
/// [`eq_mask`].
const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// High bit set in the lowest byte of `w` equal to `byte` (higher bytes may
/// show false positives, so only the lowest set bit is meaningful).
#[inline]
pub(crate) const fn eq_mask(w: u64, byte: u8) -> u64 {
    let x = w ^ (LO * byte as u64);
    x.wrapping_sub(LO) & !x & HI
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    extern crate std;

    /// The block masks are exact: every byte value at every place of a
    /// block, among neighbours that are plain, special or high, is marked
    /// exactly where the byte rule says.
    #[test]
    fn block_masks_are_exact_for_every_byte_value() {
        let places: &[usize] = if cfg!(miri) {
            &[0, 15]
        } else {
            &[0, 1, 7, 8, 14, 15]
        };
        for fill in [b'a', b'"', b'\\', 0x00, 0x1F, 0x20, 0x7F, 0x80, 0xFF] {
            for &at in places {
                for c in 0..=255u8 {
                    let mut block = [fill; 16];
                    block[at] = c;
                    let (special, high) = super::marks(block);
                    let slashes = super::backslashes(block);
                    for (i, &b) in block.iter().enumerate() {
                        let bit = |m: u32| m >> i & 1 == 1;
                        assert_eq!(
                            bit(special),
                            b == b'"' || b == b'\\' || b < 0x20,
                            "{block:?}"
                        );
                        assert_eq!(bit(high), b >= 0x80, "{block:?}");
                        assert_eq!(bit(slashes), b == b'\\', "{block:?}");
                    }
                    assert_eq!(special >> 16, 0);
                    assert_eq!(high >> 16, 0);
                    assert_eq!(slashes >> 16, 0);
                }
            }
        }
    }

    /// The UTF-8 check answers as core's on every input: valid text of
    /// every character width, and each kind of defect (a stray
    /// continuation byte, a cut or overlong sequence, a surrogate, a byte
    /// above F4) at every place of texts shorter and longer than the fast
    /// validator's 64-byte threshold, with the same `valid_up_to` and
    /// `error_len`.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn utf8_agrees_with_core_everywhere() {
        const PIECES: [&[u8]; 12] = [
            b"a",
            b"plain ascii text",
            "\u{e9}".as_bytes(),
            "\u{4e2d}".as_bytes(),
            "\u{1f600}".as_bytes(),
            b"\x80",
            b"\xC3",
            b"\xE4\xB8",
            b"\xC0\xAF",
            b"\xED\xA0\x80",
            b"\xF5\x80\x80\x80",
            b"\xFF",
        ];
        let mut seed = 0x5DEE_CE66_D1CE_4E5Bu64;
        for _ in 0..20_000 {
            let mut text = std::vec::Vec::new();
            let len = super::super::xorshift(&mut seed) % 160;
            while (text.len() as u64) < len {
                let r = super::super::xorshift(&mut seed);
                // Mostly valid pieces, so that a defect sits anywhere.
                let k = if r & 7 == 0 {
                    (r >> 8) as usize % 12
                } else {
                    (r >> 8) as usize % 5
                };
                text.extend_from_slice(PIECES[k]);
            }
            let (ours, core) = (super::from_utf8(&text), core::str::from_utf8(&text));
            assert_eq!(ours, core, "{text:?}");
        }
    }

    /// The microcontrollers' zipped copy writes what `copy_from_slice` does.
    #[test]
    fn zipped_copy_agrees_with_copy_from_slice() {
        let src: [u8; 40] = core::array::from_fn(|i| (i * 7) as u8);
        for len in 0..=src.len() {
            let (mut a, mut b) = ([0xAAu8; 40], [0xAAu8; 40]);
            a[..len].copy_from_slice(&src[..len]);
            super::copy_zipped(&mut b[..len], &src[..len]);
            assert_eq!(a, b);
        }
    }
}
