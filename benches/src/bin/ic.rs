//! Instruction counts: each `ic_*` function decodes one input `N` times and
//! is run alone under callgrind by `ic.sh`
//! (`valgrind --tool=callgrind --toggle-collect=ic_<name> target/release/ic <name>`).
//! Ir per decode = collected Ir / N.
//!
//! The sets (`varied`, `sdk`: 512 frames each, behind their lengths) go
//! through `ic_varied_*` / `ic_sdk_*`, where one call is one pass over all 512
//! frames. An optional third argument sets the number of calls (`ic.sh` runs
//! the sets with 2; `ic calls <input>` prints the default for an input).
//!
//! `ic_validator_{64,4k}` and `ic_reader_{64,4k}` feed the frame to
//! `diverge_frame::stream`'s `FrameValidator` / `Reader::<256>` in chunks of
//! 64 B or 4 KiB (`src/stream.rs`); `ic.sh` prints them in a second table.

use std::hint::black_box;

use diverge_frame_benches::{competitors as comp, inputs, stream, walk};

/// Decodes per measured call (`ic.sh` divides by it); the 1 MiB, blob and
/// set inputs use `N / 100` (for the sets, each call is all 512 frames) unless
/// the third argument says otherwise.
pub const N: usize = 1000;

static REPEAT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(N);

macro_rules! ic {
    ($($name:ident => |$x:ident, $buf:ident| $body:expr;)*) => {
        $(
            #[unsafe(no_mangle)]
            #[inline(never)]
            pub fn $name($x: &[u8], $buf: &mut [u8]) -> usize {
                // A constant of its own, so that rustc's function merging
                // (on by default) cannot fold two functions with the same
                // body (`ic_varied_*` and `ic_sdk_*`) into one symbol, which
                // callgrind's --toggle-collect would then not find.
                black_box(stringify!($name));
                let mut n = 0usize;
                for _ in 0..REPEAT.load(std::sync::atomic::Ordering::Relaxed) {
                    let $x = black_box($x);
                    n = n.wrapping_add($body);
                }
                n
            }
        )*
        const FNS: &[(&str, fn(&[u8], &mut [u8]) -> usize)] = &[$((stringify!($name), $name)),*];
    };
}

ic! {
    ic_ours_decode => |x, _b| walk::decode(x) as usize;
    ic_ours_walk => |x, b| walk::decode_walk(x, b);
    ic_reference => |x, _b| comp::reference(x);
    ic_ours_rmcp => |x, _b| walk::to_rmcp(x);
    ic_ours_request_decode => |x, _b| walk::request_decode(x) as usize;
    ic_ours_request => |x, b| walk::request_walk(x, b);
    ic_reference_request => |x, _b| comp::reference_request(x);
    ic_ours_rmcp_request => |x, _b| walk::to_rmcp_request(x);
    ic_varied_decode => |x, _b| each(x, |f| walk::decode(f) as usize);
    ic_varied_walk => |x, b| each(x, |f| walk::decode_walk(f, b));
    ic_varied_rmcp => |x, _b| each(x, walk::to_rmcp);
    ic_varied_reference => |x, _b| each(x, comp::reference);
    ic_sdk_decode => |x, _b| each(x, |f| walk::decode(f) as usize);
    ic_sdk_walk => |x, b| each(x, |f| walk::decode_walk(f, b));
    ic_sdk_rmcp => |x, _b| each(x, walk::to_rmcp);
    ic_sdk_reference => |x, _b| each(x, comp::reference);
    ic_floor => |_x, _b| floor();
    ic_varied_floor => |_x, _b| floor();
    ic_sdk_floor => |_x, _b| floor();
    ic_validator_64 => |x, _b| stream::validate(x, 64) as usize;
    ic_validator_4k => |x, _b| stream::validate(x, 4096) as usize;
    ic_reader_64 => |x, _b| stream::read(x, 64);
    ic_reader_4k => |x, _b| stream::read(x, 4096);
}

/// The reference's values of the input's frames, made before the measured
/// call (`ic_*floor`).
enum Values {
    Frames(Vec<diverge_frame::rmcp::OwnedFrame>),
    Request(rmcp::model::ReadResourceRequestParams),
}

static VALUES: std::sync::OnceLock<Values> = std::sync::OnceLock::new();

/// The floor of any decoder into the rmcp types: the value's allocations,
/// copies and frees, without reading a byte of JSON (each value of the input
/// cloned from the reference's and dropped).
fn floor() -> usize {
    match black_box(VALUES.get().expect("floor: values made in main")) {
        Values::Frames(frames) => frames
            .iter()
            .map(|frame| match frame.clone() {
                diverge_frame::rmcp::OwnedFrame::Result(r) => r.contents.len(),
                diverge_frame::rmcp::OwnedFrame::Error(e) => e.message.len(),
            })
            .sum(),
        Values::Request(request) => request.clone().uri.len(),
    }
}

/// A set input (`varied`, `sdk`) is its 512 frames, each behind its length
/// (`u32`, little endian): runs `f` on each in turn.
fn each(mut x: &[u8], mut f: impl FnMut(&[u8]) -> usize) -> usize {
    let mut n = 0usize;
    while let Some((len, rest)) = x.split_first_chunk::<4>() {
        let (frame, rest) = rest.split_at(u32::from_le_bytes(*len) as usize);
        n = n.wrapping_add(f(frame));
        x = rest;
    }
    n
}

/// The frames of a set, each behind its length, for [`each`].
fn set(frames: &[Vec<u8>]) -> Vec<u8> {
    frames
        .iter()
        .flat_map(|f| {
            (f.len() as u32)
                .to_le_bytes()
                .into_iter()
                .chain(f.iter().copied())
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(func), Some(input)) = (args.next(), args.next()) else {
        eprintln!(
            "usage: ic <function|size|calls|dump> <small|medium|error|request|dense_1m|plain_1m|blob_64k|varied|sdk|@FILE> [calls]"
        );
        eprintln!(
            "functions: {}",
            FNS.iter().map(|f| f.0).collect::<Vec<_>>().join(" ")
        );
        std::process::exit(2);
    };
    let bytes = match input.as_str() {
        "small" => inputs::small(),
        "medium" => inputs::medium(),
        "error" => inputs::error(),
        "request" => inputs::request(),
        "dense_1m" => inputs::dense_1m(),
        "plain_1m" => inputs::plain_1m(),
        "blob_64k" => inputs::blob_64k(),
        "varied" => set(&inputs::varied()),
        "sdk" => set(&inputs::sdk()),
        // Any one frame, from a file (`ic dump medium > f`, edited).
        other => match other.strip_prefix('@') {
            Some(path) => std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}")),
            None => panic!("unknown input {other}"),
        },
    };
    let mut calls = if bytes.len() > 10_000 { N / 100 } else { N };
    if let Some(n) = args.next() {
        calls = n.parse().expect("calls: a number");
    }
    REPEAT.store(calls, std::sync::atomic::Ordering::Relaxed);
    if func == "size" {
        // For a set, the frames' bytes without the length prefixes.
        let frames = if matches!(input.as_str(), "varied" | "sdk") {
            512
        } else {
            0
        };
        println!("{}", bytes.len() - 4 * frames);
        return;
    }
    if func == "calls" {
        println!("{calls}");
        return;
    }
    if func == "dump" {
        use std::io::Write as _;
        std::io::stdout().write_all(&bytes).unwrap();
        return;
    }
    if func.ends_with("floor") {
        let values = match input.as_str() {
            "request" => Values::Request(comp::reference_request_value(&bytes)),
            "varied" => Values::Frames(
                inputs::varied()
                    .iter()
                    .map(|f| comp::reference_frame(f))
                    .collect(),
            ),
            "sdk" => Values::Frames(
                inputs::sdk()
                    .iter()
                    .map(|f| comp::reference_frame(f))
                    .collect(),
            ),
            _ => Values::Frames(vec![comp::reference_frame(&bytes)]),
        };
        VALUES.set(values).ok();
    }
    let f = FNS
        .iter()
        .find(|(name, _)| *name == func)
        .unwrap_or_else(|| panic!("unknown function {func}"))
        .1;
    let mut buf = vec![0u8; 2 << 20];
    black_box(f(&bytes, &mut buf));
}
