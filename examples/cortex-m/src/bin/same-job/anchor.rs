//! The job with serde-json-core: `from_slice` into serde-derive mirrors of the rmcp structs.
//!
//! Strings are `EscapedStr` (borrowed, escapes kept), `contents` a `heapless::Vec<_, 8>`, the
//! free-form members (`_meta`, `data`, `inputResponses`) `IgnoredAny`, so only their presence is
//! known; diverge-frame's side reads the same (presence) of them. rmcp's `ResourceContents` is an
//! untagged enum, which serde cannot derive without a heap: the mirror has `text` and `blob` both
//! optional, and text wins, as in rmcp (its text variant is tried first and ignores `blob`).
//! Escapes are resolved with `EscapedStr::fragments()`, into the text buffer for text, piece by
//! piece for comparisons and the base64 check.

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json_core::from_slice;
use serde_json_core::str::{EscapedStr, EscapedStringFragment};

use crate::job::{self, Scope, TEXT_CAP, Vector, Want, ensure};

pub const NAME: &str = "serde-json-core";

/// rmcp's `ReadResourceResult`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadResourceResult<'a> {
    #[serde(borrow)]
    result_type: Option<EscapedStr<'a>>,
    /// rmcp reads an `i64` and clamps it at 0.
    ttl_ms: Option<i64>,
    cache_scope: Option<CacheScope>,
    #[serde(borrow)]
    contents: heapless::Vec<ResourceContents<'a>, 8>,
    #[serde(rename = "_meta")]
    meta: Option<IgnoredAny>,
}

/// rmcp's `CacheScope`.
#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum CacheScope {
    Public,
    Private,
}

/// rmcp's `ResourceContents`, both variants in one struct (see the module docs).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceContents<'a> {
    #[serde(borrow)]
    uri: EscapedStr<'a>,
    #[serde(borrow)]
    mime_type: Option<EscapedStr<'a>>,
    #[serde(borrow)]
    text: Option<EscapedStr<'a>>,
    #[serde(borrow)]
    blob: Option<EscapedStr<'a>>,
    #[serde(rename = "_meta")]
    meta: Option<IgnoredAny>,
}

/// rmcp's `ErrorData`.
#[derive(Deserialize)]
struct ErrorData<'a> {
    code: i32,
    #[serde(borrow)]
    message: EscapedStr<'a>,
    data: Option<IgnoredAny>,
}

/// rmcp's `ReadResourceRequestParams`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ReadResourceRequestParams<'a> {
    #[serde(rename = "_meta")]
    meta: Option<IgnoredAny>,
    #[serde(borrow)]
    uri: EscapedStr<'a>,
    input_responses: Option<IgnoredAny>,
    #[serde(borrow)]
    request_state: Option<EscapedStr<'a>>,
}

pub fn run(v: &Vector, text: &mut [u8; TEXT_CAP]) -> Result<(), &'static str> {
    if let Want::Request(w) = &v.want {
        let (r, _) =
            from_slice::<ReadResourceRequestParams<'_>>(v.bytes).map_err(|_| "request rejected")?;
        ensure(eq(r.uri, w.uri), "uri")?;
        ensure(r.meta.is_some() == w.meta, "_meta")?;
        ensure(
            r.input_responses.is_some() == w.input_responses,
            "inputResponses",
        )?;
        return ensure(opt_eq(r.request_state, w.request_state), "requestState");
    }
    let (&tag, json) = v.bytes.split_first().ok_or("frame rejected")?;
    match (tag, &v.want) {
        (0, Want::Result(w)) => {
            let (r, _) =
                from_slice::<ReadResourceResult<'_>>(json).map_err(|_| "frame rejected")?;
            ensure(opt_eq(r.result_type, w.result_type), "resultType")?;
            ensure(r.ttl_ms.map(|t| t.max(0) as u64) == w.ttl_ms, "ttlMs")?;
            let scope = r.cache_scope.map(|s| match s {
                CacheScope::Public => Scope::Public,
                CacheScope::Private => Scope::Private,
            });
            ensure(scope == w.cache_scope, "cacheScope")?;
            ensure(r.meta.is_some() == w.meta, "_meta")?;
            ensure(r.contents.len() == w.items.len(), "number of items")?;
            for (c, want) in r.contents.iter().zip(w.items) {
                ensure(eq(c.uri, want.uri), "uri")?;
                ensure(opt_eq(c.mime_type, want.mime_type), "mimeType")?;
                ensure(c.meta.is_some() == want.meta, "item _meta")?;
                match (c.text, c.blob, &want.body) {
                    (Some(t), _, job::Body::Text(expected)) => {
                        let t = unescape(t, text)?;
                        ensure(t == expected.as_bytes(), "text")?;
                    }
                    (None, Some(b), job::Body::Blob(len)) => {
                        let mut check = Base64Check::default();
                        each(b, |piece| {
                            check.feed(piece);
                            Ok(())
                        })?;
                        ensure(check.finish() == Some(*len), "blob (invalid or length)")?;
                    }
                    _ => return Err("body (text or blob)"),
                }
            }
            Ok(())
        }
        (1, Want::Error(w)) => {
            let (e, _) = from_slice::<ErrorData<'_>>(json).map_err(|_| "frame rejected")?;
            ensure(e.code == w.code, "code")?;
            ensure(eq(e.message, w.message), "message")?;
            ensure(e.data.is_some() == w.data, "data")
        }
        (0 | 1, _) => Err("tag"),
        _ => Err("frame rejected"),
    }
}

/// Calls `f` with each unescaped piece of `s`, in order.
fn each(
    s: EscapedStr<'_>,
    mut f: impl FnMut(&[u8]) -> Result<(), &'static str>,
) -> Result<(), &'static str> {
    for fragment in s.fragments() {
        let mut utf8 = [0u8; 4];
        let piece = match fragment.map_err(|_| "escape (serde-json-core cannot unescape it)")? {
            EscapedStringFragment::NotEscaped(run) => run.as_bytes(),
            EscapedStringFragment::Escaped(c) => c.encode_utf8(&mut utf8).as_bytes(),
        };
        f(piece)?;
    }
    Ok(())
}

/// Unescapes `s` into the text buffer.
fn unescape<'b>(s: EscapedStr<'_>, buf: &'b mut [u8; TEXT_CAP]) -> Result<&'b [u8], &'static str> {
    let mut n = 0;
    each(s, |piece| {
        buf.get_mut(n..n + piece.len())
            .ok_or("text (capacity)")?
            .copy_from_slice(piece);
        n += piece.len();
        Ok(())
    })?;
    Ok(buf.get(..n).unwrap_or_default())
}

/// `s` unescaped equals `want` (as diverge-frame's `JsonStr == &str`).
fn eq(s: EscapedStr<'_>, want: &str) -> bool {
    let mut rest = want.as_bytes();
    each(s, |piece| {
        rest = rest.strip_prefix(piece).ok_or("")?;
        Ok(())
    })
    .is_ok()
        && rest.is_empty()
}

fn opt_eq(got: Option<EscapedStr<'_>>, want: Option<&str>) -> bool {
    match (got, want) {
        (Some(got), Some(want)) => eq(got, want),
        (None, None) => true,
        _ => false,
    }
}

/// Checks base64 text fed in pieces as diverge-frame's `decode_base64_into` does: the standard
/// alphabet, padding optional (but only at the end of the last group, so `AA`, `AA=` and `AA==`),
/// no stray bits in the last character; then the decoded length.
#[derive(Default)]
struct Base64Check {
    /// Characters of the alphabet so far.
    data: usize,
    /// `=` so far.
    pad: usize,
    /// Value of the last character of the alphabet.
    last: u8,
    /// A character outside the alphabet, or one after a `=`.
    bad: bool,
}

impl Base64Check {
    fn feed(&mut self, piece: &[u8]) {
        for &b in piece {
            let v = match b {
                b'A'..=b'Z' => b - b'A',
                b'a'..=b'z' => b - b'a' + 26,
                b'0'..=b'9' => b - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' => {
                    self.pad += 1;
                    continue;
                }
                _ => {
                    self.bad = true;
                    continue;
                }
            };
            self.bad |= self.pad > 0;
            self.data += 1;
            self.last = v;
        }
    }

    /// The decoded length, or `None` for text that is not base64.
    fn finish(&self) -> Option<usize> {
        let rest = self.data % 4;
        let ok = !self.bad
            && match rest {
                0 => self.pad == 0,
                1 => false,
                2 => self.pad <= 2 && self.last & 0xf == 0,
                _ => self.pad <= 1 && self.last & 0x3 == 0,
            };
        ok.then_some(self.data / 4 * 3 + rest.saturating_sub(1))
    }
}
