//! The spec checks (`spec::*`, `check_spec()`, the strict encoders) against
//! oracles written from the RFCs and the spec, not from the library:
//!
//! * `is_absolute_uri` against [`fluent_uri::Uri::parse`], an RFC 3986
//!   parser (a `URI`, which has a scheme, is an absolute URI with an optional
//!   fragment);
//! * `is_media_type` against a regular expression of RFC 9110's
//!   `media-type` (§ 8.3.1: `type "/" subtype *( OWS ";" OWS [ parameter ] )`,
//!   tokens, quoted strings with `obs-text` and quoted pairs);
//! * `is_base64` against the `base64` crate's standard engine, padding
//!   indifferent, no trailing bits;
//! * `is_known_error_code` against the codes the spec lists;
//! * `check_spec()` on every frame and request that decodes, against the
//!   first failure the documented order gives on the reference's reading
//!   (`serde_json::Value` for the shape, `resultType`, `cacheScope` and the
//!   members an item writes; rmcp's value for each item's `uri`, `mimeType`
//!   and body);
//! * the strict encoders fed the decoded view (strings as [`StrValue::Json`],
//!   still escaped): the same first failure, bar the checks a builder cannot
//!   fail (shape, spelling of `cacheScope`, both `text` and `blob`), and
//!   otherwise exactly the bytes `encode_frame_view` writes.
//!
//! The input is read as a string (the predicates), as a frame, as a request,
//! and its JSON behind each tag.

use std::sync::LazyLock;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use diverge_frame::encode::EncodeError;
use diverge_frame::encode::stage::{
    BeforeBody, BeforeCacheScope, BeforeRequestState, BeforeTtlMs, BeforeUri, HasUri, ResultHead,
};
use diverge_frame::encode::{
    ContentsEncoder, ErrorEncoder, ItemEncoder, RequestEncoder, ResultEncoder, StrValue,
    encode_frame_view, encode_request_view,
};
use diverge_frame::spec::{
    SpecError, SpecErrorKind, is_absolute_uri, is_base64, is_known_error_code,
    is_known_result_type, is_media_type,
};
use diverge_frame::{Body, ErrorView, Frame, JsonStr, RequestView, ResultView};
use regex::bytes::Regex;
use rmcp::model::ResourceContents;
use serde_json::Value;

use crate::hex;
use crate::oracle::{RefFrame, reference_frame, show};

/// RFC 9110 § 8.3.1 `media-type`, with § 5.6.2 `token`, § 5.6.3 `OWS` and
/// § 5.6.4 `quoted-string` (`qdtext`, `quoted-pair`, `obs-text`), on bytes.
static MEDIA_TYPE: LazyLock<Regex> = LazyLock::new(|| {
    let token = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+";
    let quoted = r#""(?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*""#;
    let ows = r"[ \t]*";
    let pattern =
        format!(r"(?-u)\A{token}/{token}(?:{ows};{ows}(?:{token}=(?:{token}|{quoted}))?)*\z");
    Regex::new(&pattern).expect("the media-type pattern compiles")
});

/// Standard alphabet, `=` padding optional, no stray bits in the last
/// character: what the spec calls standard base64 and `is_base64` documents.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The codes the spec names: JSON-RPC's five predefined codes and its
/// server-error range `-32099..=-32000`.
fn known_code(code: i64) -> bool {
    matches!(code, -32700 | -32600 | -32601 | -32602 | -32603) || (-32099..=-32000).contains(&code)
}

fn uri_ok(s: &str) -> bool {
    fluent_uri::Uri::parse(s).is_ok()
}

fn media_type_ok(s: &str) -> bool {
    MEDIA_TYPE.is_match(s.as_bytes())
}

fn base64_ok(s: &str) -> bool {
    BASE64.decode(s).is_ok()
}

#[track_caller]
fn fail(what: &str, input: &[u8], detail: &str) -> ! {
    panic!(
        "spec ({what}): {detail}\n  input (readable): {}\n  input (hex): {}",
        show(input),
        hex(input)
    );
}

/// The predicates against their oracles, on one string.
fn predicates(s: &str, input: &[u8]) {
    let pairs = [
        ("is_absolute_uri", is_absolute_uri(s), uri_ok(s)),
        ("is_media_type", is_media_type(s), media_type_ok(s)),
        ("is_base64", is_base64(s), base64_ok(s)),
        (
            "is_known_result_type",
            is_known_result_type(s),
            matches!(s, "complete" | "input_required" | "task"),
        ),
    ];
    for (what, ours, oracle) in pairs {
        if ours != oracle {
            fail(what, input, &format!("{s:?}: ours {ours}, oracle {oracle}"));
        }
    }
}

/// A `SpecError`'s accessors agree with each other and it prints.
fn check_error(e: &SpecError, input: &[u8]) {
    let field = match e.kind() {
        SpecErrorKind::PositionalForm => None,
        SpecErrorKind::UnknownResultType => Some("resultType"),
        SpecErrorKind::UnknownCacheScope => Some("cacheScope"),
        SpecErrorKind::NotAbsoluteUri => Some("uri"),
        SpecErrorKind::InvalidMimeType => Some("mimeType"),
        SpecErrorKind::BothTextAndBlob | SpecErrorKind::InvalidBase64 => Some("blob"),
        SpecErrorKind::UnknownErrorCode => Some("code"),
        _ => fail(
            "kind",
            input,
            &format!("a kind this target does not know: {e:?}"),
        ),
    };
    assert_eq!(e.field(), field, "field of {e:?}");
    let shown = e.to_string();
    let kind = e.kind().to_string();
    let item = e
        .item()
        .map(|i| format!("content item {i}: "))
        .unwrap_or_default();
    assert_eq!(shown, format!("{item}{kind}"));
    let strict = EncodeError::Spec(*e);
    assert_eq!(
        strict.to_string(),
        shown,
        "EncodeError::Spec prints as the SpecError"
    );
}

/// Where a view's check says its error is (`spec_offset`): in the input,
/// a string's at its opening quote, and somewhere for every error the view's
/// own check gave.
fn check_offset(e: &SpecError, at: Option<usize>, input: &[u8]) {
    let Some(o) = at else {
        fail("spec_offset", input, &format!("no offset for {e:?}"));
    };
    assert!(o < input.len(), "offset {o} of {e:?} past the input");
    if matches!(
        e.kind(),
        SpecErrorKind::UnknownResultType
            | SpecErrorKind::NotAbsoluteUri
            | SpecErrorKind::InvalidMimeType
            | SpecErrorKind::InvalidBase64
    ) {
        assert_eq!(input[o], b'"', "{e:?} not at a string");
    }
}

/// What the reference's reading of a result body shows of its members: the
/// form, the last `resultType` and `cacheScope` (as `serde_json::Value`:
/// the reference parses both), and each item's keys. Values it does not
/// need are skipped with `IgnoredAny`, as the reference skips unknown
/// members (a `Value` of the whole body would refuse texts the reference
/// accepts, such as a lone surrogate in a member it ignores).
#[derive(Default)]
struct Probe {
    object: bool,
    result_type: Option<Value>,
    cache_scope: Option<Value>,
    items: Vec<Vec<String>>,
}

/// The keys of one content item (none for the positional form).
struct Keys(Vec<String>);

impl<'de> serde::Deserialize<'de> for Keys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Keys;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a content item")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Keys, A::Error> {
                let mut keys = Vec::new();
                while let Some(k) = m.next_key::<String>()? {
                    m.next_value::<serde::de::IgnoredAny>()?;
                    keys.push(k);
                }
                Ok(Keys(keys))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<Keys, A::Error> {
                while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Keys(Vec::new()))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> serde::Deserialize<'de> for Probe {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Probe;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a result body")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Probe, A::Error> {
                let mut p = Probe {
                    object: true,
                    ..Probe::default()
                };
                while let Some(k) = m.next_key::<String>()? {
                    match k.as_str() {
                        "resultType" => p.result_type = Some(m.next_value()?),
                        "cacheScope" => p.cache_scope = Some(m.next_value()?),
                        "contents" => {
                            let items: Option<Vec<Keys>> = m.next_value()?;
                            p.items = items.unwrap_or_default().into_iter().map(|k| k.0).collect();
                        }
                        _ => {
                            m.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(p)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<Probe, A::Error> {
                // The positional form: `resultType` comes first.
                let mut p = Probe::default();
                if let Some(t) = s.next_element::<Value>()? {
                    p.result_type = Some(t);
                }
                while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(p)
            }
        }
        d.deserialize_any(V)
    }
}

/// What the spec checks expect, in the documented order. `builder`: only the
/// checks a strict encoder makes on the values it is given.
fn expected_result(
    json: &[u8],
    contents: &[ResourceContents],
    builder: bool,
) -> Result<(), (SpecErrorKind, Option<usize>)> {
    let probe: Probe = serde_json::from_slice(json).expect("the reference read it");
    if !probe.object && !builder {
        return Err((SpecErrorKind::PositionalForm, None));
    }
    if let Some(t) = probe.result_type.as_ref().filter(|v| !v.is_null()) {
        let t = t.as_str().expect("the reference read a string");
        if !matches!(t, "complete" | "input_required" | "task") {
            return Err((SpecErrorKind::UnknownResultType, None));
        }
    }
    if !builder
        && let Some(scope) = probe.cache_scope.as_ref().filter(|v| !v.is_null())
        && !matches!(scope.as_str(), Some("public" | "private"))
    {
        return Err((SpecErrorKind::UnknownCacheScope, None));
    }
    for (i, item) in contents.iter().enumerate() {
        let (uri, mime, blob) = match item {
            ResourceContents::TextResourceContents { uri, mime_type, .. } => (uri, mime_type, None),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => (uri, mime_type, Some(blob)),
            _ => unreachable!("rmcp 3.11 has two content kinds"),
        };
        if !uri_ok(uri) {
            return Err((SpecErrorKind::NotAbsoluteUri, Some(i)));
        }
        if mime.as_deref().is_some_and(|m| !media_type_ok(m)) {
            return Err((SpecErrorKind::InvalidMimeType, Some(i)));
        }
        let keys = probe.items.get(i).map(Vec::as_slice).unwrap_or_default();
        let both = keys.iter().any(|k| k == "text") && keys.iter().any(|k| k == "blob");
        if both && !builder {
            return Err((SpecErrorKind::BothTextAndBlob, Some(i)));
        }
        if blob.is_some_and(|b| !base64_ok(b)) {
            return Err((SpecErrorKind::InvalidBase64, Some(i)));
        }
    }
    Ok(())
}

fn agree_spec(
    what: &str,
    input: &[u8],
    ours: Result<(), SpecError>,
    expected: Result<(), (SpecErrorKind, Option<usize>)>,
) {
    if let Err(e) = &ours {
        check_error(e, input);
    }
    let ours_plain = ours.map_err(|e| (e.kind(), e.item()));
    if ours_plain != expected {
        fail(
            what,
            input,
            &format!("ours {ours_plain:?}, oracle {expected:?}"),
        );
    }
}

/// The strict encoders' answer as a spec answer: `Ok` with the bytes, or
/// the `SpecError` (any other error is a failure).
fn strict_answer(
    what: &str,
    input: &[u8],
    written: Result<usize, EncodeError>,
    buf: &[u8],
    canonical: &[u8],
) -> Result<(), SpecError> {
    match written {
        Ok(n) => {
            if &buf[..n] != canonical {
                fail(
                    what,
                    input,
                    &format!(
                        "strict bytes differ from encode_*_view:\n  strict {}\n  view   {}",
                        show(&buf[..n]),
                        show(canonical)
                    ),
                );
            }
            Ok(())
        }
        Err(EncodeError::Spec(e)) => Err(e),
        Err(e) => fail(what, input, &format!("strict encoder failed with {e:?}")),
    }
}

fn enc_result(r: &ResultView<'_>, out: &mut [u8]) -> Result<usize, EncodeError> {
    let e = ResultEncoder::strict(out)?;
    match r.result_type() {
        Some(t) => res_ttl(e.result_type(t)?, r),
        None => res_ttl(e, r),
    }
}

fn res_ttl<St: BeforeTtlMs + BeforeCacheScope + ResultHead>(
    e: ResultEncoder<&mut [u8], St>,
    r: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    match r.ttl_ms() {
        Some(t) => res_scope(e.ttl_ms(t)?, r),
        None => res_scope(e, r),
    }
}

fn res_scope<St: BeforeCacheScope + ResultHead>(
    e: ResultEncoder<&mut [u8], St>,
    r: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    match r.cache_scope() {
        Some(s) => res_contents(e.cache_scope(s)?, r),
        None => res_contents(e, r),
    }
}

fn res_contents<St: ResultHead>(
    e: ResultEncoder<&mut [u8], St>,
    r: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    let mut c = e.contents()?;
    for item in r.contents() {
        let i = c.item(item.uri())?;
        c = match item.mime_type() {
            Some(m) => item_body(i.mime_type(m)?, &item)?,
            None => item_body(i, &item)?,
        };
    }
    match r.meta() {
        Some(m) => c.finish_with_meta(m),
        None => c.finish(),
    }
}

fn item_body<'b, St: BeforeBody>(
    i: ItemEncoder<&'b mut [u8], St>,
    item: &diverge_frame::Content<'_>,
) -> Result<ContentsEncoder<&'b mut [u8]>, EncodeError> {
    let i = match item.body() {
        Body::Text(t) => i.text(t)?,
        Body::Blob(b) => i.blob_base64(b)?,
    };
    match item.meta() {
        Some(m) => i.meta(m)?.end(),
        None => i.end(),
    }
}

fn enc_error(e: &ErrorView<'_>, out: &mut [u8]) -> Result<usize, EncodeError> {
    let start = ErrorEncoder::strict(out, e.code(), e.message())?;
    match e.data() {
        Some(d) => start.data(d)?.finish(),
        None => start.finish(),
    }
}

fn enc_request(r: &RequestView<'_>, out: &mut [u8]) -> Result<usize, EncodeError> {
    let e = RequestEncoder::strict(out)?;
    match r.meta() {
        Some(m) => req_uri(e.meta(m)?, r),
        None => req_uri(e, r),
    }
}

fn req_uri<St: BeforeUri>(
    e: RequestEncoder<&mut [u8], St>,
    r: &RequestView<'_>,
) -> Result<usize, EncodeError> {
    let e = e.uri(r.uri())?;
    match r.input_responses() {
        Some(i) => req_state(e.input_responses(i)?, r),
        None => req_state(e, r),
    }
}

fn req_state<St: BeforeRequestState + HasUri>(
    e: RequestEncoder<&mut [u8], St>,
    r: &RequestView<'_>,
) -> Result<usize, EncodeError> {
    match r.request_state() {
        Some(s) => e.request_state(s)?.finish(),
        None => e.finish(),
    }
}

/// `StrValue::Json` agrees with the string it stands for.
fn str_value(s: JsonStr<'_>, input: &[u8]) {
    let text = s.to_string();
    let v = StrValue::from(s);
    if v.len() != text.len() || v.is_empty() != text.is_empty() {
        fail("StrValue", input, &format!("len/is_empty of {text:?}"));
    }
    if let Some(borrowed) = v.as_str() {
        assert_eq!(borrowed, text, "StrValue::as_str");
    }
    let plain = StrValue::from(text.as_str());
    assert_eq!(plain.len(), text.len());
    assert_eq!(plain.as_str(), Some(text.as_str()));
    if let Ok(h) = heapless::String::<64>::try_from(text.as_str()) {
        let held = StrValue::from(&h);
        assert_eq!(
            (held.len(), held.as_str()),
            (text.len(), Some(text.as_str()))
        );
    }
    predicates(&text, input);
}

fn frame(bytes: &[u8]) {
    let Ok(frame) = Frame::decode(bytes) else {
        return;
    };
    let json = &bytes[1..];
    let reference = reference_frame(bytes);
    let mut canonical = vec![0u8; bytes.len() * 8 + 64];
    let n =
        encode_frame_view(&frame, &mut canonical[..]).expect("8× the input holds any re-encoding");
    canonical.truncate(n);
    let mut buf = vec![0u8; canonical.len()];
    match (&frame, &reference) {
        (Frame::Result(r), RefFrame::Result(value)) => {
            if let Err(e) = frame.check_spec() {
                check_offset(&e, frame.spec_offset(&e), bytes);
            }
            agree_spec(
                "ResultView::check_spec",
                bytes,
                frame.check_spec(),
                expected_result(json, &value.contents, false),
            );
            if let Some(t) = r.result_type() {
                str_value(t, bytes);
            }
            for item in r.contents() {
                str_value(item.uri(), bytes);
                if let Some(m) = item.mime_type() {
                    str_value(m, bytes);
                }
                if let Body::Blob(b) = item.body() {
                    str_value(b.text(), bytes);
                }
            }
            let strict = strict_answer(
                "ResultEncoder::strict",
                bytes,
                enc_result(r, &mut buf),
                &buf,
                &canonical,
            );
            agree_spec(
                "ResultEncoder::strict",
                bytes,
                strict,
                expected_result(json, &value.contents, true),
            );
        }
        (Frame::Error(e), RefFrame::Error(value)) => {
            let object = skip_ws(json).first() == Some(&b'{');
            let code_ok = known_code(i64::from(value.code.0));
            assert_eq!(
                is_known_error_code(e.code()),
                code_ok,
                "is_known_error_code({})",
                e.code()
            );
            let expected = if !object {
                Err((SpecErrorKind::PositionalForm, None))
            } else if !code_ok {
                Err((SpecErrorKind::UnknownErrorCode, None))
            } else {
                Ok(())
            };
            if let Err(e) = frame.check_spec() {
                check_offset(&e, frame.spec_offset(&e), bytes);
            }
            agree_spec("ErrorView::check_spec", bytes, frame.check_spec(), expected);
            let strict = strict_answer(
                "ErrorEncoder::strict",
                bytes,
                enc_error(e, &mut buf),
                &buf,
                &canonical,
            );
            let expected = if code_ok {
                Ok(())
            } else {
                Err((SpecErrorKind::UnknownErrorCode, None))
            };
            agree_spec("ErrorEncoder::strict", bytes, strict, expected);
        }
        _ => fail(
            "frame",
            bytes,
            "the reference read another frame (see `differential`)",
        ),
    }
}

fn request(json: &[u8]) {
    let Ok(view) = RequestView::decode(json) else {
        return;
    };
    let params: rmcp::model::ReadResourceRequestParams =
        serde_json::from_slice(json).expect("the reference read it");
    let uri_fine = uri_ok(&params.uri);
    let expected = if skip_ws(json).first() != Some(&b'{') {
        Err((SpecErrorKind::PositionalForm, None))
    } else if !uri_fine {
        Err((SpecErrorKind::NotAbsoluteUri, None))
    } else {
        Ok(())
    };
    if let Err(e) = view.check_spec() {
        check_offset(&e, view.spec_offset(&e), json);
    }
    agree_spec("RequestView::check_spec", json, view.check_spec(), expected);
    str_value(view.uri(), json);
    let mut canonical = vec![0u8; json.len() * 8 + 64];
    let n =
        encode_request_view(&view, &mut canonical[..]).expect("8× the input holds any re-encoding");
    canonical.truncate(n);
    let mut buf = vec![0u8; n];
    let strict = strict_answer(
        "RequestEncoder::strict",
        json,
        enc_request(&view, &mut buf),
        &buf,
        &canonical,
    );
    let expected = if uri_fine {
        Ok(())
    } else {
        Err((SpecErrorKind::NotAbsoluteUri, None))
    };
    agree_spec("RequestEncoder::strict", json, strict, expected);
}

/// `json` from its first byte that is not JSON whitespace: a body the
/// reference read is an object exactly when that byte is `{`.
fn skip_ws(json: &[u8]) -> &[u8] {
    let start = json
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .unwrap_or(json.len());
    &json[start..]
}

/// The `spec` target.
pub fn spec(data: &[u8]) {
    if let Ok(s) = std::str::from_utf8(data) {
        predicates(s, data);
    }
    frame(data);
    request(data);
    for tag in [0u8, 1] {
        let mut tagged = Vec::with_capacity(data.len() + 1);
        tagged.push(tag);
        tagged.extend_from_slice(data);
        frame(&tagged);
    }
}
