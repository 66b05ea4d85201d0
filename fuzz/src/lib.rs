//! Shared checks for the fuzz targets in `fuzz_targets/`.
//!
//! * [`walk`]: after a successful decode, read every view accessor to the
//!   end and assert the documented contracts; after a failed one, check the
//!   error.
//! * [`oracle`]: the reference comparator from the library's tests
//!   (`serde_json` + rmcp 3.11.0), shared so the fuzzer and `cargo test`
//!   judge by the same code.
//! * [`differential`]: one input, read as a frame and as a request, checked
//!   against the reference.
//! * [`roundtrip`]: the encoders against `serde_json::to_vec` of rmcp values
//!   built from the input, and decode → encode → decode.
//! * [`serialize`]: the encoders' own `serde::Serializer` (any
//!   `&T: Serialize` as `data` or `_meta`) against `serde_json::to_vec`, on
//!   values that call every method of the trait.
//! * [`spec`]: the spec checks and the strict encoders against oracles
//!   written from the RFCs (`fluent-uri`, a regular expression of RFC 9110's
//!   media type, the `base64` crate) and the spec's lists.
//! * [`stream`]: the chunk-fed validators and reader against the
//!   whole-buffer decoders, on cuts the fuzzer picks.
//! * [`exchange`]: the exchange module on scripted input: the state
//!   machine against its table, the whole-path readers, the ask codec,
//!   `relay` against `relay_async` and `StreamPath`, every end's methods.
//! * [`relay`]: `exchange::relay` between transports the fuzzer scripts
//!   (buffer, cap, partial and failing writes, an abrupt end), judged by
//!   properties of what went down and how it ended.
//!
//! Every target is a one-line `fuzz_target!` over a function here, so a new
//! target is one file in `fuzz_targets/` plus one `[[bin]]` in `Cargo.toml`.

pub mod exchange;
pub mod relay;
pub mod roundtrip;
pub mod serialize;
pub mod spec;
pub mod stream;
pub mod walk;

#[rustfmt::skip]
#[path = "../../tests/common/oracle.rs"]
pub mod oracle;

/// Lower-case hex of `bytes`, for failure messages and notes.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Panics with both answers and the input when the oracle reports a
/// disagreement.
#[track_caller]
fn agree(what: &str, input: &[u8], outcome: Result<bool, String>) {
    if let Err(e) = outcome {
        panic!(
            "differential ({what}): {e}\n  input (readable): {}\n  input (hex): {}",
            oracle::show(input),
            hex(input)
        );
    }
}

/// The `differential` target: `data` as a frame and as a request, and its
/// JSON part under every type (so a request seed also exercises result and
/// error frames, and a frame seed exercises requests). Our accept/reject and
/// every value read through the views must equal the reference's, and
/// `rmcp::decode_frame` the two-pass answer.
pub fn differential(data: &[u8]) {
    agree("frame", data, oracle::check_frame(data));
    one_pass(data);
    agree("request", data, oracle::check_request(data));
    let json = match data.split_first() {
        Some((0 | 1, json)) => {
            agree("request (tag removed)", json, oracle::check_request(json));
            json
        }
        _ => data,
    };
    for tag in [diverge_frame::RESULT_TAG, diverge_frame::ERROR_TAG] {
        if data.first() == Some(&tag) {
            continue;
        }
        let mut framed = Vec::with_capacity(json.len() + 1);
        framed.push(tag);
        framed.extend_from_slice(json);
        agree("frame (tag set)", &framed, oracle::check_frame(&framed));
        one_pass(&framed);
    }
}

/// `rmcp::decode_frame` builds a result's items in its validating pass and
/// checks the strings it keeps for UTF-8 on their unescaped text: it must
/// give exactly the two-pass answer (`Frame::decode`, then the views'
/// conversion), error kind and offset included.
#[track_caller]
fn one_pass(bytes: &[u8]) {
    let ours = diverge_frame::rmcp::decode_frame(bytes);
    let two_pass = diverge_frame::Frame::decode(bytes).map(diverge_frame::rmcp::OwnedFrame::from);
    if ours != two_pass {
        panic!(
            "differential (one pass): decode_frame {ours:?}, Frame::decode + From {two_pass:?}\n  input (readable): {}\n  input (hex): {}",
            oracle::show(bytes),
            hex(bytes)
        );
    }
}
