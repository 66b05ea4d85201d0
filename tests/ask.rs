//! The ask's framing on `/requests` (`exchange::ask_encoder`, `encode_ask_view`,
//! `decode_ask`): the kind byte `3`, then the request JSON to the end of the
//! message, against the reference (`serde_json::to_vec` /
//! `serde_json::from_slice` of rmcp's `ReadResourceRequestParams`) byte for
//! byte, and the typed errors for an empty message, another kind and bad
//! JSON.

#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;

use diverge_frame::encode::EncodeError;
use diverge_frame::encode::RequestEncoder;
use diverge_frame::exchange::AskError;
use diverge_frame::exchange::{READ_RESOURCE_KIND, ask_encoder, decode_ask, encode_ask_view};
use diverge_frame::{BodyError, BodyErrorKind, RequestView};
use rmcp::model::{MetaObject, ReadResourceRequestParams, RequestMetaObject};
use serde_json::{Map, Value, json};

use common::generate::Gen;
use common::oracle::show;

/// The reference's ask: the kind byte, then `serde_json::to_vec`.
fn reference_ask(params: &ReadResourceRequestParams) -> Vec<u8> {
    let mut ask = vec![READ_RESOURCE_KIND];
    ask.extend_from_slice(&serde_json::to_vec(params).unwrap());
    ask
}

fn object(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => unreachable!(),
    }
}

fn params() -> Vec<ReadResourceRequestParams> {
    let uris = [
        "docs://readme",
        "",
        "file:///caf\u{e9}/\u{1f600}.txt",
        "a\"b\\c\n\t\u{1}\u{1f}\u{7f}\u{2028}/",
    ];
    let mut all = Vec::new();
    for uri in uris {
        all.push(ReadResourceRequestParams::new(uri));
        let mut p = ReadResourceRequestParams::new(uri);
        p.meta = Some(RequestMetaObject(MetaObject(object(json!({
            "progressToken": 7,
            "z": [1.5, -0.0, 1e300, null, true, "s\u{0}"],
            "a": {"deep": {"er": u64::MAX}},
        })))));
        p.request_state = Some("state \u{e9}\"".into());
        all.push(p.clone());
        p.input_responses = Some(BTreeMap::from([
            ("k".to_string(), json!({"x": 1})),
            ("\u{e9}".to_string(), json!(null)),
        ]));
        all.push(p);
    }
    all
}

/// The builder behind the kind byte, fed the params' fields.
fn build(p: &ReadResourceRequestParams, out: &mut [u8]) -> Result<usize, EncodeError> {
    let e = ask_encoder(out)?;
    // The typestates differ per field; write them through one erased path.
    match (&p.meta, &p.input_responses, &p.request_state) {
        (None, None, None) => e.uri(p.uri.as_str())?.finish(),
        (Some(m), None, Some(s)) => e
            .meta(m)?
            .uri(p.uri.as_str())?
            .request_state(s.as_str())?
            .finish(),
        (Some(m), Some(i), Some(s)) => e
            .meta(m)?
            .uri(p.uri.as_str())?
            .input_responses(i)?
            .request_state(s.as_str())?
            .finish(),
        _ => unreachable!("not among params()"),
    }
}

#[test]
fn an_ask_is_the_kind_byte_then_what_serde_json_writes() {
    for p in params() {
        let want = reference_ask(&p);
        // The builder; its count includes the kind byte.
        let mut buf = vec![0u8; want.len() + 8];
        let n = build(&p, &mut buf).unwrap();
        assert_eq!(show(&buf[..n]), show(&want));
        // A decoded request, re-emitted.
        let view = RequestView::decode(&want[1..]).unwrap();
        let mut again = vec![0u8; want.len()];
        assert_eq!(encode_ask_view(&view, &mut again[..]), Ok(want.len()));
        assert_eq!(show(&again), show(&want));
        // And split back: the same request as the reference reads.
        let request = decode_ask(&want).unwrap();
        assert_eq!(request.uri(), p.uri.as_str());
        let back: ReadResourceRequestParams = serde_json::from_slice(&want[1..]).unwrap();
        assert_eq!(back, p);
        // Every shorter buffer is BufferFull, never a panic or a short ask.
        for short in 0..want.len() {
            let mut small = vec![0u8; short];
            assert_eq!(build(&p, &mut small), Err(EncodeError::BufferFull));
            assert_eq!(
                encode_ask_view(&view, &mut small[..]),
                Err(EncodeError::BufferFull)
            );
        }
    }
}

#[test]
fn into_a_heapless_vec_too() {
    let mut out = heapless::Vec::<u8, 64>::new();
    let n = ask_encoder(&mut out)
        .and_then(|e| e.uri("docs://a"))
        .and_then(RequestEncoder::finish)
        .unwrap();
    assert_eq!(n, out.len());
    assert_eq!(
        out.as_slice(),
        reference_ask(&ReadResourceRequestParams::new("docs://a"))
    );
}

#[test]
fn generated_requests_split_as_the_reference_reads_them() {
    let n = common::cases(5000, 50);
    let mut accepted = 0;
    for i in 0..n {
        let json = Gen::new(0xA5C0_0000 + i as u64, i % 3).request();
        let mut ask = vec![READ_RESOURCE_KIND];
        ask.extend_from_slice(&json);
        match serde_json::from_slice::<ReadResourceRequestParams>(&json) {
            Ok(reference) => {
                accepted += 1;
                let view = decode_ask(&ask).unwrap_or_else(|e| panic!("{e}: {}", show(&ask)));
                let mut out = vec![0u8; ask.len() * 2 + 64];
                let len = encode_ask_view(&view, &mut out[..]).unwrap();
                assert_eq!(show(&out[..len]), show(&reference_ask(&reference)));
            }
            Err(_) => {
                // The same error as RequestView::decode, one byte later.
                let whole = RequestView::decode(&json).unwrap_err();
                let AskError::Body(got) = decode_ask(&ask).unwrap_err() else {
                    panic!("not a body error: {}", show(&ask));
                };
                assert_eq!(
                    (got.kind(), got.offset(), got.field()),
                    (whole.kind(), whole.offset() + 1, whole.field())
                );
                // The same words, the offset aside.
                let words =
                    |e: BodyError| e.to_string().rsplit_once(" at byte ").unwrap().0.to_owned();
                assert_eq!(words(got), words(whole));
            }
        }
    }
    println!("generated: {n} asks, {accepted} accepted by the reference, 0 disagreements");
    assert!(accepted > n / 10);
}

#[test]
fn bad_asks_give_typed_errors() {
    assert_eq!(decode_ask(b""), Err(AskError::Empty));
    for kind in (0..=u8::MAX).filter(|&k| k != READ_RESOURCE_KIND) {
        assert_eq!(decode_ask(&[kind, b'{', b'}']), Err(AskError::Kind(kind)));
        assert_eq!(decode_ask(&[kind]), Err(AskError::Kind(kind)));
    }
    let body = |ask: &[u8]| match decode_ask(ask) {
        Err(AskError::Body(e)) => (e.kind(), e.offset()),
        other => panic!("{}: {other:?}", show(ask)),
    };
    // The kind alone: the JSON is empty. Offsets count from the kind byte.
    assert_eq!(body(b"\x03"), (BodyErrorKind::Eof, 1));
    assert_eq!(body(b"\x03{}"), (BodyErrorKind::MissingField, 2));
    assert_eq!(body(b"\x03{\"uri\":1}"), (BodyErrorKind::InvalidType, 8));
    assert_eq!(
        body(b"\x03{\"uri\":\"u\"} x"),
        (BodyErrorKind::TrailingCharacters, 13)
    );
    assert_eq!(body(b"\x03{\"uri\":\"u\""), (BodyErrorKind::Eof, 11));
    assert_eq!(
        body(b"\x03{\"uri\":\"u\",\"uri\":\"v\"}"),
        (BodyErrorKind::DuplicateField, 12)
    );
    // Each against the reference: it rejects them too.
    for ask in [
        &b"\x03"[..],
        b"\x03{}",
        b"\x03{\"uri\":1}",
        b"\x03{\"uri\":\"u\"} x",
    ] {
        assert!(serde_json::from_slice::<ReadResourceRequestParams>(&ask[1..]).is_err());
    }

    // Display, source, and the error's cost.
    let e = decode_ask(b"\x03{}").unwrap_err();
    // Transparent around the body error, as `FrameError::Body` is
    // (tests/display.rs): the body error's line, and its `source()`.
    assert_eq!(e.to_string(), "missing field `uri` at byte 2");
    assert!(std::error::Error::source(&e).is_none());
    assert_eq!(AskError::Empty.to_string(), "empty ask (no kind byte)");
    assert_eq!(
        AskError::Kind(9).to_string(),
        "ask of kind 9, not a read-resource ask (kind 3)"
    );
    fn traits<T: Copy + Send + Sync + 'static + std::error::Error>() {}
    traits::<AskError>();
    assert!(size_of::<AskError>() <= 3 * size_of::<usize>());
}
