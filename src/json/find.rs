//! Byte search inside string text.
//!
//! [`memchr`](https://docs.rs/memchr) where it has vector code (x86, x86-64,
//! `AArch64`, wasm32 with simd128); elsewhere — microcontrollers — a plain
//! loop, because memchr's word-at-a-time fallback costs flash and buys
//! little on the short text a firmware handles. Both answer alike: the index
//! of the first match.

#[cfg(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(crate) use memchr::{memchr, memchr2};

/// A host-class target (x86, x86-64, `AArch64`, wasm32 with simd128), where
/// [`memchr`] has vector code and flash is plentiful, so code that trades
/// size for speed is compiled: the scanner's long-run jump, the inline
/// path for short keys, the base64 decoder's wide tables. Elsewhere
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

/// Index of the first `needle` in `haystack`.
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
#[inline]
pub(crate) fn memchr(needle: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&b| b == needle)
}

/// Index of the first `a` or `b` in `haystack`.
#[cfg(not(any(
    target_arch = "x86_64",
    target_arch = "x86",
    target_arch = "aarch64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
#[inline]
pub(crate) fn memchr2(a: u8, b: u8, haystack: &[u8]) -> Option<usize> {
    haystack.iter().position(|&c| c == a || c == b)
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
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
