//! The encoders' serializer against `serde_json::to_vec` on values the
//! fuzzer shapes (every `Serializer` method, map keys of every kind,
//! escapes, non-finite floats, nesting around the depth limit).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::serialize::serialize(data));
