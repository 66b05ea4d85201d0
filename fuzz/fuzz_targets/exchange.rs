//! The exchange module on scripted input (see `fuzz/src/exchange.rs`): the
//! state machine against its transition table, the whole-path readers
//! against each other, the ask codec, `relay` against `relay_async` and
//! `StreamPath`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::exchange::exchange(data));
