//! The exchange module (`diverge_frame::exchange`) on scripted input: the
//! state machine against the module's transition table, the three whole-path
//! readers against each other and against what the bytes call for, the ask
//! codec against `RequestView::decode` and the request encoder, and the
//! cut-through relay's two loops (`relay`, `relay_async`) and its push API
//! (`StreamPath`) against each other, with every end's methods and text.
//!
//! ```text
//! byte 0      bits 0-1 retries allowed; bit 2 the path ends abruptly;
//!             bit 3 the downstream write returns Ok(0) at its failure point
//!             (not Err); bit 4 downstream flush fails; bit 5 downstream
//!             fails at byte 3's count; bit 6 the relay has a cap (2 × byte 3)
//! byte 1      buffer size (0..=255)
//! byte 2      most bytes per read - 1 (bits 0-3), per write - 1 (bits 4-7)
//! byte 3      the failure point / the cap
//! bytes 4..   the message (a frame for the paths and the relay, an ask for
//!             the ask codec, and, a byte each, up to 64 of the exchange's
//!             events)
//! ```

use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use diverge_frame::encode::EncodeError;
use diverge_frame::encode::{Counter, IoSink, RequestEncoder, encode_request_view};
use diverge_frame::exchange::{AskError, Limit, TooLarge};
use diverge_frame::exchange::{
    Downstream, Event, Exchange, PathEnd, PathReader, READ_RESOURCE_KIND, RelayEnd, RelayError,
    Relayed, Status, StreamEnd, StreamPath, ask_encoder, decode_ask, encode_ask_view, read_path,
    read_path_async, relay, relay_async,
};
use diverge_frame::{Frame, FrameError, RequestView};
use embedded_io::ErrorKind;

use crate::hex;
use crate::relay::Upstream;

/// Polls a future that never waits (the transports here are always ready).
fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

const EVENTS: [Event; 7] = [
    Event::AskSent,
    Event::PathOpened,
    Event::RequestsEnded,
    Event::Message,
    Event::MalformedMessage,
    Event::CleanClose,
    Event::PathAborted,
];

/// The module docs' transition table, cell by cell. `retry`: the status an
/// unanswered exchange goes to.
fn table(status: Status, event: Event, retry: Status) -> Option<Status> {
    use Event as E;
    use Status as S;
    Some(match (status, event) {
        (S::Ready | S::AskAgain, E::AskSent) => S::Asked,
        (S::Asked, E::PathOpened) => S::PathOpen,
        (S::Asked, E::RequestsEnded) => retry,
        (S::Asked | S::PathOpen, E::Message) => S::Answered,
        (S::Asked | S::PathOpen, E::MalformedMessage) => S::Malformed,
        (S::Asked | S::PathOpen, E::CleanClose) => S::NotServed,
        (S::Asked | S::PathOpen, E::PathAborted) => retry,
        (s, E::RequestsEnded) => s,
        _ => return None,
    })
}

fn exchange_script(max_retries: u32, script: &[u8]) {
    let mut x = Exchange::new(max_retries);
    assert_eq!(
        (x.status(), x.asks(), x.max_retries()),
        (Status::Ready, 0, max_retries)
    );
    for &b in script {
        let event = EVENTS[usize::from(b) % EVENTS.len()];
        let before = x.status();
        let asks = x.asks();
        let retry = if asks > max_retries {
            Status::GaveUp
        } else {
            Status::AskAgain
        };
        match (x.on(event), table(before, event, retry)) {
            (Ok(now), Some(want)) => {
                assert_eq!(now, want, "{before:?} + {event:?}");
                assert_eq!(x.status(), now);
                let sent = u32::from(event == Event::AskSent);
                assert_eq!(x.asks(), asks + sent);
            }
            (Err(e), None) => {
                assert_eq!((e.event(), e.status()), (event, before));
                assert_eq!(
                    (x.status(), x.asks()),
                    (before, asks),
                    "a refused event changed nothing"
                );
                let shown = e.to_string();
                assert!(shown.contains(&event.to_string()) && shown.contains(&before.to_string()));
                let _: &dyn core::error::Error = &e;
            }
            (ours, table) => panic!("{before:?} + {event:?}: ours {ours:?}, the table {table:?}"),
        }
        let s = x.status();
        assert_eq!(
            s.is_final(),
            matches!(
                s,
                Status::Answered | Status::Malformed | Status::NotServed | Status::GaveUp
            )
        );
        assert_eq!(s.needs_ask(), matches!(s, Status::Ready | Status::AskAgain));
        assert!(
            x.asks() <= max_retries + 1,
            "more asks than the bound allows"
        );
        assert_eq!(x.retries(), x.asks().saturating_sub(1));
        assert!(!s.to_string().is_empty() && !event.to_string().is_empty());
    }
}

/// A downstream path: writes of at most `most` bytes; at `fail_at` bytes it
/// fails (`Err`, or `Ok(0)` when `zero`); its flush fails when `flush_fails`.
#[derive(Clone)]
struct Down {
    got: Vec<u8>,
    most: usize,
    fail_at: Option<usize>,
    zero: bool,
    flush_fails: bool,
}

impl Down {
    fn put(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
        if buf.is_empty() {
            return Ok(0);
        }
        let room = match self.fail_at {
            Some(at) if self.got.len() >= at => {
                return if self.zero {
                    Ok(0)
                } else {
                    Err(ErrorKind::BrokenPipe)
                };
            }
            Some(at) => at - self.got.len(),
            None => usize::MAX,
        };
        let n = buf.len().min(self.most).min(room);
        self.got.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flushed(&self) -> Result<(), ErrorKind> {
        if self.flush_fails {
            Err(ErrorKind::Interrupted)
        } else {
            Ok(())
        }
    }
}

impl embedded_io::ErrorType for Down {
    type Error = ErrorKind;
}

impl embedded_io::Write for Down {
    fn write(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
        self.put(buf)
    }
    /// Ends in `WriteZero` where the default panics on `Ok(0)` (the relay
    /// never calls it: it ends in `RelayEnd::WriteZero` on an `Ok(0)`).
    fn write_all(&mut self, mut buf: &[u8]) -> Result<(), ErrorKind> {
        while !buf.is_empty() {
            match self.put(buf)? {
                0 => return Err(ErrorKind::WriteZero),
                n => buf = &buf[n..],
            }
        }
        Ok(())
    }
    fn flush(&mut self) -> Result<(), ErrorKind> {
        self.flushed()
    }
}

impl embedded_io_async::Write for Down {
    async fn write(&mut self, buf: &[u8]) -> Result<usize, ErrorKind> {
        self.put(buf)
    }
    async fn write_all(&mut self, buf: &[u8]) -> Result<(), ErrorKind> {
        embedded_io::Write::write_all(self, buf)
    }
    async fn flush(&mut self) -> Result<(), ErrorKind> {
        self.flushed()
    }
}

/// What a path of `message` should end in with a `limit`-byte buffer.
fn expected_path(
    message: &[u8],
    limit: usize,
    abrupt: bool,
) -> Result<PathEnd<&[u8], ()>, TooLarge> {
    if message.len() > limit {
        // Reading stops at the first byte past the buffer, abrupt or not.
        Err(buffer_too_large(limit))
    } else if abrupt {
        Ok(PathEnd::Unanswered(()))
    } else if message.is_empty() {
        Ok(PathEnd::NotServed)
    } else {
        Ok(PathEnd::Message(message))
    }
}

/// A `TooLarge` of the buffer kind, as the readers make it: the error of a
/// push one byte past a `limit`-byte reader (its constructor is private).
fn buffer_too_large(limit: usize) -> TooLarge {
    let mut buf = vec![0u8; limit];
    let mut path = PathReader::new(&mut buf);
    path.push(&vec![0u8; limit + 1])
        .expect_err("one byte too many")
}

/// A reader's end with its transport error checked and dropped.
fn unit(end: PathEnd<&[u8], ErrorKind>) -> PathEnd<&[u8], ()> {
    match end {
        PathEnd::Message(m) => PathEnd::Message(m),
        PathEnd::NotServed => PathEnd::NotServed,
        PathEnd::Unanswered(e) => {
            assert_eq!(e, ErrorKind::ConnectionReset);
            PathEnd::Unanswered(())
        }
    }
}

fn paths(message: &[u8], limit: usize, most: usize, abrupt: bool) {
    let want = expected_path(message, limit, abrupt);
    if let Err(e) = &want {
        assert_eq!((e.limit(), e.by()), (limit, Limit::Buffer));
        assert_eq!(
            e.to_string(),
            format!("message larger than the {limit}-byte buffer")
        );
    }
    // Push API, in chunks of `most` bytes.
    let mut buf = vec![0u8; limit];
    let mut reader = PathReader::new(&mut buf);
    assert_eq!(
        (reader.len(), reader.is_empty(), reader.limit()),
        (0, true, limit)
    );
    let mut refused = None;
    for chunk in message.chunks(most) {
        match reader.push(chunk) {
            Ok(()) => assert!(refused.is_none(), "a push after a refusal succeeded"),
            Err(e) => refused = Some(e),
        }
    }
    assert_eq!(refused.is_some(), message.len() > limit);
    if refused.is_none() {
        assert_eq!(
            (reader.len(), reader.is_empty()),
            (message.len(), message.is_empty())
        );
    }
    assert!(format!("{reader:?}").starts_with("PathReader"));
    let pushed = if abrupt {
        reader.abort()
    } else {
        reader.close()
    };
    assert_eq!(pushed, want, "PathReader");

    // Blocking and async readers, reads of at most `most` bytes.
    let mut buf = vec![0u8; limit];
    let mut up = Upstream {
        rest: message,
        most,
        abrupt,
    };
    let blocking = read_path(&mut up, &mut buf).map(unit);
    assert_eq!(blocking, want, "read_path");
    let mut buf = vec![0u8; limit];
    let mut up = Upstream {
        rest: message,
        most,
        abrupt,
    };
    let not_blocking = block_on(read_path_async(&mut up, &mut buf)).map(unit);
    assert_eq!(not_blocking, want, "read_path_async");

    // What a path end says.
    if let Ok(end) = want {
        let event = end.event();
        assert_eq!(
            event,
            match end {
                PathEnd::Message(_) => Event::Message,
                PathEnd::NotServed => Event::CleanClose,
                PathEnd::Unanswered(()) => Event::PathAborted,
            }
        );
        let mut x = Exchange::new(0);
        x.on(Event::AskSent).expect("a fresh exchange asks");
        x.path_ended(&end)
            .expect("a path end is expected after the ask");
        assert_eq!(
            end.message(),
            matches!(end, PathEnd::Message(_)).then_some(message)
        );
        match (end.decode(), end.split()) {
            (Ok(PathEnd::Message(f)), Ok(PathEnd::Message(raw))) => {
                assert_eq!(Ok(f), Frame::decode(message));
                assert_eq!(raw.decode(), Ok(f));
            }
            (Ok(decoded), Ok(split)) => {
                assert_eq!(decoded.message(), None);
                assert_eq!(split.message().map(|_| ()), None);
                assert!(!matches!(end, PathEnd::Message(_)) || Frame::decode(message).is_ok());
            }
            (Err(e), split) => {
                assert_eq!(Err(e), Frame::decode(message));
                assert!(matches!(end, PathEnd::Message(_)));
                assert_eq!(split.err(), Frame::split(message).err());
            }
            (Ok(_), Err(e)) => panic!("split failed ({e:?}) where decode did not"),
        }
    }
}

fn ask(message: &[u8]) {
    let ours = decode_ask(message);
    match (message.split_first(), ours) {
        (None, Err(AskError::Empty)) => {}
        (Some((&k, _)), Err(AskError::Kind(kind))) if k != READ_RESOURCE_KIND => {
            assert_eq!(kind, k);
        }
        (Some((&READ_RESOURCE_KIND, json)), Err(AskError::Body(e))) => {
            // The request's error, counted from the kind byte.
            let want = RequestView::decode(json).expect_err("decode_ask refused it");
            assert_eq!((e.kind(), e.offset()), (want.kind(), want.offset() + 1));
            assert_eq!(AskError::Body(e).to_string(), e.to_string());
            // A body error's parts, and as a frame error (transparent).
            let kind = e.kind().to_string();
            assert!(!kind.is_empty());
            let _ = e.field();
            let framed = FrameError::from(e);
            assert_eq!(framed.to_string(), e.to_string());
            assert!(core::error::Error::source(&framed).is_none());
            let _ = core::error::Error::source(&AskError::Body(e));
        }
        (Some((&READ_RESOURCE_KIND, json)), Ok(request)) => {
            assert_eq!(Ok(request), RequestView::decode(json));
            let mut body = vec![0u8; message.len() * 8 + 16];
            let n = encode_request_view(&request, &mut body[..]).expect("8× holds it");
            let mut whole = vec![0u8; n + 1];
            assert_eq!(encode_ask_view(&request, &mut whole[..]), Ok(n + 1));
            assert_eq!(whole[0], READ_RESOURCE_KIND);
            assert_eq!(&whole[1..], &body[..n]);
            assert_eq!(
                encode_ask_view(&request, &mut whole[..n]),
                Err(EncodeError::BufferFull)
            );
            let again = decode_ask(&whole).expect("an encoded ask decodes");
            assert_eq!(again.uri().to_string(), request.uri().to_string());
            // The ask encoder: the kind byte, then the request encoder's bytes.
            let mut a = vec![0u8; n + 1];
            let mut b = vec![0u8; n];
            let na = ask_encoder(&mut a[..]).and_then(|e| e.uri(request.uri())?.finish());
            let nb = RequestEncoder::new(&mut b[..]).and_then(|e| e.uri(request.uri())?.finish());
            let (na, nb) = (na.expect("fits"), nb.expect("fits"));
            assert_eq!((a[0], &a[1..na]), (READ_RESOURCE_KIND, &b[..nb]));
            assert!(ask_encoder(&mut [][..]).is_err());
            sinks(&request, &whole, message);
        }
        (_, ours) => panic!("decode_ask gave {ours:?} for {}", hex(message)),
    }
    for e in [AskError::Empty, AskError::Kind(2)] {
        assert!(!e.to_string().is_empty());
        assert!(core::error::Error::source(&e).is_none());
    }
}

/// The ask written through each kind of sink: a `heapless::Vec`, a
/// `Counter`, and an `IoSink` over a writer that fails (`Err`, or `Ok(0)`)
/// at a point taken from the message.
fn sinks(request: &RequestView<'_>, whole: &[u8], message: &[u8]) {
    let mut v = heapless::Vec::<u8, 256>::new();
    match encode_ask_view(request, &mut v) {
        Ok(n) => assert_eq!(&v[..n], whole),
        Err(e) => assert!(e == EncodeError::BufferFull && whole.len() > 256),
    }
    let mut counter = Counter::new();
    assert!(counter.is_empty());
    assert_eq!(encode_ask_view(request, &mut counter), Ok(whole.len()));
    assert_eq!((counter.len(), counter.is_empty()), (whole.len(), false));
    let at = usize::from(message.last().copied().unwrap_or(0));
    let zero = message.len().is_multiple_of(2);
    let down = Down {
        got: Vec::new(),
        most: 1 + at % 7,
        fail_at: Some(at),
        zero,
        flush_fails: false,
    };
    let mut sink = IoSink::new(down);
    assert!(format!("{sink:?}").starts_with("IoSink"));
    match encode_ask_view(request, &mut sink) {
        Ok(n) => {
            assert!(at >= whole.len() && n == whole.len());
            assert!(sink.error().is_none());
        }
        Err(EncodeError::BufferFull) => {
            assert!(zero && at < whole.len());
            assert!(sink.take_error().is_none());
        }
        Err(EncodeError::Write) => {
            assert!(!zero && at < whole.len());
            assert_eq!(sink.error(), Some(&ErrorKind::BrokenPipe));
            assert_eq!(sink.take_error(), Some(ErrorKind::BrokenPipe));
            assert!(sink.error().is_none());
        }
        Err(e) => panic!("IoSink gave {e:?}"),
    }
    let written = sink.get_mut().got.len();
    assert_eq!(sink.into_inner().got, whole[..written]);
}

/// Every method of a relay end, and its text.
fn relay_end_api(end: RelayEnd<ErrorKind, ErrorKind>) {
    let down = end.downstream();
    assert_eq!(
        down,
        if matches!(end, RelayEnd::Answered(_) | RelayEnd::NotServed) {
            Downstream::Close
        } else {
            Downstream::Abort
        }
    );
    let event = end.event();
    let shown = end.to_string();
    assert!(!shown.is_empty());
    match end.into_result() {
        Ok(tag) => {
            assert_eq!(down, Downstream::Close);
            assert_eq!(tag.is_some(), matches!(end, RelayEnd::Answered(_)));
            assert!(matches!(event, Some(Event::Message | Event::CleanClose)));
        }
        Err(e) => {
            assert_eq!(e.downstream(), Downstream::Abort);
            assert_eq!(e.to_string(), shown, "RelayError prints as its RelayEnd");
            // Each prints what it carries, so none has a source.
            assert!(core::error::Error::source(&e).is_none());
        }
    }
    let mapped: RelayEnd<u8, u16> = end.map_err(|_| 1, |_| 2);
    match (end, mapped) {
        (RelayEnd::Unanswered(_), RelayEnd::Unanswered(1))
        | (RelayEnd::Downstream(_), RelayEnd::Downstream(2)) => {}
        (a, b) => assert_eq!(a.map_err(|_| 0, |_| 0), b.map_err(|_| 0, |_| 0)),
    }
    let unit: RelayEnd = end.map_err(|_| (), |_| ());
    if matches!(end, RelayEnd::Unanswered(_) | RelayEnd::Downstream(_)) {
        assert!(shown.starts_with(&unit.to_string()), "{shown:?} / {unit}");
    } else {
        assert_eq!(unit.to_string(), shown);
    }
}

fn relays(message: &[u8], plan: &RelayPlan) {
    let down = Down {
        got: Vec::new(),
        most: plan.write_max,
        fail_at: plan.fail_at,
        zero: plan.zero,
        flush_fails: plan.flush_fails,
    };
    let (mut d1, mut d2) = (down.clone(), down);
    let mut u1 = Upstream {
        rest: message,
        most: plan.read_max,
        abrupt: plan.abrupt,
    };
    let mut u2 = Upstream {
        rest: message,
        most: plan.read_max,
        abrupt: plan.abrupt,
    };
    let (mut b1, mut b2) = (vec![0u8; plan.buf], vec![0u8; plan.buf]);
    let sync: Relayed<_, _> = relay(&mut u1, &mut d1, &mut b1, plan.cap);
    let not_sync = block_on(relay_async(&mut u2, &mut d2, &mut b2, plan.cap));
    let show = || format!("{sync:?} / {not_sync:?}, message {}", hex(message));
    assert_eq!(sync, not_sync, "relay and relay_async differ: {}", show());
    assert_eq!(d1.got, d2.got, "{}", show());
    assert_eq!(
        d1.got.as_slice(),
        &message[..sync.forwarded()],
        "{}",
        show()
    );
    match *sync.end() {
        RelayEnd::Downstream(ErrorKind::Interrupted) => {
            assert!(
                plan.flush_fails && sync.forwarded() == message.len(),
                "{}",
                show()
            );
        }
        RelayEnd::WriteZero => assert!(plan.zero, "{}", show()),
        RelayEnd::Downstream(e) => assert_eq!(e, ErrorKind::BrokenPipe, "{}", show()),
        RelayEnd::Answered(_) => assert!(!plan.flush_fails, "{}", show()),
        _ => {}
    }
    relay_end_api(*sync.end());

    // The push API over the relay's reads, with nothing going downstream:
    // the end the relay gives when the downstream never fails.
    let mut path = plan.cap.map_or_else(StreamPath::new, StreamPath::with_cap);
    assert_eq!(
        (path.cap(), path.len(), path.is_empty(), path.tag()),
        (plan.cap, 0, true, None)
    );
    let mut refused = None;
    let chunk = plan.buf.max(1).min(plan.read_max);
    for c in message.chunks(chunk) {
        match path.push(c) {
            Ok(()) => assert!(refused.is_none()),
            Err(r) => {
                assert_eq!(refused.get_or_insert(r), &r, "a refusal is sticky");
                let shown = r.to_string();
                assert!(!shown.is_empty());
                assert!(core::error::Error::source(&r).is_none());
                let as_error: RelayError = r.into();
                assert_eq!(as_error.to_string(), shown);
            }
        }
    }
    if refused.is_none() {
        assert_eq!(
            (path.len(), path.is_empty()),
            (message.len(), message.is_empty())
        );
        assert_eq!(
            path.tag().map(|t| t as u8),
            message.first().copied().filter(|&t| t <= 1)
        );
    }
    let pushed: RelayEnd<ErrorKind, ErrorKind> = if plan.abrupt {
        path.clone()
            .abort(ErrorKind::ConnectionReset)
            .map_err(|e| e, |never| match never {})
    } else {
        let _ = format!("{path:?}");
        let end: StreamEnd = path.clone().close();
        let wide: RelayEnd<(), ()> = end.widen();
        assert_eq!(end.downstream(), wide.downstream());
        assert_eq!(end.event(), wide.event());
        assert_eq!(end.to_string(), wide.to_string());
        assert_eq!(end.into_result().is_ok(), wide.into_result().is_ok());
        end.widen()
    };
    let downstream_failed = matches!(sync.end(), RelayEnd::Downstream(_) | RelayEnd::WriteZero);
    if !downstream_failed {
        assert_eq!(
            pushed,
            *sync.end(),
            "StreamPath and relay differ: {}",
            show()
        );
    }
    assert_eq!(StreamPath::default().cap(), None);
}

struct RelayPlan {
    buf: usize,
    cap: Option<usize>,
    read_max: usize,
    write_max: usize,
    fail_at: Option<usize>,
    zero: bool,
    flush_fails: bool,
    abrupt: bool,
}

/// The `exchange` target.
pub fn exchange(data: &[u8]) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    let message = data.get(4..).unwrap_or_default();
    exchange_script(u32::from(byte(0) & 3), &message[..message.len().min(64)]);
    let abrupt = byte(0) & 4 != 0;
    let read_max = 1 + usize::from(byte(2) & 15);
    paths(message, usize::from(byte(1)), read_max, abrupt);
    ask(message);
    relays(
        message,
        &RelayPlan {
            buf: usize::from(byte(1)),
            cap: (byte(0) & 0x40 != 0).then(|| 2 * usize::from(byte(3))),
            read_max,
            write_max: 1 + usize::from(byte(2) >> 4),
            fail_at: (byte(0) & 0x20 != 0).then(|| usize::from(byte(3))),
            zero: byte(0) & 8 != 0,
            flush_fails: byte(0) & 0x10 != 0,
            abrupt,
        },
    );
}
