//! Shared pieces of the diverge-frame benches: the inputs, the full walk over
//! our views, and the decoders we compare with.
//!
//! * `benches/decode.rs`: criterion, one group per input (and per set of 512
//!   frames, `varied` and `sdk`), every decoder side by side, the values of
//!   the rmcp-type decoders checked against the reference's first; and a
//!   `stream_<input>` group per input, `Frame::decode` and the reference
//!   beside the streaming validator and reader (`stream.rs`) fed in chunks.
//! * `src/bin/ic.rs` + `ic.sh`: instruction counts under callgrind.
//!
//! `README.md` in this directory says how to run them and regenerate the
//! figures.
//!
//! Encoding benches (once the encoder merges) go in `benches/encode.rs`, with
//! their inputs here and a group per input beside `serde_json::to_vec`.
#![allow(clippy::missing_panics_doc, clippy::unwrap_used)]

pub mod competitors;
pub mod inputs;
pub mod stream;
pub mod walk;
