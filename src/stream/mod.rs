//! Frames larger than any buffer: validation and reading fed in chunks, in
//! constant memory, with exactly [`Frame::decode`](crate::Frame::decode)'s
//! answer.
//!
//! * [`FrameValidator`] and [`RequestValidator`] take the input in chunks of
//!   any size (empty ones too) and keep no part of it: one fixed-size value
//!   ([`FrameValidator`] is listed in the README with its size per target).
//!   For every byte string and every way to cut it, `finish` gives `Ok`
//!   with the same tag as [`Frame::decode`](crate::Frame::decode) on the
//!   whole, or the same error (same kind, same offset from the frame's
//!   first byte). An error comes from the first `feed` whose bytes decide
//!   it, or from `finish` when the input ended early; every later call
//!   returns it again.
//! * [`Reader`] runs the same machine and hands out what arrives, borrowed
//!   from the chunk being fed: the result's fields, each content item's
//!   `uri`, `mimeType`, text (unescaped) and blob (decoded from base64),
//!   `_meta` and `data` as raw JSON, the error's `code` and `message`.
//!
//! # `finish`: by value, except for the reader
//!
//! [`FrameValidator::finish`] and [`RequestValidator::finish`] take `self`:
//! the end consumes the validator, so nothing can be fed after it, and the
//! type says so. They are a few hundred bytes (the README's state table), as
//! is [`StreamPath`](crate::exchange::StreamPath), which wraps one
//! `FrameValidator`, two counters and its refusal, so its `close` and
//! `abort` take `self` too. [`Reader::finish`] takes `&mut self` instead: the reader carries its
//! `N`-byte blob buffer (the firmware's reader keeps 1.5 KiB there, and a
//! reader can hold 2 KiB and more), and a by-value `finish` may copy the
//! whole value onto a microcontroller's stack at the one moment the
//! firmware's stack is deepest. So the reader stays where it is, its
//! `finish` gives the same answer on every later call, and a `feed` after a
//! valid end reports trailing characters.
//!
//! # The one deviation: ignored members deeper than 1024 levels
//!
//! The reference skips unknown top-level members at any depth, checking
//! that their brackets match. That takes a bit of memory per open level, so
//! a constant-memory validator has a limit: [`IGNORED_DEPTH`] levels inside
//! one ignored member. Deeper, the validators return
//! [`BodyErrorKind::StreamDepthExceeded`](crate::BodyErrorKind::StreamDepthExceeded)
//! at the bracket that passes it: never `Ok` for a frame the reference
//! rejects, never a plain syntax error for one it might accept. Typed values
//! (`_meta`, `data`, content items) have the reference's own limit of 127
//! levels, which both decoders enforce alike. (The whole-buffer decoder
//! checks deeper ignored values exactly, counting brackets again over the
//! text it has read when its bit stack runs out; the exchange's
//! [`TooLarge`](crate::exchange::TooLarge) is the same kind of limit for whole frames.)
//!
//! # Example
//!
//! ```
//! use diverge_frame::stream::FrameValidator;
//! use diverge_frame::{Frame, Tag};
//!
//! let frame = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"caf\\u00e9\"}]}";
//! let mut v = FrameValidator::new();
//! for chunk in frame.chunks(5) {
//!     v.feed(chunk)?;
//! }
//! assert_eq!(v.finish()?, Tag::Result);
//! assert!(Frame::decode(frame).is_ok());
//! # Ok::<(), diverge_frame::FrameError>(())
//! ```

mod reader;
mod validate;

pub use reader::{Event, Kept, Reader};
pub use validate::{FrameValidator, RequestValidator};

/// Levels of nesting the validators check inside one ignored member (an
/// unknown top-level member, which the reference only syntax-checks at any
/// depth). Deeper input is refused with
/// [`BodyErrorKind::StreamDepthExceeded`](crate::BodyErrorKind::StreamDepthExceeded).
pub const IGNORED_DEPTH: usize = crate::json::walk::WINDOW;

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::{BodyErrorKind, Frame, FrameError, RequestView, Tag};

    /// A few frames at every cut, against `Frame::decode` (small enough for
    /// Miri; `tests/stream.rs` has the full sweep).
    #[test]
    fn every_cut_of_a_few_frames_gives_decodes_answer() {
        let frames: &[&[u8]] = &[
            b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"a\\u00e9\\uD83D\\uDE00\xc3\xa9\"}],\"ttlMs\":-1}",
            b"\x01{\"code\":-32002,\"message\":\"nf\",\"data\":[1.5e3,true,null,{\"k\":\"v\"}]}",
            b"\x00{\"contents\":[{\"uri\":\"u\"}]}",
            b"\x00[null,1,\"public\",[],null]",
            b"\x00{\"contents\":[],\"x\":\"\\q\"}",
            b"\x02",
            b"",
        ];
        // Under Miri (slow), every fifth cut.
        let step = if cfg!(miri) { 5 } else { 1 };
        for frame in frames {
            let want = Frame::decode(frame).map(|f| f.tag());
            for cut in (0..=frame.len()).step_by(step) {
                let (a, b) = frame.split_at(cut);
                let mut v = FrameValidator::new();
                let got = v.feed(a).and_then(|()| v.feed(b)).and_then(|()| v.finish());
                assert_eq!(got, want, "cut at {cut}");
            }
        }
    }

    /// The compact paths (what microcontrollers run) against the host's
    /// fast ones and `Frame::decode`, on golden vectors at every cut.
    #[test]
    fn compact_and_fast_paths_agree_at_every_cut() {
        let vectors: &[&[u8]] = &[
            include_bytes!("../../tests/vectors/result_escapes.bin"),
            include_bytes!("../../tests/vectors/result_text_and_blob_items.bin"),
            include_bytes!("../../tests/vectors/result_cache_scope_forms.bin"),
            include_bytes!("../../tests/vectors/result_positional.bin"),
            include_bytes!("../../tests/vectors/invalid_lone_surrogate.bin"),
            include_bytes!("../../tests/vectors/invalid_no_variant.bin"),
            include_bytes!("../../tests/vectors/error_not_found.bin"),
            b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\xff\\q\"}],\"x\":\"\\ud800\"}",
        ];
        let step = if cfg!(miri) { 61 } else { 1 };
        for frame in vectors {
            let want = Frame::decode(frame).map(|f| f.tag());
            for cut in (0..=frame.len()).step_by(step) {
                let (a, b) = frame.split_at(cut);
                for compact in [true, false] {
                    let mut v = FrameValidator::new();
                    v.machine.compact = compact;
                    let got = v.feed(a).and_then(|()| v.feed(b)).and_then(|()| v.finish());
                    assert_eq!(got, want, "cut at {cut}, compact {compact}");
                }
            }
        }
    }

    #[test]
    fn requests_and_sticky_errors() {
        let req = br#"{"uri":"a","\u0075ri":"b"}"#;
        let want = RequestView::decode(req).unwrap_err();
        assert_eq!(want.kind(), BodyErrorKind::DuplicateField);
        let mut v = RequestValidator::new();
        let mut got = Ok(());
        for byte in req.chunks(1) {
            got = got.and(v.feed(byte));
        }
        assert_eq!(got, Err(want));
        assert_eq!(v.feed(b"}"), Err(want));
        // The chunks before the one that failed: the duplicate key's closing
        // quote, which decides it (as the whole-buffer decode refuses it
        // right after the key, before its colon).
        assert_eq!(v.fed(), 20);
        assert_eq!(v.finish(), Err(want));
    }

    #[test]
    fn the_reader_hands_out_pieces() {
        let frame =
            b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"x\",\"text\":\"y\",\"blob\":\"aGk=\"}]}";
        let mut r = Reader::<48>::sized();
        let mut blob = [0u8; 4];
        let mut n = 0;
        let mut kept = None;
        let mut on = |e: Event<'_>| match e {
            Event::Blob(b) => {
                blob[n..n + b.len()].copy_from_slice(b);
                n += b.len();
            }
            Event::ItemEnd(k) => kept = Some(k),
            _ => {}
        };
        for chunk in frame.chunks(5) {
            r.feed(chunk, &mut on).unwrap();
        }
        assert_eq!(r.finish(&mut on), Ok(Tag::Result));
        // Finished: the same answer again, and bytes after the end trail.
        assert_eq!(r.finish(&mut on), Ok(Tag::Result));
        assert_eq!(r.feed(b"", &mut on), Ok(()));
        let trailing = crate::BodyError::new(BodyErrorKind::TrailingCharacters, frame.len());
        assert_eq!(r.feed(b" x", &mut on), Err(FrameError::Body(trailing)));
        assert_eq!((&blob[..n], kept), (&b"hi"[..], Some(Kept::Blob)));
    }
}
