//! The streaming decoders (`diverge_frame::stream`) fed a whole frame in
//! chunks of `n` bytes (`bytes.chunks(n)`, then `finish`): the same frames as
//! `Frame::decode` in `walk.rs`, so the two compare directly.

use std::hint::black_box;

use diverge_frame::Tag;
use diverge_frame::stream::{Event, FrameValidator, Reader, RequestValidator};

/// The chunk sizes the criterion bench feeds (64 B, 1 KiB, 4 KiB, 64 KiB).
pub const CHUNKS: [usize; 4] = [64, 1024, 4096, 65536];

/// `FrameValidator` fed `bytes` in chunks of `n`: the answer of
/// [`crate::walk::decode`] (true when the frame is valid).
#[inline]
pub fn validate(bytes: &[u8], n: usize) -> bool {
    let mut v = FrameValidator::new();
    for chunk in bytes.chunks(n) {
        if v.feed(chunk).is_err() {
            return false;
        }
    }
    matches!(v.finish(), Ok(Tag::Result | Tag::Error))
}

/// `RequestValidator` fed `bytes` in chunks of `n`: the answer of
/// [`crate::walk::request_decode`].
#[inline]
pub fn validate_request(bytes: &[u8], n: usize) -> bool {
    let mut v = RequestValidator::new();
    for chunk in bytes.chunks(n) {
        if v.feed(chunk).is_err() {
            return false;
        }
    }
    v.finish().is_ok()
}

/// A cheap consumer: every piece's length (one for the other events).
#[inline]
fn weigh(e: Event<'_>) -> usize {
    match e {
        Event::ResultType(s)
        | Event::Uri(s)
        | Event::MimeType(s)
        | Event::Text(s)
        | Event::Message(s) => s.len(),
        Event::Meta(b) | Event::Blob(b) | Event::ItemMeta(b) | Event::Data(b) => b.len(),
        _ => 1,
    }
}

/// `Reader::<256>` fed `bytes` in chunks of `n`, its events consumed by
/// summing their piece lengths: that sum (0 when the frame is invalid).
#[inline]
pub fn read(bytes: &[u8], n: usize) -> usize {
    let mut r = Reader::<256>::sized();
    let mut sum = 0usize;
    for chunk in bytes.chunks(n) {
        if r.feed(chunk, |e| sum += weigh(e)).is_err() {
            return 0;
        }
    }
    match r.finish(|e| sum += weigh(e)) {
        Ok(_) => black_box(sum),
        Err(_) => 0,
    }
}
