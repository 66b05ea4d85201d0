//! The hand-written base64 codec (src/base64.rs) against the `base64` crate:
//! `JsonStr::decode_base64_into` and `spec::is_base64` against
//! `GeneralPurpose` (standard alphabet, `DecodePaddingMode::Indifferent`,
//! no trailing bits) on hand-written vectors and generated text, and
//! `BlobWriter` against `STANDARD.encode` with input fed in random chunks.
//!
//! `PROPTEST_CASES=100000 cargo test --release --test base64` for a long run.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use common::base64::oracle;
use diverge_frame::encode::ResultEncoder;
use diverge_frame::spec::is_base64;
use diverge_frame::{Base64Error, Body, Frame};
use proptest::prelude::*;

/// A one-blob result frame whose blob is `text`, written as JSON with
/// `\/` and `\uXXXX` escapes where `escape(i)` says so for character `i`.
fn frame(text: &str, escape: impl Fn(usize) -> bool) -> Vec<u8> {
    let mut json = String::new();
    for (i, c) in text.chars().enumerate() {
        match c {
            '/' if escape(i) && i % 2 == 0 => json.push_str("\\/"),
            c if escape(i) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    json.push_str(&format!("\\u{u:04x}"));
                }
            }
            '"' => json.push_str("\\\""),
            '\\' => json.push_str("\\\\"),
            c if (c as u32) < 0x20 => json.push_str(&format!("\\u{:04x}", c as u32)),
            c => json.push(c),
        }
    }
    format!("\0{{\"contents\":[{{\"uri\":\"u\",\"blob\":\"{json}\"}}]}}").into_bytes()
}

/// Decodes the blob of `frame` into a buffer of `room` bytes.
fn ours(frame: &[u8], room: usize) -> Result<Vec<u8>, Base64Error> {
    let Ok(Frame::Result(r)) = Frame::decode(frame) else {
        panic!("not a result: {}", String::from_utf8_lossy(frame))
    };
    let Body::Blob(blob) = r.contents().next().unwrap().body() else {
        panic!("not a blob")
    };
    let mut out = vec![0u8; room];
    let n = blob.decode_base64_into(&mut out)?;
    out.truncate(n);
    Ok(out)
}

/// Every check on one text: plain and escaped, with room to spare, exact
/// room, too little room and none.
fn check(text: &str, mask: u64) {
    let expected = oracle(text);
    assert_eq!(is_base64(text), expected.is_ok(), "is_base64({text:?})");
    let plain = frame(text, |_| false);
    let escaped = frame(text, |i| mask >> (i % 64) & 1 == 1);
    for f in [&plain, &escaped] {
        let room = text.len() + 4;
        match &expected {
            Ok(bytes) => {
                assert_eq!(ours(f, room).as_ref(), Ok(bytes), "{text:?}");
                assert_eq!(ours(f, bytes.len()).as_ref(), Ok(bytes), "{text:?}");
                for small in [0, bytes.len() / 2, bytes.len().saturating_sub(1)] {
                    if small < bytes.len() {
                        assert_eq!(
                            ours(f, small),
                            Err(Base64Error::BufferTooSmall {
                                needed: bytes.len(),
                                available: small
                            }),
                            "{text:?} into {small}"
                        );
                    }
                }
            }
            Err(offset) => {
                for r in [room, 0, 1, text.len() / 2] {
                    assert_eq!(
                        ours(f, r),
                        Err(Base64Error::Invalid { offset: *offset }),
                        "{text:?} into {r}, escaped: {}",
                        f == &escaped
                    );
                }
            }
        }
    }
}

#[test]
fn rfc4648_vectors() {
    for (plain, enc) in [
        ("", ""),
        ("f", "Zg=="),
        ("fo", "Zm8="),
        ("foo", "Zm9v"),
        ("foob", "Zm9vYg=="),
        ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ] {
        assert_eq!(oracle(enc).unwrap(), plain.as_bytes());
        check(enc, 0);
        check(enc, !0);
        check(enc.trim_end_matches('='), 0);
        check(enc.trim_end_matches('='), 0x5555);
    }
}

#[test]
fn hand_written_vectors() {
    let texts = [
        // Padding forms: full, short (`Indifferent` takes `AA=`), none, too much.
        "AA==",
        "AA=",
        "AA",
        "AAA=",
        "AAA",
        "AA===",
        "AAA==",
        "AAAA=",
        "AAAA==",
        "A===",
        "====",
        "=",
        "==",
        "A=",
        "A==", // Stray bits in the last character.
        "AB==",
        "AB",
        "AAB=",
        "AAB",
        "AAF=",
        "/w==",
        "/x==",
        "//8=",
        "//9=", // Inner padding.
        "AA==AAAA",
        "AAA=AAAA",
        "=AAA",
        "A=AA",
        "AAAA=AAA",
        "AAAA==AA",
        "AAAA===A",
        "=====",
        "=====AAA",
        "AA=====",
        "AA==AAAA", // Bad lengths.
        "A",
        "AAAAA",
        "AAAAAAAAA",
        "AAAA A", // Junk, and the 1-mod-4 last character first.
        "!AAA",
        "A!AA",
        "AAA!",
        "AAAA!",
        "!AAA!",
        "AAAAAAAA!",
        "!AAAAAAAA",
        "AA!A=",
        "é",
        "AAé",
        "AAAAAAAé",
        "AA\nA",
        "AAAA\n",
        "-_AA",
        "AA-A", // Long ones, errors past the first block.
        "AAAAAAAAAAAAAAAAAAAAAAAA!AAA",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAA=AAAA",
    ];
    for text in texts {
        for mask in [0, !0, 0x5555_5555_5555_5555, 1, 1 << 5] {
            check(text, mask);
        }
    }
}

#[test]
fn chunk_boundaries() {
    // The old decoder unescaped 256 characters at a time (findings F1, F2);
    // errors and padding around 256 must come out as for the whole text.
    for n in [252usize, 253, 254, 255, 256, 257, 260, 512] {
        let a = "A".repeat(n);
        for text in [
            a.clone(),
            format!("{a}AA=="),
            format!("{a}AA==AAAA"),
            format!("{a}!"),
            format!("!{a}!"),
            format!("{a}=AAA"),
            format!("A!{a}"),
        ] {
            check(&text, 1);
            check(&text, 1 << 63);
        }
    }
}

/// Text: random bytes encoded by the `base64` crate (padded or not), then
/// up to three mutations: a character replaced by `=`, junk or another
/// alphabet character, cut, padding added or removed.
fn mutated() -> impl Strategy<Value = String> {
    let edit = (
        0u8..6,
        any::<usize>(),
        prop::sample::select(vec![
            '=', '!', '-', '_', ' ', '\n', 'é', '"', '\\', 'A', 'z', '0', '+', '/', 'Q', 'w',
        ]),
    );
    (
        prop::collection::vec(any::<u8>(), 0..200),
        any::<bool>(),
        prop::collection::vec(edit, 0..4),
    )
        .prop_map(|(bytes, pad, edits)| {
            let mut chars: Vec<char> = STANDARD.encode(&bytes).chars().collect();
            if !pad {
                while chars.last() == Some(&'=') {
                    chars.pop();
                }
            }
            for (kind, at, c) in edits {
                let at = at % (chars.len() + 1);
                match kind {
                    0 | 1 if at < chars.len() => chars[at] = c,
                    2 => chars.truncate(at),
                    3 => chars.push('='),
                    4 => {
                        chars.pop();
                    }
                    _ => chars.insert(at, c),
                }
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #[test]
    fn decodes_like_the_base64_crate(text in mutated(), mask in any::<u64>()) {
        check(&text, mask);
    }

    #[test]
    fn arbitrary_text_decodes_like_the_base64_crate(
        text in "[A-Za-z0-9+/=!é ]{0,40}",
        mask in any::<u64>(),
    ) {
        check(&text, mask);
    }

    #[test]
    fn near_valid_text_decodes_like_the_base64_crate(
        text in "[AQgw/+=]{0,24}",
        mask in any::<u64>(),
    ) {
        check(&text, mask);
    }

    #[test]
    fn blob_writer_encodes_like_the_base64_crate(
        bytes in prop::collection::vec(any::<u8>(), 0..400),
        cuts in prop::collection::vec(0usize..70, 0..12),
    ) {
        let mut buf = vec![0u8; bytes.len() * 2 + 64];
        let mut blob = ResultEncoder::new(&mut buf[..]).unwrap().contents().unwrap()
            .item("u").unwrap().blob_writer().unwrap();
        let mut rest = &bytes[..];
        for cut in cuts {
            let (head, tail) = rest.split_at(cut.min(rest.len()));
            blob.write(head).unwrap();
            rest = tail;
        }
        blob.write(rest).unwrap();
        let n = blob.end().unwrap().end().unwrap().finish().unwrap();
        let expected = format!(
            "\0{{\"contents\":[{{\"uri\":\"u\",\"blob\":\"{}\"}}]}}",
            STANDARD.encode(&bytes)
        );
        prop_assert_eq!(String::from_utf8_lossy(&buf[..n]), expected);
    }
}
