//! Golden vectors (`tests/vectors/`), written from the spec and REFERENCE.md:
//! each one decoded, read through the views, checked against hand-written
//! values and against the reference.
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::oracle::{check_frame, check_request};
use diverge_frame::{Body, BodyErrorKind, CacheScope, Frame, FrameError, RequestView, Tag};

fn vector(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/vectors/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn text(body: Body<'_>) -> String {
    match body {
        Body::Text(t) => t.chars().collect(),
        Body::Blob(_) => panic!("expected text, got blob"),
    }
}

macro_rules! frame_vector {
    ($test:ident, $file:literal, |$v:ident| $body:block) => {
        #[test]
        fn $test() {
            let bytes = vector($file);
            assert_eq!(
                check_frame(&bytes),
                Ok(true),
                "reference disagrees on {}",
                $file
            );
            let frame = Frame::decode(&bytes).unwrap();
            let $v = frame;
            $body
        }
    };
}

frame_vector!(small_result, "result_small.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert!(r.result_type().unwrap() == "complete");
    assert_eq!(r.ttl_ms(), Some(0));
    assert_eq!(r.cache_scope(), Some(CacheScope::Private));
    assert_eq!(r.contents().len(), 1);
    let c = r.contents().next().unwrap();
    assert_eq!(c.uri().as_str(), Some("docs://getting-started"));
    assert_eq!(c.mime_type().unwrap().as_str(), Some("text/markdown"));
    assert_eq!(
        text(c.body()),
        "# Getting started\n\nWelcome to this server."
    );
    assert!(c.meta().is_none() && r.meta().is_none());
});

frame_vector!(spec_example, "result_spec_example.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(r.result_type(), None);
    let c = r.contents().next().unwrap();
    assert!(c.uri() == "file:///project/src/main.rs");
    assert_eq!(
        text(c.body()),
        "fn main() {\n    println!(\"Hello world!\");\n}"
    );
});

frame_vector!(text_and_blob_items, "result_text_and_blob_items.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    let items: Vec<_> = r.contents().collect();
    assert_eq!(items.len(), 2);
    assert_eq!(text(items[0].body()), "Report complete.");
    let Body::Blob(b) = items[1].body() else {
        panic!("expected blob")
    };
    let mut out = [0u8; 8];
    assert_eq!(b.decode_base64_into(&mut out), Ok(1));
    assert_eq!(out[0], b'a');
    assert_eq!(
        r.meta().unwrap().as_bytes(),
        br#"{"example.com/report-version":1}"#
    );
    assert_eq!(
        r.meta()
            .unwrap()
            .get("example.com/report-version")
            .unwrap()
            .as_bytes(),
        b"1"
    );
});

frame_vector!(escapes, "result_escapes.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    let c = r.contents().next().unwrap();
    assert!(c.uri() == "docs://café");
    assert_eq!(
        c.uri().as_str(),
        None,
        "escaped text is never handed out as &str"
    );
    assert_eq!(
        text(c.body()),
        "\u{1}\u{8}\u{7f}é😀/\"\\\u{2028} tab\there 😀 / café"
    );
    let mut small = [0u8; 4];
    let Body::Text(t) = c.body() else {
        unreachable!()
    };
    assert!(t.unescape_into(&mut small).is_err());
    assert_eq!(t.to_heapless::<64>().unwrap().as_str(), text(c.body()));
    assert!(t.to_heapless::<8>().is_err());
    assert_eq!(c.meta().unwrap().as_bytes(), br#"{"k":"v"}"#);
});

frame_vector!(blob, "result_blob.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    let c = r.contents().next().unwrap();
    let Body::Blob(b) = c.body() else {
        panic!("expected blob")
    };
    let mut out = vec![0u8; b.base64_decoded_len()];
    assert_eq!(b.decode_base64_into(&mut out), Ok(2048));
    let expected: Vec<u8> = (0..8).flat_map(|_| 0..=255u8).collect();
    assert_eq!(out, expected);
    let mut short = vec![0u8; 100];
    assert!(matches!(
        b.decode_base64_into(&mut short),
        Err(diverge_frame::Base64Error::BufferTooSmall { needed: 2048, .. })
    ));
});

frame_vector!(text_wins_over_blob, "result_text_wins_over_blob.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(text(r.contents().next().unwrap().body()), "kept");
});

frame_vector!(positional_result, "result_positional.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(r.contents().len(), 1);
    assert_eq!(r.result_type(), None);
});

frame_vector!(legacy_empty, "result_legacy_empty.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(r.contents().len(), 0);
    assert_eq!(r.contents().next(), None);
});

frame_vector!(cache_scope_forms, "result_cache_scope_forms.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(r.cache_scope(), Some(CacheScope::Public));
    assert_eq!(r.ttl_ms(), Some(0), "negative ttlMs clamps to 0");
    assert_eq!(r.result_type(), None);
});

frame_vector!(large, "result_large.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    let t = text(r.contents().next().unwrap().body());
    assert_eq!(t.lines().count(), 300);
    assert!(t.starts_with("line 0: the quick brown fox é"));
});

frame_vector!(deepest_meta, "result_deepest_meta.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    let meta = r.contents().next().unwrap().meta().unwrap();
    assert_eq!(meta.get("x").unwrap().as_bytes().len(), 246);
});

frame_vector!(deep_unknown_member, "result_deep_unknown_member.bin", |f| {
    let Frame::Result(r) = f else {
        panic!("not a result")
    };
    assert_eq!(text(r.contents().next().unwrap().body()), "ok");
});

frame_vector!(error_not_found, "error_not_found.bin", |f| {
    let Frame::Error(e) = f else {
        panic!("not an error")
    };
    assert_eq!(e.code(), -32602);
    assert!(e.message() == "Resource not found");
    assert_eq!(e.data().unwrap().as_bytes(), br#"{"uri":"docs://missing"}"#);
    assert_eq!(f.tag(), Tag::Error);
});

frame_vector!(error_not_found_legacy, "error_not_found_legacy.bin", |f| {
    let Frame::Error(e) = f else {
        panic!("not an error")
    };
    assert_eq!(e.code(), -32002);
});

frame_vector!(error_internal, "error_internal.bin", |f| {
    let Frame::Error(e) = f else {
        panic!("not an error")
    };
    assert_eq!((e.code(), e.data()), (-32603, None));
    assert_eq!(e.message().as_str(), Some("Internal error"));
});

frame_vector!(error_positional, "error_positional.bin", |f| {
    let Frame::Error(e) = f else {
        panic!("not an error")
    };
    assert_eq!(e.code(), -32601);
    assert_eq!(e.data(), None);
});

macro_rules! request_vector {
    ($test:ident, $file:literal, |$v:ident| $body:block) => {
        #[test]
        fn $test() {
            let bytes = vector($file);
            assert_eq!(
                check_request(&bytes),
                Ok(true),
                "reference disagrees on {}",
                $file
            );
            let $v = RequestView::decode(&bytes).unwrap();
            $body
        }
    };
}

request_vector!(request_simple, "request_simple.json", |r| {
    assert_eq!(r.uri().as_str(), Some("docs://getting-started"));
    assert!(r.meta().is_none() && r.input_responses().is_none() && r.request_state().is_none());
});

request_vector!(request_meta, "request_meta.json", |r| {
    assert!(r.uri() == "file:///project/src/main.rs");
    #[derive(serde::Deserialize)]
    struct Meta {
        #[serde(rename = "progressToken")]
        progress_token: u32,
    }
    let meta: Meta = r.meta().unwrap().deserialize().unwrap();
    assert_eq!(meta.progress_token, 7);
});

request_vector!(request_mrtr, "request_mrtr.json", |r| {
    assert_eq!(r.request_state().unwrap().as_str(), Some("opaque-state-1"));
    let responses = r.input_responses().unwrap();
    let (key, value) = responses.members().next().unwrap();
    assert!(key == "confirm");
    assert_eq!(value.as_bytes(), br#"{"action":"accept"}"#);
});

request_vector!(request_positional, "request_positional.json", |r| {
    assert!(r.uri() == "docs://x");
});

#[test]
fn invalid_vectors_are_rejected_with_typed_errors() {
    let cases: &[(&str, FrameError)] = &[
        ("invalid_empty.bin", FrameError::Empty),
        ("invalid_unknown_tag.bin", FrameError::UnknownTag(2)),
    ];
    for (name, expected) in cases {
        let bytes = vector(name);
        assert_eq!(Frame::decode(&bytes), Err(*expected), "{name}");
        assert_eq!(check_frame(&bytes), Ok(false));
    }
    let body: &[(&str, BodyErrorKind, usize)] = &[
        (
            "invalid_trailing.bin",
            BodyErrorKind::TrailingCharacters,
            17,
        ),
        (
            "invalid_no_variant.bin",
            BodyErrorKind::InvalidContentItem,
            24,
        ),
        (
            "invalid_duplicate_contents.bin",
            BodyErrorKind::DuplicateField,
            16,
        ),
        ("invalid_code_float.bin", BodyErrorKind::InvalidType, 9),
        (
            "invalid_lone_surrogate.bin",
            BodyErrorKind::LoneSurrogate,
            33,
        ),
    ];
    for (name, kind, offset) in body {
        let bytes = vector(name);
        assert_eq!(check_frame(&bytes), Ok(false), "{name}");
        match Frame::decode(&bytes) {
            Err(FrameError::Body(e)) => {
                assert_eq!((e.kind(), e.offset()), (*kind, *offset), "{name}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
    for (name, kind) in [
        ("invalid_request_bom.json", BodyErrorKind::ExpectedValue),
        (
            "invalid_request_missing_uri.json",
            BodyErrorKind::MissingField,
        ),
    ] {
        let bytes = vector(name);
        assert_eq!(check_request(&bytes), Ok(false));
        assert_eq!(
            RequestView::decode(&bytes).unwrap_err().kind(),
            kind,
            "{name}"
        );
    }
}

#[test]
fn every_vector_agrees_with_the_reference() {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let outcome = match path.extension().and_then(|e| e.to_str()) {
            Some("bin") => check_frame(&bytes),
            Some("json") => check_request(&bytes),
            _ => continue,
        };
        let expect_ok = !path
            .file_name()
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("invalid_");
        assert_eq!(outcome, Ok(expect_ok), "{}", path.display());
        n += 1;
    }
    assert!(n >= 29, "only {n} vectors found");
}

/// `ResultView::decode` and `ErrorView::decode` on a body without its tag
/// byte give what `Frame::decode` gives with the tag: the same view, or the
/// same error one byte earlier. Every vector's body (requests' included) is
/// read as each kind of body, so both decoders meet bodies they refuse.
#[test]
fn body_decoders_agree_with_frame_decode_on_every_vector() {
    use diverge_frame::{ErrorView, ResultView};

    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    let (mut ok, mut refused) = (0, 0);
    for name in &names {
        let bytes = vector(name);
        let body = if name.ends_with(".bin") {
            bytes.get(1..).unwrap_or_default()
        } else {
            &bytes[..]
        };
        for tag in [0u8, 1] {
            let framed = [&[tag][..], body].concat();
            let whole = Frame::decode(&framed);
            let alone = if tag == 0 {
                ResultView::decode(body).map(Frame::Result)
            } else {
                ErrorView::decode(body).map(Frame::Error)
            };
            match (whole, alone) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{name}, tag {tag}");
                    assert_eq!(a.to_string(), b.to_string());
                    ok += 1;
                }
                (Err(FrameError::Body(a)), Err(b)) => {
                    assert_eq!(
                        (a.kind(), a.field(), a.offset()),
                        (b.kind(), b.field(), b.offset() + 1),
                        "{name}, tag {tag}"
                    );
                    refused += 1;
                }
                (a, b) => panic!("{name}, tag {tag}: Frame::decode {a:?}, alone {b:?}"),
            }
        }
    }
    assert!(
        names.len() >= 29 && ok >= 15 && refused >= 20,
        "{ok} {refused}"
    );
}
