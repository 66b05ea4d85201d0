//! `diverge_frame::stream` fed in chunks the fuzzer picks (first byte: frame
//! or request, how many cuts and a cut-every-n; then the cuts; then the
//! input; see `fuzz/src/stream.rs`): `FrameValidator` / `RequestValidator`
//! give exactly `Frame::decode` / `RequestView::decode`'s answer on every
//! chunking (bar the documented `StreamDepthExceeded` deviation), that
//! answer agrees with the reference (`serde_json` + rmcp), and `Reader::<48>`
//! gives the validator's answer and, for a valid frame, pieces equal to the
//! views' values.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::stream::stream(data));
