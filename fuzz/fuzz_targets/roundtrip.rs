//! The encoders against the reference, both ways: an rmcp value built from
//! the input (via `arbitrary`) is encoded by our builders and must equal
//! `serde_json::to_vec` and decode back as the reference decodes; the input
//! as a frame and as a request, once decoded, must re-encode to
//! `serde_json::to_vec` of the reference's value and decode again to it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::roundtrip::roundtrip(data));
