//! Our decoder, three depths: split only, decode (validate), and decode plus
//! a full walk of the views, which reads every value the reference would
//! materialize: every string unescaped into a buffer, every blob decoded from
//! base64, every `_meta`/`data` object's keys unescaped (nested objects
//! recursively, other values touched as raw JSON).

use std::hint::black_box;

use diverge_frame::{Body, Frame, RawJson, RequestView};

/// `Frame::split` alone: tag and JSON slice, O(1).
#[inline]
pub fn split(bytes: &[u8]) -> usize {
    let raw = Frame::split(bytes).unwrap();
    raw.json().len() + raw.tag().byte() as usize
}

/// `Frame::decode`: split and validate.
#[inline]
pub fn decode(bytes: &[u8]) -> bool {
    matches!(Frame::decode(bytes), Ok(Frame::Result(_) | Frame::Error(_)))
}

fn raw(value: RawJson<'_>, buf: &mut [u8]) -> usize {
    if !value.is_object() {
        return black_box(value.as_bytes()).len();
    }
    let mut n = 0;
    for (key, v) in value.members() {
        n += key.unescape_into(buf).unwrap().len();
        n += raw(v, buf);
    }
    n
}

/// Decode, then read everything through the views. `buf` must hold the
/// longest unescaped string or decoded blob. Returns bytes produced.
#[inline]
pub fn decode_walk(bytes: &[u8], buf: &mut [u8]) -> usize {
    let mut n = 0;
    match Frame::decode(bytes).unwrap() {
        Frame::Result(r) => {
            if let Some(t) = r.result_type() {
                n += t.unescape_into(buf).unwrap().len();
            }
            n += r.ttl_ms().unwrap_or(0) as usize & 1;
            n += r.cache_scope().map_or(0, |s| s.as_str().len());
            if let Some(m) = r.meta() {
                n += raw(m, buf);
            }
            for item in r.contents() {
                n += item.uri().unescape_into(buf).unwrap().len();
                if let Some(m) = item.mime_type() {
                    n += m.unescape_into(buf).unwrap().len();
                }
                n += match item.body() {
                    Body::Text(t) => t.unescape_into(buf).unwrap().len(),
                    Body::Blob(b) => b.decode_base64_into(buf).unwrap(),
                };
                if let Some(m) = item.meta() {
                    n += raw(m, buf);
                }
            }
        }
        Frame::Error(e) => {
            n += e.code() as usize & 1;
            n += e.message().unescape_into(buf).unwrap().len();
            if let Some(d) = e.data() {
                n += raw(d, buf);
            }
        }
    }
    n
}

/// Bytes to the rmcp types through this crate (`diverge_frame::rmcp`,
/// feature `alloc`): validation, then owned values built from the views.
/// The same result as the reference.
#[inline]
pub fn to_rmcp(bytes: &[u8]) -> usize {
    match diverge_frame::rmcp::decode_frame(bytes).unwrap() {
        diverge_frame::rmcp::OwnedFrame::Result(r) => r.contents.len(),
        diverge_frame::rmcp::OwnedFrame::Error(e) => e.message.len(),
    }
}

/// A request to `ReadResourceRequestParams` through this crate.
#[inline]
pub fn to_rmcp_request(bytes: &[u8]) -> usize {
    diverge_frame::rmcp::decode_request(bytes)
        .unwrap()
        .uri
        .len()
}

/// `RequestView::decode`.
#[inline]
pub fn request_decode(bytes: &[u8]) -> bool {
    RequestView::decode(bytes).is_ok()
}

/// `RequestView::decode` plus the walk.
#[inline]
pub fn request_walk(bytes: &[u8], buf: &mut [u8]) -> usize {
    let r = RequestView::decode(bytes).unwrap();
    let mut n = r.uri().unescape_into(buf).unwrap().len();
    if let Some(m) = r.meta() {
        n += raw(m, buf);
    }
    n
}
