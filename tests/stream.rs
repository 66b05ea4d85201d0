//! The streaming promise: for every input and every way to cut it into
//! chunks, the validators give exactly `Frame::decode`'s (or
//! `RequestView::decode`'s) answer, and the reader's pieces put together
//! equal what the views read.
#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::generate::Gen;
use common::oracle::show;
use diverge_frame::stream::{Event, FrameValidator, Kept, Reader, RequestValidator};
use diverge_frame::{
    Base64Error, Body, BodyError, BodyErrorKind, CacheScope, Frame, FrameError, JsonStr,
    RequestView, Tag,
};

fn cases() -> usize {
    let n = std::env::var("DIVERGE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000);
    if cfg!(miri) { n.min(10) } else { n }
}

/// `Frame::decode`'s answer.
fn whole_frame(bytes: &[u8]) -> Result<Tag, FrameError> {
    Frame::decode(bytes).map(|f| f.tag())
}

fn whole_request(bytes: &[u8]) -> Result<(), BodyError> {
    RequestView::decode(bytes).map(|_| ())
}

/// The chunks of `bytes` cut at `cuts` (ascending, each in `0..=len`).
fn pieces<'a>(bytes: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let mut from = 0;
    for &c in cuts {
        out.push(&bytes[from..c]);
        from = c;
    }
    out.push(&bytes[from..]);
    out
}

/// Offset an error names (for checking it was fed when reported).
fn frame_offset(e: &FrameError) -> usize {
    match e {
        FrameError::Empty | FrameError::UnknownTag(_) => 0,
        FrameError::Body(b) => b.offset(),
    }
}

/// The validator's answer on `chunks`, checking on the way that an error
/// names a byte already fed (or the end), and that it sticks.
fn stream_frame(chunks: &[&[u8]]) -> Result<Tag, FrameError> {
    let mut v = FrameValidator::new();
    let mut fed = 0;
    for (k, chunk) in chunks.iter().enumerate() {
        fed += chunk.len();
        if let Err(e) = v.feed(chunk) {
            assert!(frame_offset(&e) <= fed, "{e:?} reported after {fed} bytes");
            // Sticky: later calls give it again.
            for rest in &chunks[k + 1..] {
                assert_eq!(v.feed(rest), Err(e));
            }
            assert_eq!(v.feed(b"}"), Err(e));
            assert_eq!(v.finish(), Err(e));
            return Err(e);
        }
        assert_eq!(v.fed(), fed);
    }
    v.finish()
}

fn stream_request(chunks: &[&[u8]]) -> Result<(), BodyError> {
    let mut v = RequestValidator::new();
    let mut fed = 0;
    for (k, chunk) in chunks.iter().enumerate() {
        fed += chunk.len();
        if let Err(e) = v.feed(chunk) {
            assert!(e.offset() <= fed, "{e:?} reported after {fed} bytes");
            for rest in &chunks[k + 1..] {
                assert_eq!(v.feed(rest), Err(e));
            }
            assert_eq!(v.finish(), Err(e));
            return Err(e);
        }
    }
    v.finish()
}

/// The documented deviation: an ignored member nested deeper than
/// `IGNORED_DEPTH`. Everything before that bracket is checked alike, so the
/// whole-buffer answer is `Ok` or an error at or past it; never earlier.
#[track_caller]
fn deviation_holds(got: Option<BodyError>, want: Option<usize>, bytes: &[u8]) -> bool {
    let Some(e) = got.filter(|e| e.kind() == BodyErrorKind::StreamDepthExceeded) else {
        return false;
    };
    assert!(
        want.is_none_or(|w| w >= e.offset()),
        "stream depth limit at {} after the reference's own error at {want:?}: {}",
        e.offset(),
        show(bytes)
    );
    true
}

#[track_caller]
fn agree_frame_cuts(bytes: &[u8], cuts: &[usize]) -> bool {
    let want = whole_frame(bytes);
    let got = stream_frame(&pieces(bytes, cuts));
    if got != want {
        let body = match got {
            Err(FrameError::Body(e)) => Some(e),
            _ => None,
        };
        let deviates = deviation_holds(body, want.err().map(|e| frame_offset(&e)), bytes);
        assert!(
            deviates,
            "cuts {cuts:?}: {got:?} != {want:?} on {}",
            show(bytes)
        );
        return false;
    }
    true
}

#[track_caller]
fn agree_request_cuts(bytes: &[u8], cuts: &[usize]) -> bool {
    let want = whole_request(bytes);
    let got = stream_request(&pieces(bytes, cuts));
    if got != want {
        let deviates = deviation_holds(got.err(), want.err().map(|e| e.offset()), bytes);
        assert!(
            deviates,
            "cuts {cuts:?}: {got:?} != {want:?} on {}",
            show(bytes)
        );
        return false;
    }
    true
}

/// Every single cut, every pair of cuts (inputs up to `pairs_up_to` bytes),
/// and one byte at a time.
fn every_cut(bytes: &[u8], request: bool, pairs_up_to: usize) {
    let check = |cuts: &[usize]| {
        if request {
            agree_request_cuts(bytes, cuts);
        } else {
            agree_frame_cuts(bytes, cuts);
        }
    };
    check(&[]);
    for a in 0..=bytes.len() {
        check(&[a]);
    }
    if bytes.len() <= pairs_up_to {
        for a in 0..=bytes.len() {
            for b in a..=bytes.len() {
                check(&[a, b]);
            }
        }
    }
    let ones: Vec<usize> = (1..bytes.len()).collect();
    check(&ones);
}

#[test]
fn generated_frames_at_random_cuts() {
    let n = cases();
    let mut accepted = 0;
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0x57AE, (seed % 4) as usize);
        let mut input = g.frame();
        if seed % 3 == 0 {
            g.mutate(&mut input);
        }
        accepted += usize::from(whole_frame(&input).is_ok());
        let mut cuts: Vec<usize> = (0..g.rng.below(6))
            .map(|_| g.rng.below(input.len() + 1))
            .collect();
        cuts.sort_unstable();
        agree_frame_cuts(&input, &cuts);
        let ones: Vec<usize> = (1..input.len()).collect();
        agree_frame_cuts(&input, &ones);
    }
    eprintln!("generated frames: {n} cases ({accepted} valid), every answer equal");
}

#[test]
fn generated_requests_at_random_cuts() {
    let n = cases();
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0x5EED, (seed % 4) as usize);
        let mut input = g.request();
        if seed % 3 == 0 {
            g.mutate(&mut input);
        }
        let mut cuts: Vec<usize> = (0..g.rng.below(6))
            .map(|_| g.rng.below(input.len() + 1))
            .collect();
        cuts.sort_unstable();
        agree_request_cuts(&input, &cuts);
        let ones: Vec<usize> = (1..input.len()).collect();
        agree_request_cuts(&input, &ones);
    }
}
