//! `decode_base64_into` and `base64_decoded_len` against the base64 crate
//! decoding the unescaped text (standard alphabet, padding optional), on
//! valid and invalid blobs, escaped and not, short and long.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use base64::Engine as _;
use common::base64::oracle;
use common::generate::Rng;
use diverge_frame::{Base64Error, Body, Frame};

/// JSON string text for `text`, escaping some characters the way other
/// encoders do (`\/`, `\u0041`) when `escape`.
fn json_text(text: &str, escape: bool, rng: &mut Rng) -> String {
    let mut out = String::new();
    for c in text.chars() {
        match c {
            '/' if escape && rng.one_in(2) => out.push_str("\\/"),
            c if escape && rng.one_in(9) => out.push_str(&format!("\\u{:04x}", c as u32)),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out
}

fn check(text: &str, escape: bool, rng: &mut Rng) {
    let frame = format!(
        "\0{{\"contents\":[{{\"uri\":\"u\",\"blob\":\"{}\"}}]}}",
        json_text(text, escape, rng)
    );
    let Ok(Frame::Result(r)) = Frame::decode(frame.as_bytes()) else {
        panic!("not a result: {frame}")
    };
    let item = r.contents().next().unwrap();
    let Body::Blob(blob) = item.body() else {
        panic!("not a blob")
    };
    // Only trailing `=` are padding (an inner one makes the text invalid).
    let trailing = text.chars().rev().take_while(|&c| c == '=').count();
    let len = (text.chars().count() - trailing) * 3 / 4;
    assert_eq!(blob.base64_decoded_len(), len, "decoded_len of {text:?}");
    let mut out = vec![0u8; len + 3];
    let ours = blob.decode_base64_into(&mut out).map(|n| out[..n].to_vec());
    match oracle(text) {
        Ok(expected) => assert_eq!(ours, Ok(expected), "{text:?} escaped={escape}"),
        Err(_) => assert!(
            matches!(ours, Err(Base64Error::Invalid { .. })),
            "{text:?}: ours {ours:?}"
        ),
    }
}

#[test]
fn blobs_agree_with_the_base64_crate() {
    let mut rng = Rng::new(5);
    let sizes: Vec<usize> = if cfg!(miri) {
        vec![0, 1, 2, 3, 4, 5, 64, 65]
    } else {
        (0..200)
            .chain([255, 256, 257, 1000, 4096, 50_000])
            .collect()
    };
    for n in sizes {
        for escape in [false, true] {
            let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            let mut enc = vec![0u8; bytes.len().div_ceil(3) * 4];
            let m = base64::engine::general_purpose::STANDARD
                .encode_slice(&bytes, &mut enc)
                .unwrap();
            let padded = String::from_utf8(enc[..m].to_vec()).unwrap();
            check(&padded, escape, &mut rng);
            check(padded.trim_end_matches('='), escape, &mut rng);
            // Defects: a bad character somewhere, a bad length, padding inside.
            if !padded.is_empty() {
                let at = rng.below(padded.len());
                let mut bad = padded.clone();
                bad.replace_range(at..=at, rng.pick(&["!", "-", "_", "é", " ", "="]));
                check(&bad, escape, &mut rng);
                check(&padded[..padded.len() - 1], escape, &mut rng);
            }
        }
    }
}

#[test]
fn too_small_buffer() {
    let frame = b"\0{\"contents\":[{\"uri\":\"u\",\"blob\":\"AAECAwQF\"}]}";
    let Ok(Frame::Result(r)) = Frame::decode(frame) else {
        panic!()
    };
    let Body::Blob(blob) = r.contents().next().unwrap().body() else {
        panic!()
    };
    let mut out = [0u8; 5];
    assert_eq!(
        blob.decode_base64_into(&mut out),
        Err(Base64Error::BufferTooSmall {
            needed: 6,
            available: 5
        })
    );
}
