//! Cut-through relays (`exchange::StreamPath`, `relay`, `relay_async`): a
//! frame larger than the buffer is forwarded chunk by chunk, and downstream
//! is closed cleanly only after a valid frame; every other end aborts it.
#![cfg(all(feature = "embedded-io", feature = "embedded-io-async"))]
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

use core::pin::pin;
use core::task::{Context, Poll, Waker};

use diverge_frame::exchange::Limit;
use diverge_frame::exchange::{
    Downstream, Event, Exchange, Refused, RelayEnd, RelayError, Relayed, Status, StreamEnd,
    StreamPath, relay, relay_async,
};
use diverge_frame::{BodyError, BodyErrorKind, Frame, FrameError, Tag};

/// A transport error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Broken;

impl core::fmt::Display for Broken {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("broken")
    }
}
impl core::error::Error for Broken {}
impl embedded_io::Error for Broken {
    fn kind(&self) -> embedded_io::ErrorKind {
        embedded_io::ErrorKind::ConnectionReset
    }
}

/// Upstream: `bytes` in reads of at most `step`, then a clean close or, with
/// `abort_after`, an error once that many bytes went out.
struct Upstream {
    bytes: Vec<u8>,
    at: usize,
    step: usize,
    abort_after: Option<usize>,
}

impl Upstream {
    fn new(bytes: Vec<u8>, step: usize) -> Self {
        Self {
            bytes,
            at: 0,
            step,
            abort_after: None,
        }
    }

    fn read_some(&mut self, buf: &mut [u8]) -> Result<usize, Broken> {
        let end = self
            .abort_after
            .unwrap_or(self.bytes.len())
            .min(self.bytes.len());
        if self.at == end && self.abort_after.is_some() {
            return Err(Broken);
        }
        let n = buf.len().min(self.step).min(end - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

impl embedded_io::ErrorType for Upstream {
    type Error = Broken;
}
impl embedded_io::Read for Upstream {
    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Broken> {
        self.read_some(buf)
    }
}
impl embedded_io_async::Read for Upstream {
    async fn read(&mut self, buf: &mut [u8]) -> Result<usize, Broken> {
        self.read_some(buf)
    }
}

/// Downstream: collects what is written; fails past `fail_after` bytes.
#[derive(Default)]
struct Down {
    got: Vec<u8>,
    fail_after: Option<usize>,
    flushed: bool,
}

impl Down {
    fn write_some(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        if self
            .fail_after
            .is_some_and(|n| self.got.len() + buf.len() > n)
        {
            return Err(Broken);
        }
        self.got.extend_from_slice(buf);
        Ok(buf.len())
    }
}

impl embedded_io::ErrorType for Down {
    type Error = Broken;
}
impl embedded_io::Write for Down {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    fn flush(&mut self) -> Result<(), Broken> {
        self.flushed = true;
        Ok(())
    }
}
impl embedded_io_async::Write for Down {
    async fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    async fn flush(&mut self) -> Result<(), Broken> {
        self.flushed = true;
        Ok(())
    }
}

fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = pin!(future);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
            return out;
        }
    }
}

/// A valid result frame with one text item of about `len` bytes (escapes
/// and non-ASCII included).
fn big_text(len: usize) -> Vec<u8> {
    let mut f =
        b"\x00{\"contents\":[{\"uri\":\"docs://big\",\"mimeType\":\"text/plain\",\"text\":\""
            .to_vec();
    let line = "line \\u00e9 caf\u{e9} \\\"q\\\"\\n".as_bytes();
    while f.len() < len {
        f.extend_from_slice(line);
    }
    f.extend_from_slice(b"\"}]}");
    f
}

/// Both relays, blocking and async, with a 4 KiB buffer and reads of `step`.
fn both(
    up: impl Fn() -> Upstream,
    down: impl Fn() -> Down,
    cap: Option<usize>,
) -> (Relayed<Broken, Broken>, Vec<u8>, bool) {
    let mut buf = [0u8; 4096];
    let (mut u, mut d) = (up(), down());
    let blocking = relay(&mut u, &mut d, &mut buf, cap);
    let (mut u2, mut d2) = (up(), down());
    let asynch = block_on(relay_async(&mut u2, &mut d2, &mut buf, cap));
    assert_eq!(blocking, asynch, "blocking and async relays disagree");
    assert_eq!(d.got, d2.got);
    assert_eq!(blocking.forwarded(), d.got.len());
    (blocking, d.got, d.flushed)
}

#[test]
fn a_frame_larger_than_the_buffer_is_forwarded_whole_then_closed_cleanly() {
    let frame = big_text(1 << 20);
    assert!(Frame::decode(&frame).is_ok());
    for step in [1000, 4096, 65536] {
        let (r, got, flushed) = both(|| Upstream::new(frame.clone(), step), Down::default, None);
        assert_eq!(*r.end(), RelayEnd::Answered(Tag::Result));
        assert_eq!(r.end().downstream(), Downstream::Close);
        assert_eq!(r.end().event(), Some(Event::Message));
        assert!(got == frame, "forwarded bytes differ");
        assert!(flushed);
    }
}

#[test]
fn a_frame_that_turns_bad_after_512_kib_is_aborted_before_the_bad_chunk() {
    let mut frame = big_text(1 << 20);
    // The first `line` past 600 000 bytes: a plain byte, not inside an escape.
    let bad = 600_000
        + frame[600_000..]
            .windows(4)
            .position(|w| w == b"line")
            .unwrap();
    frame[bad] = 0x01;
    let want = Frame::decode(&frame).unwrap_err();
    assert_eq!(
        want,
        FrameError::Body(BodyError::new(BodyErrorKind::ControlCharacterInString, bad))
    );
    let (r, got, flushed) = both(|| Upstream::new(frame.clone(), 4096), Down::default, None);
    assert_eq!(*r.end(), RelayEnd::Malformed(want));
    assert_eq!(r.end().downstream(), Downstream::Abort);
    assert!(
        got.len() <= bad && bad - got.len() < 4096,
        "forwarded {}",
        got.len()
    );
    assert!(got[..] == frame[..got.len()]);
    assert!(!flushed);
}

#[test]
fn a_frame_cut_short_then_closed_cleanly_is_malformed_not_answered() {
    let frame = big_text(100_000);
    let cut = frame[..frame.len() - 3].to_vec();
    let want = Frame::decode(&cut).unwrap_err();
    let (r, got, _) = both(|| Upstream::new(cut.clone(), 4096), Down::default, None);
    assert_eq!(*r.end(), RelayEnd::Malformed(want));
    assert_eq!(r.end().downstream(), Downstream::Abort);
    assert!(got == cut, "every chunk was valid so far and went on");
}

#[test]
fn a_wrong_tag_forwards_nothing() {
    let mut frame = big_text(10_000);
    frame[0] = 7;
    let (r, got, _) = both(|| Upstream::new(frame.clone(), 4096), Down::default, None);
    assert_eq!(*r.end(), RelayEnd::Malformed(FrameError::UnknownTag(7)));
    assert!(got.is_empty());
}

#[test]
fn an_upstream_abort_is_unanswered_and_aborts_downstream() {
    let frame = big_text(100_000);
    let up = || Upstream {
        abort_after: Some(50_000),
        ..Upstream::new(frame.clone(), 4096)
    };
    let (r, got, _) = both(up, Down::default, None);
    assert_eq!(*r.end(), RelayEnd::Unanswered(Broken));
    assert_eq!(r.end().downstream(), Downstream::Abort);
    assert_eq!(r.end().event(), Some(Event::PathAborted));
    assert_eq!(got.len(), 50_000);
}

#[test]
fn a_clean_close_with_no_bytes_is_not_served() {
    let (r, got, _) = both(|| Upstream::new(Vec::new(), 4096), Down::default, None);
    assert_eq!(*r.end(), RelayEnd::NotServed);
    assert_eq!(r.end().downstream(), Downstream::Close);
    assert_eq!(r.end().event(), Some(Event::CleanClose));
    assert!(got.is_empty());
}

#[test]
fn the_cap_bounds_the_message_not_the_buffer() {
    let frame = big_text(300_000);
    let cap = 200_000;
    let (r, got, _) = both(
        || Upstream::new(frame.clone(), 4096),
        Down::default,
        Some(cap),
    );
    let RelayEnd::TooLarge(e) = *r.end() else {
        panic!("{:?}", *r.end())
    };
    assert_eq!((e.by(), e.limit()), (Limit::Cap, cap));
    assert!(e.to_string().contains("cap"));
    assert_eq!(r.end().downstream(), Downstream::Abort);
    assert!(got.len() <= cap);
    // A frame of exactly the cap passes.
    let (r, got, _) = both(
        || Upstream::new(frame.clone(), 4096),
        Down::default,
        Some(frame.len()),
    );
    assert_eq!(*r.end(), RelayEnd::Answered(Tag::Result));
    assert_eq!(got.len(), frame.len());
}

#[test]
fn a_downstream_failure_is_reported_and_aborts() {
    let frame = big_text(100_000);
    let down = || Down {
        fail_after: Some(10_000),
        ..Down::default()
    };
    let (r, got, _) = both(|| Upstream::new(frame.clone(), 4096), down, None);
    assert_eq!(*r.end(), RelayEnd::Downstream(Broken));
    assert_eq!(r.end().downstream(), Downstream::Abort);
    assert!(got.len() <= 10_000);
}

/// Downstream that accepts at most 3 bytes per `write`, and fails once
/// `limit` bytes were written.
struct Trickle {
    got: Vec<u8>,
    limit: usize,
}

impl Trickle {
    fn write_some(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        if self.got.len() >= self.limit {
            return Err(Broken);
        }
        let n = buf.len().min(3).min(self.limit - self.got.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl embedded_io::ErrorType for Trickle {
    type Error = Broken;
}
impl embedded_io::Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    fn flush(&mut self) -> Result<(), Broken> {
        Ok(())
    }
}
impl embedded_io_async::Write for Trickle {
    async fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    async fn flush(&mut self) -> Result<(), Broken> {
        Ok(())
    }
}

#[test]
fn forwarded_counts_partial_writes_before_a_downstream_failure() {
    let frame = big_text(10_000);
    for limit in [0, 1, 20, 4096, 5000] {
        let mut buf = [0u8; 4096];
        let mut d = Trickle {
            got: Vec::new(),
            limit,
        };
        let r = relay(
            &mut Upstream::new(frame.clone(), 4096),
            &mut d,
            &mut buf,
            None,
        );
        assert_eq!(*r.end(), RelayEnd::Downstream(Broken));
        assert_eq!(r.forwarded(), limit, "bytes the writer accepted");
        assert!(d.got == frame[..limit]);
        let mut d2 = Trickle {
            got: Vec::new(),
            limit,
        };
        let r2 = block_on(relay_async(
            &mut Upstream::new(frame.clone(), 4096),
            &mut d2,
            &mut buf,
            None,
        ));
        assert_eq!(r2, r);
    }
    // A writer of 3 bytes a call that does not fail gets the frame whole.
    let mut d = Trickle {
        got: Vec::new(),
        limit: usize::MAX,
    };
    let r = relay(
        &mut Upstream::new(frame.clone(), 700),
        &mut d,
        &mut [0u8; 64],
        None,
    );
    assert_eq!(*r.end(), RelayEnd::Answered(Tag::Result));
    assert_eq!(r.forwarded(), frame.len());
    assert!(d.got == frame);
}

/// Downstream that takes `take` bytes, then returns `Ok(0)` for every
/// non-empty `write` (it breaks the `embedded_io::Write` contract, on which
/// embedded-io's own `write_all` panics).
struct Stalls {
    got: Vec<u8>,
    take: usize,
}

impl Stalls {
    fn write_some(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        let n = buf.len().min(self.take - self.got.len());
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl embedded_io::ErrorType for Stalls {
    type Error = Broken;
}
impl embedded_io::Write for Stalls {
    fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    fn flush(&mut self) -> Result<(), Broken> {
        Ok(())
    }
}
impl embedded_io_async::Write for Stalls {
    async fn write(&mut self, buf: &[u8]) -> Result<usize, Broken> {
        self.write_some(buf)
    }
    async fn flush(&mut self) -> Result<(), Broken> {
        Ok(())
    }
}

#[test]
fn a_writer_that_accepts_nothing_ends_the_relay_without_a_panic() {
    let frame = big_text(10_000);
    for take in [0, 1, 100, 4096, 9000] {
        let mut buf = [0u8; 1000];
        let mut d = Stalls {
            got: Vec::new(),
            take,
        };
        let r = relay(
            &mut Upstream::new(frame.clone(), 700),
            &mut d,
            &mut buf,
            None,
        );
        assert_eq!(*r.end(), RelayEnd::WriteZero, "take {take}");
        assert_eq!(r.forwarded(), take, "bytes the writer accepted");
        assert!(d.got == frame[..take]);
        assert_eq!(r.end().downstream(), Downstream::Abort);
        assert_eq!(r.end().event(), None);
        assert_eq!(r.end().into_result(), Err(RelayError::WriteZero));
        assert_eq!(
            r.end().to_string(),
            "downstream write failed (the writer accepted no bytes)"
        );

        let mut d2 = Stalls {
            got: Vec::new(),
            take,
        };
        let r2 = block_on(relay_async(
            &mut Upstream::new(frame.clone(), 700),
            &mut d2,
            &mut buf,
            None,
        ));
        assert_eq!(r2, r, "async, take {take}");
        assert!(d2.got == d.got);
    }
    // A writer that takes the whole frame before it stalls is never asked
    // for more: the relay answers.
    let mut d = Stalls {
        got: Vec::new(),
        take: frame.len(),
    };
    let r = relay(
        &mut Upstream::new(frame.clone(), 700),
        &mut d,
        &mut [0u8; 64],
        None,
    );
    assert_eq!(*r.end(), RelayEnd::Answered(Tag::Result));
    assert!(d.got == frame);
}

#[test]
fn push_api_verdicts_drive_the_exchange() {
    let frame = big_text(50_000);
    let mut x = Exchange::new(1);
    x.on(Event::AskSent).unwrap();
    let mut path = StreamPath::new();
    for chunk in frame.chunks(999) {
        // No annotation: the push API has no transport types.
        if path.push(chunk).is_err() {
            break;
        }
    }
    assert_eq!(path.len(), frame.len());
    let end = path.close();
    assert_eq!(end, StreamEnd::Answered(Tag::Result));
    assert_eq!(end.downstream(), Downstream::Close);
    assert_eq!(x.on(end.event().unwrap()), Ok(Status::Answered));
    let wide: RelayEnd<std::io::Error, Broken> = end.widen();
    assert!(matches!(wide, RelayEnd::Answered(Tag::Result)));

    // After a refusal, every push gives it again and close keeps it.
    let mut path = StreamPath::new();
    // (`1` is read whole before it is refused: the comma ends it.)
    let first = path.push(b"\x00[1,").unwrap_err();
    assert!(matches!(first, Refused::Malformed(_)));
    assert_eq!(path.push(b"}"), Err(first));
    assert_eq!(path.clone().abort(Broken), RelayEnd::from(first));
    assert_eq!(path.close(), StreamEnd::from(first));
    // Without a refusal, abort is unanswered with the cause.
    let mut path = StreamPath::with_cap(10);
    path.push(b"\x00{").unwrap();
    let end = path.abort(Broken);
    assert_eq!(end, RelayEnd::Unanswered(Broken));
    assert_eq!(end.downstream(), Downstream::Abort);
    assert_eq!(end.event(), Some(Event::PathAborted));
}

#[test]
fn a_malformed_relay_leaves_the_exchange_malformed_not_answered() {
    let mut frame = big_text(20_000);
    frame[10_000] = 0x01;
    let (r, _, _) = both(|| Upstream::new(frame.clone(), 4096), Down::default, None);
    assert!(matches!(r.end(), RelayEnd::Malformed(_)));
    assert_eq!(r.end().event(), Some(Event::MalformedMessage));
    let mut x = Exchange::new(3);
    x.on(Event::AskSent).unwrap();
    x.on(Event::PathOpened).unwrap();
    let status = x.on(r.end().event().unwrap()).unwrap();
    assert_eq!(status, Status::Malformed);
    assert!(status.is_final() && !status.needs_ask());
    // The push API says the same.
    let mut path = StreamPath::new();
    let end = frame
        .chunks(4096)
        .find_map(|c| path.push(c).err())
        .map_or_else(|| path.clone().close(), StreamEnd::from);
    assert_eq!(end.event(), Some(Event::MalformedMessage));
}

#[test]
fn the_bad_ends_are_errors_for_question_mark() {
    fn relayed(
        frame: &[u8],
        cap: Option<usize>,
    ) -> Result<Option<Tag>, Box<dyn std::error::Error>> {
        let mut path = cap.map_or_else(StreamPath::new, StreamPath::with_cap);
        for c in frame.chunks(7) {
            path.push(c)?;
        }
        Ok(path.close().into_result()?)
    }
    fn over_transports(
        end: RelayEnd<Broken, Broken>,
    ) -> Result<Option<Tag>, Box<dyn std::error::Error>> {
        Ok(end.into_result()?)
    }
    let frame = big_text(1000);
    assert_eq!(relayed(&frame, None).unwrap(), Some(Tag::Result));
    assert_eq!(relayed(b"", None).unwrap(), None);
    let e = relayed(&frame[..500], None).unwrap_err();
    assert!(e.to_string().starts_with("malformed frame: "), "{e}");
    // The frame error is printed, so it is not the source as well.
    assert!(e.source().is_none());
    let e = relayed(&frame, Some(100)).unwrap_err();
    assert_eq!(e.to_string(), "message larger than the 100-byte cap");

    assert_eq!(over_transports(RelayEnd::NotServed).unwrap(), None);
    for end in [
        RelayEnd::Unanswered(Broken),
        RelayEnd::Downstream(Broken),
        RelayEnd::Malformed(FrameError::Empty),
    ] {
        assert_eq!(end.downstream(), Downstream::Abort);
        let err = end.into_result().unwrap_err();
        assert_eq!(err.downstream(), Downstream::Abort);
        assert_eq!(err.to_string(), end.to_string());
        assert!(over_transports(end).is_err());
    }
    assert_eq!(
        RelayEnd::<Broken, Broken>::Unanswered(Broken).into_result(),
        Err(RelayError::Unanswered(Broken))
    );
}
