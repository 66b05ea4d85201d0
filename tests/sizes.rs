//! The state sizes the README's streaming table states (`core::mem::size_of`,
//! the whole of what each keeps between chunks), pinned: a change to any of
//! them is a change to the README's table.
//!
//! Tests run on x86-64. The 32-bit column (thumbv6m, thumbv7m and thumbv7em
//! agree) is pinned at compile time by the Cortex-M firmware
//! (`examples/cortex-m/src/main.rs`, built by `examples/cortex-m/ci.sh`) and
//! repeated here for a 32-bit ARM test run.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

use core::mem::size_of;

use diverge_frame::exchange::StreamPath;
use diverge_frame::stream::{FrameValidator, IGNORED_DEPTH, Reader, RequestValidator};

/// `(FrameValidator, RequestValidator, Reader<N> - N, StreamPath)`, as the
/// README's table gives them for this target.
#[cfg(target_pointer_width = "64")]
const README: (usize, usize, usize, usize) = (320, 312, 384, 360);
#[cfg(all(target_pointer_width = "32", target_arch = "arm"))]
const README: (usize, usize, usize, usize) = (280, 272, 312, 304);

#[cfg(any(
    target_pointer_width = "64",
    all(target_pointer_width = "32", target_arch = "arm")
))]
#[test]
fn the_state_sizes_are_the_readmes() {
    let (frame, request, reader, path) = README;
    assert_eq!(size_of::<FrameValidator>(), frame, "FrameValidator");
    assert_eq!(size_of::<RequestValidator>(), request, "RequestValidator");
    assert_eq!(size_of::<Reader<0>>(), reader, "Reader<0>");
    assert_eq!(size_of::<Reader>(), reader + 256, "Reader (N = 256)");
    assert_eq!(size_of::<Reader<1536>>(), reader + 1536, "Reader<1536>");
    assert_eq!(size_of::<StreamPath>(), path, "StreamPath");
}

#[test]
fn the_bracket_bits_are_128_bytes_of_it() {
    // "128 bytes of it are the 1024-level bracket bits".
    assert_eq!(IGNORED_DEPTH, 1024);
    assert_eq!(IGNORED_DEPTH / 8, 128);
}
