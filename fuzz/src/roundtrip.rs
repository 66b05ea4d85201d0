//! The `roundtrip` target: our encoders against `serde_json::to_vec` of the
//! rmcp 3.11.0 values, and decode → encode → decode.
//!
//! * [`structured`]: the fuzz input, read through `arbitrary::Unstructured`,
//!   builds an rmcp value (`ReadResourceResult`, `ErrorData` or
//!   `ReadResourceRequestParams`). Our no-heap builders, fed its fields
//!   (`_meta`/`data`/`inputResponses` through the `Serialize` path, a
//!   canonical or pretty-printed `RawJson`, or `Verbatim`; `text` whole or in
//!   chunks; a blob as base64 text, raw bytes, or raw bytes in chunks), must
//!   write exactly `serde_json::to_vec` (behind the tag byte), with
//!   `Counter` agreeing and a one-byte-short buffer giving `BufferFull`.
//!   (For a `RawJson`, the builders re-emit what serde_json reads from the
//!   text, so the reference there is `to_vec` of the value after serde_json
//!   read its embedded values back: a float may have moved to a
//!   neighbour, the documented one-way case.) The bytes then decode, through the views and through
//!   `diverge_frame::rmcp`, to exactly what the reference decodes from them;
//!   that is the original value up to the documented one-way cases (`"data":
//!   null` reads as absent; floats go through serde_json's own, not always
//!   exact, parse). A value the encoder documents as refused (`ttlMs` above
//!   `i64::MAX`, nesting beyond the reference's 127 levels, a `_meta` or
//!   `inputResponses` that is not an object) must give that `EncodeError`,
//!   and the reference must fail to decode `serde_json::to_vec` of it.
//! * [`bytes`]: the same input as a frame and as a request (and its JSON
//!   under the other tags, as `differential` does). When our decoder accepts
//!   it, `encode_frame_view` / `encode_request_view` must write exactly
//!   `serde_json::to_vec` of the reference's decoded value (the length from
//!   `*_encoded_len`), and decoding that again must give the same reference
//!   value (floats: see above) and, through our views, agree with it.

use std::collections::BTreeMap;

use diverge_frame::encode::EncodeError;
use diverge_frame::encode::stage::{
    BeforeBody, BeforeCacheScope, BeforeRequestState, BeforeTtlMs, BeforeUri, HasUri, ResultHead,
};
use diverge_frame::encode::{
    ContentsEncoder, Counter, ErrorEncoder, ItemEncoder, RequestEncoder, ResultEncoder, Sink,
    Verbatim, encode_frame_view, encode_request_view, frame_view_encoded_len,
    request_view_encoded_len,
};
use diverge_frame::rmcp::{OwnedFrame, decode_frame, decode_request, encode_frame, encode_request};
use diverge_frame::{Frame, RawJson, RequestView};
use libfuzzer_sys::arbitrary::{Result as ArbResult, Unstructured};
use rmcp::ErrorData;
use rmcp::model::{
    CacheScope, ErrorCode, MetaObject, ReadResourceRequestParams, ReadResourceResult,
    RequestMetaObject, ResourceContents, ResultType,
};
use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::hex;
use crate::oracle::{self, RefFrame, reference_frame, show};

/// Containers a top-level field (`_meta`, `data`, `inputResponses`) may
/// open: the reference allows 127 and the body object is one.
const FIELD_DEPTH: usize = 126;
/// Containers a content item's `_meta` may open (body, `contents`, item).
const ITEM_DEPTH: usize = 124;

// ----- generating rmcp values --------------------------------------------

/// Pieces strings are made of: JSON escapes, every kind of control, the
/// characters serde_json leaves raw, non-ASCII up to U+10FFFF.
const PIECES: &[&str] = &[
    "\"",
    "\\",
    "/",
    "\u{7f}",
    "\u{80}",
    "\u{2028}",
    "\u{2029}",
    "é",
    "😀",
    "\u{fffd}",
    "\u{feff}",
    "\u{10ffff}",
    "\u{e000}",
    "\\u00e9",
    "</script>",
    "\\\"",
    "\u{0}",
    "\u{1f}",
    "\n",
    "\r",
    "\t",
    "\u{8}",
    "\u{c}",
    "docs://x",
    "complete",
    "text/plain",
    "AAAA",
    "=",
];

fn piece(u: &mut Unstructured<'_>, out: &mut String) -> ArbResult<()> {
    match u.int_in_range(0u8..=5)? {
        0 | 1 => out.push_str(u.choose(PIECES)?),
        2 => out.push(char::from(u.int_in_range(0u8..=0x1f)?)),
        3 => out.push(u.arbitrary::<char>()?),
        _ => {
            let len = u.int_in_range(0usize..=6)?;
            for _ in 0..len {
                out.push(char::from(u.int_in_range(0x20u8..=0x7e)?));
            }
        }
    }
    Ok(())
}

fn string(u: &mut Unstructured<'_>) -> ArbResult<String> {
    if u.ratio(1u8, 8)? {
        return Ok(u.arbitrary::<&str>()?.to_owned());
    }
    let mut s = String::new();
    for _ in 0..u.int_in_range(0u8..=4)? {
        piece(u, &mut s)?;
    }
    Ok(s)
}

const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    1e300,
    -1e-300,
    5e-324,
    f64::MAX,
    f64::MIN,
    f64::MIN_POSITIVE,
    f64::EPSILON,
    1e21,
    1e22,
    1e-7,
    1.2345678901234567e-300,
    1.2345678901234568e29,
    9007199254740993.0,
    18446744073709551616.0,
    -9223372036854775808.0,
];

fn number(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(match u.int_in_range(0u8..=6)? {
        0 => Value::from(u.int_in_range(0u64..=100)?),
        1 => Value::from(u.arbitrary::<u64>()?),
        2 => Value::from(u.arbitrary::<i64>()?),
        3 => Value::from(*u.choose(&[
            u64::MAX,
            u64::MAX - 1,
            i64::MAX as u64,
            i64::MAX as u64 + 1,
            1 << 53,
            (1 << 53) + 1,
        ])?),
        4 => Value::from(*u.choose(&[i64::MIN, i64::MIN + 1, -1, -(1 << 53) - 1])?),
        5 => Number::from_f64(*u.choose(FLOATS)?).map_or(Value::Null, Value::Number),
        _ => Number::from_f64(u.arbitrary::<f64>()?).map_or(Value::Null, Value::Number),
    })
}

fn value(u: &mut Unstructured<'_>, depth: u8) -> ArbResult<Value> {
    let top = if depth == 0 { 4 } else { 6 };
    Ok(match u.int_in_range(0u8..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => number(u)?,
        3 | 4 => Value::String(string(u)?),
        5 => {
            let n = u.int_in_range(0u8..=3)?;
            let mut v = Vec::with_capacity(usize::from(n));
            for _ in 0..n {
                v.push(value(u, depth - 1)?);
            }
            Value::Array(v)
        }
        _ => Value::Object(object(u, depth - 1)?),
    })
}

fn object(u: &mut Unstructured<'_>, depth: u8) -> ArbResult<Map<String, Value>> {
    let mut m = Map::new();
    for _ in 0..u.int_in_range(0u8..=3)? {
        let k = string(u)?;
        m.insert(k, value(u, depth)?);
    }
    Ok(m)
}

/// A chain of `containers` nested arrays and objects around a scalar.
fn chain(u: &mut Unstructured<'_>, containers: usize) -> ArbResult<Value> {
    let mut v = Value::from(u.arbitrary::<i8>()?);
    for i in 0..containers {
        v = if u.ratio(1u8, 2)? || i % 7 == 0 {
            Value::Array(vec![v])
        } else {
            Value::Object(Map::from_iter([(String::from("k"), v)]))
        };
    }
    Ok(v)
}

/// Where a deep chain goes (refusal tests): under a key of the named
/// place. (For an error, `data` is the chain itself.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deep {
    None,
    ResultMeta,
    ItemMeta,
    RequestMeta,
    InputResponses,
}

fn deep_chain(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    // Around the limits: 124 (an item's `_meta`), 126 (a top-level field),
    // 127 (anything serde_json reads).
    let containers = u.int_in_range(121usize..=128)?;
    chain(u, containers)
}

fn meta(u: &mut Unstructured<'_>, deep: bool) -> ArbResult<Option<MetaObject>> {
    if !deep && !u.ratio(1u8, 2)? {
        return Ok(None);
    }
    let mut m = object(u, 3)?;
    if deep {
        m.insert(string(u)?, deep_chain(u)?);
    }
    Ok(Some(MetaObject(m)))
}

/// How an item's blob is fed to the builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlobFeed {
    /// `blob_base64(text)`: arbitrary text, not necessarily base64.
    Text,
    /// `blob(bytes)`: the rmcp value holds the base64 of the bytes.
    Bytes,
    /// `blob_writer()`, the bytes in chunks.
    Chunked,
}

/// How `_meta` / `data` / `inputResponses` are fed to the builder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Embed {
    /// `&T: Serialize`.
    Serialize,
    /// `RawJson::parse` of `serde_json::to_vec` (canonical re-emission).
    Raw,
    /// `RawJson::parse` of `serde_json::to_vec_pretty` (whitespace dropped).
    Pretty,
    /// `Verbatim(RawJson)` of `serde_json::to_vec` (already canonical).
    Verbatim,
}

/// How the builders are driven for one value.
#[derive(Debug)]
struct Plan {
    embed: Embed,
    /// Text cut points (byte offsets, modulo the length, moved back to a
    /// char boundary); empty: `text` written whole.
    cuts: Vec<usize>,
    /// Per content item, the raw blob bytes and how to feed them.
    blobs: Vec<(BlobFeed, Vec<u8>)>,
}

#[derive(Debug, Clone)]
enum Case {
    Result(ReadResourceResult),
    Error(ErrorData),
    Request(ReadResourceRequestParams),
}

fn base64_of(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn content(
    u: &mut Unstructured<'_>,
    deep: bool,
    blobs: &mut Vec<(BlobFeed, Vec<u8>)>,
) -> ArbResult<ResourceContents> {
    let uri = if u.ratio(1u8, 2)? {
        String::from(*u.choose(&["docs://x", "file:///a/b.rs", "urn:x:y", ""])?)
    } else {
        string(u)?
    };
    let mime_type = if u.ratio(1u8, 2)? {
        Some(string(u)?)
    } else {
        None
    };
    let meta = meta(u, deep)?;
    if u.ratio(1u8, 2)? {
        blobs.push((BlobFeed::Text, Vec::new()));
        return Ok(ResourceContents::TextResourceContents {
            uri,
            mime_type,
            text: string(u)?,
            meta,
        });
    }
    let feed = *u.choose(&[BlobFeed::Text, BlobFeed::Bytes, BlobFeed::Chunked])?;
    let (blob, raw) = if feed == BlobFeed::Text {
        (string(u)?, Vec::new())
    } else {
        let len = u.int_in_range(0usize..=80)?;
        let raw = u.bytes(len.min(u.len()))?.to_vec();
        (base64_of(&raw), raw)
    };
    blobs.push((feed, raw));
    Ok(ResourceContents::BlobResourceContents {
        uri,
        mime_type,
        blob,
        meta,
    })
}

fn result(
    u: &mut Unstructured<'_>,
    deep: Deep,
    huge_ttl: bool,
    blobs: &mut Vec<(BlobFeed, Vec<u8>)>,
) -> ArbResult<ReadResourceResult> {
    let n = u.int_in_range(0usize..=4)?;
    let deep_item = if deep == Deep::ItemMeta && n > 0 {
        Some(u.int_in_range(0..=n - 1)?)
    } else {
        None
    };
    let mut contents = Vec::with_capacity(n);
    for i in 0..n {
        contents.push(content(u, deep_item == Some(i), blobs)?);
    }
    let mut r = ReadResourceResult::new(contents);
    r.result_type = match u.int_in_range(0u8..=5)? {
        0 => None,
        1 => Some(ResultType::INPUT_REQUIRED),
        2 => Some(ResultType::TASK),
        3 => {
            Some(serde_json::from_value(Value::String(string(u)?)).unwrap_or(ResultType::COMPLETE))
        }
        _ => Some(ResultType::COMPLETE),
    };
    r.ttl_ms = if huge_ttl {
        Some(u.int_in_range(i64::MAX as u64 + 1..=u64::MAX)?)
    } else {
        match u.int_in_range(0u8..=3)? {
            0 => None,
            1 => Some(u.int_in_range(0..=i64::MAX as u64)?),
            2 => Some(*u.choose(&[0, 1, i64::MAX as u64, i64::MAX as u64 - 1])?),
            _ => Some(u.int_in_range(0u64..=100_000)?),
        }
    };
    r.cache_scope = match u.int_in_range(0u8..=2)? {
        0 => None,
        1 => Some(CacheScope::Public),
        _ => Some(CacheScope::Private),
    };
    r.meta = meta(u, deep == Deep::ResultMeta)?;
    Ok(r)
}

fn error(u: &mut Unstructured<'_>, deep: bool) -> ArbResult<ErrorData> {
    let code = if u.ratio(1u8, 2)? {
        *u.choose(&[
            -32002,
            -32602,
            -32603,
            -32601,
            -32600,
            -32700,
            0,
            i32::MIN,
            i32::MAX,
        ])?
    } else {
        u.arbitrary()?
    };
    let message = string(u)?;
    let data = if deep {
        Some(deep_chain(u)?)
    } else if u.ratio(1u8, 2)? {
        Some(value(u, 4)?)
    } else {
        None
    };
    Ok(ErrorData::new(ErrorCode(code), message, data))
}

fn request(u: &mut Unstructured<'_>, deep: Deep) -> ArbResult<ReadResourceRequestParams> {
    let uri = if u.ratio(1u8, 3)? {
        String::from(*u.choose(&["docs://x", "file:///a/b.rs", "", "http://[::1]:80/?q#f"])?)
    } else {
        string(u)?
    };
    let mut p = ReadResourceRequestParams::new(uri);
    p.meta = meta(u, deep == Deep::RequestMeta)?.map(RequestMetaObject);
    if deep == Deep::InputResponses || u.ratio(1u8, 2)? {
        let mut m: BTreeMap<String, Value> = object(u, 3)?.into_iter().collect();
        if deep == Deep::InputResponses {
            m.insert(string(u)?, deep_chain(u)?);
        }
        p.input_responses = Some(m);
    }
    if u.ratio(1u8, 2)? {
        p.request_state = Some(string(u)?);
    }
    Ok(p)
}

fn case(u: &mut Unstructured<'_>) -> ArbResult<(Case, Plan)> {
    let kind = u.int_in_range(0u8..=2)?;
    // One in sixteen values carries a documented refusal (or comes close
    // to one: a deep chain may still be within the limit). Deep values are
    // slow to re-emit canonically (quadratic in the nesting), so not more.
    let refuse = u.ratio(1u8, 16)?;
    let embed = *u.choose(&[Embed::Serialize, Embed::Raw, Embed::Pretty, Embed::Verbatim])?;
    let mut cuts = Vec::new();
    if u.ratio(1u8, 2)? {
        for _ in 0..u.int_in_range(1u8..=4)? {
            cuts.push(u.int_in_range(0usize..=64)?);
        }
    }
    let mut blobs = Vec::new();
    let case = match kind {
        0 => {
            let (deep, huge_ttl) = if refuse {
                match u.int_in_range(0u8..=2)? {
                    0 => (Deep::ResultMeta, false),
                    1 => (Deep::ItemMeta, false),
                    _ => (Deep::None, true),
                }
            } else {
                (Deep::None, false)
            };
            Case::Result(result(u, deep, huge_ttl, &mut blobs)?)
        }
        1 => Case::Error(error(u, refuse)?),
        _ => {
            let deep = match (refuse, u.ratio(1u8, 2)?) {
                (false, _) => Deep::None,
                (true, true) => Deep::RequestMeta,
                (true, false) => Deep::InputResponses,
            };
            Case::Request(request(u, deep)?)
        }
    };
    Ok((case, Plan { embed, cuts, blobs }))
}

// ----- feeding an rmcp value to our builders ------------------------------

/// An embedded value ready for a builder: its text (for `RawJson` and
/// `Verbatim`) is prepared before encoding, so the builders borrow it.
struct Prepared<'a, T: ?Sized> {
    value: &'a T,
    embed: Embed,
    text: Vec<u8>,
}

fn prepare<'a, T: Serialize + ?Sized>(value: &'a T, embed: Embed) -> Prepared<'a, T> {
    let text = match embed {
        Embed::Serialize => Vec::new(),
        Embed::Raw | Embed::Verbatim => serde_json::to_vec(value).expect("to_vec"),
        Embed::Pretty => serde_json::to_vec_pretty(value).expect("to_vec_pretty"),
    };
    Prepared { value, embed, text }
}

/// The parsed text, when the plan uses one and `RawJson::parse` takes it.
/// `RawJson::parse` must accept exactly what `serde_json` reads as a
/// `Value` (text nested beyond 127 levels is refused by both, and then the
/// value goes through `Serialize`).
fn raw<'p, T: ?Sized>(p: &'p Prepared<'_, T>) -> Option<RawJson<'p>> {
    if p.embed == Embed::Serialize {
        return None;
    }
    let ours = RawJson::parse(&p.text);
    let theirs = serde_json::from_slice::<Value>(&p.text);
    assert_eq!(
        ours.is_ok(),
        theirs.is_ok(),
        "RawJson::parse {ours:?} vs serde_json {theirs:?} on {}",
        show(&p.text)
    );
    ours.ok()
}

/// Calls `$call` with the embedded value as the builder takes it.
macro_rules! embed {
    ($p:expr, |$v:ident| $call:expr) => {{
        let p = $p;
        match (raw(p), p.embed) {
            (Some(r), Embed::Verbatim) => {
                let $v = Verbatim(r);
                $call
            }
            (Some(r), _) => {
                let $v = r;
                $call
            }
            (None, _) => {
                let $v = p.value;
                $call
            }
        }
    }};
}

/// Splits `s` at char boundaries near the given offsets.
fn split_at_chars<'s>(s: &'s str, cuts: &[usize]) -> Vec<&'s str> {
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
    if points.len() == 1 {
        return vec![s];
    }
    points.windows(2).map(|w| &s[w[0]..w[1]]).collect()
}

struct ResultInput<'a> {
    r: &'a ReadResourceResult,
    plan: &'a Plan,
    meta: Option<Prepared<'a, MetaObject>>,
    items: Vec<Option<Prepared<'a, MetaObject>>>,
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

fn enc_result(x: &ResultInput<'_>, out: &mut dyn Sink) -> Result<usize, EncodeError> {
    let e = ResultEncoder::new(out)?;
    match &x.r.result_type {
        Some(t) => res_ttl(e.result_type(t.as_str())?, x),
        None => res_ttl(e, x),
    }
}

fn res_ttl<S: Sink, St: BeforeTtlMs + BeforeCacheScope + ResultHead>(
    e: ResultEncoder<S, St>,
    x: &ResultInput<'_>,
) -> Result<usize, EncodeError> {
    match x.r.ttl_ms {
        Some(t) => res_scope(e.ttl_ms(t)?, x),
        None => res_scope(e, x),
    }
}

fn res_scope<S: Sink, St: BeforeCacheScope + ResultHead>(
    e: ResultEncoder<S, St>,
    x: &ResultInput<'_>,
) -> Result<usize, EncodeError> {
    match x.r.cache_scope {
        Some(CacheScope::Public) => {
            res_contents(e.cache_scope(diverge_frame::CacheScope::Public)?, x)
        }
        Some(_) => res_contents(e.cache_scope(diverge_frame::CacheScope::Private)?, x),
        None => res_contents(e, x),
    }
}

fn res_contents<S: Sink, St: ResultHead>(
    e: ResultEncoder<S, St>,
    x: &ResultInput<'_>,
) -> Result<usize, EncodeError> {
    let mut c = e.contents()?;
    for (i, item) in x.r.contents.iter().enumerate() {
        c = enc_item(c, item, i, x)?;
    }
    match &x.meta {
        Some(m) => embed!(m, |v| c.finish_with_meta(v)),
        None => c.finish(),
    }
}

fn enc_item<S: Sink>(
    c: ContentsEncoder<S>,
    item: &ResourceContents,
    index: usize,
    x: &ResultInput<'_>,
) -> Result<ContentsEncoder<S>, EncodeError> {
    let (uri, mime, _) = parts(item);
    let i = c.item(uri)?;
    match mime {
        Some(m) => item_body(i.mime_type(m)?, item, index, x),
        None => item_body(i, item, index, x),
    }
}

fn item_body<S: Sink, St: BeforeBody>(
    i: ItemEncoder<S, St>,
    item: &ResourceContents,
    index: usize,
    x: &ResultInput<'_>,
) -> Result<ContentsEncoder<S>, EncodeError> {
    let i = match item {
        ResourceContents::TextResourceContents { text, .. } if x.plan.cuts.is_empty() => {
            i.text(text.as_str())?
        }
        ResourceContents::TextResourceContents { text, .. } => {
            let mut w = i.text_writer()?;
            for chunk in split_at_chars(text, &x.plan.cuts) {
                w.write(chunk)?;
            }
            w.end()?
        }
        ResourceContents::BlobResourceContents { blob, .. } => match &x.plan.blobs[index] {
            (BlobFeed::Text, _) => i.blob_base64(blob.as_str())?,
            (BlobFeed::Bytes, raw) => i.blob(raw)?,
            (BlobFeed::Chunked, raw) => {
                let mut w = i.blob_writer()?;
                let mut at = 0;
                for &cut in x.plan.cuts.iter().chain([&raw.len()]) {
                    let end = (at + cut % 7).min(raw.len());
                    w.write(&raw[at..end])?;
                    at = end;
                }
                w.write(&raw[at..])?;
                w.end()?
            }
        },
        _ => unreachable!(),
    };
    match &x.items[index] {
        Some(m) => embed!(m, |v| i.meta(v)?.end()),
        None => i.end(),
    }
}

struct ErrorInput<'a> {
    e: &'a ErrorData,
    data: Option<Prepared<'a, Value>>,
}

fn enc_error(x: &ErrorInput<'_>, out: &mut dyn Sink) -> Result<usize, EncodeError> {
    let start = ErrorEncoder::new(out, x.e.code.0, x.e.message.as_ref())?;
    match &x.data {
        Some(d) => embed!(d, |v| start.data(v)?.finish()),
        None => start.finish(),
    }
}

struct RequestInput<'a> {
    p: &'a ReadResourceRequestParams,
    meta: Option<Prepared<'a, RequestMetaObject>>,
    input: Option<Prepared<'a, BTreeMap<String, Value>>>,
}

fn enc_request(x: &RequestInput<'_>, out: &mut dyn Sink) -> Result<usize, EncodeError> {
    let e = RequestEncoder::new(out)?;
    match &x.meta {
        Some(m) => embed!(m, |v| req_uri(e.meta(v)?, x)),
        None => req_uri(e, x),
    }
}

fn req_uri<S: Sink, St: BeforeUri>(
    e: RequestEncoder<S, St>,
    x: &RequestInput<'_>,
) -> Result<usize, EncodeError> {
    let e = e.uri(x.p.uri.as_str())?;
    match &x.input {
        Some(i) => embed!(i, |v| req_state(e.input_responses(v)?, x)),
        None => req_state(e, x),
    }
}

fn req_state<S: Sink, St: BeforeRequestState + HasUri>(
    e: RequestEncoder<S, St>,
    x: &RequestInput<'_>,
) -> Result<usize, EncodeError> {
    match &x.p.request_state {
        Some(s) => e.request_state(s.as_str())?.finish(),
        None => e.finish(),
    }
}

/// `serde_json`'s reading of its own text for `v`, as a `RawJson` of that
/// text is re-emitted: the same value but for floats, which serde_json does
/// not always parse back exactly (no `float_roundtrip`), so a float can come
/// out as its neighbour. Values too deep for serde_json to read stay as
/// they are (the builders then get them through `Serialize`, see [`raw`]).
fn reparse<T: Serialize + serde::de::DeserializeOwned>(v: T) -> T {
    let text = serde_json::to_vec(&v).expect("to_vec");
    serde_json::from_slice(&text).unwrap_or(v)
}

/// The value with every embedded `_meta`/`data`/`inputResponses` replaced
/// by [`reparse`] of it: what the reference writes for that is what the
/// builders write for a `RawJson` of the embedded text.
fn reparsed(case: Case) -> Case {
    match case {
        Case::Result(mut r) => {
            r.meta = r.meta.map(reparse);
            for c in &mut r.contents {
                match c {
                    ResourceContents::TextResourceContents { meta, .. }
                    | ResourceContents::BlobResourceContents { meta, .. } => {
                        *meta = meta.take().map(reparse);
                    }
                    _ => unreachable!("rmcp 3.11 has two content kinds"),
                }
            }
            Case::Result(r)
        }
        Case::Error(mut e) => {
            e.data = e.data.map(reparse);
            Case::Error(e)
        }
        Case::Request(mut p) => {
            p.meta = p.meta.map(reparse);
            p.input_responses = p.input_responses.map(reparse);
            Case::Request(p)
        }
    }
}

// ----- the refusals the encoder documents ---------------------------------

/// Containers a value opens (0 for a scalar).
fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(m) => 1 + m.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn map_depth<'a>(values: impl Iterator<Item = &'a Value>) -> usize {
    1 + values.map(depth).max().unwrap_or(0)
}

fn too_deep(containers: usize, limit: usize) -> Option<EncodeError> {
    (containers > limit).then_some(EncodeError::TooDeep)
}

/// The first documented refusal in the builders' field order, if any.
fn expected_refusal(case: &Case) -> Option<EncodeError> {
    match case {
        Case::Result(r) => {
            if r.ttl_ms.is_some_and(|t| i64::try_from(t).is_err()) {
                return Some(EncodeError::OutOfRange);
            }
            r.contents
                .iter()
                .find_map(|c| {
                    parts(c)
                        .2
                        .and_then(|m| too_deep(map_depth(m.0.values()), ITEM_DEPTH))
                })
                .or_else(|| {
                    r.meta
                        .as_ref()
                        .and_then(|m| too_deep(map_depth(m.0.values()), FIELD_DEPTH))
                })
        }
        Case::Error(e) => e
            .data
            .as_ref()
            .and_then(|d| too_deep(depth(d), FIELD_DEPTH)),
        Case::Request(p) => p
            .meta
            .as_ref()
            .and_then(|m| too_deep(map_depth(m.0.0.values()), FIELD_DEPTH))
            .or_else(|| {
                p.input_responses
                    .as_ref()
                    .and_then(|m| too_deep(map_depth(m.values()), FIELD_DEPTH))
            }),
    }
}

// ----- comparing values --------------------------------------------------

/// Equal, except that two floats are equal whatever their values: floats
/// go through serde_json's own parse, which is not always exact (no
/// `float_roundtrip`), so only the reference's decode of the same bytes
/// is compared with ours exactly.
fn same_but_floats(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x.is_f64() && y.is_f64() => true,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_but_floats(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, a), (kb, b))| ka == kb && same_but_floats(a, b))
        }
        _ => a == b,
    }
}

#[track_caller]
fn assert_same_but_floats<T: Serialize>(what: &str, original: &T, decoded: &T, bytes: &[u8]) {
    let a = serde_json::to_value(original).expect("to_value");
    let b = serde_json::to_value(decoded).expect("to_value");
    assert!(
        same_but_floats(&a, &b),
        "{what}: decoded value differs\n  before: {a}\n  after:  {b}\n  bytes: {}\n  hex: {}",
        show(bytes),
        hex(bytes)
    );
}

/// Equal, and equal in serde_json's output (which tells `-0.0` from `0.0`).
#[track_caller]
fn assert_identical<T: Serialize + PartialEq + std::fmt::Debug>(
    what: &str,
    ours: &T,
    theirs: &T,
    input: &[u8],
) {
    assert!(
        ours == theirs
            && serde_json::to_vec(ours).expect("to_vec")
                == serde_json::to_vec(theirs).expect("to_vec"),
        "{what}: ours {ours:?}\n  reference {theirs:?}\n  input: {}\n  hex: {}",
        show(input),
        hex(input)
    );
}

#[track_caller]
fn agree(what: &str, input: &[u8], outcome: Result<bool, String>) {
    match outcome {
        Ok(true) => {}
        Ok(false) => panic!(
            "{what}: rejected\n  input: {}\n  hex: {}",
            show(input),
            hex(input)
        ),
        Err(e) => panic!(
            "{what}: {e}\n  input: {}\n  hex: {}",
            show(input),
            hex(input)
        ),
    }
}

// ----- encoding and checking ---------------------------------------------

/// Encodes with a `Counter`, an exact buffer and a one-byte-short buffer;
/// returns the bytes, or the error (the same from every sink).
fn encode_checked(
    what: &str,
    encode: impl Fn(&mut dyn Sink) -> Result<usize, EncodeError>,
) -> Result<Vec<u8>, EncodeError> {
    let mut counter = Counter::new();
    let n = encode(&mut counter)?;
    assert_eq!(n, counter.len(), "{what}: returned length vs Counter");
    let mut buf = vec![0u8; n];
    assert_eq!(encode(&mut &mut buf[..]), Ok(n), "{what}: exact buffer");
    if let Some(short) = n.checked_sub(1) {
        let mut small = vec![0u8; short];
        assert_eq!(
            encode(&mut &mut small[..]),
            Err(EncodeError::BufferFull),
            "{what}: buffer of {short} for {n} bytes"
        );
    }
    Ok(buf)
}

#[track_caller]
fn assert_bytes(what: &str, ours: &[u8], reference: &[u8], value: &dyn std::fmt::Debug) {
    assert!(
        ours == reference,
        "{what}: bytes differ\n  ours:      {}\n  reference: {}\n  value: {value:?}",
        show(ours),
        show(reference)
    );
}

fn tagged(tag: u8, json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len() + 1);
    out.push(tag);
    out.extend_from_slice(json);
    out
}

/// The structured half: see the module docs.
pub fn structured(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok((case, plan)) = case(&mut u) else {
        return;
    };
    // The builders get `case`; the reference writes `expected`.
    let expected = match plan.embed {
        Embed::Raw | Embed::Pretty => reparsed(case.clone()),
        Embed::Serialize | Embed::Verbatim => case.clone(),
    };
    let refusal = expected_refusal(&case);
    let (ours, reference) = match &case {
        Case::Result(r) => {
            let x = ResultInput {
                r,
                plan: &plan,
                meta: r.meta.as_ref().map(|m| prepare(m, plan.embed)),
                items: r
                    .contents
                    .iter()
                    .map(|c| parts(c).2.map(|m| prepare(m, plan.embed)))
                    .collect(),
            };
            let Case::Result(want) = &expected else {
                unreachable!()
            };
            let reference = tagged(0, &serde_json::to_vec(want).expect("to_vec"));
            (encode_checked("result", |s| enc_result(&x, s)), reference)
        }
        Case::Error(e) => {
            let x = ErrorInput {
                e,
                data: e.data.as_ref().map(|d| prepare(d, plan.embed)),
            };
            let Case::Error(want) = &expected else {
                unreachable!()
            };
            let reference = tagged(1, &serde_json::to_vec(want).expect("to_vec"));
            (encode_checked("error", |s| enc_error(&x, s)), reference)
        }
        Case::Request(p) => {
            let x = RequestInput {
                p,
                meta: p.meta.as_ref().map(|m| prepare(m, plan.embed)),
                input: p.input_responses.as_ref().map(|m| prepare(m, plan.embed)),
            };
            let Case::Request(want) = &expected else {
                unreachable!()
            };
            let reference = serde_json::to_vec(want).expect("to_vec");
            (encode_checked("request", |s| enc_request(&x, s)), reference)
        }
    };
    match (ours, refusal) {
        (Err(e), Some(expected)) => {
            assert_eq!(e, expected, "refusal: {case:?}");
            // Neither the reference nor we can read back what serde_json
            // writes for the value.
            let (theirs, ours) = match &case {
                Case::Request(_) => (
                    serde_json::from_slice::<ReadResourceRequestParams>(&reference).is_ok(),
                    RequestView::decode(&reference).is_ok(),
                ),
                _ => (
                    matches!(
                        reference_frame(&reference),
                        RefFrame::Result(_) | RefFrame::Error(_)
                    ),
                    Frame::decode(&reference).is_ok(),
                ),
            };
            assert!(
                !theirs && !ours,
                "refused with {e:?}, but accepted (reference {theirs}, ours {ours}): {}",
                show(&reference)
            );
        }
        (Err(e), None) => panic!("encode failed with {e:?}: {case:?}"),
        (Ok(bytes), Some(expected)) => {
            panic!("expected {expected:?}, encoded {}: {case:?}", show(&bytes))
        }
        (Ok(bytes), None) => {
            assert_bytes("builders vs serde_json::to_vec", &bytes, &reference, &case);
            match &expected {
                Case::Result(r) => check_frame_value(&bytes, &OwnedFrame::Result(r.clone())),
                Case::Error(e) => check_frame_value(&bytes, &OwnedFrame::Error(e.clone())),
                Case::Request(p) => check_request_value(&bytes, p),
            }
        }
    }
    non_object(&mut u);
}

/// A frame our builders wrote for `original`: the rmcp encoder writes the
/// same, and every decoder reads what the reference reads.
fn check_frame_value(bytes: &[u8], original: &OwnedFrame) {
    let mut out = vec![0u8; bytes.len()];
    assert_eq!(
        encoded_frame_len(original),
        bytes.len(),
        "encoded_frame_len"
    );
    assert_eq!(
        encode_frame(original, &mut out[..]),
        Ok(bytes.len()),
        "encode_frame"
    );
    if let Some(short) = bytes.len().checked_sub(1) {
        assert_eq!(
            encode_frame(original, &mut out[..short]),
            Err(EncodeError::BufferFull),
            "encode_frame into a buffer a byte short"
        );
    }
    assert_bytes("rmcp::encode_frame", &out, bytes, original);
    let decoded = decoded_frame(bytes);
    // The documented one-way case: `"data": null` reads as absent.
    let mut expected = original.clone();
    if let OwnedFrame::Error(e) = &mut expected
        && e.data == Some(Value::Null)
    {
        e.data = None;
    }
    match (&expected, &decoded) {
        (OwnedFrame::Result(a), OwnedFrame::Result(b)) => {
            assert_same_but_floats("result", a, b, bytes);
        }
        (OwnedFrame::Error(a), OwnedFrame::Error(b)) => {
            assert_same_but_floats("error", a, b, bytes);
        }
        _ => panic!("tag changed: {expected:?} → {decoded:?}"),
    }
    reencode_frame(bytes, &decoded);
}

fn check_request_value(bytes: &[u8], original: &ReadResourceRequestParams) {
    let mut out = vec![0u8; bytes.len()];
    assert_eq!(
        encoded_request_len(original),
        bytes.len(),
        "encoded_request_len"
    );
    assert_eq!(
        encode_request(original, &mut out[..]),
        Ok(bytes.len()),
        "encode_request"
    );
    assert_bytes("rmcp::encode_request", &out, bytes, original);
    let decoded = decoded_request(bytes);
    assert_same_but_floats("request", original, &decoded, bytes);
    reencode_request(bytes, &decoded);
}

/// `bytes` through every decoder: the views agree with the reference, and
/// `diverge_frame::rmcp::decode_frame` equals it. Returns the reference's
/// value.
fn decoded_frame(bytes: &[u8]) -> OwnedFrame {
    agree("views vs reference", bytes, oracle::check_frame(bytes));
    let theirs = match reference_frame(bytes) {
        RefFrame::Result(r) => OwnedFrame::Result(r),
        RefFrame::Error(e) => OwnedFrame::Error(e),
        _ => unreachable!("check_frame said both accept"),
    };
    let ours = decode_frame(bytes).expect("check_frame said we accept");
    match (&ours, &theirs) {
        (OwnedFrame::Result(a), OwnedFrame::Result(b)) => {
            assert_identical("rmcp::decode_frame", a, b, bytes);
        }
        (OwnedFrame::Error(a), OwnedFrame::Error(b)) => {
            assert_identical("rmcp::decode_frame", a, b, bytes);
        }
        _ => panic!("rmcp::decode_frame: tag differs for {}", show(bytes)),
    }
    theirs
}

fn decoded_request(bytes: &[u8]) -> ReadResourceRequestParams {
    agree("view vs reference", bytes, oracle::check_request(bytes));
    let theirs: ReadResourceRequestParams =
        serde_json::from_slice(bytes).expect("check_request said the reference accepts");
    let ours = decode_request(bytes).expect("check_request said we accept");
    assert_identical("rmcp::decode_request", &ours, &theirs, bytes);
    theirs
}

/// Re-encodes the view of `bytes` (which the reference decodes to
/// `reference`): exactly `serde_json::to_vec` of it, with the length given
/// first; returns the re-encoded bytes.
fn reencode_frame(bytes: &[u8], reference: &OwnedFrame) -> Vec<u8> {
    let view = Frame::decode(bytes).expect("accepted before");
    let expected = encode_frame_to_vec(reference);
    let out = encode_checked("encode_frame_view", |s| encode_frame_view(&view, s))
        .unwrap_or_else(|e| panic!("encode_frame_view failed with {e:?} for {}", show(bytes)));
    assert_eq!(
        frame_view_encoded_len(&view),
        out.len(),
        "frame_view_encoded_len"
    );
    let mut want = vec![reference.tag().byte()];
    want.extend(
        match reference {
            OwnedFrame::Result(r) => serde_json::to_vec(r),
            OwnedFrame::Error(e) => serde_json::to_vec(e),
        }
        .expect("to_vec"),
    );
    assert_eq!(
        expected, want,
        "rmcp::encode_frame into a Vec vs serde_json"
    );
    assert_bytes(
        "encode_frame_view vs serde_json::to_vec",
        &out,
        &want,
        &bytes,
    );
    out
}

fn reencode_request(bytes: &[u8], reference: &ReadResourceRequestParams) -> Vec<u8> {
    let view = RequestView::decode(bytes).expect("accepted before");
    let out = encode_checked("encode_request_view", |s| encode_request_view(&view, s))
        .unwrap_or_else(|e| panic!("encode_request_view failed with {e:?} for {}", show(bytes)));
    assert_eq!(
        request_view_encoded_len(&view),
        out.len(),
        "request_view_encoded_len"
    );
    let want = serde_json::to_vec(reference).expect("to_vec");
    assert_eq!(
        encode_request_to_vec(reference),
        want,
        "rmcp::encode_request into a Vec vs serde_json"
    );
    assert_bytes(
        "encode_request_view vs serde_json::to_vec",
        &out,
        &want,
        &bytes,
    );
    out
}

/// A `_meta` or `inputResponses` that is not an object is refused with
/// `NotAnObject` on every path; the same value is accepted as `data`.
fn non_object(u: &mut Unstructured<'_>) {
    let Ok(place) = u.int_in_range(0u8..=4) else {
        return;
    };
    let Ok(v) = value(u, 2) else {
        return;
    };
    if v.is_object() {
        return;
    }
    let text = serde_json::to_vec(&v).expect("to_vec");
    let raw = RawJson::parse(&text).expect("RawJson::parse of serde_json output");
    let mut buf = vec![0u8; text.len() + 64];
    macro_rules! refused {
        ($v:expr) => {{
            let r = match place {
                0 => RequestEncoder::new(&mut buf[..])
                    .and_then(|e| e.meta($v))
                    .map(drop),
                1 => RequestEncoder::new(&mut buf[..])
                    .and_then(|e| e.uri("u"))
                    .and_then(|e| e.input_responses($v))
                    .map(drop),
                2 => ResultEncoder::new(&mut buf[..])
                    .and_then(|e| e.contents())
                    .and_then(|c| c.finish_with_meta($v))
                    .map(drop),
                _ => ResultEncoder::new(&mut buf[..])
                    .and_then(|e| e.contents())
                    .and_then(|c| c.item("u"))
                    .and_then(|i| i.text(""))
                    .and_then(|i| i.meta($v))
                    .map(drop),
            };
            assert_eq!(r, Err(EncodeError::NotAnObject), "place {place}, {v:?}");
        }};
    }
    refused!(&v);
    refused!(raw);
    refused!(Verbatim(raw));
    // As `data` it is written as serde_json writes it (for a `RawJson`:
    // writes what it reads from the text, see [`reparse`]).
    for way in 0..3 {
        let data = if way == 1 {
            reparse(v.clone())
        } else {
            v.clone()
        };
        let want = tagged(
            1,
            &serde_json::to_vec(&ErrorData::new(ErrorCode(7), "m", Some(data))).expect("to_vec"),
        );
        let mut out = vec![0u8; want.len()];
        let r = ErrorEncoder::new(&mut out[..], 7, "m").and_then(|e| match way {
            0 => e.data(&v)?.finish(),
            1 => e.data(raw)?.finish(),
            _ => e.data(Verbatim(raw))?.finish(),
        });
        assert_eq!(r, Ok(want.len()), "non-object data {v:?}");
        assert_bytes("non-object data", &out, &want, &v);
    }
}

// ----- the bytes half ----------------------------------------------------

/// The bytes half: see the module docs.
pub fn bytes(data: &[u8]) {
    frame_bytes(data);
    request_bytes(data);
    let json = match data.split_first() {
        Some((0 | 1, json)) => {
            request_bytes(json);
            json
        }
        _ => data,
    };
    for tag in [diverge_frame::RESULT_TAG, diverge_frame::ERROR_TAG] {
        if data.first() != Some(&tag) {
            frame_bytes(&tagged(tag, json));
        }
    }
}

fn frame_bytes(input: &[u8]) {
    if Frame::decode(input).is_err() {
        return;
    }
    let first = decoded_frame(input);
    let again = reencode_frame(input, &first);
    let second = decoded_frame(&again);
    match (&first, &second) {
        (OwnedFrame::Result(a), OwnedFrame::Result(b)) => {
            assert_same_but_floats("decode → encode → decode", a, b, input);
        }
        (OwnedFrame::Error(a), OwnedFrame::Error(b)) => {
            assert_same_but_floats("decode → encode → decode", a, b, input);
        }
        _ => panic!("decode → encode → decode changed the tag: {}", show(input)),
    }
    // The re-encoded bytes' own view re-encodes to what the reference
    // writes for them (the same bytes unless a float moved).
    reencode_frame(&again, &second);
}

fn request_bytes(input: &[u8]) {
    if RequestView::decode(input).is_err() {
        return;
    }
    let first = decoded_request(input);
    let again = reencode_request(input, &first);
    let second = decoded_request(&again);
    assert_same_but_floats("decode → encode → decode", &first, &second, input);
    reencode_request(&again, &second);
}

/// The `roundtrip` target: both halves on one input.
pub fn roundtrip(data: &[u8]) {
    structured(data);
    bytes(data);
}

/// `encode_frame` into a new `Vec`.
fn encode_frame_to_vec(frame: &OwnedFrame) -> Vec<u8> {
    let mut out = Vec::new();
    diverge_frame::rmcp::encode_frame(frame, &mut out).expect("a Vec takes every byte");
    out
}

/// `encode_request` into a new `Vec`.
fn encode_request_to_vec(request: &rmcp::model::ReadResourceRequestParams) -> Vec<u8> {
    let mut out = Vec::new();
    diverge_frame::rmcp::encode_request(request, &mut out)
        .expect("a Vec or a Counter takes every byte");
    out
}

/// The length `encode_frame` writes, counted.
fn encoded_frame_len(frame: &OwnedFrame) -> usize {
    diverge_frame::rmcp::encode_frame(frame, &mut diverge_frame::encode::Counter::new())
        .expect("a Vec or a Counter takes every byte")
}

/// The length `encode_request` writes, counted.
fn encoded_request_len(request: &rmcp::model::ReadResourceRequestParams) -> usize {
    diverge_frame::rmcp::encode_request(request, &mut diverge_frame::encode::Counter::new())
        .expect("a Vec or a Counter takes every byte")
}
