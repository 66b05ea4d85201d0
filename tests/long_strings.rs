//! Equivalence on long strings: the word-at-a-time and block scans, the
//! memchr jumps and the unescape fast path all change behaviour at 8, 16,
//! 32, 64 and 128 bytes, which the generators (short pieces) rarely reach. Each
//! case puts one piece (valid or not) at every interesting offset of a long
//! plain run, in every kind of string slot, and compares with the reference.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::oracle::{check_frame, check_request, show};

const PIECES: &[&[u8]] = &[
    b"",
    b"\\n",
    b"\\\"",
    b"\\\\",
    b"\\/",
    b"\\u00e9",
    b"\\u2028",
    b"\\ud83d\\ude00",
    b"\\u0000",
    "é".as_bytes(),
    "😀".as_bytes(),
    "\u{7f}".as_bytes(),
    b"\\n\\t\\\"\\\\x\\r",
    // defects
    b"\"",
    b"\x01",
    b"\x1f",
    b"\t",
    b"\xff",
    b"\xc3",
    b"\xed\xa0\x80",
    b"\\x",
    b"\\u12G4",
    b"\\ud800",
    b"\\ud800\\u0041",
    b"\\udc00",
    b"\\",
];

fn lengths() -> Vec<usize> {
    if cfg!(miri) {
        return vec![65]; // Miri: one block boundary, a few cases (the reference is slow there)
    }
    let mut v: Vec<usize> = (0..=72).collect();
    v.extend([95, 96, 97, 127, 128, 129, 255, 256, 300, 1000, 4099]);
    v
}

fn offsets(len: usize) -> Vec<usize> {
    if cfg!(miri) {
        return vec![0, 63, 64, len];
    }
    let mut v = vec![
        0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200,
    ];
    v.extend([len.saturating_sub(1), len]);
    v.retain(|&p| p <= len);
    v.sort_unstable();
    v.dedup();
    v
}

/// Plain text of `len` bytes with `piece` at `at`.
fn body(len: usize, at: usize, piece: &[u8]) -> Vec<u8> {
    let mut s: Vec<u8> = (0..len)
        .map(|i| b"abcdefghijklmnopqrstuvwxyz0123456789 .,-"[i % 40])
        .collect();
    s.splice(at..at, piece.iter().copied());
    s
}

fn frames(text: &[u8]) -> Vec<(Option<u8>, Vec<u8>)> {
    let cat = |parts: &[&[u8]]| parts.concat();
    vec![
        (
            Some(0),
            cat(&[br#"{"contents":[{"uri":"a","text":""#, text, br#""}]}"#]),
        ),
        (
            Some(0),
            cat(&[
                br#"{"contents":[{"uri":""#,
                text,
                br#"","mimeType":"t","blob":"AAE="}]}"#,
            ]),
        ),
        (
            Some(0),
            cat(&[
                br#"{"contents":[{"uri":"a","text":"b","_meta":{"k":""#,
                text,
                br#""}}],"_meta":{""#,
                text,
                br#"":1}}"#,
            ]),
        ),
        (
            Some(0),
            cat(&[br#"{"unknown":[""#, text, br#""],"contents":[]}"#]),
        ),
        // Many items with the text in every string slot: more long strings
        // than a ResultView notes during validation (the walk jumps over
        // the first ones and walks the rest), `_meta` after a long text,
        // text winning over a blob, a duplicate text.
        (
            Some(0),
            cat(&[
                br#"{"contents":[{"uri":""#,
                text,
                br#"","mimeType":""#,
                text,
                br#"","text":""#,
                text,
                br#"","_meta":{"k":""#,
                text,
                br#""}},{"uri":"u","blob":""#,
                text,
                br#"","text":""#,
                text,
                br#""},{"text":""#,
                text,
                br#"","uri":""#,
                text,
                br#""},{"uri":"u","blob":""#,
                text,
                br#""},{"uri":""#,
                text,
                br#"","text":"x"}]}"#,
            ]),
        ),
        (
            Some(0),
            cat(&[
                br#"{"contents":[{"uri":"u","text":""#,
                text,
                br#"","text":""#,
                text,
                br#""}]}"#,
            ]),
        ),
        (
            Some(0),
            cat(&[br#"{"resultType":""#, text, br#"","contents":[]}"#]),
        ),
        (
            Some(1),
            cat(&[
                br#"{"code":1,"message":""#,
                text,
                br#"","data":[""#,
                text,
                br#""]}"#,
            ]),
        ),
        (
            None,
            cat(&[
                br#"{"uri":""#,
                text,
                br#"","_meta":{"p":""#,
                text,
                br#""}}"#,
            ]),
        ),
    ]
}

#[test]
fn long_strings_agree() {
    let mut cases = 0usize;
    let mut accepted = 0usize;
    for len in lengths() {
        for at in offsets(len) {
            for piece in PIECES.iter().step_by(if cfg!(miri) { 6 } else { 1 }) {
                let text = body(len, at, piece);
                for (tag, json) in frames(&text) {
                    let outcome = match tag {
                        Some(t) => {
                            let mut f = vec![t];
                            f.extend_from_slice(&json);
                            check_frame(&f)
                        }
                        None => check_request(&json),
                    };
                    match outcome {
                        Ok(ok) => accepted += usize::from(ok),
                        Err(e) => panic!(
                            "len {len} at {at} piece {}: {e}\n  input: {}",
                            show(piece),
                            show(&json)
                        ),
                    }
                    cases += 1;
                }
            }
        }
    }
    eprintln!("long strings: {cases} cases, {accepted} accepted by both, 0 disagreements");
    assert!(accepted > cases / 3);
}
