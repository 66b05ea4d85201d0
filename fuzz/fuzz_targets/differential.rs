//! Any bytes, as a frame and as a request, against the reference
//! (`serde_json` 1.0.154 + rmcp 3.11.0): same accept/reject, same values
//! through the views. A mismatch panics with both answers.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::differential(data));
