//! Instruction counts: each `ic_*` function decodes one input `N` times and
//! is run alone under callgrind by `ic.sh`
//! (`valgrind --tool=callgrind --toggle-collect=ic_<name> target/release/ic <name>`).
//! Ir per decode = collected Ir / N.
//!
//! `ic_validator_{64,4k}` and `ic_reader_{64,4k}` feed the frame to
//! `diverge_frame::stream`'s `FrameValidator` / `Reader::<256>` in chunks of
//! 64 B or 4 KiB (`src/stream.rs`); `ic.sh` prints them in a second table.

use std::hint::black_box;

use diverge_frame_benches::{competitors as comp, inputs, stream, walk};

/// Decodes per measured call (`ic.sh` divides by it); the 1 MiB, blob and
/// varied inputs (not in `ic.sh`, for profiling) use `N / 100` (for varied,
/// each call is all 512 frames).
pub const N: usize = 1000;

static REPEAT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(N);

macro_rules! ic {
    ($($name:ident => |$x:ident, $buf:ident| $body:expr;)*) => {
        $(
            #[unsafe(no_mangle)]
            #[inline(never)]
            pub fn $name($x: &[u8], $buf: &mut [u8]) -> usize {
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
    ic_varied_reference => |x, _b| each(x, comp::reference);
    ic_validator_64 => |x, _b| stream::validate(x, 64) as usize;
    ic_validator_4k => |x, _b| stream::validate(x, 4096) as usize;
    ic_reader_64 => |x, _b| stream::read(x, 64);
    ic_reader_4k => |x, _b| stream::read(x, 4096);
}

/// The `varied` input is the 512 frames, each behind its length (`u32`, little
/// endian): runs `f` on each in turn.
fn each(mut x: &[u8], mut f: impl FnMut(&[u8]) -> usize) -> usize {
    let mut n = 0usize;
    while let Some((len, rest)) = x.split_first_chunk::<4>() {
        let (frame, rest) = rest.split_at(u32::from_le_bytes(*len) as usize);
        n = n.wrapping_add(f(frame));
        x = rest;
    }
    n
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(func), Some(input)) = (args.next(), args.next()) else {
        eprintln!("usage: ic <function|size> <small|medium|error|request>");
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
        "varied" => inputs::varied()
            .iter()
            .flat_map(|f| {
                (f.len() as u32)
                    .to_le_bytes()
                    .into_iter()
                    .chain(f.iter().copied())
            })
            .collect(),
        other => panic!("unknown input {other}"),
    };
    if bytes.len() > 10_000 {
        REPEAT.store(N / 100, std::sync::atomic::Ordering::Relaxed);
    }
    if func == "size" {
        println!("{}", bytes.len());
        return;
    }
    if func == "dump" {
        use std::io::Write as _;
        std::io::stdout().write_all(&bytes).unwrap();
        return;
    }
    let f = FNS
        .iter()
        .find(|(name, _)| *name == func)
        .unwrap_or_else(|| panic!("unknown function {func}"))
        .1;
    let mut buf = vec![0u8; 2 << 20];
    black_box(f(&bytes, &mut buf));
}
