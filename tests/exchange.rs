//! The exchange layer over real loopback TCP sockets: clean close, abrupt
//! reset (`SO_LINGER` 0), oversize messages, partial reads, and a whole
//! exchange in which `/requests` ends before the path opens.
//!
//! The push API needs no feature; `read_path` and `read_path_async` are
//! tested when `embedded-io` / `embedded-io-async` are on.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

use std::io::{ErrorKind, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use diverge_frame::exchange::{
    Event, Exchange, PathEnd, PathReader, READ_RESOURCE_KIND, Status, TooLarge,
};
use diverge_frame::{Frame, RequestView};

/// A real result frame: tag 0, then rmcp's `ReadResourceResult` JSON.
const HELLO: &[u8] = b"\x00{\"contents\":[{\"uri\":\"docs://x\",\"mimeType\":\"text/plain\",\"text\":\"h\\u00e9llo \\\"w\\\"\\n\"}]}";

/// How the server side ends the path after writing.
#[derive(Clone, Copy)]
enum Close {
    /// FIN after the bytes.
    Clean,
    /// RST: `SO_LINGER` 0, then drop.
    Reset,
}

fn reset(stream: TcpStream) {
    socket2::SockRef::from(&stream)
        .set_linger(Some(Duration::ZERO))
        .unwrap();
    drop(stream);
}

/// A loopback path: a thread that accepts one connection, writes `bytes`
/// and ends it as `close` says; returns the client's end.
fn path(bytes: Vec<u8>, close: Close) -> (TcpStream, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let server = thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        // The client may stop reading (too large) and close first: that
        // write error is part of the scenario, not a failure.
        let _ = stream.write_all(&bytes);
        match close {
            Close::Clean => drop(stream),
            Close::Reset => {
                // Let the bytes reach the client before the reset.
                let _ = stream.flush();
                thread::sleep(Duration::from_millis(20));
                reset(stream);
            }
        }
    });
    let client = TcpStream::connect(addr).unwrap();
    client
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    (client, server)
}

/// Reads a path with the push API, `chunk` bytes per `read` call.
fn push_read<'b>(
    stream: &mut TcpStream,
    buf: &'b mut [u8],
    chunk: usize,
) -> Result<PathEnd<&'b [u8]>, TooLarge> {
    let mut reader = PathReader::new(buf);
    let mut scratch = vec![0u8; chunk];
    loop {
        match stream.read(&mut scratch) {
            Ok(0) => return reader.close(),
            Ok(n) => reader.push(&scratch[..n])?,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return reader.abort(),
        }
    }
}

fn big_frame(len: usize) -> Vec<u8> {
    let head = b"\x00{\"contents\":[{\"uri\":\"docs://big\",\"text\":\"";
    let tail = b"\"}]}";
    let mut frame = head.to_vec();
    frame.resize(len - tail.len(), b'a');
    frame.extend_from_slice(tail);
    frame
}

#[test]
fn push_clean_close_with_a_message_is_that_message() {
    let (mut client, server) = path(HELLO.to_vec(), Close::Clean);
    let mut buf = [0u8; 256];
    let end = push_read(&mut client, &mut buf, 4096).unwrap();
    assert_eq!(end, PathEnd::Message(HELLO));
    let Some(Frame::Result(result)) = end.decode().unwrap().message() else {
        panic!("not a result frame")
    };
    assert_eq!(result.contents().count(), 1);
    drop(client);
    server.join().unwrap();
}

#[test]
fn push_clean_close_with_no_bytes_is_not_served() {
    let (mut client, server) = path(Vec::new(), Close::Clean);
    let mut buf = [0u8; 256];
    assert_eq!(
        push_read(&mut client, &mut buf, 4096),
        Ok(PathEnd::NotServed)
    );
    drop(client);
    server.join().unwrap();
}

#[test]
fn push_reset_after_part_of_a_message_is_unanswered() {
    let (mut client, server) = path(HELLO[..20].to_vec(), Close::Reset);
    let mut buf = [0u8; 256];
    assert_eq!(
        push_read(&mut client, &mut buf, 4096),
        Ok(PathEnd::Unanswered(()))
    );
    server.join().unwrap();
}

#[test]
fn push_reset_with_no_bytes_is_unanswered_not_not_served() {
    let (mut client, server) = path(Vec::new(), Close::Reset);
    let mut buf = [0u8; 256];
    assert_eq!(
        push_read(&mut client, &mut buf, 4096),
        Ok(PathEnd::Unanswered(()))
    );
    server.join().unwrap();
}

#[test]
fn push_oversize_is_too_large_with_the_limit() {
    let (mut client, server) = path(big_frame(100_000), Close::Clean);
    let mut buf = vec![0u8; 65_536];
    let err = push_read(&mut client, &mut buf, 4096).unwrap_err();
    assert_eq!(err.limit(), 65_536);
    drop(client);
    server.join().unwrap();
}

#[test]
fn push_one_byte_reads_give_the_same_message() {
    let frame = big_frame(3_000);
    let (mut client, server) = path(frame.clone(), Close::Clean);
    let mut buf = vec![0u8; 3_000]; // exactly fits
    let end = push_read(&mut client, &mut buf, 1).unwrap();
    assert_eq!(end, PathEnd::Message(&frame[..]));
    assert!(end.decode().is_ok());
    drop(client);
    server.join().unwrap();
}

/// `/requests` framing for this test: a big-endian `u32` length, then the
/// ask (kind byte, request JSON). The path is one connection to the
/// gateway's path listener.
fn send_ask(requests: &mut TcpStream, uri: &str) {
    let mut ask = vec![READ_RESOURCE_KIND];
    ask.extend_from_slice(format!("{{\"uri\":\"{uri}\"}}").as_bytes());
    requests
        .write_all(&u32::try_from(ask.len()).unwrap().to_be_bytes())
        .unwrap();
    requests.write_all(&ask).unwrap();
}

fn recv_ask(requests: &mut TcpStream) -> Option<String> {
    let mut len = [0u8; 4];
    requests.read_exact(&mut len).ok()?;
    let mut ask = vec![0u8; u32::from_be_bytes(len) as usize];
    requests.read_exact(&mut ask).ok()?;
    let (&kind, json) = ask.split_first()?;
    assert_eq!(kind, READ_RESOURCE_KIND);
    let request = RequestView::decode(json).unwrap();
    let mut uri = [0u8; 64];
    Some(request.uri().unescape_into(&mut uri).unwrap().to_owned())
}

/// What the gateway sees while it waits for the path.
enum Waited {
    PathOpened(TcpStream),
    RequestsEnded,
}

/// Waits (bounded: 10 s) for the path to be opened or `/requests` to end.
fn wait_for_path(listener: &TcpListener, requests: &mut TcpStream) -> Waited {
    listener.set_nonblocking(true).unwrap();
    requests
        .set_read_timeout(Some(Duration::from_millis(10)))
        .unwrap();
    for _ in 0..1000 {
        match listener.accept() {
            Ok((stream, _)) => {
                stream.set_nonblocking(false).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                return Waited::PathOpened(stream);
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            Err(e) => panic!("accept: {e}"),
        }
        match requests.read(&mut [0u8; 1]) {
            Ok(0) => return Waited::RequestsEnded,
            Ok(_) => panic!("the provider does not write on /requests"),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Waited::RequestsEnded,
        }
    }
    panic!("neither a path nor the end of /requests within 10 s")
}

#[test]
fn requests_ending_before_the_path_opens_is_asked_again_and_answered() {
    let requests_listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let requests_addr = requests_listener.local_addr().unwrap();
    let path_listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let path_addr = path_listener.local_addr().unwrap();

    // The provider: drops the first /requests connection once the ask is in,
    // answers the ask on the second one.
    let provider = thread::spawn(move || {
        let (mut first, _) = requests_listener.accept().unwrap();
        assert_eq!(recv_ask(&mut first).as_deref(), Some("docs://x"));
        drop(first);
        let (mut second, _) = requests_listener.accept().unwrap();
        assert_eq!(recv_ask(&mut second).as_deref(), Some("docs://x"));
        let mut path = TcpStream::connect(path_addr).unwrap();
        path.write_all(HELLO).unwrap();
        drop(path);
        // Wait for the gateway to hang up /requests.
        assert!(recv_ask(&mut second).is_none());
    });

    let mut exchange = Exchange::new(1);
    let mut buf = [0u8; 512];
    let mut outcome = None;
    for _ in 0..3 {
        assert!(exchange.status().needs_ask());
        let mut requests = TcpStream::connect(requests_addr).unwrap();
        send_ask(&mut requests, "docs://x");
        exchange.on(Event::AskSent).unwrap();
        match wait_for_path(&path_listener, &mut requests) {
            Waited::RequestsEnded => {
                assert_eq!(exchange.on(Event::RequestsEnded), Ok(Status::AskAgain));
            }
            Waited::PathOpened(mut path) => {
                assert_eq!(exchange.on(Event::PathOpened), Ok(Status::PathOpen));
                let end = push_read(&mut path, &mut buf, 4096).unwrap();
                assert_eq!(exchange.path_ended(&end), Ok(Status::Answered));
                outcome = end.message().map(<[u8]>::to_vec);
                drop(requests);
                break;
            }
        }
    }
    assert_eq!(outcome.as_deref(), Some(HELLO));
    assert_eq!((exchange.asks(), exchange.retries()), (2, 1));
    provider.join().unwrap();
}

/// `embedded-io` adapters for a std `TcpStream` (the crate has no std
/// feature; these live in the test).
#[cfg(any(feature = "embedded-io", feature = "embedded-io-async"))]
mod io {
    use std::io::Read as _;
    use std::net::TcpStream;

    #[cfg(feature = "embedded-io")]
    pub(crate) use embedded_io::{Error, ErrorKind, ErrorType};
    #[cfg(not(feature = "embedded-io"))]
    pub(crate) use embedded_io_async::{Error, ErrorKind, ErrorType};

    /// A std I/O error as an `embedded_io::Error`.
    #[derive(Debug)]
    pub(crate) struct IoError(pub(crate) std::io::Error);

    impl core::fmt::Display for IoError {
        fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl core::error::Error for IoError {}

    impl Error for IoError {
        fn kind(&self) -> ErrorKind {
            match self.0.kind() {
                std::io::ErrorKind::ConnectionReset => ErrorKind::ConnectionReset,
                std::io::ErrorKind::ConnectionAborted => ErrorKind::ConnectionAborted,
                std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                    ErrorKind::TimedOut
                }
                std::io::ErrorKind::Interrupted => ErrorKind::Interrupted,
                _ => ErrorKind::Other,
            }
        }
    }

    /// A socket that returns at most `step` bytes per `read`.
    pub(crate) struct Tcp {
        pub(crate) stream: TcpStream,
        pub(crate) step: usize,
        pub(crate) reads: usize,
    }

    impl Tcp {
        pub(crate) fn new(stream: TcpStream, step: usize) -> Self {
            Self {
                stream,
                step,
                reads: 0,
            }
        }

        pub(crate) fn read_some(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
            self.reads += 1;
            let n = buf.len().min(self.step);
            loop {
                match self.stream.read(&mut buf[..n]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    other => return other.map_err(IoError),
                }
            }
        }
    }

    impl ErrorType for Tcp {
        type Error = IoError;
    }

    #[cfg(feature = "embedded-io")]
    impl embedded_io::Read for Tcp {
        fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
            self.read_some(buf)
        }
    }

    #[cfg(feature = "embedded-io-async")]
    impl embedded_io_async::Read for Tcp {
        async fn read(&mut self, buf: &mut [u8]) -> Result<usize, IoError> {
            // A blocking read inside a future: enough for a test executor
            // that polls one future to completion.
            self.read_some(buf)
        }
    }
}

#[cfg(feature = "embedded-io")]
mod blocking {
    use super::io::{ErrorKind, Tcp};
    use super::*;
    use diverge_frame::exchange::read_path;
    use embedded_io::Error as _;

    #[test]
    fn clean_close_is_the_message_and_decodes() {
        let (client, server) = path(HELLO.to_vec(), Close::Clean);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = [0u8; 256];
        let end = read_path(&mut tcp, &mut buf).unwrap();
        assert!(matches!(end, PathEnd::Message(m) if m == HELLO));
        assert!(matches!(
            end.decode(),
            Ok(PathEnd::Message(Frame::Result(_)))
        ));
        drop(tcp);
        server.join().unwrap();
    }

    #[test]
    fn clean_close_with_no_bytes_is_not_served() {
        let (client, server) = path(Vec::new(), Close::Clean);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = [0u8; 256];
        assert!(matches!(
            read_path(&mut tcp, &mut buf),
            Ok(PathEnd::NotServed)
        ));
        drop(tcp);
        server.join().unwrap();
    }

    #[test]
    fn reset_is_unanswered_with_connection_reset() {
        let (client, server) = path(HELLO[..30].to_vec(), Close::Reset);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = [0u8; 256];
        match read_path(&mut tcp, &mut buf) {
            Ok(PathEnd::Unanswered(err)) => assert_eq!(err.kind(), ErrorKind::ConnectionReset),
            other => panic!("expected unanswered, got {other:?}"),
        }
        server.join().unwrap();
    }

    #[test]
    fn oversize_is_too_large_and_not_a_frame_error() {
        let (client, server) = path(big_frame(200_000), Close::Clean);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = vec![0u8; 100_000];
        let err = read_path(&mut tcp, &mut buf).unwrap_err();
        assert_eq!(err.limit(), 100_000);
        assert_eq!(
            err.to_string(),
            "message larger than the 100000-byte buffer"
        );
        drop(tcp);
        server.join().unwrap();
    }

    #[test]
    fn exact_fit_over_a_socket_is_whole() {
        let frame = big_frame(50_000);
        let (client, server) = path(frame.clone(), Close::Clean);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = vec![0u8; 50_000];
        let end = read_path(&mut tcp, &mut buf).unwrap();
        assert!(matches!(end, PathEnd::Message(m) if m == frame));
        drop(tcp);
        server.join().unwrap();
    }

    #[test]
    fn one_byte_per_read_gives_the_same_message() {
        let frame = big_frame(2_000);
        let (client, server) = path(frame.clone(), Close::Clean);
        let mut tcp = Tcp::new(client, 1);
        let mut buf = vec![0u8; 4_096];
        let end = read_path(&mut tcp, &mut buf).unwrap();
        assert!(matches!(end, PathEnd::Message(m) if m == frame));
        assert_eq!(tcp.reads, frame.len() + 1, "one read per byte, then EOF");
        drop(tcp);
        server.join().unwrap();
    }

    #[test]
    fn one_byte_per_read_then_reset_is_unanswered() {
        let (client, server) = path(HELLO.to_vec(), Close::Reset);
        let mut tcp = Tcp::new(client, 1);
        let mut buf = [0u8; 256];
        assert!(matches!(
            read_path(&mut tcp, &mut buf),
            Ok(PathEnd::Unanswered(_))
        ));
        server.join().unwrap();
    }

    #[test]
    fn a_one_mebibyte_message_arrives_whole() {
        let frame = big_frame(1 << 20);
        let (client, server) = path(frame.clone(), Close::Clean);
        let mut tcp = Tcp::new(client, usize::MAX);
        let mut buf = vec![0u8; (1 << 20) + 1];
        let end = read_path(&mut tcp, &mut buf).unwrap();
        assert!(matches!(end, PathEnd::Message(m) if m == frame));
        assert!(end.decode().is_ok());
        drop(tcp);
        server.join().unwrap();
    }
}

#[cfg(feature = "embedded-io-async")]
mod asynch {
    use super::io::{ErrorKind, IoError, Tcp};
    use super::*;
    use core::pin::pin;
    use core::task::{Context, Poll, Waker};
    use diverge_frame::exchange::read_path_async;
    use embedded_io_async::Error as _;

    /// Polls a future to completion (the adapter's reads never pend).
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        for _ in 0..1_000_000 {
            if let Poll::Ready(out) = future.as_mut().poll(&mut cx) {
                return out;
            }
        }
        panic!("future did not complete")
    }

    fn read(
        stream: TcpStream,
        step: usize,
        buf: &mut [u8],
    ) -> Result<PathEnd<&[u8], IoError>, TooLarge> {
        let mut tcp = Tcp::new(stream, step);
        block_on(read_path_async(&mut tcp, buf))
    }

    #[test]
    fn clean_close_is_the_message() {
        let (client, server) = path(HELLO.to_vec(), Close::Clean);
        let mut buf = [0u8; 256];
        assert!(matches!(read(client, 7, &mut buf), Ok(PathEnd::Message(m)) if m == HELLO));
        server.join().unwrap();
    }

    #[test]
    fn clean_close_with_no_bytes_is_not_served() {
        let (client, server) = path(Vec::new(), Close::Clean);
        let mut buf = [0u8; 256];
        assert!(matches!(read(client, 7, &mut buf), Ok(PathEnd::NotServed)));
        server.join().unwrap();
    }

    #[test]
    fn reset_is_unanswered() {
        let (client, server) = path(HELLO[..10].to_vec(), Close::Reset);
        let mut buf = [0u8; 256];
        match read(client, 1, &mut buf) {
            Ok(PathEnd::Unanswered(err)) => assert_eq!(err.kind(), ErrorKind::ConnectionReset),
            other => panic!("expected unanswered, got {other:?}"),
        }
        server.join().unwrap();
    }

    #[test]
    fn oversize_is_too_large() {
        let (client, server) = path(big_frame(10_000), Close::Clean);
        let mut buf = vec![0u8; 9_999];
        assert_eq!(
            read(client, 1_000, &mut buf)
                .map(|_| ())
                .map_err(|e| e.limit()),
            Err(9_999)
        );
        server.join().unwrap();
    }
}
