//! A cut-through relay on a host runtime: `exchange::relay_async` over tokio
//! TCP, through `embedded-io-adapters` (`FromTokio`), no adapter of our own.
//!
//! A provider on one 127.0.0.1 ephemeral port serves one path per case (a
//! frame, an error frame, nothing, a frame that turns bad, a reset, a frame
//! past the cap); the relay reads it through a 4 KiB buffer and forwards each
//! validated chunk to a client on another ephemeral port. The checks are
//! examples/gateway.rs's: after a clean close the client holds the frame byte
//! for byte; after a bad frame (or any other abort) its connection is reset,
//! never closed cleanly. Every case is bounded by a timeout. Prints a
//! one-line summary; the exit code is 1 on any unexpected outcome.
//!
//! ```text
//! cargo run --release --example relay_tokio --features embedded-io-async
//! ```

#![allow(clippy::indexing_slicing)]

use std::io;
use std::process::ExitCode;
use std::time::Duration;

use diverge_frame::Tag;
use diverge_frame::exchange::{Downstream, RelayEnd, relay_async};
use embedded_io_adapters::tokio_1::FromTokio;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The relay's cap on a whole message (its buffer is only 4 KiB).
const CAP: usize = 2 << 20;
/// How long one case may take.
const TIMEOUT: Duration = Duration::from_secs(20);

type End = RelayEnd<io::Error, io::Error>;

/// One path to relay: what the provider sends, whether it then resets the
/// path (else it closes cleanly), and the relay's end it must give.
struct Case {
    name: &'static str,
    bytes: Vec<u8>,
    reset: bool,
    want: fn(&End) -> bool,
}

/// A valid result frame with one text item of at least `len` bytes.
fn big_text(len: usize) -> Vec<u8> {
    let mut f =
        b"\x00{\"contents\":[{\"uri\":\"docs://big\",\"mimeType\":\"text/plain\",\"text\":\""
            .to_vec();
    while f.len() < len {
        f.extend_from_slice("line \\u00e9 caf\u{e9} \\\"q\\\"\\n".as_bytes());
    }
    f.extend_from_slice(b"\"}]}");
    f
}

fn cases() -> Vec<Case> {
    let mut turns_bad = big_text(600_000);
    turns_bad[300_000] = 0x01; // a control character inside the text
    let error = b"\x01{\"code\":-32002,\"message\":\"Resource not found\"}".to_vec();
    #[rustfmt::skip]
    let cases = vec![
        Case { name: "text 1 MiB", bytes: big_text(1 << 20), reset: false,
               want: |e| matches!(e, RelayEnd::Answered(Tag::Result)) },
        Case { name: "error frame", bytes: error, reset: false,
               want: |e| matches!(e, RelayEnd::Answered(Tag::Error)) },
        Case { name: "not served", bytes: Vec::new(), reset: false,
               want: |e| matches!(e, RelayEnd::NotServed) },
        Case { name: "turns bad at 300 kB", bytes: turns_bad, reset: false,
               want: |e| matches!(e, RelayEnd::Malformed(_)) },
        Case { name: "reset mid-frame", bytes: big_text(100_000)[..50_000].to_vec(), reset: true,
               want: |e| matches!(e, RelayEnd::Unanswered(_)) },
        Case { name: "past the cap", bytes: big_text(3 << 20), reset: false,
               want: |e| matches!(e, RelayEnd::TooLarge(_)) },
    ];
    cases
}

/// Ends a TCP connection abruptly (RST), as the protocol's abort.
fn reset(stream: TcpStream) -> io::Result<()> {
    socket2::SockRef::from(&stream).set_linger(Some(Duration::ZERO))?;
    drop(stream);
    Ok(())
}

/// One path: provider → relay → client. `Ok` with the bytes forwarded and
/// what was done downstream when every check held, else what went wrong.
async fn run(case: &Case) -> Result<(usize, Downstream), String> {
    let e = |what: &'static str| move |err: io::Error| format!("{what}: {err}");
    let provider = TcpListener::bind("127.0.0.1:0").await.map_err(e("bind"))?;
    let gateway = TcpListener::bind("127.0.0.1:0").await.map_err(e("bind"))?;
    let (paddr, gaddr) = (
        provider.local_addr().map_err(e("addr"))?,
        gateway.local_addr().map_err(e("addr"))?,
    );

    // The provider: send the bytes, then close cleanly or reset. Its writes
    // may fail once the relay resets the path: that is the point.
    let (bytes, abort) = (case.bytes.clone(), case.reset);
    let served = tokio::spawn(async move {
        let (mut path, _) = provider.accept().await?;
        let _ = path.write_all(&bytes).await;
        if abort {
            reset(path)
        } else {
            path.shutdown().await
        }
    });
    // The client: read to the end; a reset is an error.
    let client = tokio::spawn(async move {
        let mut got = Vec::new();
        let mut conn = TcpStream::connect(gaddr).await?;
        conn.read_to_end(&mut got).await.map(|_| got)
    });

    // The relay.
    let (down, _) = gateway.accept().await.map_err(e("accept"))?;
    let up = TcpStream::connect(paddr).await.map_err(e("connect"))?;
    let (mut up, mut down) = (FromTokio::new(up), FromTokio::new(down));
    let mut buf = [0u8; 4096];
    let relayed = relay_async(&mut up, &mut down, &mut buf, Some(CAP)).await;
    let (up, down) = (up.into_inner(), down.into_inner());
    match relayed.end().downstream() {
        Downstream::Close => {
            let mut down = down;
            down.shutdown().await.map_err(e("close downstream"))?;
        }
        Downstream::Abort => reset(down).map_err(e("reset downstream"))?,
    }
    match *relayed.end() {
        // Upstream is left mid-message: reset it too.
        RelayEnd::Malformed(_)
        | RelayEnd::TooLarge(_)
        | RelayEnd::Downstream(_)
        | RelayEnd::WriteZero => {
            reset(up).map_err(e("reset upstream"))?;
        }
        _ => drop(up),
    }
    let _ = served.await;
    let got = client.await.map_err(|err| format!("client: {err}"))?;

    if !(case.want)(relayed.end()) {
        return Err(format!("unexpected relay end: {}", relayed.end()));
    }
    match (relayed.end().downstream(), got) {
        (Downstream::Close, Ok(got)) if got == case.bytes => Ok((got.len(), Downstream::Close)),
        (Downstream::Close, Ok(got)) => Err(format!(
            "client got {} B, not the {} B sent",
            got.len(),
            case.bytes.len()
        )),
        (Downstream::Close, Err(err)) => Err(format!("client: {err} after a clean close")),
        (Downstream::Abort, Err(err)) if err.kind() == io::ErrorKind::ConnectionReset => {
            Ok((relayed.forwarded(), Downstream::Abort))
        }
        (Downstream::Abort, got) => Err(format!("client was not reset: {got:?}")),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let cases = cases();
    let (mut unexpected, mut relayed, mut checked, mut resets) = (0, 0, 0, 0);
    for case in &cases {
        match tokio::time::timeout(TIMEOUT, run(case)).await {
            Ok(Ok((forwarded, downstream))) => {
                relayed += forwarded;
                match downstream {
                    Downstream::Close => checked += 1,
                    Downstream::Abort => resets += 1,
                }
            }
            Ok(Err(why)) => {
                unexpected += 1;
                eprintln!("relay_tokio: {}: {why}", case.name);
            }
            Err(_) => {
                unexpected += 1;
                eprintln!("relay_tokio: {}: no end within {TIMEOUT:?}", case.name);
            }
        }
    }
    println!(
        "relay_tokio: {} paths, {} as expected, {unexpected} unexpected; {checked} paths byte for byte after a clean close, \
         {resets} downstream resets after bad or cut paths; {:.1} MB relayed through a 4 KiB buffer (tokio, FromTokio, relay_async)",
        cases.len(),
        cases.len() - unexpected,
        relayed as f64 / 1e6,
    );
    if unexpected == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
