//! The encoders and the spec checks make zero heap allocations: builders
//! (text and blob chunk writers, `write!` into a text, `RawJson`
//! canonicalisation with key sorting, `Serialize` values, strict mode),
//! view re-encoding and its length, every sink, the error paths, and
//! `check_spec`. A thread-local counting allocator (see TOOLCHAIN.md), with a
//! positive control.
#![allow(
    unsafe_code,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic
)]

use std::fmt::Write as _;

use diverge_frame::encode::EncodeError;
use diverge_frame::encode::{
    Counter, ErrorEncoder, RequestEncoder, ResultEncoder, Verbatim, encode_frame_view,
    encode_request_view, frame_view_encoded_len, request_view_encoded_len,
};
use diverge_frame::spec::{is_absolute_uri, is_base64, is_media_type};
use diverge_frame::{CacheScope, Frame, RawJson, RequestView};

#[path = "common/counting.rs"]
mod counting;

use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_counter_sees_allocations() {
    let (n, v) = allocations(|| vec![1u8]);
    assert_eq!(n, 1);
    assert_eq!(v, [1]);
    let (n, s) = allocations(|| {
        let mut s = String::new();
        for _ in 0..100 {
            s.push_str("grow");
        }
        s
    });
    assert!(n >= 2, "{n}");
    assert_eq!(s.len(), 400);
}

#[derive(serde::Serialize)]
struct Meta<'a> {
    a: f64,
    b: &'a str,
    c: [i64; 2],
    d: Option<&'a str>,
}

/// A result frame built item by item from every kind of input.
fn build_result(out: &mut [u8], strict: bool) -> Result<usize, EncodeError> {
    let raw_meta = RawJson::parse(br#" {"z":[1E3,-0,"\u00e9\/"],"a":{"y":1,"b":2},"z":null} "#)
        .map_err(|_| EncodeError::Serialize)?;
    let mut linear: heapless::LinearMap<&str, u32, 4> = heapless::LinearMap::new();
    linear.insert("k", 1).ok();
    let start = if strict {
        ResultEncoder::strict(out)?
    } else {
        ResultEncoder::new(out)?
    };
    let mut text = start
        .result_type("complete")?
        .ttl_ms(60_000)?
        .cache_scope(CacheScope::Public)?
        .contents()?
        .item("sensor://room/1")?
        .mime_type("text/plain; charset=utf-8")?
        .text_writer()?;
    text.write("line \"1\"\n\u{1}")?;
    let (temp, count, ok) = (21.456, 42, true);
    write!(text, "temp={temp:.2} count={count} ok={ok}").map_err(|_| EncodeError::Serialize)?;
    let contents = text
        .end()?
        .meta(raw_meta)?
        .end()?
        .item("bin://blob")?
        .mime_type("application/octet-stream")?;
    let mut blob = contents.blob_writer()?;
    for chunk in [&[0u8, 1][..], &[2], &[3, 4, 5, 6], &[0xff; 100]] {
        blob.write(chunk)?;
    }
    blob.end()?
        .meta(&linear)?
        .end()?
        .item("urn:x")?
        .blob_base64("AAE=")?
        .meta(Verbatim(raw_meta))?
        .end()?
        .finish_with_meta(&Meta {
            a: 1.5e-7,
            b: "é\t",
            c: [i64::MIN, 7],
            d: None,
        })
}

#[test]
fn builders_do_not_allocate() {
    let mut buf = [0u8; 2048];
    let (n, r) = allocations(|| build_result(&mut buf, false));
    assert_eq!(n, 0, "result builder allocated");
    let len = r.unwrap();
    assert!(matches!(Frame::decode(&buf[..len]), Ok(Frame::Result(_))));

    let (n, r) = allocations(|| build_result(&mut buf, true));
    assert_eq!(n, 0, "strict result builder allocated");
    assert_eq!(r, Ok(len));

    let (n, r) = allocations(|| {
        let meta = RawJson::parse(br#"{"progressToken":"t-1","b":[true,false]}"#).unwrap();
        RequestEncoder::strict(&mut buf[..])?
            .meta(meta)?
            .uri("docs://readme")?
            .input_responses(&Meta {
                a: 0.0,
                b: "",
                c: [0, 0],
                d: Some("x"),
            })?
            .request_state("opaque")?
            .finish()
    });
    assert_eq!(n, 0, "request builder allocated");
    assert!(RequestView::decode(&buf[..r.unwrap()]).is_ok());

    let (n, r) = allocations(|| {
        ErrorEncoder::strict(&mut buf[..], -32002, "Resource not found")?
            .data(("file:///nonexistent.txt", 3u8, [1.0f32, f32::NAN]))?
            .finish()
    });
    assert_eq!(n, 0, "error builder allocated");
    assert!(matches!(
        Frame::decode(&buf[..r.unwrap()]),
        Ok(Frame::Error(_))
    ));
}

#[test]
fn every_sink_and_error_path_is_allocation_free() {
    let (n, r) = allocations(|| {
        let mut counter = Counter::new();
        let a = build_result(&mut [0u8; 2048], false)?;
        let mut vec: heapless::Vec<u8, 2048> = heapless::Vec::new();
        let mut small: heapless::Vec<u8, 64> = heapless::Vec::new();
        let full = {
            let start = ResultEncoder::new(&mut small)?;
            start
                .contents()?
                .item("docs://a")?
                .text("far too long for sixty-four bytes of room, surely")
                .map(|_| ())
        };
        let mut tiny = [0u8; 8];
        let short = build_result(&mut tiny, false);
        let c = ErrorEncoder::new(&mut counter, 1, "m")?.finish()?;
        let v = ErrorEncoder::new(&mut vec, 1, "m")?.finish()?;
        Ok::<_, EncodeError>((a, full, short, c == v && counter.len() == c))
    });
    assert_eq!(n, 0);
    let (_, full, short, same) = r.unwrap();
    assert_eq!(full, Err(EncodeError::BufferFull));
    assert_eq!(short, Err(EncodeError::BufferFull));
    assert!(same);
}

#[test]
fn view_reencoding_and_spec_checks_do_not_allocate() {
    let frame = b"\x00[\"complete\",-5,{\"private\":null},[{\"uri\":\"docs:\\/\\/a\",\"text\":\"caf\\u00e9\\ud83d\\ude00\",\"blob\":\"x\",\"_meta\":{\"b\":1,\"a\":2,\"b\":1e3}},{\"uri\":\"bin://b\",\"mimeType\":\"image/png\",\"blob\":\"iVBORw==\"}],{\"z\":[{\"y\":0.1,\"x\":-0}],\"a\":\"\\u0001\"}]";
    let error = b"\x01{\"message\":\"nf\",\"data\":{\"uri\":\"file:///x\",\"n\":123456789012345678901234567890},\"code\":-32002}";
    let request = br#"{"uri":"docs://a","requestState":"s","_meta":{"progressToken":7,"z":1,"a":{"y":1,"b":2}},"inputResponses":{"k":[]}}"#;
    let mut buf = [0u8; 1024];
    let (n, lens) = allocations(|| {
        let f = Frame::decode(frame).unwrap();
        let e = Frame::decode(error).unwrap();
        let r = RequestView::decode(request).unwrap();
        let a = encode_frame_view(&f, &mut buf[..]).unwrap();
        let b = encode_frame_view(&e, &mut buf[..]).unwrap();
        let c = encode_request_view(&r, &mut buf[..]).unwrap();
        let lens = [
            a == frame_view_encoded_len(&f),
            b == frame_view_encoded_len(&e),
            c == request_view_encoded_len(&r),
        ];
        let checks = [
            f.check_spec().is_err(), // text and blob in item 0
            e.check_spec().is_ok(),
            r.check_spec().is_ok(),
            is_absolute_uri("http://[::1]:80/a?b#c"),
            is_media_type("text/plain; charset=\"utf-8\""),
            is_base64("iVBORw=="),
        ];
        (lens, checks)
    });
    assert_eq!(n, 0);
    assert_eq!(lens, ([true; 3], [true; 6]));
}

#[cfg(feature = "embedded-io")]
#[test]
fn io_sink_does_not_allocate() {
    use diverge_frame::encode::IoSink;
    let input = b"\x01{\"code\":-32603,\"message\":\"Internal error\"}";
    let mut storage = [0u8; 2048];
    let (n, r) = allocations(|| {
        let mut sink = IoSink::new(&mut storage[..]);
        let frame = Frame::decode(input).unwrap();
        encode_frame_view(&frame, &mut sink)
    });
    assert_eq!(n, 0);
    assert_eq!(r, Ok(input.len()));
    assert_eq!(&storage[..input.len()], input);
}
