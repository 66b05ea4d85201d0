//! An embedded gateway for `diverge-frame` on an emulated Cortex-M3 (QEMU `lm3s6965evb`).
//!
//! It takes every golden vector of the library (`tests/vectors/`: response frames and request
//! JSON, valid and invalid), decodes each with [`Frame::decode`] / [`RequestView::decode`], walks
//! every view (URIs compared with expected strings, text unescaped into a `heapless::String`,
//! blobs base64-decoded into a fixed buffer, `_meta` / `data` members looked up), and checks the
//! answers against values written here by hand. Every codec call runs inside [`stack::Gauge`],
//! which repaints the free stack below the call and measures how deep the call went. The
//! firmware exits with success only if every vector holds and no codec call used more than
//! [`STACK_BOUND`] bytes of stack.
//!
//! Then it answers a request itself: it encodes result frames into a fixed buffer with the
//! no-heap encoder (text and blob written in chunks), checks that they equal the golden frames
//! byte for byte, and decodes them back through the same checks.
//!
//! Last comes the streaming step ([`streaming`]): a result frame of 1 117 653 bytes, far more
//! than the 64 KiB of RAM, is generated chunk by chunk into a 2 KiB buffer and fed to
//! [`FrameValidator`](diverge_frame::stream::FrameValidator) (which must accept it) and to
//! [`Reader`](diverge_frame::stream::Reader) (whose pieces are checked against the frame's
//! model: URIs, MIME type, the unescaped text byte for byte with its length and FNV-1a, every
//! decoded blob byte, which body each item keeps). Then a copy with a raw control byte at
//! offset 600 015 must be rejected with exactly the error [`Frame::decode`] gives, by the feed
//! whose chunk holds that byte. Every `feed` runs inside the gauge, under the same bound.
//!
//! `cargo run --release` builds and runs it (see `.cargo/config.toml` and `ci.sh`);
//! `--features baseline` builds the same firmware with every codec call replaced by a trivial
//! one, so that `size` of the two ELF files gives the codec's flash and RAM by difference;
//! `--features decode-only` leaves out the encoders (the answer step) and the streaming step;
//! `--features no-stream` leaves out the streaming step only (its chunks are still generated,
//! and handed to a trivial call), for the streaming path's flash by difference.

#![no_std]
#![no_main]

use core::fmt;
#[cfg(not(feature = "baseline"))]
use core::fmt::Write as _;

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hprintln};
use panic_semihosting as _;

mod streaming;

use diverge_frame::encode::EncodeError;
use diverge_frame::{Base64Error, BodyError, BodyErrorKind, CacheScope, CapacityError, FrameError};
#[cfg(not(feature = "baseline"))]
use diverge_frame::{
    Body, Content, ErrorView, Fragment, Frame, JsonStr, RawJson, RequestView, ResultView,
};

/// Most stack one codec call may use, in bytes (the crate's target).
const STACK_BOUND: usize = 1024;

// The state sizes the top-level README's streaming table gives for thumbv7m,
// pinned where they are measured (`tests/sizes.rs` pins the x86-64 ones). No
// code: a size that moves stops the build, and the table must move with it.
const _: () = {
    use core::mem::size_of;
    use diverge_frame::exchange::StreamPath;
    use diverge_frame::stream::{FrameValidator, Reader, RequestValidator};
    assert!(size_of::<FrameValidator>() == 280);
    assert!(size_of::<RequestValidator>() == 272);
    assert!(size_of::<Reader<0>>() == 312); // Reader<N>: 312 B + N
    assert!(size_of::<StreamPath>() == 304);
};

/// Capacity of the text buffer: the largest vector's text is 9 790 bytes unescaped.
const TEXT_CAP: usize = 12 * 1024;

/// Capacity of the blob buffer: the largest vector's blob is 2 048 bytes.
const BLOB_CAP: usize = 4 * 1024;

/// The caller's buffers: the only RAM the gateway gives the codec, besides its stack.
#[cfg_attr(feature = "baseline", allow(dead_code))]
struct Buffers {
    /// Unescaped text of the current content item.
    text: heapless::String<TEXT_CAP>,
    /// Decoded blob of the current content item.
    blob: [u8; BLOB_CAP],
}

/// Capacity of the buffer the gateway encodes its answers into: the largest answer is 2 808 bytes.
const FRAME_CAP: usize = 4 * 1024;

/// All the RAM the gateway lends the codec: the views' buffers, the encoder's output and the
/// chunk buffer of the streaming step.
struct Ram {
    bufs: Buffers,
    frame: [u8; FRAME_CAP],
    chunk: [u8; streaming::CHUNK],
}

static mut RAM: Ram = Ram {
    bufs: Buffers {
        text: heapless::String::new(),
        blob: [0; BLOB_CAP],
    },
    frame: [0; FRAME_CAP],
    chunk: [0; streaming::CHUNK],
};

/// A golden vector and what the gateway must find in it.
struct Vector {
    name: &'static str,
    bytes: &'static [u8],
    expect: Expect,
}

/// Expected answers, written by hand from the vectors (and the spec they come from).
#[cfg_attr(feature = "baseline", allow(dead_code))]
enum Expect {
    /// A result frame.
    Result(ResultExpect),
    /// An error frame: code, message, whole `data` JSON.
    Error {
        code: i32,
        message: &'static str,
        data: Option<&'static str>,
    },
    /// A response frame the reference rejects, with the exact error.
    Rejected(FrameError),
    /// A request.
    Request(RequestExpect),
    /// A request the reference rejects, with the exact error.
    RequestRejected(BodyError),
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
struct ResultExpect {
    result_type: Option<&'static str>,
    ttl_ms: Option<u64>,
    cache_scope: Option<CacheScope>,
    meta: Option<Member>,
    items: &'static [Item],
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
struct Item {
    uri: &'static str,
    mime_type: Option<&'static str>,
    body: Payload,
    meta: Option<Member>,
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
enum Payload {
    /// Text, unescaped.
    Text(&'static str),
    /// Text made of this many lines `line {i}: the quick brown fox é\n`.
    Lines(usize),
    /// A blob, decoded.
    Blob(&'static [u8]),
    /// A blob of this many bytes, byte `i` being `i % 256`.
    BlobCycle(usize),
}

/// One member of an object (`_meta`, `inputResponses`) and its value.
#[cfg_attr(feature = "baseline", allow(dead_code))]
struct Member {
    key: &'static str,
    value: Value,
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
enum Value {
    /// The value's exact JSON text.
    Json(&'static str),
    /// Only the length of the value's JSON text.
    Len(usize),
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
struct RequestExpect {
    uri: &'static str,
    meta: Option<Member>,
    input_responses: Option<Member>,
    request_state: Option<&'static str>,
}

macro_rules! vector {
    ($file:literal, $expect:expr) => {
        Vector {
            name: $file,
            bytes: include_bytes!(concat!("../../../tests/vectors/", $file)),
            expect: $expect,
        }
    };
}

const fn text(uri: &'static str, mime_type: Option<&'static str>, text: &'static str) -> Item {
    Item {
        uri,
        mime_type,
        body: Payload::Text(text),
        meta: None,
    }
}

const fn result(items: &'static [Item]) -> ResultExpect {
    ResultExpect {
        result_type: None,
        ttl_ms: None,
        cache_scope: None,
        meta: None,
        items,
    }
}

const fn json(key: &'static str, value: &'static str) -> Option<Member> {
    Some(Member {
        key,
        value: Value::Json(value),
    })
}

const fn body_error(kind: BodyErrorKind, offset: usize) -> BodyError {
    BodyError::new(kind, offset)
}

static VECTORS: &[Vector] = &[
    vector!(
        "result_small.bin",
        Expect::Result(ResultExpect {
            result_type: Some("complete"),
            ttl_ms: Some(0),
            cache_scope: Some(CacheScope::Private),
            ..result(&[text(
                "docs://getting-started",
                Some("text/markdown"),
                "# Getting started\n\nWelcome to this server.",
            )])
        })
    ),
    vector!(
        "result_spec_example.bin",
        Expect::Result(result(&[text(
            "file:///project/src/main.rs",
            Some("text/x-rust"),
            "fn main() {\n    println!(\"Hello world!\");\n}",
        )]))
    ),
    vector!(
        "result_text_and_blob_items.bin",
        Expect::Result(ResultExpect {
            meta: json("example.com/report-version", "1"),
            ..result(&[
                text("reports://latest", Some("text/plain"), "Report complete."),
                Item {
                    uri: "reports://latest/data",
                    mime_type: Some("application/octet-stream"),
                    body: Payload::Blob(b"a"),
                    meta: None,
                },
            ])
        })
    ),
    vector!(
        "result_escapes.bin",
        Expect::Result(ResultExpect {
            result_type: Some("complete"),
            ..result(&[Item {
                meta: json("k", "\"v\""),
                ..text(
                    "docs://café",
                    Some("text/plain; charset=utf-8"),
                    "\u{1}\u{8}\u{7f}é😀/\"\\\u{2028} tab\there 😀 / café",
                )
            }])
        })
    ),
    vector!(
        "result_blob.bin",
        Expect::Result(result(&[Item {
            uri: "images://logo.png",
            mime_type: Some("image/png"),
            body: Payload::BlobCycle(2048),
            meta: None,
        }]))
    ),
    vector!(
        "result_text_wins_over_blob.bin",
        Expect::Result(result(&[text("docs://both", None, "kept")]))
    ),
    vector!(
        "result_positional.bin",
        Expect::Result(result(&[text("u", None, "t")]))
    ),
    vector!("result_legacy_empty.bin", Expect::Result(result(&[]))),
    vector!(
        "result_cache_scope_forms.bin",
        Expect::Result(ResultExpect {
            ttl_ms: Some(0),
            cache_scope: Some(CacheScope::Public),
            ..result(&[])
        })
    ),
    vector!(
        "result_large.bin",
        Expect::Result(ResultExpect {
            result_type: Some("complete"),
            ..result(&[Item {
                uri: "docs://large",
                mime_type: Some("text/plain"),
                body: Payload::Lines(300),
                meta: None,
            }])
        })
    ),
    vector!(
        "result_deepest_meta.bin",
        Expect::Result(result(&[Item {
            meta: Some(Member {
                key: "x",
                value: Value::Len(246)
            }),
            ..text("docs://deep", None, "deep")
        }]))
    ),
    vector!(
        "result_deep_unknown_member.bin",
        Expect::Result(result(&[text("docs://x", None, "ok")]))
    ),
    vector!(
        "error_not_found.bin",
        Expect::Error {
            code: -32602,
            message: "Resource not found",
            data: Some(r#"{"uri":"docs://missing"}"#)
        }
    ),
    vector!(
        "error_not_found_legacy.bin",
        Expect::Error {
            code: -32002,
            message: "Resource not found",
            data: Some(r#"{"uri":"file:///nonexistent.txt"}"#),
        }
    ),
    vector!(
        "error_internal.bin",
        Expect::Error {
            code: -32603,
            message: "Internal error",
            data: None
        }
    ),
    vector!(
        "error_positional.bin",
        Expect::Error {
            code: -32601,
            message: "Method not found",
            data: None
        }
    ),
    vector!("invalid_empty.bin", Expect::Rejected(FrameError::Empty)),
    vector!(
        "invalid_unknown_tag.bin",
        Expect::Rejected(FrameError::UnknownTag(2))
    ),
    vector!(
        "invalid_trailing.bin",
        Expect::Rejected(FrameError::Body(body_error(
            BodyErrorKind::TrailingCharacters,
            17
        )))
    ),
    vector!(
        "invalid_no_variant.bin",
        Expect::Rejected(FrameError::Body(body_error(
            BodyErrorKind::InvalidContentItem,
            24
        )))
    ),
    vector!(
        "invalid_duplicate_contents.bin",
        Expect::Rejected(FrameError::Body(body_error(
            BodyErrorKind::DuplicateField,
            16
        )))
    ),
    vector!(
        "invalid_code_float.bin",
        Expect::Rejected(FrameError::Body(body_error(BodyErrorKind::InvalidType, 9)))
    ),
    vector!(
        "invalid_lone_surrogate.bin",
        Expect::Rejected(FrameError::Body(body_error(
            BodyErrorKind::LoneSurrogate,
            33
        )))
    ),
    vector!(
        "request_simple.json",
        Expect::Request(RequestExpect {
            uri: "docs://getting-started",
            meta: None,
            input_responses: None,
            request_state: None,
        })
    ),
    vector!(
        "request_meta.json",
        Expect::Request(RequestExpect {
            uri: "file:///project/src/main.rs",
            meta: json("progressToken", "7"),
            input_responses: None,
            request_state: None,
        })
    ),
    vector!(
        "request_mrtr.json",
        Expect::Request(RequestExpect {
            uri: "ui://widget",
            meta: None,
            input_responses: json("confirm", r#"{"action":"accept"}"#),
            request_state: Some("opaque-state-1"),
        })
    ),
    vector!(
        "request_positional.json",
        Expect::Request(RequestExpect {
            uri: "docs://x",
            meta: None,
            input_responses: None,
            request_state: None
        })
    ),
    vector!(
        "invalid_request_bom.json",
        Expect::RequestRejected(body_error(BodyErrorKind::ExpectedValue, 0))
    ),
    vector!(
        "invalid_request_missing_uri.json",
        Expect::RequestRejected(body_error(BodyErrorKind::MissingField, 11))
    ),
];

/// Why a vector failed.
#[cfg_attr(any(feature = "baseline", feature = "decode-only"), allow(dead_code))]
enum Failure {
    /// A frame the reference accepts was rejected.
    Frame(FrameError),
    /// A request the reference accepts was rejected.
    Request(BodyError),
    /// A frame was rejected, but not with the expected error.
    WrongFrameError { got: FrameError, want: FrameError },
    /// A request was rejected, but not with the expected error.
    WrongRequestError { got: BodyError, want: BodyError },
    /// Input the reference rejects was accepted.
    Accepted,
    /// A text did not fit the text buffer.
    Capacity(CapacityError),
    /// A blob did not decode.
    Base64(Base64Error),
    /// An answer did not encode.
    Encode(EncodeError),
    /// A value differs from the expected one.
    Mismatch(&'static str),
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Frame(e) => write!(f, "frame rejected: {e}"),
            Self::Request(e) => write!(f, "request rejected: {e}"),
            Self::WrongFrameError { got, want } => {
                write!(f, "rejected with `{got}`, expected `{want}`")
            }
            Self::WrongRequestError { got, want } => {
                write!(f, "rejected with `{got}`, expected `{want}`")
            }
            Self::Accepted => f.write_str("accepted input that the reference rejects"),
            Self::Capacity(e) => write!(f, "text: {e}"),
            Self::Base64(e) => write!(f, "blob: {e}"),
            Self::Encode(e) => write!(f, "encoding the answer: {e}"),
            Self::Mismatch(what) => write!(f, "wrong {what}"),
        }
    }
}

#[cfg_attr(feature = "baseline", allow(dead_code))]
fn ensure(ok: bool, what: &'static str) -> Result<(), Failure> {
    if ok {
        Ok(())
    } else {
        Err(Failure::Mismatch(what))
    }
}

/// The gateway's work on one vector: decode, walk, compare.
#[cfg(not(feature = "baseline"))]
fn handle(v: &Vector, g: &mut stack::Gauge, bufs: &mut Buffers) -> Result<(), Failure> {
    if let Expect::Request(_) | Expect::RequestRejected(_) = v.expect {
        return match (
            g.measure("RequestView::decode", || RequestView::decode(v.bytes)),
            &v.expect,
        ) {
            (Ok(r), Expect::Request(want)) => check_request(g, r, want),
            (Err(e), Expect::Request(_)) => Err(Failure::Request(e)),
            (Err(got), Expect::RequestRejected(want)) if same_body(&got, want) => Ok(()),
            (Err(got), Expect::RequestRejected(want)) => {
                Err(Failure::WrongRequestError { got, want: *want })
            }
            _ => Err(Failure::Accepted),
        };
    }
    match (
        g.measure("Frame::decode", || Frame::decode(v.bytes)),
        &v.expect,
    ) {
        (Ok(Frame::Result(r)), Expect::Result(want)) => check_result(g, r, want, bufs),
        (
            Ok(Frame::Error(e)),
            Expect::Error {
                code,
                message,
                data,
            },
        ) => check_error(g, e, *code, message, *data),
        (Ok(Frame::Error(_)), Expect::Result(_)) => {
            Err(Failure::Mismatch("tag (error frame, expected result)"))
        }
        (Ok(Frame::Result(_)), Expect::Error { .. }) => {
            Err(Failure::Mismatch("tag (result frame, expected error)"))
        }
        (Err(got), Expect::Rejected(want)) if same_frame(&got, want) => Ok(()),
        (Err(got), Expect::Rejected(want)) => Err(Failure::WrongFrameError { got, want: *want }),
        (Err(e), _) => Err(Failure::Frame(e)),
        (Ok(_), _) => Err(Failure::Accepted),
    }
}

/// The expected error's kind and offset (the table's errors name no field;
/// the decoder's may, which only its `Display` shows).
#[cfg(not(feature = "baseline"))]
fn same_body(got: &BodyError, want: &BodyError) -> bool {
    (got.kind(), got.offset()) == (want.kind(), want.offset())
}

/// [`same_body`] for a frame's body error, `==` for the others.
#[cfg(not(feature = "baseline"))]
fn same_frame(got: &FrameError, want: &FrameError) -> bool {
    match (got, want) {
        (FrameError::Body(got), FrameError::Body(want)) => same_body(got, want),
        _ => got == want,
    }
}

/// Baseline: the same loop, buffers and reporting, with a trivial call where the codec was.
#[cfg(feature = "baseline")]
fn handle(v: &Vector, g: &mut stack::Gauge, bufs: &mut Buffers) -> Result<(), Failure> {
    let n = g.measure("baseline", || core::hint::black_box(v.bytes).len());
    core::hint::black_box((&v.expect, &mut *bufs, n));
    Ok(())
}

#[cfg(not(feature = "baseline"))]
fn check_result(
    g: &mut stack::Gauge,
    r: ResultView<'_>,
    want: &ResultExpect,
    bufs: &mut Buffers,
) -> Result<(), Failure> {
    let result_type = r.result_type();
    ensure(
        g.measure("JsonStr == &str", || opt_eq(result_type, want.result_type)),
        "resultType",
    )?;
    ensure(r.ttl_ms() == want.ttl_ms, "ttlMs")?;
    ensure(r.cache_scope() == want.cache_scope, "cacheScope")?;
    check_member(g, r.meta(), want.meta.as_ref(), "result _meta")?;
    let mut items = r.contents();
    ensure(items.len() == want.items.len(), "number of content items")?;
    for expected in want.items {
        let item = g
            .measure("Contents::next", || items.next())
            .ok_or(Failure::Mismatch("content items"))?;
        check_item(g, &item, expected, bufs)?;
    }
    ensure(
        g.measure("Contents::next", || items.next()).is_none(),
        "content items (one too many)",
    )
}

#[cfg(not(feature = "baseline"))]
fn check_item(
    g: &mut stack::Gauge,
    c: &Content<'_>,
    want: &Item,
    bufs: &mut Buffers,
) -> Result<(), Failure> {
    let (uri, mime_type) = (c.uri(), c.mime_type());
    ensure(g.measure("JsonStr == &str", || uri == want.uri), "uri")?;
    ensure(
        g.measure("JsonStr == &str", || opt_eq(mime_type, want.mime_type)),
        "mimeType",
    )?;
    check_member(g, c.meta(), want.meta.as_ref(), "item _meta")?;
    match (c.body(), &want.body) {
        (Body::Text(t), Payload::Text(expected)) => {
            ensure(
                g.measure("JsonStr == &str", || t == *expected),
                "text (compared escaped)",
            )?;
            g.measure("unescape into heapless::String", || {
                unescape(t, &mut bufs.text)
            })
            .map_err(Failure::Capacity)?;
            ensure(bufs.text == *expected, "text (unescaped)")?;
            let short = g
                .measure("JsonStr::to_heapless::<64>", || t.to_heapless::<64>())
                .map_err(Failure::Capacity)?;
            ensure(short == *expected, "text (to_heapless)")
        }
        (Body::Text(t), Payload::Lines(count)) => {
            g.measure("unescape into heapless::String", || {
                unescape(t, &mut bufs.text)
            })
            .map_err(Failure::Capacity)?;
            check_lines(&bufs.text, *count)
        }
        (Body::Blob(b), Payload::Blob(expected)) => {
            let n = g
                .measure("decode_base64_into", || {
                    b.decode_base64_into(&mut bufs.blob)
                })
                .map_err(Failure::Base64)?;
            ensure(bufs.blob.get(..n) == Some(*expected), "blob bytes")
        }
        (Body::Blob(b), Payload::BlobCycle(len)) => {
            let n = g
                .measure("decode_base64_into", || {
                    b.decode_base64_into(&mut bufs.blob)
                })
                .map_err(Failure::Base64)?;
            ensure(n == *len, "blob length")?;
            ensure(
                bufs.blob
                    .iter()
                    .take(n)
                    .enumerate()
                    .all(|(i, &b)| b == i as u8),
                "blob bytes",
            )
        }
        (Body::Text(_), _) => Err(Failure::Mismatch("body (text, expected blob)")),
        (Body::Blob(_), _) => Err(Failure::Mismatch("body (blob, expected text)")),
    }
}

#[cfg(not(feature = "baseline"))]
fn check_error(
    g: &mut stack::Gauge,
    e: ErrorView<'_>,
    code: i32,
    message: &str,
    data: Option<&str>,
) -> Result<(), Failure> {
    ensure(e.code() == code, "code")?;
    let m = e.message();
    ensure(g.measure("JsonStr == &str", || m == message), "message")?;
    ensure(
        e.data().map(|d| d.as_bytes()) == data.map(str::as_bytes),
        "data",
    )
}

#[cfg(not(feature = "baseline"))]
fn check_request(
    g: &mut stack::Gauge,
    r: RequestView<'_>,
    want: &RequestExpect,
) -> Result<(), Failure> {
    let (uri, state) = (r.uri(), r.request_state());
    ensure(g.measure("JsonStr == &str", || uri == want.uri), "uri")?;
    ensure(
        g.measure("JsonStr == &str", || opt_eq(state, want.request_state)),
        "requestState",
    )?;
    check_member(g, r.meta(), want.meta.as_ref(), "request _meta")?;
    check_member(
        g,
        r.input_responses(),
        want.input_responses.as_ref(),
        "inputResponses",
    )
}

/// An object is present exactly when a member is expected, and that member has the expected value.
#[cfg(not(feature = "baseline"))]
fn check_member(
    g: &mut stack::Gauge,
    object: Option<RawJson<'_>>,
    want: Option<&Member>,
    what: &'static str,
) -> Result<(), Failure> {
    match (object, want) {
        (None, None) => Ok(()),
        (Some(object), Some(want)) => {
            let value = g
                .measure("RawJson::get", || object.get(want.key))
                .ok_or(Failure::Mismatch(what))?;
            let text = value.as_bytes();
            match want.value {
                Value::Json(json) => ensure(text == json.as_bytes(), what),
                Value::Len(len) => ensure(text.len() == len, what),
            }
        }
        _ => Err(Failure::Mismatch(what)),
    }
}

#[cfg(not(feature = "baseline"))]
fn opt_eq(got: Option<JsonStr<'_>>, want: Option<&str>) -> bool {
    match (got, want) {
        (Some(got), Some(want)) => got == want,
        (None, None) => true,
        _ => false,
    }
}

/// Unescapes `t` into the caller's `heapless::String`, one borrowed run or escaped char at a time.
#[cfg(not(feature = "baseline"))]
fn unescape(t: JsonStr<'_>, out: &mut heapless::String<TEXT_CAP>) -> Result<(), CapacityError> {
    out.clear();
    for fragment in t.fragments() {
        let pushed = match fragment {
            Fragment::Str(s) => out.push_str(s),
            Fragment::Char(c) => out.push(c),
        };
        pushed.map_err(|_| CapacityError::new(t.unescaped_len(), TEXT_CAP))?;
    }
    Ok(())
}

/// `count` lines `line {i}: the quick brown fox é`, each ending in `\n`.
#[cfg(not(feature = "baseline"))]
fn check_lines(text: &str, count: usize) -> Result<(), Failure> {
    ensure(text.ends_with('\n'), "text (last line unterminated)")?;
    let mut expected = heapless::String::<64>::new();
    let mut n = 0;
    for (i, line) in text.split_terminator('\n').enumerate() {
        expected.clear();
        write!(expected, "line {i}: the quick brown fox é")
            .map_err(|_| Failure::Mismatch("expected line"))?;
        ensure(line == expected.as_str(), "text line")?;
        n += 1;
    }
    ensure(n == count, "number of text lines")
}

/// The gateway answers requests itself: it encodes result frames into its fixed buffer (text
/// and blob written in chunks), compares them with the golden frames the reference writes for
/// the same values, and decodes them back through the same checks as the vectors.
#[cfg(not(any(feature = "baseline", feature = "decode-only")))]
fn answer(g: &mut stack::Gauge, bufs: &mut Buffers, frame: &mut [u8]) -> Result<usize, Failure> {
    use diverge_frame::encode::ResultEncoder;

    let request = golden("request_simple.json");
    let request = g
        .measure("RequestView::decode", || RequestView::decode(request.bytes))
        .map_err(Failure::Request)?;
    let uri = request.uri();
    let n = g
        .measure("ResultEncoder: text in chunks", || {
            let mut text = ResultEncoder::new(&mut *frame)?
                .result_type("complete")?
                .ttl_ms(0)?
                .cache_scope(CacheScope::Private)?
                .contents()?
                .item(uri)?
                .mime_type("text/markdown")?
                .text_writer()?;
            text.write("# Getting started\n\n")?;
            text.write("Welcome to this server.")?;
            text.end()?.end()?.finish()
        })
        .map_err(Failure::Encode)?;
    let text = frame.get(..n).unwrap_or_default();
    let mut encoded = check_answer(g, bufs, text, "result_small.bin")?;

    let n = g
        .measure("ResultEncoder: blob in chunks", || {
            let mut blob = ResultEncoder::new(&mut *frame)?
                .contents()?
                .item("images://logo.png")?
                .mime_type("image/png")?
                .blob_writer()?;
            for _ in 0..8 {
                blob.write(&BYTES)?;
            }
            blob.end()?.end()?.finish()
        })
        .map_err(Failure::Encode)?;
    let blob = frame.get(..n).unwrap_or_default();
    encoded += check_answer(g, bufs, blob, "result_blob.bin")?;
    Ok(encoded)
}

/// An encoded answer equals the golden frame `name` byte for byte, and decodes back to its values.
#[cfg(not(any(feature = "baseline", feature = "decode-only")))]
fn check_answer(
    g: &mut stack::Gauge,
    bufs: &mut Buffers,
    encoded: &[u8],
    name: &'static str,
) -> Result<usize, Failure> {
    let golden = golden(name);
    ensure(
        encoded == golden.bytes,
        "encoded answer (bytes differ from the golden frame)",
    )?;
    let Expect::Result(want) = &golden.expect else {
        return Err(Failure::Mismatch("golden answer (not a result)"));
    };
    match g.measure("Frame::decode", || Frame::decode(encoded)) {
        Ok(Frame::Result(r)) => check_result(g, r, want, bufs)?,
        Ok(Frame::Error(_)) => return Err(Failure::Mismatch("decoded answer (error frame)")),
        Err(e) => return Err(Failure::Frame(e)),
    }
    Ok(encoded.len())
}

/// Without the encoders: the same buffers, nothing encoded.
#[cfg(any(feature = "baseline", feature = "decode-only"))]
fn answer(g: &mut stack::Gauge, bufs: &mut Buffers, frame: &mut [u8]) -> Result<usize, Failure> {
    let n = g.measure("baseline", || core::hint::black_box(&mut *frame).len());
    core::hint::black_box((&mut *bufs, n));
    Ok(0)
}

/// The blob answer's bytes, eight times over: 0, 1, …, 255 (in flash, not on the stack).
#[cfg(not(any(feature = "baseline", feature = "decode-only")))]
static BYTES: [u8; 256] = {
    let mut bytes = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        bytes[i] = i as u8;
        i += 1;
    }
    bytes
};

#[cfg(not(any(feature = "baseline", feature = "decode-only")))]
fn golden(name: &str) -> &'static Vector {
    match VECTORS.iter().find(|v| v.name == name) {
        Some(v) => v,
        None => panic!("no golden vector {name}"),
    }
}

mod stack {
    //! Stack depth of one call, by painting (cortex-m-rt's `paint-stack` pattern).
    //!
    //! [`Gauge::measure`] reads the stack pointer, repaints the free stack below it, runs the
    //! call, then finds the deepest word the call overwrote. The call runs behind a `dyn` call
    //! from an `#[inline(never)]` function, so nothing it does can hide in the caller's frame.

    use core::arch::asm;
    use core::ptr::{addr_of, read_volatile, write_volatile};

    /// cortex-m-rt's `paint-stack` fill word.
    const PAINT: u32 = 0xCCCC_CCCC;

    /// How far below the measuring point the stack is repainted and scanned.
    const WINDOW: usize = 8 * 1024;

    unsafe extern "C" {
        /// Lowest address of the stack (cortex-m-rt's `link.x`).
        static _stack_end: u32;
    }

    /// The deepest codec call so far, overall and for the current vector.
    pub struct Gauge {
        /// Most bytes of stack any call used.
        pub max: usize,
        /// The call and the vector that used [`max`](Self::max).
        pub worst: (&'static str, &'static str),
        /// Most bytes of stack a call used for the current vector.
        pub vector_max: usize,
        /// The call that used [`vector_max`](Self::vector_max).
        pub vector_worst: &'static str,
        /// Most bytes of stack a call of each kind used, and which call: decoding, views,
        /// encoding (calls whose name starts with `ResultEncoder`), streaming (calls whose
        /// name starts with `FrameValidator` or `Reader`).
        pub by_kind: [(usize, &'static str); 4],
        /// Bytes of stack the last call used.
        pub last: usize,
        vector: &'static str,
    }

    impl Gauge {
        pub const fn new() -> Self {
            Self {
                max: 0,
                worst: ("", ""),
                vector_max: 0,
                vector_worst: "",
                by_kind: [(0, ""); 4],
                last: 0,
                vector: "",
            }
        }

        /// Starts measuring calls for another vector.
        pub fn start(&mut self, vector: &'static str) {
            self.vector = vector;
            self.vector_max = 0;
            self.vector_worst = "";
        }

        /// Runs `f` and records how many bytes of stack it used.
        #[inline]
        pub fn measure<R>(&mut self, call: &'static str, f: impl FnOnce() -> R) -> R {
            let mut f = Some(f);
            let mut result = None;
            self.measure_dyn(call, &mut || result = f.take().map(|f| f()));
            match result {
                Some(result) => result,
                None => unreachable!("measure_dyn runs the call once"),
            }
        }

        /// One copy of the measuring code for every call; the call itself sits behind a
        /// `dyn` call, so its frames are below the measuring point.
        #[inline(never)]
        fn measure_dyn(&mut self, call: &'static str, f: &mut dyn FnMut()) {
            let top = sp();
            let floor = top
                .saturating_sub(WINDOW)
                .max(addr_of!(_stack_end) as usize);
            let mut p = floor;
            while p < top {
                // SAFETY: below the stack pointer, inside the stack region: free memory.
                unsafe { write_volatile(p as *mut u32, PAINT) };
                p += 4;
            }
            f();
            let mut p = floor;
            // SAFETY: reads of the stack region, below the stack pointer.
            while p < top && unsafe { read_volatile(p as *const u32) } == PAINT {
                p += 4;
            }
            let used = top - p;
            self.last = used;
            let kind = if call.starts_with("FrameValidator") || call.starts_with("Reader") {
                3
            } else if call.ends_with("::decode") {
                0
            } else if call.starts_with("ResultEncoder") {
                2
            } else {
                1
            };
            if let Some(deepest) = self.by_kind.get_mut(kind)
                && used > deepest.0
            {
                *deepest = (used, call);
            }
            if used > self.vector_max {
                self.vector_max = used;
                self.vector_worst = call;
            }
            if used > self.max {
                self.max = used;
                self.worst = (call, self.vector);
            }
        }
    }

    fn sp() -> usize {
        let sp: usize;
        // SAFETY: reads the stack pointer register, nothing else.
        unsafe { asm!("mov {}, sp", out(reg) sp, options(nomem, nostack, preserves_flags)) };
        sp
    }
}

#[entry]
fn main() -> ! {
    let ram = &raw mut RAM;
    // SAFETY: the only reference to RAM, taken once; single core, no interrupts.
    let Ram { bufs, frame, chunk } = unsafe { &mut *ram };
    let mut g = stack::Gauge::new();
    let (mut handled, mut bytes, mut failures) = (0usize, 0usize, 0usize);
    hprintln!(
        "diverge-frame gateway on {}",
        if cfg!(feature = "baseline") {
            "baseline (no codec)"
        } else {
            "Cortex-M3"
        }
    );
    // The gauge must see a call that puts 512 bytes on the stack.
    let mut calibration = stack::Gauge::new();
    calibration.measure("calibration", || {
        core::hint::black_box(&core::hint::black_box([0u32; 128])).len()
    });
    let calibrated = (512..512 + 64).contains(&calibration.max);
    hprintln!(
        "stack gauge: a 512-byte local measures {} B",
        calibration.max
    );
    if !calibrated {
        failures += 1;
        hprintln!("FAIL stack gauge calibration");
    }
    for v in VECTORS {
        g.start(v.name);
        let outcome = handle(v, &mut g, bufs);
        handled += 1;
        bytes += v.bytes.len();
        match outcome {
            Ok(()) => hprintln!(
                "ok   {:<34} {:>6} B  stack {:>4} B  {}",
                v.name,
                v.bytes.len(),
                g.vector_max,
                g.vector_worst
            ),
            Err(e) => {
                failures += 1;
                hprintln!(
                    "FAIL {:<34} {:>6} B  stack {:>4} B  {}: {}",
                    v.name,
                    v.bytes.len(),
                    g.vector_max,
                    g.vector_worst,
                    e
                );
            }
        }
    }
    g.start("answers");
    match answer(&mut g, bufs, frame) {
        Ok(0) => hprintln!("--   answers: not in this build (no encoders)"),
        Ok(n) => hprintln!(
            "ok   answers: 2 result frames encoded ({} B), equal to the golden frames, decoded back  stack {:>4} B  {}",
            n,
            g.vector_max,
            g.vector_worst
        ),
        Err(e) => {
            failures += 1;
            hprintln!("FAIL answers: {}", e);
        }
    }
    g.start("stream");
    match streaming::run(&mut g, chunk) {
        Ok(None) => hprintln!("--   stream: not in this build (no streaming step)"),
        Ok(Some(report)) => hprintln!("ok   {}", report),
        Err(e) => {
            failures += 1;
            hprintln!(
                "FAIL stream: {}  stack {:>4} B  {}",
                e,
                g.vector_max,
                g.vector_worst
            );
        }
    }
    hprintln!(
        "handled {} vectors ({} response frames, {} requests), {} bytes",
        handled,
        frames(),
        handled - frames(),
        bytes
    );
    hprintln!(
        "codec stack high-water: {} B ({} on {}); bound {} B",
        g.max,
        g.worst.0,
        g.worst.1,
        STACK_BOUND
    );
    for (kind, (used, call)) in ["decode", "views", "encoders", "stream"]
        .iter()
        .zip(g.by_kind)
    {
        hprintln!("  deepest {} call: {} B ({})", kind, used, call);
    }
    if g.max > STACK_BOUND {
        failures += 1;
        hprintln!(
            "FAIL stack: {} B used by {} on {}, bound {} B",
            g.max,
            g.worst.0,
            g.worst.1,
            STACK_BOUND
        );
    }
    if failures == 0 {
        hprintln!("PASS");
        debug::exit(debug::EXIT_SUCCESS);
    } else {
        hprintln!("FAILED: {} check(s)", failures);
        debug::exit(debug::EXIT_FAILURE);
    }
    loop {
        cortex_m::asm::wfi();
    }
}

fn frames() -> usize {
    VECTORS.iter().filter(|v| v.name.ends_with(".bin")).count()
}
