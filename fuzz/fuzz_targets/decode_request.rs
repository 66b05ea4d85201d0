//! `RequestView::decode` on any bytes: no panic, no hang; on success every
//! view accessor is walked to the end; on failure the offset is inside the
//! input.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::walk::request(data));
