//! `exchange::relay` between a scripted upstream and downstream (buffer
//! size, cap, partial and failing writes, clean or abrupt end, all chosen by
//! the fuzzer; see `fuzz/src/relay.rs`): what went down is the message's
//! valid start, the end is one the inputs allow, and with nothing in the way
//! it is the one the message's bytes call for.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| diverge_frame_fuzz::relay::relay_target(data));
