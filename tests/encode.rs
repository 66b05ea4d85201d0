//! The encoders against the reference (`serde_json::to_vec` of rmcp 3.11.0
//! values, serde_json 1.0.154):
//!
//! * builders fed rmcp values write exactly `serde_json::to_vec` (every
//!   field; escapes, all C0 controls, DEL, U+2028, non-ASCII, emoji, empty
//!   and large strings, nested `_meta` with huge, negative and float numbers);
//! * decoded views (from messy but valid input: whitespace, shuffled keys,
//!   duplicate `_meta` keys, escapes, other number spellings) re-encode to
//!   exactly what the reference re-serialises after decoding the same bytes;
//!   so do `RawJson` values and number literals, and every frame and request
//!   of the decoder's own generator that the reference accepts;
//! * `encoded_len` / `Counter` equal the real length, every short buffer
//!   gives `BufferFull` (no panic), `heapless::Vec` and chunked writers give
//!   the same bytes, and our output decodes back to the same values;
//! * strict encoders fail exactly when `check_spec` on the decoded output
//!   fails, with the same error.
//!
//! Each property prints its case count (run with `--nocapture`). Cases per
//! property: `PROPTEST_CASES` (default 500); generator-driven cases:
//! `DIVERGE_CASES` (default 20 000 frames and 20 000 requests).

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc,
    clippy::too_many_lines,
    clippy::cast_possible_truncation,
    clippy::needless_pass_by_value
)]

mod common;

use std::collections::BTreeMap;

use base64::Engine as _;
use diverge_frame::encode::EncodeError;
use diverge_frame::encode::stage::{
    BeforeBody, BeforeCacheScope, BeforeRequestState, BeforeTtlMs, BeforeUri, HasUri, ResultHead,
};
use diverge_frame::encode::{
    ContentsEncoder, Counter, ErrorEncoder, ItemEncoder, RequestEncoder, ResultEncoder, Sink,
    encode_frame_view, encode_request_view, frame_view_encoded_len, request_view_encoded_len,
};
use diverge_frame::encode::{JsonValue, Verbatim};
use diverge_frame::spec::SpecError;
use diverge_frame::{Body, Frame, RawJson, RequestView};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rmcp::model::{
    CacheScope, ErrorCode, MetaObject, ReadResourceRequestParams, ReadResourceResult,
    RequestMetaObject, ResourceContents, ResultType,
};
use serde_json::{Map, Value};

use common::generate::{Gen, Rng};
use common::oracle::{RefFrame, check_frame, check_request, reference_frame, show};

// ----- running --------------------------------------------------------------

fn cases() -> u32 {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    if cfg!(miri) { n.min(8) } else { n }
}

fn generated_cases() -> usize {
    let n = std::env::var("DIVERGE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    if cfg!(miri) { n.min(20) } else { n }
}

/// Runs a property for `cases()` cases; panics (after shrinking) on the first
/// disagreement, and prints the count.
fn run<T: std::fmt::Debug>(
    name: &str,
    strategy: impl Strategy<Value = T>,
    test: impl Fn(T) -> Result<(), TestCaseError>,
) {
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let count = std::cell::Cell::new(0usize);
    if let Err(e) = runner.run(&strategy, |value| {
        count.set(count.get() + 1);
        test(value)
    }) {
        panic!("{name}: disagreement: {e}");
    }
    println!("{name}: {} cases, 0 disagreements", count.get());
}

fn fail(e: EncodeError) -> TestCaseError {
    TestCaseError::fail(format!("encode error {e:?}"))
}

/// Encodes with a `Counter`, an exact `&mut [u8]`, a `heapless::Vec`, a
/// `Vec` (feature `alloc`) and short buffers; checks they agree and returns
/// the bytes.
fn encode_all_ways(
    encode: impl Fn(&mut dyn Sink) -> Result<usize, EncodeError>,
) -> Result<Vec<u8>, TestCaseError> {
    let mut counter = Counter::new();
    let n = encode(&mut counter).map_err(fail)?;
    prop_assert_eq!(n, counter.len(), "returned length vs Counter");
    let mut buf = vec![0u8; n];
    let written = encode(&mut &mut buf[..]).map_err(fail)?;
    prop_assert_eq!(written, n, "exact buffer");
    let mut vec: heapless::Vec<u8, 4096> = heapless::Vec::new();
    match encode(&mut vec) {
        Ok(k) => {
            prop_assert_eq!(k, n);
            prop_assert_eq!(vec.as_slice(), &buf[..], "heapless::Vec");
        }
        Err(e) => {
            prop_assert!(n > 4096);
            prop_assert_eq!(e, EncodeError::BufferFull);
        }
    }
    #[cfg(feature = "alloc")]
    {
        // Encoded once, with no size known beforehand.
        let mut grown: Vec<u8> = Vec::new();
        prop_assert_eq!(encode(&mut grown).map_err(fail)?, n);
        prop_assert_eq!(&grown[..], &buf[..], "Vec<u8>");
    }
    let lengths: Vec<usize> = if n <= 160 {
        (0..n).collect()
    } else {
        let mut rng = Rng::new(n as u64);
        let mut l: Vec<usize> = (0..30).map(|_| rng.below(n)).collect();
        l.extend([0, 1, n / 2, n - 1]);
        l
    };
    for len in lengths {
        let mut short = vec![0u8; len];
        prop_assert_eq!(
            encode(&mut &mut short[..]),
            Err(EncodeError::BufferFull),
            "buffer of {} for {} bytes",
            len,
            n
        );
    }
    Ok(buf)
}

// ----- strategies -----------------------------------------------------------

fn piece() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-zA-Z0-9 ._~:/?#@!$&'()*+,;=%-]{0,6}",
        2 => (0u8..0x20).prop_map(|b| char::from(b).to_string()),
        2 => prop::sample::select(vec![
            "\"", "\\", "/", "\u{7f}", "\u{80}", "\u{2028}", "\u{2029}", "é", "😀", "\u{fffd}",
            "\u{feff}", "\u{10ffff}", "\u{e000}", "\\u00e9", "</script>", "\\\"", "\u{0}",
        ])
        .prop_map(String::from),
        2 => any::<char>().prop_map(String::from),
    ]
    .boxed()
}

fn short_text() -> BoxedStrategy<String> {
    prop::collection::vec(piece(), 0..4)
        .prop_map(|v| v.concat())
        .boxed()
}

fn text() -> BoxedStrategy<String> {
    prop_oneof![
        8 => prop::collection::vec(piece(), 0..10).prop_map(|v| v.concat()),
        1 => any::<String>(),
        1 => (piece(), 50usize..700).prop_map(|(p, n)| p.repeat(n)),
        1 => Just(String::new()),
    ]
    .boxed()
}

fn number() -> BoxedStrategy<Value> {
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (0u64..100).prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        (-10_000i64..10_000, -30i32..30).prop_filter_map("finite", |(m, e)| {
            serde_json::Number::from_f64(m as f64 * 10f64.powi(e)).map(Value::Number)
        }),
        prop::sample::select(vec![
            0.0,
            -0.0,
            1.0,
            0.1,
            1e300,
            -1e-300,
            5e-324,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            1e21,
            1e22,
            1.2345678901234568e29,
            9007199254740993.0,
            18446744073709551616.0,
        ])
        .prop_map(|f| Value::Number(serde_json::Number::from_f64(f).unwrap())),
    ]
    .boxed()
}

fn value() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        number(),
        short_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 5, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::btree_map(short_text(), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

fn object() -> BoxedStrategy<Map<String, Value>> {
    prop::collection::btree_map(short_text(), value(), 0..5)
        .prop_map(|m| m.into_iter().collect())
        .boxed()
}

fn meta() -> BoxedStrategy<Option<MetaObject>> {
    prop::option::of(object().prop_map(MetaObject)).boxed()
}

fn uri() -> BoxedStrategy<String> {
    prop_oneof![
        3 => prop::sample::select(vec!["docs://x", "file:///a/b.rs", "urn:x:y", "ui://w", "http://[::1]:80/?q#f"]).prop_map(String::from),
        2 => text(),
    ]
    .boxed()
}

fn mime() -> BoxedStrategy<Option<String>> {
    prop::option::of(prop_oneof![
        3 => prop::sample::select(vec!["text/plain", "text/markdown", "application/octet-stream", "text/plain; charset=utf-8"]).prop_map(String::from),
        1 => short_text(),
    ])
    .boxed()
}

fn base64_of(bytes: &[u8]) -> String {
    let mut out = vec![0u8; bytes.len().div_ceil(3) * 4];
    let n = base64::engine::general_purpose::STANDARD
        .encode_slice(bytes, &mut out)
        .unwrap();
    out.truncate(n);
    String::from_utf8(out).unwrap()
}

fn content() -> BoxedStrategy<ResourceContents> {
    let blob = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64).prop_map(|b| base64_of(&b)),
        text(),
    ];
    (uri(), mime(), text(), blob, meta(), any::<bool>())
        .prop_map(|(uri, mime_type, text, blob, meta, is_text)| {
            if is_text {
                ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text,
                    meta,
                }
            } else {
                ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob,
                    meta,
                }
            }
        })
        .boxed()
}

fn result_type() -> BoxedStrategy<Option<ResultType>> {
    prop::option::of(prop_oneof![
        3 => Just(ResultType::COMPLETE),
        1 => Just(ResultType::INPUT_REQUIRED),
        1 => Just(ResultType::TASK),
        1 => short_text().prop_map(|s| serde_json::from_value(Value::String(s)).unwrap()),
    ])
    .boxed()
}

fn ttl() -> BoxedStrategy<Option<u64>> {
    prop::option::of(prop_oneof![
        0u64..2000,
        0u64..=i64::MAX as u64,
        Just(i64::MAX as u64)
    ])
    .boxed()
}

fn scope() -> BoxedStrategy<Option<CacheScope>> {
    prop::option::of(prop_oneof![
        Just(CacheScope::Public),
        Just(CacheScope::Private)
    ])
    .boxed()
}

fn result() -> BoxedStrategy<ReadResourceResult> {
    (
        result_type(),
        ttl(),
        scope(),
        prop::collection::vec(content(), 0..5),
        meta(),
    )
        .prop_map(|(result_type, ttl_ms, cache_scope, contents, meta)| {
            let mut r = ReadResourceResult::new(contents);
            r.result_type = result_type;
            r.ttl_ms = ttl_ms;
            r.cache_scope = cache_scope;
            r.meta = meta;
            r
        })
        .boxed()
}

fn error() -> BoxedStrategy<rmcp::ErrorData> {
    let code = prop_oneof![
        any::<i32>(),
        prop::sample::select(vec![
            -32002, -32602, -32603, -32601, -32600, -32700, -32000, -32099, -32100, 404, 0
        ]),
    ];
    (code, text(), prop::option::of(value()))
        .prop_map(|(code, message, data)| rmcp::ErrorData::new(ErrorCode(code), message, data))
        .boxed()
}

fn request() -> BoxedStrategy<ReadResourceRequestParams> {
    let input = prop::option::of(prop::collection::btree_map(short_text(), value(), 0..4));
    (
        uri(),
        prop::option::of(object()),
        input,
        prop::option::of(text()),
    )
        .prop_map(|(uri, meta, input, state)| {
            let mut p = ReadResourceRequestParams::new(uri);
            p.meta = meta.map(|m| RequestMetaObject(MetaObject(m)));
            p.input_responses = input;
            p.request_state = state;
            p
        })
        .boxed()
}

// ----- encoding rmcp values with the builders --------------------------------

/// How a text body is written: whole, or in chunks cut at these char
/// offsets (taken modulo the length).
type Chunks = Vec<usize>;

fn enc_request(
    p: &ReadResourceRequestParams,
    strict: bool,
    out: &mut dyn Sink,
) -> Result<usize, EncodeError> {
    let e = if strict {
        RequestEncoder::strict(out)?
    } else {
        RequestEncoder::new(out)?
    };
    match &p.meta {
        Some(m) => req_uri(e.meta(m)?, p),
        None => req_uri(e, p),
    }
}

fn req_uri<S: Sink, St: BeforeUri>(
    e: RequestEncoder<S, St>,
    p: &ReadResourceRequestParams,
) -> Result<usize, EncodeError> {
    let e = e.uri(p.uri.as_str())?;
    match &p.input_responses {
        Some(i) => req_state(e.input_responses(i)?, p),
        None => req_state(e, p),
    }
}

fn req_state<S: Sink, St: BeforeRequestState + HasUri>(
    e: RequestEncoder<S, St>,
    p: &ReadResourceRequestParams,
) -> Result<usize, EncodeError> {
    match &p.request_state {
        Some(s) => e.request_state(s.as_str())?.finish(),
        None => e.finish(),
    }
}

fn enc_result(
    r: &ReadResourceResult,
    strict: bool,
    chunks: &Chunks,
    out: &mut dyn Sink,
) -> Result<usize, EncodeError> {
    let e = if strict {
        ResultEncoder::strict(out)?
    } else {
        ResultEncoder::new(out)?
    };
    match &r.result_type {
        Some(t) => res_ttl(e.result_type(t.as_str())?, r, chunks),
        None => res_ttl(e, r, chunks),
    }
}

fn res_ttl<S: Sink, St: BeforeTtlMs + BeforeCacheScope + ResultHead>(
    e: ResultEncoder<S, St>,
    r: &ReadResourceResult,
    chunks: &Chunks,
) -> Result<usize, EncodeError> {
    match r.ttl_ms {
        Some(t) => res_scope(e.ttl_ms(t)?, r, chunks),
        None => res_scope(e, r, chunks),
    }
}

fn res_scope<S: Sink, St: BeforeCacheScope + ResultHead>(
    e: ResultEncoder<S, St>,
    r: &ReadResourceResult,
    chunks: &Chunks,
) -> Result<usize, EncodeError> {
    let ours = |s: CacheScope| match s {
        CacheScope::Public => diverge_frame::CacheScope::Public,
        _ => diverge_frame::CacheScope::Private,
    };
    match r.cache_scope {
        Some(s) => res_contents(e.cache_scope(ours(s))?, r, chunks),
        None => res_contents(e, r, chunks),
    }
}

fn res_contents<S: Sink, St: ResultHead>(
    e: ResultEncoder<S, St>,
    r: &ReadResourceResult,
    chunks: &Chunks,
) -> Result<usize, EncodeError> {
    let mut c = e.contents()?;
    for item in &r.contents {
        c = enc_item(c, item, chunks)?;
    }
    match &r.meta {
        Some(m) => c.finish_with_meta(m),
        None => c.finish(),
    }
}

fn parts(item: &ResourceContents) -> (&str, Option<&str>, Option<&MetaObject>) {
    match item {
        ResourceContents::TextResourceContents {
            uri,
            mime_type,
            meta,
            ..
        }
        | ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            meta,
            ..
        } => (uri, mime_type.as_deref(), meta.as_ref()),
        _ => unreachable!("rmcp 3.11 has two content kinds"),
    }
}

fn enc_item<S: Sink>(
    c: ContentsEncoder<S>,
    item: &ResourceContents,
    chunks: &Chunks,
) -> Result<ContentsEncoder<S>, EncodeError> {
    let (uri, mime, _) = parts(item);
    let i = c.item(uri)?;
    match mime {
        Some(m) => item_body(i.mime_type(m)?, item, chunks),
        None => item_body(i, item, chunks),
    }
}

/// Splits `s` at char boundaries near the given offsets.
fn split_at_chars<'s>(s: &'s str, cuts: &[usize]) -> Vec<&'s str> {
    if s.is_empty() {
        return vec![s];
    }
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|c| {
            let mut at = c % (s.len() + 1);
            while !s.is_char_boundary(at) {
                at -= 1;
            }
            at
        })
        .collect();
    points.extend([0, s.len()]);
    points.sort_unstable();
    points.dedup();
    points.windows(2).map(|w| &s[w[0]..w[1]]).collect()
}

fn item_body<S: Sink, St: BeforeBody>(
    i: ItemEncoder<S, St>,
    item: &ResourceContents,
    chunks: &Chunks,
) -> Result<ContentsEncoder<S>, EncodeError> {
    let i = match item {
        ResourceContents::TextResourceContents { text, .. } if chunks.is_empty() => {
            i.text(text.as_str())?
        }
        ResourceContents::TextResourceContents { text, .. } => {
            let mut w = i.text_writer()?;
            for chunk in split_at_chars(text, chunks) {
                w.write(chunk)?;
            }
            w.end()?
        }
        ResourceContents::BlobResourceContents { blob, .. } => i.blob_base64(blob.as_str())?,
        _ => unreachable!(),
    };
    match parts(item).2 {
        Some(m) => i.meta(m)?.end(),
        None => i.end(),
    }
}

fn enc_error(e: &rmcp::ErrorData, strict: bool, out: &mut dyn Sink) -> Result<usize, EncodeError> {
    let start = if strict {
        ErrorEncoder::strict(out, e.code.0, e.message.as_ref())?
    } else {
        ErrorEncoder::new(out, e.code.0, e.message.as_ref())?
    };
    match &e.data {
        Some(d) => start.data(d)?.finish(),
        None => start.finish(),
    }
}

fn tagged(tag: u8, json: Vec<u8>) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend(json);
    out
}

fn spec_of(r: Result<usize, EncodeError>) -> Result<(), SpecError> {
    match r {
        Ok(_) => Ok(()),
        Err(EncodeError::Spec(e)) => Err(e),
        Err(e) => panic!("unexpected {e:?}"),
    }
}

// ----- messy but valid JSON text of a value --------------------------------

/// Writes JSON text that the reference reads as `v`, with random
/// whitespace, key order, escapes, number spellings, and (where the
/// reference keeps the last of duplicate keys) duplicate keys.
struct Messy {
    rng: Rng,
}

impl Messy {
    fn ws(&mut self, out: &mut Vec<u8>) {
        out.extend_from_slice(
            self.rng
                .pick(&[&b""[..], b"", b"", b" ", b"\n", b"\t", b"\r\n  "]),
        );
    }

    fn string(&mut self, s: &str, out: &mut Vec<u8>) {
        out.push(b'"');
        for c in s.chars() {
            let hex_u = |out: &mut Vec<u8>, unit: u16, upper: bool| {
                let t = if upper {
                    format!("\\u{unit:04X}")
                } else {
                    format!("\\u{unit:04x}")
                };
                out.extend_from_slice(t.as_bytes());
            };
            let mode = self.rng.below(4);
            let upper = self.rng.one_in(2);
            match c {
                '"' if mode > 0 => out.extend_from_slice(b"\\\""),
                '\\' if mode > 0 => out.extend_from_slice(b"\\\\"),
                '/' if mode == 1 => out.extend_from_slice(b"\\/"),
                '\u{8}' if mode > 0 => out.extend_from_slice(b"\\b"),
                '\u{c}' if mode > 0 => out.extend_from_slice(b"\\f"),
                '\n' if mode > 0 => out.extend_from_slice(b"\\n"),
                '\r' if mode > 0 => out.extend_from_slice(b"\\r"),
                '\t' if mode > 0 => out.extend_from_slice(b"\\t"),
                c if (c as u32) < 0x20 || c == '"' || c == '\\' || mode == 0 => {
                    let mut units = [0u16; 2];
                    for &u in c.encode_utf16(&mut units).iter() {
                        hex_u(out, u, upper);
                    }
                }
                c => {
                    let mut b = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
            }
        }
        out.push(b'"');
    }

    fn number(&mut self, n: &serde_json::Number, out: &mut Vec<u8>) {
        let mut t = n.to_string();
        if n.is_f64() {
            if self.rng.one_in(3) {
                t = t.replace('e', "E");
            }
            if self.rng.one_in(3) {
                t = t.replace("e+", "e").replace("E+", "E");
            }
            if self.rng.one_in(3) && t.contains('.') && !t.contains(['e', 'E']) {
                t.push_str("00");
            }
        }
        out.extend_from_slice(t.as_bytes());
    }

    /// Any value; `dups` allows duplicate keys (inside `_meta`, `data`, ...).
    fn value(&mut self, v: &Value, dups: bool, out: &mut Vec<u8>) {
        match v {
            Value::Null => out.extend_from_slice(b"null"),
            Value::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
            Value::Number(n) => self.number(n, out),
            Value::String(s) => self.string(s, out),
            Value::Array(a) => {
                out.push(b'[');
                for (i, e) in a.iter().enumerate() {
                    self.ws(out);
                    if i > 0 {
                        out.push(b',');
                        self.ws(out);
                    }
                    self.value(e, dups, out);
                }
                self.ws(out);
                out.push(b']');
            }
            Value::Object(o) => self.object(
                o.iter().map(|(k, v)| (k.as_str(), v)).collect(),
                dups,
                &|_| dups,
                out,
            ),
        }
    }

    /// An object with shuffled keys; member values get duplicates when
    /// `nested(key)` says so.
    fn object(
        &mut self,
        mut members: Vec<(&str, &Value)>,
        dups: bool,
        nested: &dyn Fn(&str) -> bool,
        out: &mut Vec<u8>,
    ) {
        for i in (1..members.len()).rev() {
            let j = self.rng.below(i + 1);
            members.swap(i, j);
        }
        out.push(b'{');
        let mut first = true;
        for (k, v) in members {
            let copies = if dups && self.rng.one_in(4) { 2 } else { 1 };
            for copy in 0..copies {
                self.ws(out);
                if !first {
                    out.push(b',');
                    self.ws(out);
                }
                first = false;
                self.string(k, out);
                self.ws(out);
                out.push(b':');
                self.ws(out);
                if copy + 1 < copies {
                    // An earlier duplicate: the reference keeps the last.
                    out.extend_from_slice(self.rng.pick(&[
                        &b"null"[..],
                        b"1",
                        b"[\"x\"]",
                        b"{\"a\":-0}",
                    ]));
                } else {
                    self.value(v, nested(k), out);
                }
            }
        }
        self.ws(out);
        out.push(b'}');
    }

    /// A top-level struct (result, error, request) as an object: shuffled
    /// keys, no duplicates, content items likewise.
    fn top(&mut self, v: &Value, out: &mut Vec<u8>) {
        let Value::Object(o) = v else { unreachable!() };
        let free = |k: &str| matches!(k, "_meta" | "data" | "inputResponses");
        self.ws(out);
        let mut members: Vec<(&str, &Value)> = Vec::new();
        let mut contents = None;
        for (k, v) in o {
            if k == "contents" {
                contents = Some(v);
            } else {
                members.push((k, v));
            }
        }
        match contents {
            None => self.object(members, false, &free, out),
            Some(Value::Array(items)) => {
                // Write the object without `contents`, then splice it in.
                let has_members = !members.is_empty();
                let mut head = Vec::new();
                self.object(members, false, &free, &mut head);
                let mut arr = b"\"contents\":[".to_vec();
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        arr.push(b',');
                    }
                    self.ws(&mut arr);
                    let Value::Object(io) = item else {
                        unreachable!()
                    };
                    self.object(
                        io.iter().map(|(k, v)| (k.as_str(), v)).collect(),
                        false,
                        &free,
                        &mut arr,
                    );
                }
                arr.push(b']');
                // After `{`, or before `}` with a comma.
                if !has_members || self.rng.one_in(2) {
                    out.push(b'{');
                    out.extend_from_slice(&arr);
                    if has_members {
                        out.push(b',');
                        out.extend_from_slice(&head[1..]);
                    } else {
                        out.push(b'}');
                    }
                } else {
                    out.extend_from_slice(&head[..head.len() - 1]);
                    out.push(b',');
                    out.extend_from_slice(&arr);
                    out.push(b'}');
                }
            }
            Some(_) => unreachable!(),
        }
        self.ws(out);
    }
}

// ----- properties: builders equal serde_json --------------------------------

#[test]
fn result_builder_equals_serde_json() {
    let chunks = prop::collection::vec(any::<usize>(), 0..4);
    run(
        "result builder == serde_json::to_vec",
        (result(), chunks),
        |(r, chunks)| {
            let expected = tagged(0, serde_json::to_vec(&r).unwrap());
            let ours = encode_all_ways(|out| enc_result(&r, false, &chunks, out))?;
            prop_assert_eq!(show(&ours), show(&expected));
            prop_assert_eq!(&ours, &expected);
            // Our decoder and the reference agree on our bytes, and read back
            // what was encoded.
            prop_assert_eq!(check_frame(&ours), Ok(true));
            let Ok(Frame::Result(view)) = Frame::decode(&ours) else {
                panic!("not a result")
            };
            prop_assert_eq!(view.contents().len(), r.contents.len());
            for (v, item) in view.contents().zip(&r.contents) {
                let (uri, mime, _) = parts(item);
                prop_assert!(v.uri() == uri);
                let view_mime = v.mime_type().map(|m| m.chars().collect::<String>());
                prop_assert_eq!(view_mime.as_deref(), mime);
                match (v.body(), item) {
                    (Body::Text(t), ResourceContents::TextResourceContents { text, .. }) => {
                        prop_assert!(t == text.as_str())
                    }
                    (Body::Blob(b), ResourceContents::BlobResourceContents { blob, .. }) => {
                        prop_assert!(b == blob.as_str())
                    }
                    _ => prop_assert!(false, "body kind differs"),
                }
            }
            prop_assert_eq!(view.ttl_ms(), r.ttl_ms);
            // Re-encoding the decoded view gives what the reference writes
            // after decoding our bytes (not always our bytes: serde_json's float
            // parse does not always give back the float it printed).
            let again = reference_reencode(&ours).unwrap();
            let frame = Frame::Result(view);
            prop_assert_eq!(frame_view_encoded_len(&frame), again.len());
            let mut buf = vec![0u8; again.len()];
            prop_assert_eq!(encode_frame_view(&frame, &mut buf[..]), Ok(again.len()));
            prop_assert_eq!(&buf, &again);
            // Strict mode fails exactly where `check_spec` on the output fails.
            let strict = spec_of(enc_result(&r, true, &chunks, &mut Counter::new()));
            prop_assert_eq!(strict, view.check_spec());
            Ok(())
        },
    );
}

#[test]
fn error_builder_equals_serde_json() {
    run("error builder == serde_json::to_vec", error(), |e| {
        let expected = tagged(1, serde_json::to_vec(&e).unwrap());
        let ours = encode_all_ways(|out| enc_error(&e, false, out))?;
        prop_assert_eq!(&ours, &expected, "{}", show(&ours));
        prop_assert_eq!(check_frame(&ours), Ok(true));
        let Ok(Frame::Error(view)) = Frame::decode(&ours) else {
            panic!("not an error")
        };
        prop_assert_eq!(view.code(), e.code.0);
        prop_assert!(view.message() == e.message.as_ref());
        let strict = spec_of(enc_error(&e, true, &mut Counter::new()));
        prop_assert_eq!(strict, view.check_spec());
        Ok(())
    });
}

#[test]
fn request_builder_equals_serde_json() {
    run("request builder == serde_json::to_vec", request(), |p| {
        let expected = serde_json::to_vec(&p).unwrap();
        let ours = encode_all_ways(|out| enc_request(&p, false, out))?;
        prop_assert_eq!(&ours, &expected, "{}", show(&ours));
        prop_assert_eq!(check_request(&ours), Ok(true));
        let view = RequestView::decode(&ours).unwrap();
        prop_assert!(view.uri() == p.uri.as_str());
        let reference: ReadResourceRequestParams = serde_json::from_slice(&ours).unwrap();
        let again = serde_json::to_vec(&reference).unwrap();
        prop_assert_eq!(request_view_encoded_len(&view), again.len());
        let mut buf = vec![0u8; again.len()];
        prop_assert_eq!(encode_request_view(&view, &mut buf[..]), Ok(again.len()));
        prop_assert_eq!(&buf, &again);
        let strict = spec_of(enc_request(&p, true, &mut Counter::new()));
        prop_assert_eq!(strict, view.check_spec());
        Ok(())
    });
}

#[test]
fn blob_writer_equals_serde_json_of_base64() {
    let input = (
        prop::collection::vec(any::<u8>(), 0..600),
        prop::collection::vec(0usize..700, 0..6),
    );
    run(
        "blob from raw bytes == serde_json of base64",
        input,
        |(bytes, cuts)| {
            let r =
                ReadResourceResult::new(vec![ResourceContents::blob(base64_of(&bytes), "bin://x")]);
            let expected = tagged(0, serde_json::to_vec(&r).unwrap());
            let ours = encode_all_ways(|out| {
                let mut w = ResultEncoder::new(out)?
                    .result_type("complete")?
                    .contents()?
                    .item("bin://x")?
                    .blob_writer()?;
                let mut points: Vec<usize> = cuts.iter().map(|c| c % (bytes.len() + 1)).collect();
                points.extend([0, bytes.len()]);
                points.sort_unstable();
                for w2 in points.windows(2) {
                    w.write(&bytes[w2[0]..w2[1]])?;
                }
                w.end()?.end()?.finish()
            })?;
            prop_assert_eq!(&ours, &expected);
            let Ok(Frame::Result(view)) = Frame::decode(&ours) else {
                panic!()
            };
            let Body::Blob(b) = view.contents().next().unwrap().body() else {
                panic!()
            };
            let mut back = vec![0u8; b.base64_decoded_len()];
            let n = b.decode_base64_into(&mut back).unwrap();
            prop_assert_eq!(&back[..n], &bytes[..]);
            Ok(())
        },
    );
}

// ----- properties: decoded views re-encode as the reference ------------------

fn reference_reencode(frame: &[u8]) -> Option<Vec<u8>> {
    match reference_frame(frame) {
        RefFrame::Result(r) => Some(tagged(0, serde_json::to_vec(&r).unwrap())),
        RefFrame::Error(e) => Some(tagged(1, serde_json::to_vec(&e).unwrap())),
        _ => None,
    }
}

fn check_view_reencode(frame: &[u8]) -> Result<(), TestCaseError> {
    let Some(expected) = reference_reencode(frame) else {
        return Err(TestCaseError::fail(format!(
            "reference rejects {}",
            show(frame)
        )));
    };
    let view = Frame::decode(frame).map_err(|e| TestCaseError::fail(format!("{e}")))?;
    let ours = encode_all_ways(|out| encode_frame_view(&view, out))?;
    prop_assert_eq!(show(&ours), show(&expected), "input {}", show(frame));
    prop_assert_eq!(frame_view_encoded_len(&view), ours.len());
    Ok(())
}

#[test]
fn messy_result_views_reencode_as_the_reference() {
    run(
        "messy result view -> encode_frame_view == reference re-serialisation",
        (result(), any::<u64>()),
        |(r, seed)| {
            let mut text = vec![0u8];
            Messy {
                rng: Rng::new(seed),
            }
            .top(&serde_json::to_value(&r).unwrap(), &mut text);
            check_view_reencode(&text)
        },
    );
}

#[test]
fn messy_error_views_reencode_as_the_reference() {
    run(
        "messy error view -> encode_frame_view == reference re-serialisation",
        (error(), any::<u64>()),
        |(e, seed)| {
            let mut text = vec![1u8];
            Messy {
                rng: Rng::new(seed),
            }
            .top(&serde_json::to_value(&e).unwrap(), &mut text);
            check_view_reencode(&text)
        },
    );
}

#[test]
fn messy_request_views_reencode_as_the_reference() {
    run(
        "messy request view -> encode_request_view == reference re-serialisation",
        (request(), any::<u64>()),
        |(p, seed)| {
            let mut text = Vec::new();
            Messy {
                rng: Rng::new(seed),
            }
            .top(&serde_json::to_value(&p).unwrap(), &mut text);
            let reference: ReadResourceRequestParams = serde_json::from_slice(&text).unwrap();
            let expected = serde_json::to_vec(&reference).unwrap();
            let view = RequestView::decode(&text).unwrap();
            let ours = encode_all_ways(|out| encode_request_view(&view, out))?;
            prop_assert_eq!(show(&ours), show(&expected), "input {}", show(&text));
            prop_assert_eq!(request_view_encoded_len(&view), ours.len());
            Ok(())
        },
    );
}

#[test]
fn raw_json_values_reencode_as_the_reference() {
    run(
        "RawJson canonical == serde_json::to_vec(Value)",
        (value(), any::<u64>()),
        |(v, seed)| {
            let mut text = Vec::new();
            Messy {
                rng: Rng::new(seed),
            }
            .value(&v, true, &mut text);
            let reference: Value = serde_json::from_slice(&text).unwrap();
            let expected = serde_json::to_vec(&reference).unwrap();
            let raw = RawJson::parse(&text).unwrap();
            let ours = encode_all_ways(|out| {
                let mut counter = Counter::new();
                raw.write_to(&mut counter)?;
                raw.write_to(out)?;
                Ok(counter.len())
            })?;
            prop_assert_eq!(show(&ours), show(&expected), "input {}", show(&text));
            // The serde path over the reference's Value agrees too, and the
            // verbatim copy is the input itself.
            let via_serde = encode_all_ways(|out| {
                let mut counter = Counter::new();
                reference.write_to(&mut counter)?;
                reference.write_to(out)?;
                Ok(counter.len())
            })?;
            prop_assert_eq!(&via_serde, &expected);
            let mut verbatim = Vec::new();
            let mut sink = VecSink(&mut verbatim);
            Verbatim(raw).write_to(&mut sink).map_err(fail)?;
            prop_assert_eq!(&verbatim[..], raw.as_bytes());
            Ok(())
        },
    );
}

/// A growable sink for the tests.
struct VecSink<'a>(&'a mut Vec<u8>);

impl Sink for VecSink<'_> {
    fn try_extend(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
}

fn number_literal() -> BoxedStrategy<String> {
    let digits = |max: usize| prop::collection::vec(0u8..10, 1..max);
    (
        any::<bool>(),
        digits(32),
        prop::option::of(digits(28)),
        prop::option::of((
            prop::sample::select(vec!["e", "E"]),
            prop::sample::select(vec!["", "+", "-"]),
            0u32..420,
        )),
        prop::option::of(prop::sample::select(vec![
            "e99999999999",
            "e-99999999999",
            "e2147483648",
        ])),
    )
        .prop_map(|(neg, int, frac, exp, huge)| {
            let mut s = String::new();
            if neg {
                s.push('-');
            }
            let int: String = int.iter().map(|d| char::from(b'0' + d)).collect();
            let int = int.trim_start_matches('0');
            s.push_str(if int.is_empty() { "0" } else { int });
            if let Some(f) = frac {
                s.push('.');
                s.extend(f.iter().map(|d| char::from(b'0' + d)));
            }
            if let Some(h) = huge {
                s.push_str(h);
            } else if let Some((e, sign, n)) = exp {
                s.push_str(e);
                s.push_str(sign);
                s.push_str(&n.to_string());
            }
            s
        })
        .boxed()
}

#[test]
fn number_literals_reencode_as_the_reference() {
    run(
        "number literal: accept/reject and canonical text == serde_json",
        number_literal(),
        |lit| {
            let text = format!("[{lit}]");
            let reference = serde_json::from_str::<Value>(&text);
            let ours = RawJson::parse(text.as_bytes());
            prop_assert_eq!(ours.is_ok(), reference.is_ok(), "{}", lit);
            if let (Ok(raw), Ok(v)) = (ours, reference) {
                let mut out = Vec::new();
                raw.write_to(&mut VecSink(&mut out)).map_err(fail)?;
                prop_assert_eq!(
                    String::from_utf8(out).unwrap(),
                    serde_json::to_string(&v).unwrap(),
                    "{}",
                    lit
                );
            }
            Ok(())
        },
    );
}

/// Every frame and request of the decoder's generator that the reference
/// accepts re-encodes to the reference's re-serialisation.
#[test]
fn generated_inputs_reencode_as_the_reference() {
    let n = generated_cases();
    let mut accepted = [0usize; 2];
    for i in 0..n {
        let mut generator = Gen::new(0xE0C0_DE00 + i as u64, i % 3);
        let frame = generator.frame();
        if let Some(expected) = reference_reencode(&frame) {
            accepted[0] += 1;
            let view = Frame::decode(&frame).unwrap_or_else(|e| panic!("{e}: {}", show(&frame)));
            let mut ours = vec![0u8; frame_view_encoded_len(&view)];
            let len = encode_frame_view(&view, &mut ours[..]).unwrap();
            assert_eq!(len, ours.len());
            assert_eq!(show(&ours), show(&expected), "input {}", show(&frame));
        }
        let request = generator.request();
        if let Ok(reference) = serde_json::from_slice::<ReadResourceRequestParams>(&request) {
            accepted[1] += 1;
            let expected = serde_json::to_vec(&reference).unwrap();
            let view = RequestView::decode(&request).unwrap();
            let mut ours = vec![0u8; request_view_encoded_len(&view)];
            let len = encode_request_view(&view, &mut ours[..]).unwrap();
            assert_eq!(len, ours.len());
            assert_eq!(show(&ours), show(&expected), "input {}", show(&request));
        }
    }
    println!(
        "generated: {n} frames ({} accepted, all equal), {n} requests ({} accepted, all equal), 0 disagreements",
        accepted[0], accepted[1]
    );
    assert!(accepted[0] > n / 10 && accepted[1] > n / 10);
}

// ----- limits and fixed cases -------------------------------------------------

fn nested_arrays(n: usize) -> String {
    format!("{}1{}", "[".repeat(n), "]".repeat(n))
}

/// The deepest values the reference decodes in each place encode and
/// decode; one level more is `TooDeep`, never a frame the reference rejects.
#[test]
fn depth_limits_match_the_reference() {
    let mut buf = vec![0u8; 4096];
    // Request `_meta.x`: 125 nested arrays (the request object and `_meta`
    // are the other two of 127 levels).
    for (n, ok) in [(125, true), (126, false)] {
        let meta = format!("{{\"x\":{}}}", nested_arrays(n));
        let raw = RawJson::parse(meta.as_bytes()).unwrap();
        let value: Value = serde_json::from_str(&meta).unwrap();
        for r in [
            RequestEncoder::new(&mut buf[..]).and_then(|e| e.meta(raw)?.uri("u")?.finish()),
            RequestEncoder::new(&mut buf[..]).and_then(|e| e.meta(&value)?.uri("u")?.finish()),
            RequestEncoder::new(&mut buf[..])
                .and_then(|e| e.meta(Verbatim(raw))?.uri("u")?.finish()),
        ] {
            match r {
                Ok(len) => {
                    assert!(ok);
                    assert!(
                        serde_json::from_slice::<ReadResourceRequestParams>(&buf[..len]).is_ok()
                    );
                }
                Err(e) => {
                    assert!(!ok);
                    assert_eq!(e, EncodeError::TooDeep);
                }
            }
        }
    }
    // Content item `_meta.x`: 123; error `data`: 126.
    for (n, ok) in [(123, true), (124, false)] {
        let meta: Value = serde_json::from_str(&format!("{{\"x\":{}}}", nested_arrays(n))).unwrap();
        let r = ResultEncoder::new(&mut buf[..]).and_then(|e| {
            e.contents()?
                .item("u")?
                .text("t")?
                .meta(&meta)?
                .end()?
                .finish()
        });
        match r {
            Ok(len) => assert!(ok && check_frame(&buf[..len]) == Ok(true)),
            Err(e) => assert!(!ok && e == EncodeError::TooDeep),
        }
    }
    for (n, ok) in [(126, true), (127, false)] {
        let data: Value = serde_json::from_str(&nested_arrays(n)).unwrap();
        let r = ErrorEncoder::new(&mut buf[..], 1, "m").and_then(|e| e.data(&data)?.finish());
        match r {
            Ok(len) => assert!(ok && check_frame(&buf[..len]) == Ok(true)),
            Err(e) => assert!(!ok && e == EncodeError::TooDeep),
        }
    }
}

#[test]
fn owned_values_encode_as_borrowed_ones() {
    let meta = || serde_json::json!({"progressToken": 7, "a": [1, "x", null]});
    let encode_request = |by_value: bool| {
        let mut buf = [0u8; 256];
        let value = meta();
        let n = RequestEncoder::new(&mut buf[..])
            .and_then(|e| {
                if by_value {
                    e.meta(meta())
                } else {
                    e.meta(&value)
                }?
                .uri("docs://x")?
                .finish()
            })
            .unwrap();
        buf[..n].to_vec()
    };
    assert_eq!(encode_request(true), encode_request(false));
    assert_eq!(
        encode_request(true),
        br#"{"_meta":{"a":[1,"x",null],"progressToken":7},"uri":"docs://x"}"#
    );
    let mut buf = [0u8; 128];
    let n = ErrorEncoder::new(&mut buf[..], 1, "m")
        .and_then(|e| e.data(serde_json::json!([1.5, "é"]))?.finish())
        .unwrap();
    assert_eq!(
        &buf[..n],
        "\x01{\"code\":1,\"message\":\"m\",\"data\":[1.5,\"é\"]}".as_bytes()
    );
    // An owned value that is not an object is refused as `_meta`, as a
    // borrowed one is.
    let refused =
        RequestEncoder::new(&mut buf[..]).and_then(|e| e.meta(serde_json::json!(3)).map(drop));
    assert_eq!(refused, Err(EncodeError::NotAnObject));
}

#[test]
fn reference_table_values() {
    // REFERENCE.md section 3.
    let mut buf = [0u8; 512];
    let meta: Value = serde_json::json!({"progressToken": 7, "z": 1, "a": {"y": 1, "b": 2}});
    let n = RequestEncoder::new(&mut buf[..])
        .and_then(|e| e.meta(&meta)?.uri("docs://x")?.finish())
        .unwrap();
    assert_eq!(
        &buf[..n],
        br#"{"_meta":{"a":{"b":2,"y":1},"progressToken":7,"z":1},"uri":"docs://x"}"#
    );

    let n = ErrorEncoder::new(&mut buf[..], -32603, "boom")
        .and_then(|e| e.data(serde_json::json!(1.0))?.finish())
        .unwrap();
    assert_eq!(
        &buf[..n],
        b"\x01{\"code\":-32603,\"message\":\"boom\",\"data\":1.0}"
    );

    let k: Value = serde_json::json!({"k": "v"});
    let text = "\u{1}\u{8}\u{7f}é😀/\"\\\u{2028}";
    let n = ResultEncoder::new(&mut buf[..])
        .and_then(|e| {
            e.result_type("complete")?
                .ttl_ms(1000)?
                .cache_scope(diverge_frame::CacheScope::Private)?
                .contents()?
                .item("bin://x")?
                .mime_type("application/octet-stream")?
                .blob(&[0, 1])?
                .meta(&k)?
                .end()?
                .item("u")?
                .text(text)?
                .end()?
                .finish_with_meta(&k)
        })
        .unwrap();
    let expected = "\u{0}{\"resultType\":\"complete\",\"ttlMs\":1000,\"cacheScope\":\"private\",\"contents\":[{\"uri\":\"bin://x\",\"mimeType\":\"application/octet-stream\",\"blob\":\"AAE=\",\"_meta\":{\"k\":\"v\"}},{\"uri\":\"u\",\"text\":\"\\u0001\\b\u{7f}é😀/\\\"\\\\\u{2028}\"}],\"_meta\":{\"k\":\"v\"}}";
    assert_eq!(&buf[..n], expected.as_bytes());
}

/// serde features beyond what rmcp values use: the serializer follows
/// serde_json for every data model type.
#[test]
fn serializer_follows_serde_json_for_the_whole_data_model() {
    #[derive(serde::Serialize)]
    enum E {
        Unit,
        New(u8),
        Tuple(i8, char),
        Struct { a: (), b: Option<f32> },
    }
    #[derive(serde::Serialize)]
    struct Unit;
    #[derive(serde::Serialize)]
    struct Tuple(u16, bool);
    #[derive(serde::Serialize)]
    struct All<'a> {
        unit: Unit,
        tuple: Tuple,
        e: [E; 4],
        bytes: &'a serde_bytes_like::Bytes,
        int_keys: BTreeMap<i64, u8>,
        bool_keys: BTreeMap<bool, ()>,
        char_keys: BTreeMap<char, u8>,
        enum_keys: BTreeMap<K, u8>,
        big: (u128, i128),
        floats: (f32, f32, f64, f64, f64),
        display: Disp,
        none: Option<u8>,
        nested: Vec<Vec<BTreeMap<String, Value>>>,
    }
    #[derive(serde::Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum K {
        Alpha,
    }
    struct Disp;
    impl serde::Serialize for Disp {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(&format_args!("a\"b\u{1}{}", 5))
        }
    }
    mod serde_bytes_like {
        pub(super) struct Bytes(pub(super) [u8; 3]);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }
    let value = All {
        unit: Unit,
        tuple: Tuple(7, true),
        e: [
            E::Unit,
            E::New(1),
            E::Tuple(-1, '\u{0}'),
            E::Struct {
                a: (),
                b: Some(1.5),
            },
        ],
        bytes: &serde_bytes_like::Bytes([0, 127, 255]),
        int_keys: [(-3, 1), (4, 2)].into(),
        bool_keys: [(false, ()), (true, ())].into(),
        char_keys: [('\n', 1)].into(),
        enum_keys: [(K::Alpha, 1)].into(),
        big: (u128::MAX, i128::MIN),
        floats: (f32::NAN, 0.1, f64::INFINITY, -0.0, 1e-7),
        display: Disp,
        none: None,
        nested: vec![vec![], vec![BTreeMap::new()]],
    };
    let expected = serde_json::to_vec(&value).unwrap();
    let mut out = Vec::new();
    value.write_to(&mut VecSink(&mut out)).unwrap();
    assert_eq!(show(&out), show(&expected));
    // Keys serde_json refuses are refused here too.
    let bad: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
    assert!(serde_json::to_vec(&bad).is_err());
    assert_eq!(
        bad.write_to(&mut Counter::new()),
        Err(EncodeError::Serialize)
    );
    let nan_key: Vec<(f64, u8)> = vec![(f64::NAN, 1)];
    struct AsMap(Vec<(f64, u8)>);
    impl serde::Serialize for AsMap {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    assert!(serde_json::to_vec(&AsMap(nan_key.clone())).is_err());
    assert_eq!(
        AsMap(nan_key).write_to(&mut Counter::new()),
        Err(EncodeError::Serialize)
    );
}

#[test]
fn view_reencoding_of_reference_quirks() {
    // Text wins over blob; ttl clamps; `null`s, `""` cacheScope and a
    // `null` data disappear; escapes are normalised.
    let cases: [(&[u8], &[u8]); 5] = [
        (
            b"\x00{\"contents\":[{\"blob\":\"b\",\"uri\":\"u\",\"text\":\"t\"}],\"ttlMs\":-5,\"cacheScope\":\"\",\"resultType\":null}",
            b"\x00{\"ttlMs\":0,\"contents\":[{\"uri\":\"u\",\"text\":\"t\"}]}",
        ),
        (
            b"\x00[\"complete\",1,{\"public\":null},[{\"uri\":\"\\u0075\",\"mimeType\":null,\"blob\":\"\\/\",\"_meta\":null}],{\"b\":1,\"a\":2,\"b\":3}]",
            b"\x00{\"resultType\":\"complete\",\"ttlMs\":1,\"cacheScope\":\"public\",\"contents\":[{\"uri\":\"u\",\"blob\":\"/\"}],\"_meta\":{\"a\":2,\"b\":3}}",
        ),
        (
            b"\x01{\"data\":null,\"message\":\"\\ud83d\\ude00\\u001F\",\"code\":-32002}",
            b"\x01{\"code\":-32002,\"message\":\"\xf0\x9f\x98\x80\\u001f\"}",
        ),
        (
            b"\x01[7,\"m\",[1E3,-0,1e-400,18446744073709551616]]",
            b"\x01{\"code\":7,\"message\":\"m\",\"data\":[1000.0,-0.0,0.0,1.8446744073709552e+19]}",
        ),
        (
            b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":null,\"blob\":\"x\",\"annotations\":{\"priority\":1}}],\"extra\":[1,2]}",
            b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"x\"}]}",
        ),
    ];
    for (input, expected) in cases {
        assert_eq!(
            reference_reencode(input).as_deref(),
            Some(expected),
            "reference: {}",
            show(input)
        );
        let view = Frame::decode(input).unwrap();
        let mut buf = [0u8; 256];
        let n = encode_frame_view(&view, &mut buf[..]).unwrap();
        assert_eq!(show(&buf[..n]), show(expected));
    }
}

#[cfg(feature = "embedded-io")]
mod io {
    use diverge_frame::encode::EncodeError;
    use diverge_frame::encode::{ErrorEncoder, IoSink, encode_frame_view};
    use embedded_io::{ErrorKind, ErrorType, Write};

    /// Accepts one byte per call.
    struct Trickle(Vec<u8>);
    impl ErrorType for Trickle {
        type Error = ErrorKind;
    }
    impl Write for Trickle {
        fn write(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
            match buf.first() {
                Some(&b) => {
                    self.0.push(b);
                    Ok(1)
                }
                None => Ok(0),
            }
        }
        fn flush(&mut self) -> Result<(), ErrorKind> {
            Ok(())
        }
    }

    /// Fails after `left` bytes, with an error or with `Ok(0)`.
    struct Failing {
        left: usize,
        zero: bool,
    }
    impl ErrorType for Failing {
        type Error = ErrorKind;
    }
    impl Write for Failing {
        fn write(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
            if self.left == 0 {
                return if self.zero {
                    Ok(0)
                } else {
                    Err(ErrorKind::BrokenPipe)
                };
            }
            let n = buf.len().min(self.left);
            self.left -= n;
            Ok(n)
        }
        fn flush(&mut self) -> Result<(), ErrorKind> {
            Ok(())
        }
    }

    #[test]
    fn writers_get_the_same_bytes() {
        let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\u00e9\\n\"}],\"_meta\":{\"b\":1,\"a\":[]}}";
        let view = diverge_frame::Frame::decode(frame).unwrap();
        let mut buf = [0u8; 128];
        let n = encode_frame_view(&view, &mut buf[..]).unwrap();

        let mut sink = IoSink::new(Trickle(Vec::new()));
        assert_eq!(encode_frame_view(&view, &mut sink), Ok(n));
        assert_eq!(sink.into_inner().0, &buf[..n]);

        let mut storage = [0u8; 128];
        let mut sink = IoSink::new(&mut storage[..]);
        assert_eq!(encode_frame_view(&view, &mut sink), Ok(n));
        assert_eq!(&storage[..n], &buf[..n]);

        // embedded-io's `&mut [u8]` reports a full slice as an error.
        let mut small = [0u8; 10];
        let mut sink = IoSink::new(&mut small[..]);
        assert_eq!(encode_frame_view(&view, &mut sink), Err(EncodeError::Write));
        assert!(sink.error().is_some());
    }

    #[test]
    fn writer_failures_are_errors_not_panics() {
        for left in [0, 1, 5, 20] {
            let mut sink = IoSink::new(Failing { left, zero: false });
            let r = ErrorEncoder::new(&mut sink, -32603, "Internal error").and_then(|e| e.finish());
            assert_eq!(r, Err(EncodeError::Write));
            assert_eq!(sink.take_error(), Some(ErrorKind::BrokenPipe));
            assert_eq!(sink.error(), None);

            let mut sink = IoSink::new(Failing { left, zero: true });
            let r = ErrorEncoder::new(&mut sink, -32603, "Internal error").and_then(|e| e.finish());
            assert_eq!(r, Err(EncodeError::BufferFull));
        }
    }
}

/// Every buffer shorter than the frame gives `BufferFull`, for every length,
/// on the generator's accepted frames and requests and on large frames.
#[test]
fn every_truncation_length_is_buffer_full() {
    let mut frames: Vec<Vec<u8>> = Vec::new();
    let mut requests: Vec<Vec<u8>> = Vec::new();
    let mut i = 0u64;
    while frames.len() < 100 || requests.len() < 100 {
        let mut generator = Gen::new(0x7A11_0000 + i, 0);
        i += 1;
        let frame = generator.frame();
        if frames.len() < 100 && reference_reencode(&frame).is_some() {
            frames.push(frame);
        }
        let request = generator.request();
        if requests.len() < 100 && RequestView::decode(&request).is_ok() {
            requests.push(request);
        }
    }
    let big_text = "\u{1}\"é😀\\\n/\u{7f}".repeat(60);
    let mut big = vec![0u8; 8192];
    let n = ResultEncoder::new(&mut big[..])
        .and_then(|e| {
            e.contents()?
                .item("u")?
                .text(big_text.as_str())?
                .end()?
                .item("b")?
                .blob(&[7; 300])?
                .end()?
                .finish()
        })
        .unwrap();
    frames.push(big[..n].to_vec());
    let mut lengths = 0usize;
    for frame in &frames {
        let view = Frame::decode(frame).unwrap();
        let n = frame_view_encoded_len(&view);
        let mut buf = vec![0u8; n];
        for len in 0..n {
            assert_eq!(
                encode_frame_view(&view, &mut buf[..len]),
                Err(EncodeError::BufferFull)
            );
        }
        assert_eq!(encode_frame_view(&view, &mut buf[..]), Ok(n));
        lengths += n + 1;
    }
    for request in &requests {
        let view = RequestView::decode(request).unwrap();
        let n = request_view_encoded_len(&view);
        let mut buf = vec![0u8; n];
        for len in 0..n {
            assert_eq!(
                encode_request_view(&view, &mut buf[..len]),
                Err(EncodeError::BufferFull)
            );
        }
        assert_eq!(encode_request_view(&view, &mut buf[..]), Ok(n));
        lengths += n + 1;
    }
    println!(
        "truncation: {} frames and {} requests, {lengths} buffer lengths, all BufferFull below the length",
        frames.len(),
        requests.len()
    );
}

#[test]
fn error_types_stay_small_and_shareable() {
    fn shareable<T: Send + Sync + 'static + Copy>() {}
    shareable::<EncodeError>();
    shareable::<SpecError>();
    assert!(
        size_of::<EncodeError>() <= 12,
        "{}",
        size_of::<EncodeError>()
    );
    assert!(size_of::<SpecError>() <= 12);
}
