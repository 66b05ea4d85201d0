//! The job with diverge-frame: `Frame::decode` / `RequestView::decode`, then every view.

use diverge_frame::{Base64Error, Body, CacheScope, Frame, JsonStr, RequestView};

use crate::job::{self, Scope, TEXT_CAP, Vector, Want, ensure};

pub const NAME: &str = "diverge-frame  ";

pub fn run(v: &Vector, text: &mut [u8; TEXT_CAP]) -> Result<(), &'static str> {
    if let Want::Request(w) = &v.want {
        let r = RequestView::decode(v.bytes).map_err(|_| "request rejected")?;
        ensure(r.uri() == w.uri, "uri")?;
        ensure(r.meta().is_some() == w.meta, "_meta")?;
        ensure(
            r.input_responses().is_some() == w.input_responses,
            "inputResponses",
        )?;
        return ensure(opt_eq(r.request_state(), w.request_state), "requestState");
    }
    match (
        Frame::decode(v.bytes).map_err(|_| "frame rejected")?,
        &v.want,
    ) {
        (Frame::Result(r), Want::Result(w)) => {
            ensure(opt_eq(r.result_type(), w.result_type), "resultType")?;
            ensure(r.ttl_ms() == w.ttl_ms, "ttlMs")?;
            let scope = match r.cache_scope() {
                None => None,
                Some(CacheScope::Public) => Some(Scope::Public),
                Some(CacheScope::Private) => Some(Scope::Private),
                Some(_) => return Err("cacheScope (unknown)"),
            };
            ensure(scope == w.cache_scope, "cacheScope")?;
            ensure(r.meta().is_some() == w.meta, "_meta")?;
            let mut contents = r.contents();
            ensure(contents.len() == w.items.len(), "number of items")?;
            for want in w.items {
                let c = contents.next().ok_or("items")?;
                ensure(c.uri() == want.uri, "uri")?;
                ensure(opt_eq(c.mime_type(), want.mime_type), "mimeType")?;
                ensure(c.meta().is_some() == want.meta, "item _meta")?;
                match (c.body(), &want.body) {
                    (Body::Text(t), job::Body::Text(expected)) => {
                        let t = t.unescape_into(text).map_err(|_| "text (capacity)")?;
                        ensure(t == *expected, "text")?;
                    }
                    (Body::Blob(b), job::Body::Blob(len)) => {
                        // Checked, not decoded: into no buffer, valid text reports the size it needs.
                        let n = match b.decode_base64_into(&mut []) {
                            Ok(n) => n,
                            Err(Base64Error::BufferTooSmall { needed, .. }) => needed,
                            Err(_) => return Err("blob (invalid)"),
                        };
                        ensure(n == *len, "blob (length)")?;
                    }
                    _ => return Err("body (text or blob)"),
                }
            }
            ensure(contents.next().is_none(), "items (one too many)")
        }
        (Frame::Error(e), Want::Error(w)) => {
            ensure(e.code() == w.code, "code")?;
            ensure(e.message() == w.message, "message")?;
            ensure(e.data().is_some() == w.data, "data")
        }
        _ => Err("tag"),
    }
}

fn opt_eq(got: Option<JsonStr<'_>>, want: Option<&str>) -> bool {
    match (got, want) {
        (Some(got), Some(want)) => got == want,
        (None, None) => true,
        _ => false,
    }
}
