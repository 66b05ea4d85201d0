//! Encoding: requests and response frames, written without a heap into a
//! fixed buffer, a `heapless::Vec`, or any `embedded_io::Write`.
//!
//! The output is byte for byte what `serde_json::to_vec` writes for the
//! equal rmcp value (`ReadResourceRequestParams`, `ReadResourceResult`,
//! `ErrorData`; a response behind its tag byte): the reference's field
//! order, `None`s skipped, serde_json's string escapes (`\"`, `\\`, the
//! short forms `\b \f \n \r \t`, `\u00XX` in lower-case hex for the other
//! C0 controls; `/`, DEL, U+2028 and all non-ASCII raw), its integer and
//! float text. Both sides of a relay are therefore interchangeable.
//!
//! # Two ways to encode
//!
//! * **Streaming builders**, for a server that answers without holding the
//!   frame: [`RequestEncoder`], [`ResultEncoder`] (→ [`ContentsEncoder`] →
//!   [`ItemEncoder`], with [`TextWriter`] for text in chunks, escaped on the
//!   way, and [`BlobWriter`] for raw bytes, base64-encoded on the way) and
//!   [`ErrorEncoder`]. Typestates (see [`stage`]) keep the reference's field
//!   order (request `_meta, uri, inputResponses, requestState`; result
//!   `resultType, ttlMs, cacheScope, contents, _meta`; item
//!   `uri, mimeType, text|blob, _meta`; error `code, message, data`), allow
//!   each field once, exactly one of `text`/`blob` per item, and no
//!   `finish` before the required fields.
//! * **Whole values**: [`encode_request_view`] and [`encode_frame_view`]
//!   re-emit a decoded view canonically, equal to `serde_json::to_vec` of
//!   the rmcp value the reference decodes from the same bytes (strings
//!   re-escaped from their characters, `_meta`/`data` re-emitted as
//!   described at [`JsonValue`]). [`request_view_encoded_len`] and
//!   [`frame_view_encoded_len`] give their exact length first.
//!
//! Embedded values (`_meta`, `inputResponses`, `data`) are a decoded
//! [`RawJson`](crate::RawJson) (canonical), a [`Verbatim`] copy, or any
//! `serde::Serialize` value; see [`JsonValue`] for what is byte-identical.
//!
//! # Sinks and errors
//!
//! Everything writes through [`Sink`]: `&mut [u8]` (the returned length is
//! the used prefix), `heapless::Vec<u8, N>`, [`Counter`] (sizes a frame
//! without storing it) and, with the `embedded-io` feature, `IoSink` over any
//! `embedded_io::Write`. A full buffer gives [`EncodeError::BufferFull`],
//! never a panic. **On any error the sink holds an unfinished frame:
//! discard it.** No length is returned then, and no builder can be
//! finished after a failed write (the builders are consumed, and the chunk
//! writers stay failed), so a cut frame never looks whole.
//!
//! The builders never write a frame the reference would fail to decode
//! back: a `_meta` that is not an object ([`EncodeError::NotAnObject`]),
//! nesting beyond the reference's 127 levels ([`EncodeError::TooDeep`]) and
//! `ttlMs` above `i64::MAX` ([`EncodeError::OutOfRange`]) are refused.
//!
//! # Strict mode
//!
//! [`RequestEncoder::strict`], [`ResultEncoder::strict`] and
//! [`ErrorEncoder::strict`] also run the [spec checks](crate::spec) on what
//! they write and fail with [`EncodeError::Spec`] naming the item and field.
//! For views, call `check_spec()` before encoding.
//!
//! # Example
//!
//! ```
//! use diverge_frame::encode::{Counter, ResultEncoder};
//! use diverge_frame::{CacheScope, Frame};
//!
//! let mut buf = [0u8; 256];
//! let n = ResultEncoder::new(&mut buf[..])?
//!     .result_type("complete")?
//!     .ttl_ms(0)?
//!     .cache_scope(CacheScope::Private)?
//!     .contents()?
//!     .item("docs://readme")?
//!     .mime_type("text/markdown")?
//!     .text("# Hello\n\"quoted\"")?
//!     .end()?
//!     .item("bin://logo")?
//!     .blob(&[0x89, b'P', b'N', b'G'])?
//!     .end()?
//!     .finish()?;
//! let frame = &buf[..n];
//! assert_eq!(
//!     frame,
//!     b"\x00{\"resultType\":\"complete\",\"ttlMs\":0,\"cacheScope\":\"private\",\"contents\":[\
//!       {\"uri\":\"docs://readme\",\"mimeType\":\"text/markdown\",\"text\":\"# Hello\\n\\\"quoted\\\"\"},\
//!       {\"uri\":\"bin://logo\",\"blob\":\"iVBORw==\"}]}"
//! );
//!
//! // Decoding gives the values back; re-encoding a view gives the same bytes.
//! let view = Frame::decode(frame).map_err(|_| diverge_frame::encode::EncodeError::BufferFull)?;
//! let mut again = [0u8; 256];
//! assert_eq!(diverge_frame::encode::encode_frame_view(&view, &mut again[..])?, n);
//! assert_eq!(&again[..n], frame);
//! assert_eq!(diverge_frame::encode::frame_view_encoded_len(&view), n);
//!
//! // Too small a buffer is an error, never a panic or a short frame.
//! let mut small = [0u8; 16];
//! assert!(ResultEncoder::new(&mut small[..])?.contents()?.item("docs://readme").is_err());
//! # let _ = Counter::new();
//! # Ok::<(), diverge_frame::encode::EncodeError>(())
//! ```

mod builder;
mod error;
mod ser;
mod sink;
pub(crate) mod value;
mod write;

pub use crate::check::StrValue;
pub use builder::stage;
pub use builder::{
    BlobWriter, ContentsEncoder, ErrorEncoder, ItemEncoder, RequestEncoder, ResultEncoder,
    TextWriter,
};
pub use error::EncodeError;
#[cfg(feature = "embedded-io")]
pub use sink::IoSink;
pub use sink::{Counter, Sink};
pub use value::{JsonValue, Verbatim};

use crate::frame::Frame;
use crate::view::error::ErrorView;
use crate::view::request::RequestView;
use crate::view::result::{Body, Content, ResultView};
use stage::{
    BeforeBody, BeforeCacheScope, BeforeRequestState, BeforeTtlMs, BeforeUri, ResultHead, Start,
};

/// Re-emits a decoded request canonically: the bytes
/// `serde_json::to_vec` writes for the `ReadResourceRequestParams` the
/// reference decodes from the view's input. Returns the number of bytes
/// written.
///
/// # Errors
///
/// The sink's error ([`EncodeError::BufferFull`] for a full `&mut [u8]` or
/// `heapless::Vec`); the sink then holds an unfinished request.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::{encode_request_view, request_view_encoded_len};
/// use diverge_frame::RequestView;
///
/// let view = RequestView::decode(br#" { "uri" : "docs:\/\/caf\u00e9", "_meta" : { "z" : 1, "a" : 1E3 } } "#)?;
/// let mut buf = [0u8; 64];
/// let n = encode_request_view(&view, &mut buf[..])?;
/// assert_eq!(&buf[..n], r#"{"_meta":{"a":1000.0,"z":1},"uri":"docs://café"}"#.as_bytes());
/// assert_eq!(request_view_encoded_len(&view), n);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn encode_request_view<S: Sink>(view: &RequestView<'_>, sink: S) -> Result<usize, EncodeError> {
    let encoder = RequestEncoder::new(sink)?;
    match view.meta() {
        Some(meta) => request_uri(encoder.meta(meta)?, view),
        None => request_uri(encoder, view),
    }
}

fn request_uri<S: Sink, St: BeforeUri>(
    encoder: RequestEncoder<S, St>,
    view: &RequestView<'_>,
) -> Result<usize, EncodeError> {
    let encoder = encoder.uri(view.uri())?;
    match view.input_responses() {
        Some(input) => request_state(encoder.input_responses(input)?, view),
        None => request_state(encoder, view),
    }
}

fn request_state<S: Sink, St: BeforeRequestState + stage::HasUri>(
    encoder: RequestEncoder<S, St>,
    view: &RequestView<'_>,
) -> Result<usize, EncodeError> {
    match view.request_state() {
        Some(state) => encoder.request_state(state)?.finish(),
        None => encoder.finish(),
    }
}

/// Re-emits a decoded response frame canonically: the tag byte, then the
/// bytes `serde_json::to_vec` writes for the `ReadResourceResult` /
/// `ErrorData` the reference decodes from the same frame (so an item with
/// both `text` and `blob` comes out with `text` only, a negative `ttlMs` as
/// `0`, `null` optional fields left out). Returns the number of bytes
/// written.
///
/// # Errors
///
/// The sink's error; the sink then holds an unfinished frame.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::encode_frame_view;
/// use diverge_frame::Frame;
///
/// let frame = Frame::decode(b"\x00{\"contents\":[{\"text\":\"t\",\"uri\":\"u\",\"blob\":\"b\"}],\"ttlMs\":-5}")?;
/// let mut buf = [0u8; 64];
/// let n = encode_frame_view(&frame, &mut buf[..])?;
/// assert_eq!(&buf[..n], b"\x00{\"ttlMs\":0,\"contents\":[{\"uri\":\"u\",\"text\":\"t\"}]}");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub fn encode_frame_view<S: Sink>(frame: &Frame<'_>, sink: S) -> Result<usize, EncodeError> {
    match frame {
        Frame::Result(result) => encode_result(result, sink),
        Frame::Error(error) => encode_error(error, sink),
    }
}

/// The exact length of [`encode_request_view`]'s output.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::request_view_encoded_len;
/// use diverge_frame::RequestView;
///
/// let view = RequestView::decode(br#"{ "uri": "x" }"#)?;
/// assert_eq!(request_view_encoded_len(&view), br#"{"uri":"x"}"#.len());
/// # Ok::<(), diverge_frame::BodyError>(())
/// ```
#[must_use]
pub fn request_view_encoded_len(view: &RequestView<'_>) -> usize {
    let mut counter = Counter::new();
    // A counter never fails, and a decoded view always fits its places.
    encode_request_view(view, &mut counter).unwrap_or(counter.len())
}

/// The exact length of [`encode_frame_view`]'s output, tag byte included.
///
/// # Examples
///
/// ```
/// use diverge_frame::encode::frame_view_encoded_len;
/// use diverge_frame::Frame;
///
/// let frame = Frame::decode(b"\x01{\"message\":\"m\",\"code\":1}")?;
/// assert_eq!(frame_view_encoded_len(&frame), b"\x01{\"code\":1,\"message\":\"m\"}".len());
/// # Ok::<(), diverge_frame::FrameError>(())
/// ```
#[must_use]
pub fn frame_view_encoded_len(frame: &Frame<'_>) -> usize {
    let mut counter = Counter::new();
    encode_frame_view(frame, &mut counter).unwrap_or(counter.len())
}

fn encode_error<S: Sink>(view: &ErrorView<'_>, sink: S) -> Result<usize, EncodeError> {
    let encoder = ErrorEncoder::new(sink, view.code(), view.message())?;
    match view.data() {
        Some(data) => encoder.data(data)?.finish(),
        None => encoder.finish(),
    }
}

fn encode_result<S: Sink>(view: &ResultView<'_>, sink: S) -> Result<usize, EncodeError> {
    let encoder: ResultEncoder<S, Start> = ResultEncoder::new(sink)?;
    match view.result_type() {
        Some(result_type) => result_ttl(encoder.result_type(result_type)?, view),
        None => result_ttl(encoder, view),
    }
}

fn result_ttl<S: Sink, St: BeforeTtlMs + BeforeCacheScope + ResultHead>(
    encoder: ResultEncoder<S, St>,
    view: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    match view.ttl_ms() {
        Some(ttl) => result_scope(encoder.ttl_ms(ttl)?, view),
        None => result_scope(encoder, view),
    }
}

fn result_scope<S: Sink, St: BeforeCacheScope + ResultHead>(
    encoder: ResultEncoder<S, St>,
    view: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    match view.cache_scope() {
        Some(scope) => result_contents(encoder.cache_scope(scope)?, view),
        None => result_contents(encoder, view),
    }
}

fn result_contents<S: Sink, St: ResultHead>(
    encoder: ResultEncoder<S, St>,
    view: &ResultView<'_>,
) -> Result<usize, EncodeError> {
    let mut contents = encoder.contents()?;
    for item in view.contents() {
        let encoder = contents.item(item.uri())?;
        contents = match item.mime_type() {
            Some(mime) => item_body(encoder.mime_type(mime)?, &item)?,
            None => item_body(encoder, &item)?,
        };
    }
    match view.meta() {
        Some(meta) => contents.finish_with_meta(meta),
        None => contents.finish(),
    }
}

fn item_body<S: Sink, St: BeforeBody>(
    encoder: ItemEncoder<S, St>,
    item: &Content<'_>,
) -> Result<ContentsEncoder<S>, EncodeError> {
    let encoder = match item.body() {
        Body::Text(text) => encoder.text(text)?,
        Body::Blob(blob) => encoder.blob_base64(blob)?,
    };
    match item.meta() {
        Some(meta) => encoder.meta(meta)?.end(),
        None => encoder.end(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RawJson;

    fn frame_bytes<const N: usize>(
        f: impl FnOnce(&mut heapless::Vec<u8, N>) -> Result<usize, EncodeError>,
    ) -> heapless::Vec<u8, N> {
        let mut v = heapless::Vec::new();
        let n = f(&mut v);
        assert_eq!(n, Ok(v.len()));
        v
    }

    #[test]
    fn request_field_order() {
        let meta = RawJson::parse(br#"{"b":1,"a":[true,null]}"#).unwrap_or(RawJson::new(b"{}"));
        let input = RawJson::parse(br#"{"k":"v"}"#).unwrap_or(RawJson::new(b"{}"));
        let out = frame_bytes::<128>(|v| {
            RequestEncoder::new(v)?
                .meta(meta)?
                .uri("x")?
                .input_responses(input)?
                .request_state("s\u{1}")?
                .finish()
        });
        assert_eq!(
            out.as_slice(),
            br#"{"_meta":{"a":[true,null],"b":1},"uri":"x","inputResponses":{"k":"v"},"requestState":"s\u0001"}"#
        );
        let out = frame_bytes::<64>(|v| {
            RequestEncoder::new(v)?
                .uri("x")?
                .request_state("s")?
                .finish()
        });
        assert_eq!(out.as_slice(), br#"{"uri":"x","requestState":"s"}"#);
    }

    #[test]
    fn meta_must_be_an_object() {
        let mut buf = [0u8; 64];
        let arr = RawJson::parse(b"[1]").unwrap_or(RawJson::new(b"{}"));
        assert_eq!(
            RequestEncoder::new(&mut buf[..])
                .and_then(|e| e.meta(arr))
                .err(),
            Some(EncodeError::NotAnObject)
        );
        assert_eq!(
            RequestEncoder::new(&mut buf[..])
                .and_then(|e| e.meta(5u8))
                .err(),
            Some(EncodeError::NotAnObject)
        );
        assert_eq!(
            RequestEncoder::new(&mut buf[..])
                .and_then(|e| e.meta(Option::<u8>::None))
                .err(),
            Some(EncodeError::NotAnObject)
        );
        assert!(
            ErrorEncoder::new(&mut buf[..], 1, "m")
                .and_then(|e| e.data(arr))
                .is_ok()
        );
    }

    #[test]
    fn ttl_above_i64_is_refused() {
        let mut buf = [0u8; 64];
        let r = ResultEncoder::new(&mut buf[..]).and_then(|e| e.ttl_ms(u64::MAX));
        assert_eq!(r.err(), Some(EncodeError::OutOfRange));
    }

    #[test]
    fn blob_writer_carries_between_chunks() {
        let data: [u8; 200] = core::array::from_fn(|i| (i * 7 + 3) as u8);
        let mut whole: heapless::Vec<u8, 512> = heapless::Vec::new();
        ResultEncoder::new(&mut whole)
            .and_then(|e| e.contents())
            .and_then(|c| c.item("u"))
            .and_then(|i| i.blob(&data))
            .and_then(|i| i.end())
            .and_then(|c| c.finish())
            .ok();
        for split in [1usize, 2, 3, 4, 5, 7, 47, 48, 49, 100] {
            let mut chunked: heapless::Vec<u8, 512> = heapless::Vec::new();
            let r = (|| {
                let mut w = ResultEncoder::new(&mut chunked)?
                    .contents()?
                    .item("u")?
                    .blob_writer()?;
                for chunk in data.chunks(split) {
                    w.write(chunk)?;
                    w.write(&[])?;
                }
                w.end()?.end()?.finish()
            })();
            assert!(r.is_ok());
            assert_eq!(chunked, whole, "split {split}");
        }
    }

    #[test]
    fn failed_chunk_poisons_the_writer() {
        let mut buf = [0u8; 40];
        let r = (|| {
            let mut w = ResultEncoder::new(&mut buf[..])?
                .contents()?
                .item("u")?
                .text_writer()?;
            assert_eq!(
                w.write("this chunk is far too long for the buffer"),
                Err(EncodeError::BufferFull)
            );
            assert_eq!(w.write("x"), Err(EncodeError::BufferFull));
            w.end()?.end()?.finish()
        })();
        assert_eq!(r, Err(EncodeError::BufferFull));
    }

    #[test]
    fn strict_mode_names_item_and_field() {
        let mut buf = [0u8; 256];
        let r = (|| {
            ResultEncoder::strict(&mut buf[..])?
                .result_type("complete")?
                .contents()?
                .item("docs://a")?
                .text("t")?
                .end()?
                .item("docs://b")?
                .mime_type("text/plain")?
                .blob_base64("!!")?
                .end()?
                .finish()
        })();
        let Err(EncodeError::Spec(e)) = r else {
            unreachable!("{r:?}")
        };
        assert_eq!((e.item(), e.field()), (Some(1), Some("blob")));
        let r = ResultEncoder::strict(&mut buf[..]).and_then(|e| e.result_type("weird"));
        assert!(matches!(r, Err(EncodeError::Spec(_))));
        let r = ResultEncoder::strict(&mut buf[..])
            .and_then(|e| e.contents())
            .and_then(|c| c.item("rel"));
        assert!(
            matches!(r, Err(EncodeError::Spec(e)) if e.item() == Some(0) && e.field() == Some("uri"))
        );
        let r = ResultEncoder::strict(&mut buf[..])
            .and_then(|e| e.contents())
            .and_then(|c| c.item("a:b"))
            .and_then(|i| i.mime_type("nope"));
        assert!(matches!(r, Err(EncodeError::Spec(e)) if e.field() == Some("mimeType")));
        assert!(matches!(
            ErrorEncoder::strict(&mut buf[..], 404, "nf"),
            Err(EncodeError::Spec(_))
        ));
        assert!(matches!(
            RequestEncoder::strict(&mut buf[..]).and_then(|e| e.uri("a b")),
            Err(EncodeError::Spec(_))
        ));
        // The same calls pass outside strict mode.
        assert!(ErrorEncoder::new(&mut buf[..], 404, "nf").is_ok());
    }
}
