//! `rmcp::decode_frame` builds a result's items in the pass that validates
//! them (and checks each kept string's UTF-8 once, on its unescaped text).
//! Here it is held to the two-pass path it replaced, `Frame::decode` and
//! then the views' `From` conversion, which `tests/reference.rs` holds to
//! the reference: the same error (kind and offset) or the same value, and
//! to the reference itself on the values.
//!
//! Case counts scale with `DIVERGE_CASES` (default 20 000 per generator).

#![cfg(feature = "alloc")]
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::generate::Gen;
use common::oracle::show;
use common::table::{error_rows, result_rows};
use diverge_frame::rmcp::{OwnedFrame, decode_frame};
use diverge_frame::{BodyErrorKind, Frame, FrameError};

fn cases() -> usize {
    common::cases(20_000, 20)
}

/// The two-pass answer: validate, then convert the view.
fn two_pass(bytes: &[u8]) -> Result<OwnedFrame, FrameError> {
    Frame::decode(bytes).map(OwnedFrame::from)
}

/// The reference's value, if it accepts the frame.
fn reference(bytes: &[u8]) -> Option<OwnedFrame> {
    match bytes.split_first()? {
        (0, json) => serde_json::from_slice(json).ok().map(OwnedFrame::Result),
        (1, json) => serde_json::from_slice(json).ok().map(OwnedFrame::Error),
        _ => None,
    }
}

/// `decode_frame` equals the two-pass answer, error offsets included, and
/// on success the reference's value (with equal canonical bytes, which also
/// tell `-0.0` from `0.0`). Returns whether the frame was accepted.
#[track_caller]
fn agree(bytes: &[u8]) -> bool {
    let ours = decode_frame(bytes);
    let before = two_pass(bytes);
    assert_eq!(
        ours,
        before,
        "one pass and two passes differ: {}",
        show(bytes)
    );
    let theirs = reference(bytes);
    match (&ours, &theirs) {
        (Ok(a), Some(b)) => {
            assert_eq!(a, b, "value differs from the reference: {}", show(bytes));
            assert_eq!(
                encode_frame_to_vec(a),
                encode_frame_to_vec(b),
                "canonical bytes differ from the reference's: {}",
                show(bytes)
            );
            true
        }
        (Err(_), None) => false,
        _ => panic!(
            "accept/reject differs from the reference (ours {:?}): {}",
            ours.map(|_| ()),
            show(bytes)
        ),
    }
}

fn frame(tag: u8, json: &[u8]) -> Vec<u8> {
    [&[tag][..], json].concat()
}

#[test]
fn golden_vectors_and_oracle_rows() {
    let mut n = 0;
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bin") {
            agree(&std::fs::read(&path).unwrap());
            n += 1;
        }
    }
    for (json, ok) in result_rows() {
        assert_eq!(agree(&frame(0, &json)), ok, "{}", show(&json));
        n += 1;
    }
    for (json, ok) in error_rows() {
        assert_eq!(agree(&frame(1, &json)), ok, "{}", show(&json));
        n += 1;
    }
    assert!(n > 50, "too few vectors and rows: {n}");
}

/// The kept strings (`uri`, `mimeType`, `text`, `blob`) skip the scanner's
/// UTF-8 check and are checked once unescaped: a broken sequence next to an
/// escape must still be found, at the raw text's offset.
#[test]
fn broken_utf8_next_to_escapes_is_found_at_the_raw_offset() {
    // Each broken sequence starts at the first byte >= 0x80 of its frame.
    let cases: &[&[u8]] = &[
        // A lead byte cut short by an escape that is ASCII.
        b"{\"contents\":[{\"uri\":\"a\xC3\\n\",\"text\":\"t\"}]}",
        // ... and by an escape that is a two-byte character.
        b"{\"contents\":[{\"uri\":\"u\",\"text\":\"\xC3\\u00e9\"}]}",
        // A continuation byte just after an escape.
        b"{\"contents\":[{\"uri\":\"u\",\"text\":\"\\u00e9\xA9\"}]}",
        // A surrogate encoded raw (ED A0 80), escapes around it.
        b"{\"contents\":[{\"uri\":\"u\",\"blob\":\"\\t\xED\xA0\x80\\t\"}]}",
        // An overlong encoding in a mimeType without escapes.
        b"{\"contents\":[{\"uri\":\"u\",\"mimeType\":\"\xC0\xAF\",\"text\":\"t\"}]}",
        // Four-byte lead cut short at the end of the text.
        b"{\"contents\":[{\"text\":\"\\\"\xF0\x9F\x98\",\"uri\":\"u\"}]}",
    ];
    for &json in cases {
        let bytes = frame(0, json);
        let offset = bytes.iter().position(|&b| b >= 0x80).unwrap();
        match decode_frame(&bytes) {
            Err(FrameError::Body(e)) => {
                assert_eq!(e.kind(), BodyErrorKind::InvalidUtf8, "{}", show(&bytes));
                assert_eq!(e.offset(), offset, "{}", show(&bytes));
            }
            other => panic!("expected InvalidUtf8, got {other:?}: {}", show(&bytes)),
        }
        assert!(!agree(&bytes));
    }
}

/// Valid UTF-8 around escapes, and escapes that make characters.
#[test]
fn valid_text_around_escapes_converts() {
    let bytes = frame(
        0,
        "{\"contents\":[{\"uri\":\"caf\u{e9}\\u00e9\",\"mimeType\":\"\\/x\",\"text\":\"\u{1F600}\\ud83d\\ude00\\n\u{4e2d}\",\"blob\":\"\u{e9}\"}]}"
            .as_bytes(),
    );
    assert!(agree(&bytes));
    let Ok(OwnedFrame::Result(r)) = decode_frame(&bytes) else {
        panic!("rejected")
    };
    let rmcp::model::ResourceContents::TextResourceContents {
        uri,
        mime_type,
        text,
        ..
    } = &r.contents[0]
    else {
        panic!("not text")
    };
    assert_eq!(uri, "caf\u{e9}\u{e9}");
    assert_eq!(mime_type.as_deref(), Some("/x"));
    assert_eq!(text, "\u{1F600}\u{1F600}\n\u{4e2d}");
}

#[test]
fn generated_frames_agree() {
    let n = cases();
    let mut accepted = 0usize;
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0x0E_FA55, (seed % 4) as usize);
        accepted += usize::from(agree(&g.frame()));
    }
    eprintln!("generated frames: {n} cases, {accepted} accepted, 0 disagreements");
    assert!(accepted > n / 10, "too few valid frames: {accepted}/{n}");
}

#[test]
fn mutated_frames_agree() {
    let n = cases();
    let mut accepted = 0usize;
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0x0E_BEEF, (seed % 3) as usize);
        let mut input = g.frame();
        g.mutate(&mut input);
        accepted += usize::from(agree(&input));
    }
    eprintln!("mutated frames: {n} cases, {accepted} accepted, 0 disagreements");
}

/// `encode_frame` into a new `Vec`.
fn encode_frame_to_vec(frame: &OwnedFrame) -> Vec<u8> {
    let mut out = Vec::new();
    diverge_frame::rmcp::encode_frame(frame, &mut out).unwrap();
    out
}
