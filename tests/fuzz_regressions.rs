//! Inputs the fuzzers found (`fuzz/`), kept as regression tests. Each one
//! first asserts, through the reference oracle, what `serde_json` + rmcp
//! 3.11.0 does with the frame; then the property that failed (both fixed; the
//! findings are described in `fuzz/FINDINGS.md`).
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::oracle::{check_frame, show};
use diverge_frame::stream::FrameValidator;
use diverge_frame::{Base64Error, Blob, Body, Frame};

/// The named regression inputs of the fuzz targets
/// (`fuzz/regressions/<target>/`, which `fuzz/ci.sh` replays through the
/// targets too), by name.
fn corpus(target: &str, name: &str) -> Vec<u8> {
    let path = format!(
        "{}/fuzz/regressions/{target}/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The one blob of a one-item result frame.
fn only_blob(frame: &[u8]) -> Blob<'_> {
    let Ok(Frame::Result(r)) = Frame::decode(frame) else {
        panic!("not a result: {}", show(frame))
    };
    let mut items = r.contents();
    let (Some(item), None) = (items.next(), items.next()) else {
        panic!("not one item")
    };
    let Body::Blob(blob) = item.body() else {
        panic!("not a blob")
    };
    blob
}

/// Decodes a blob into a buffer of exactly `base64_decoded_len()` bytes.
fn decode_exact(blob: Blob<'_>) -> Result<Vec<u8>, Base64Error> {
    let mut out = vec![0u8; blob.base64_decoded_len()];
    let n = blob.decode_base64_into(&mut out)?;
    out.truncate(n);
    Ok(out)
}

const F1: &str = "finding_f1_blob_inner_padding.bin";
const F2: &str = "finding_f2_escaped_blob_chunk_padding.bin";

#[test]
fn f1_frame_agrees_with_reference() {
    let frame = corpus("decode_frame", F1);
    assert_eq!(
        frame,
        b"\x00{\"contents\":[{\"uri\":\"\",\"blob\":\"=====\"}]}"
    );
    // The reference never checks blobs: it accepts the frame, and so do we.
    assert_eq!(check_frame(&frame), Ok(true));
}

/// F1: an invalid blob with `=` inside is reported as a too-small buffer
/// whose `needed` equals `available`, so a caller that grows its buffer to
/// `needed` and retries never gets anywhere.
#[test]
fn f1_invalid_blob_is_invalid_not_buffer_too_small() {
    let frame = corpus("decode_frame", F1);
    let blob = only_blob(&frame);
    assert!(
        matches!(decode_exact(blob), Err(Base64Error::Invalid { .. })),
        "got {:?} for blob {blob:?} with a buffer of base64_decoded_len() = {}",
        decode_exact(blob),
        blob.base64_decoded_len()
    );
}

#[test]
fn f2_frame_agrees_with_reference() {
    let frame = corpus("decode_frame", F2);
    assert_eq!(check_frame(&frame), Ok(true));
}

/// F2: the same blob text decodes differently with and without a JSON
/// escape: the escaped path decodes 256-character chunks one by one, so
/// padding at the end of a chunk is accepted in the middle of the blob.
#[test]
fn f2_escaped_blob_decodes_like_its_unescaped_text() {
    let frame = corpus("decode_frame", F2);
    let escaped = only_blob(&frame);
    assert!(escaped.text().is_escaped());
    let text: String = escaped.text().chars().collect();
    let plain_frame = format!("\u{0}{{\"contents\":[{{\"uri\":\"\",\"blob\":\"{text}\"}}]}}");
    let plain = only_blob(plain_frame.as_bytes());
    assert!(!plain.text().is_escaped());
    assert!(matches!(
        decode_exact(plain),
        Err(Base64Error::Invalid { .. })
    ));
    assert_eq!(
        decode_exact(escaped).map(|v| v.len()),
        decode_exact(plain).map(|v| v.len())
    );
}

/// F3 (`stream`): a `cacheScope` map with `]` after a member. The one-walk
/// reading of the map worded the error as the struct cursor does
/// (`ExpectedCommaOrEndOfObject`); the streaming validator, as the value
/// machine does (`MismatchedBracket`), at the same offset.
const F3: &[u8] =
    b"\x00{\"contents\":[],\"cacheScope\":{\"public\":null],\"ttlMs\":-5,\"resultType\":null}";

#[test]
fn f3_frame_agrees_with_reference() {
    assert_eq!(check_frame(F3), Ok(false));
    // The committed stream seed is this frame, behind its cut header.
    assert!(corpus("stream", "finding_f3_cache_scope_map_bracket.bin").ends_with(&F3[1..]));
}

/// F3: the streaming validator, fed the frame whole and a byte at a time,
/// fails as `Frame::decode` does, with the same kind and offset.
#[test]
fn f3_stream_and_whole_decode_word_the_error_alike() {
    let whole = Frame::decode(F3).map(|_| ()).unwrap_err();
    let mut v = FrameValidator::new();
    assert_eq!(v.feed(F3).and_then(|()| v.finish().map(|_| ())), Err(whole));
    let mut v = FrameValidator::new();
    let fed = F3
        .chunks(1)
        .try_for_each(|b| v.feed(b))
        .and_then(|()| v.finish().map(|_| ()));
    assert_eq!(fed, Err(whole));
}

/// F4 (`spec`): an `IPvFuture` host longer than 64 characters made
/// `is_absolute_uri` (and so `check_spec` and the strict encoders) refuse an
/// absolute URI that RFC 3986 (and `fluent-uri`'s parser) accepts.
#[test]
fn f4_long_ipvfuture_is_an_absolute_uri() {
    let bytes = corpus("spec", "finding_f4_long_ipvfuture.bin");
    assert_eq!(check_frame(&bytes), Ok(true), "{}", show(&bytes));
    let Ok(frame) = Frame::decode(&bytes) else {
        panic!("decodes")
    };
    assert_eq!(frame.check_spec(), Ok(()));
    let host = format!("http://[v7.{}]/", "x".repeat(200));
    assert!(diverge_frame::spec::is_absolute_uri(&host));
    assert!(!diverge_frame::spec::is_absolute_uri("http://[v7.]/"));
}

/// Every named regression input of the frame decoder (each finding, and
/// the other inputs of its class) decodes as the reference decodes it.
#[test]
fn every_frame_regression_agrees_with_the_reference() {
    let dir = format!(
        "{}/fuzz/regressions/decode_frame",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}")) {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        if let Err(e) = check_frame(&bytes) {
            panic!("{}: {e}", path.display());
        }
        seen += 1;
    }
    assert!(seen >= 4, "{seen} inputs in {dir}");
}
