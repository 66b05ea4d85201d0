//! The spec checks (`spec::is_*`, `check_spec()`, the strict encoders)
//! against oracles written from RFC 3986, RFC 9110, the base64 crate and the
//! spec's lists (see `fuzz/src/spec.rs`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::spec::spec(data));
