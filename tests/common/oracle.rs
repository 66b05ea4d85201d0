//! The reference decoder (`serde_json` + rmcp 3.11.0) side by side with ours.
//!
//! `check_frame` / `check_request` decode one input both ways and return
//! `Ok(accepted)` when the two agree on accept/reject and, when both accept,
//! on every value read through the views; `Err(description)` otherwise.
#![allow(dead_code, unreachable_pub, clippy::missing_errors_doc)]

use diverge_frame::{
    Body, BodyError, BodyErrorKind, Frame, FrameError, JsonStr, RawJson, RequestView,
};
use rmcp::model::{ReadResourceRequestParams, ReadResourceResult, ResourceContents};
use serde_json::error::Category;

/// The reference's answer for a frame.
pub enum RefFrame {
    Empty,
    UnknownTag(u8),
    Body(String),
    Result(ReadResourceResult),
    Error(rmcp::ErrorData),
}

pub fn reference_frame(bytes: &[u8]) -> RefFrame {
    let Some((&tag, json)) = bytes.split_first() else {
        return RefFrame::Empty;
    };
    match tag {
        0 => match serde_json::from_slice::<ReadResourceResult>(json) {
            Ok(v) => RefFrame::Result(v),
            Err(e) => RefFrame::Body(e.to_string()),
        },
        1 => match serde_json::from_slice::<rmcp::ErrorData>(json) {
            Ok(v) => RefFrame::Error(v),
            Err(e) => RefFrame::Body(e.to_string()),
        },
        t => RefFrame::UnknownTag(t),
    }
}

fn s(j: JsonStr<'_>) -> String {
    let a: String = j.chars().collect();
    // Every way of reading a JsonStr must agree.
    let mut buf = vec![0u8; j.unescaped_len()];
    let b = j
        .unescape_into(&mut buf)
        .expect("unescape_into with exact length");
    assert_eq!(a, b, "chars() and unescape_into disagree");
    assert_eq!(
        j.unescaped_len(),
        a.len(),
        "unescaped_len disagrees with chars()"
    );
    // Buffers at least as long as the raw text take the fast path.
    for extra in [0, 1, 9] {
        let mut roomy = vec![0u8; j.raw().len() + extra];
        assert_eq!(
            j.unescape_into(&mut roomy)
                .expect("unescape_into with room"),
            a,
            "fast unescape disagrees"
        );
    }
    if !a.is_empty() {
        let mut short = vec![0u8; a.len() - 1];
        assert!(
            j.unescape_into(&mut short).is_err(),
            "unescape_into into a too-short buffer must fail"
        );
    }
    assert!(j == a.as_str(), "JsonStr == &str disagrees with unescaping");
    if let Some(borrowed) = j.as_str() {
        assert_eq!(borrowed, a);
    }
    a
}

fn map(raw: Option<RawJson<'_>>) -> Option<serde_json::Map<String, serde_json::Value>> {
    raw.map(|r| serde_json::from_slice(r.as_bytes()).expect("view _meta must be a valid object"))
}

fn value(raw: Option<RawJson<'_>>) -> Option<serde_json::Value> {
    raw.map(|r| serde_json::from_slice(r.as_bytes()).expect("view value must be valid JSON"))
}

macro_rules! same {
    ($what:expr, $ours:expr, $theirs:expr) => {{
        let (o, t) = ($ours, $theirs);
        if o != t {
            return Err(format!("{}: ours {:?} != reference {:?}", $what, o, t));
        }
    }};
}

fn compare_result(v: &diverge_frame::ResultView<'_>, r: &ReadResourceResult) -> Result<(), String> {
    same!(
        "resultType",
        v.result_type().map(s),
        r.result_type.as_ref().map(|t| t.as_str().to_owned())
    );
    same!("ttlMs", v.ttl_ms(), r.ttl_ms);
    same!(
        "cacheScope",
        v.cache_scope().map(|c| c.as_str()),
        r.cache_scope.map(|c| match c {
            rmcp::model::CacheScope::Public => "public",
            rmcp::model::CacheScope::Private => "private",
            _ => "other",
        })
    );
    same!("_meta", map(v.meta()), r.meta.as_ref().map(|m| m.0.clone()));
    same!("contents.len", v.contents().len(), r.contents.len());
    for (i, (c, rc)) in v.contents().zip(&r.contents).enumerate() {
        let (uri, mime, meta, body) = match rc {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                meta,
                ..
            } => (uri, mime_type, meta, ("text", text)),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                meta,
                ..
            } => (uri, mime_type, meta, ("blob", blob)),
            _ => return Err("unknown rmcp content variant".into()),
        };
        same!(format!("contents[{i}].uri"), s(c.uri()), uri.clone());
        same!(
            format!("contents[{i}].mimeType"),
            c.mime_type().map(s),
            mime.clone()
        );
        same!(
            format!("contents[{i}]._meta"),
            map(c.meta()),
            meta.as_ref().map(|m| m.0.clone())
        );
        let ours = match c.body() {
            Body::Text(t) => ("text", s(t)),
            Body::Blob(b) => ("blob", s(b.text())),
        };
        same!(
            format!("contents[{i}].body"),
            ours,
            (body.0, body.1.clone())
        );
    }
    Ok(())
}

fn compare_error(v: &diverge_frame::ErrorView<'_>, r: &rmcp::ErrorData) -> Result<(), String> {
    same!("code", v.code(), r.code.0);
    same!("message", s(v.message()), r.message.to_string());
    same!("data", value(v.data()), r.data.clone());
    Ok(())
}

/// Decodes a frame both ways; `Ok(accepted)` when they agree.
pub fn check_frame(bytes: &[u8]) -> Result<bool, String> {
    let ours = Frame::decode(bytes);
    let theirs = reference_frame(bytes);
    match (ours, theirs) {
        (Err(FrameError::Empty), RefFrame::Empty) => Ok(false),
        (Err(FrameError::UnknownTag(a)), RefFrame::UnknownTag(b)) if a == b => Ok(false),
        (Err(FrameError::Body(e)), RefFrame::Body(_)) => {
            if e.offset() > bytes.len() {
                return Err(format!(
                    "error offset {} beyond input length {}",
                    e.offset(),
                    bytes.len()
                ));
            }
            let json = &bytes[1..];
            let theirs = match bytes[0] {
                0 => serde_json::from_slice::<ReadResourceResult>(json).err(),
                _ => serde_json::from_slice::<rmcp::ErrorData>(json).err(),
            };
            let theirs = theirs.expect("the reference rejected it a moment ago");
            same_category(json, BodyError::new(e.kind(), e.offset() - 1), &theirs)?;
            Ok(false)
        }
        (Ok(Frame::Result(v)), RefFrame::Result(r)) => compare_result(&v, &r).map(|()| true),
        (Ok(Frame::Error(v)), RefFrame::Error(r)) => compare_error(&v, &r).map(|()| true),
        (ours, theirs) => Err(format!(
            "accept/reject differs: ours {:?}, reference {}",
            ours.map(|_| "Ok"),
            match theirs {
                RefFrame::Empty => "Empty".to_owned(),
                RefFrame::UnknownTag(t) => format!("UnknownTag({t})"),
                RefFrame::Body(e) => format!("Body({e})"),
                RefFrame::Result(_) => "Ok(Result)".to_owned(),
                RefFrame::Error(_) => "Ok(Error)".to_owned(),
            }
        )),
    }
}

/// Decodes a request both ways; `Ok(accepted)` when they agree.
pub fn check_request(bytes: &[u8]) -> Result<bool, String> {
    let ours = RequestView::decode(bytes);
    let theirs = serde_json::from_slice::<ReadResourceRequestParams>(bytes);
    match (ours, theirs) {
        (Err(e), Err(theirs)) => {
            if e.offset() > bytes.len() {
                return Err(format!(
                    "error offset {} beyond input length {}",
                    e.offset(),
                    bytes.len()
                ));
            }
            same_category(bytes, e, &theirs)?;
            Ok(false)
        }
        (Ok(v), Ok(r)) => {
            same!("uri", s(v.uri()), r.uri.clone());
            same!(
                "_meta",
                map(v.meta()),
                r.meta.as_ref().map(|m| m.0.0.clone())
            );
            same!(
                "inputResponses",
                v.input_responses().map(|raw| serde_json::from_slice::<
                    std::collections::BTreeMap<String, serde_json::Value>,
                >(raw.as_bytes())
                .expect("valid")),
                r.input_responses.clone()
            );
            same!(
                "requestState",
                v.request_state().map(s),
                r.request_state.clone()
            );
            Ok(true)
        }
        (ours, theirs) => Err(format!(
            "accept/reject differs: ours {:?}, reference {:?}",
            ours.map(|_| "Ok"),
            theirs.map(|_| "Ok")
        )),
    }
}

/// The category serde_json's `Error::classify()` gives an error of `kind`:
/// `Eof` for `Eof`, `Data` for the shape kinds, `Syntax` for the rest.
pub fn category(kind: BodyErrorKind) -> Category {
    use BodyErrorKind as K;
    match kind {
        K::Eof => Category::Eof,
        K::InvalidType
        | K::MissingField
        | K::DuplicateField
        | K::InvalidLength
        | K::IntegerOutOfRange
        | K::UnknownCacheScope
        | K::InvalidContentItem => Category::Data,
        _ => Category::Syntax,
    }
}

/// On input both reject: our error's kind falls in the category of the
/// reference's, and on input of one line our offset (`ours`, counted in the
/// JSON `json`) is not after the point where serde_json noticed the defect
/// (its `column()`). `StreamDepthExceeded` never comes from a whole-buffer
/// decode.
pub fn same_category(
    json: &[u8],
    ours: BodyError,
    theirs: &serde_json::Error,
) -> Result<(), String> {
    let want = theirs.classify();
    if category(ours.kind()) != want {
        return Err(format!(
            "error category differs: ours {ours} ({:?}), reference {theirs} ({want:?})",
            category(ours.kind())
        ));
    }
    if !json.contains(&b'\n') && ours.offset() > theirs.column() {
        return Err(format!(
            "error offset after the reference's: ours {ours} (in the JSON), reference {theirs}"
        ));
    }
    Ok(())
}

/// Shows bytes readably in a failure message.
pub fn show(bytes: &[u8]) -> String {
    let mut out = String::new();
    for &b in bytes.iter().take(600) {
        if (0x20..0x7f).contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("<{b:02X}>"));
        }
    }
    if bytes.len() > 600 {
        out.push_str(&format!("…({} bytes)", bytes.len()));
    }
    out
}
