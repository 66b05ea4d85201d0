//! The decoders we compare with.
//!
//! * **reference**: `serde_json::from_slice` into the rmcp 3.11.0 types (what
//!   diverge-frame is equivalent to).
//! * **borrowed structs**: hand-written serde structs with borrowed strings
//!   (`Cow<str>` that borrows when the text has no escape), decoded by
//!   serde_json, sonic-rs and simd-json. They check less than the reference
//!   (no untagged text/blob choice, `_meta`/`data` skipped with `IgnoredAny`),
//!   so they bound what a "just use serde" decoder costs.
//! * **sonic-rs and simd-json into the rmcp types**: the reference's own
//!   types (`ReadResourceResult`, `ErrorData`, `ReadResourceRequestParams`)
//!   from `sonic_rs::from_slice` and simd-json's serde `from_slice` (with
//!   reused buffers, on a copy of the input, which simd-json parses in place;
//!   the copy is timed): what a host would write instead of the reference. The same work as the reference and as
//!   `to_rmcp`, and the bench checks at start that the values are equal to
//!   the reference's ([`reference_frame`], [`reference_request_value`]).
//!
//! sonic-rs and simd-json are dev-dependencies, called from
//! `benches/others.rs` (the criterion bench) only, so the instruction-count
//! binary builds without them.

use std::borrow::Cow;

use diverge_frame::rmcp::OwnedFrame;
use serde::Deserialize;
use serde::de::IgnoredAny;

/// The reference's answer: 0 result, 1 error; panics on anything else.
#[inline]
pub fn reference(bytes: &[u8]) -> usize {
    let (&tag, json) = bytes.split_first().unwrap();
    match tag {
        0 => serde_json::from_slice::<rmcp::model::ReadResourceResult>(json)
            .unwrap()
            .contents
            .len(),
        1 => serde_json::from_slice::<rmcp::ErrorData>(json)
            .unwrap()
            .message
            .len(),
        t => panic!("tag {t}"),
    }
}

/// The reference for a request.
#[inline]
pub fn reference_request(bytes: &[u8]) -> usize {
    serde_json::from_slice::<rmcp::model::ReadResourceRequestParams>(bytes)
        .unwrap()
        .uri
        .len()
}

/// The reference's value for a frame, for the equality checks (the measured
/// [`reference`] returns a length instead).
pub fn reference_frame(bytes: &[u8]) -> OwnedFrame {
    let (&tag, json) = bytes.split_first().unwrap();
    match tag {
        0 => OwnedFrame::Result(serde_json::from_slice(json).unwrap()),
        1 => OwnedFrame::Error(serde_json::from_slice(json).unwrap()),
        t => panic!("tag {t}"),
    }
}

/// The reference's value for a request, for the equality checks.
pub fn reference_request_value(bytes: &[u8]) -> rmcp::model::ReadResourceRequestParams {
    serde_json::from_slice(bytes).unwrap()
}

/// A string that borrows when it can.
#[derive(Deserialize)]
pub struct Str<'a>(#[serde(borrow)] pub Cow<'a, str>);

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BContent<'a> {
    #[serde(borrow)]
    pub uri: Str<'a>,
    #[serde(borrow, default)]
    pub mime_type: Option<Str<'a>>,
    #[serde(borrow, default)]
    pub text: Option<Str<'a>>,
    #[serde(borrow, default)]
    pub blob: Option<Str<'a>>,
    #[serde(rename = "_meta", default)]
    pub meta: Option<IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BResult<'a> {
    #[serde(borrow, default)]
    pub result_type: Option<Str<'a>>,
    #[serde(default)]
    pub ttl_ms: Option<i64>,
    #[serde(borrow, default)]
    pub cache_scope: Option<Str<'a>>,
    #[serde(borrow)]
    pub contents: Vec<BContent<'a>>,
    #[serde(rename = "_meta", default)]
    pub meta: Option<IgnoredAny>,
}

#[derive(Deserialize)]
pub struct BError<'a> {
    pub code: i32,
    #[serde(borrow)]
    pub message: Str<'a>,
    #[serde(default)]
    pub data: Option<IgnoredAny>,
}

#[derive(Deserialize)]
pub struct BRequest<'a> {
    #[serde(borrow)]
    pub uri: Str<'a>,
    #[serde(rename = "_meta", default)]
    pub meta: Option<IgnoredAny>,
}

pub fn result_len(r: &BResult<'_>) -> usize {
    r.contents
        .iter()
        .map(|c| c.text.as_ref().or(c.blob.as_ref()).map_or(0, |s| s.0.len()))
        .sum()
}

/// serde_json into the borrowed structs.
#[inline]
pub fn serde_borrowed(bytes: &[u8]) -> usize {
    let (&tag, json) = bytes.split_first().unwrap();
    match tag {
        0 => result_len(&serde_json::from_slice::<BResult<'_>>(json).unwrap()),
        _ => serde_json::from_slice::<BError<'_>>(json)
            .unwrap()
            .message
            .0
            .len(),
    }
}

/// serde_json request into the borrowed struct.
#[inline]
pub fn serde_borrowed_request(bytes: &[u8]) -> usize {
    serde_json::from_slice::<BRequest<'_>>(bytes)
        .unwrap()
        .uri
        .0
        .len()
}
