//! Decoding benches: one group per input, every decoder side by side, so each
//! ratio to the reference comes from one run.
//!
//! ```text
//! cd benches && cargo bench --bench decode
//! cargo bench --bench decode -- medium          # one group
//! cargo bench --bench decode -- --quick         # smoke
//! ```
//!
//! Decoders (function names in each group):
//! * `split`: `Frame::split` alone (O(1)); `decode`: `Frame::decode`;
//! * `decode_walk`: `Frame::decode` plus reading every value through the
//!   views (strings unescaped into a buffer, blobs base64-decoded);
//! * `to_rmcp`: bytes to the rmcp types through this crate
//!   (`diverge_frame::rmcp::decode_frame`, feature `alloc`): the host path,
//!   the same values as the reference;
//! * `reference`: `serde_json::from_slice` into the rmcp types;
//! * `serde_json_borrowed`, `sonic_rs_borrowed`, `simd_json_borrowed`:
//!   hand-written borrowed structs (see `src/competitors.rs`).
//!
//! Streaming (`diverge_frame::stream`): one `stream_<input>` group per input
//! (`cargo bench --bench decode -- stream_`), so each ratio to `Frame::decode`
//! comes from one run:
//! * `decode` and `reference` as above, on the same frames;
//! * `validator_{64,1k,4k,64k}`: `FrameValidator` (`RequestValidator` for the
//!   request) fed the frame in chunks of 64 B, 1 KiB, 4 KiB, 64 KiB, then
//!   `finish`;
//! * `reader_{64,1k,4k,64k}`: `Reader::<256>` likewise, its events consumed by
//!   summing their lengths (see `src/stream.rs`). Not for the request.
//!
//! An input shorter than a chunk is fed as one chunk.
//!
//! Encoding benches will sit in `benches/encode.rs` beside these.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use diverge_frame_benches::competitors as comp;
use diverge_frame_benches::{inputs, stream, walk};
use others::Simd;

mod others;

fn frames(c: &mut Criterion) {
    let mut buf = vec![0u8; 2 << 20];
    let mut simd = Simd::new(2 << 20);
    for (name, input) in inputs::all() {
        let input = input.as_slice();
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function("split", |b| b.iter(|| walk::split(black_box(input))));
        g.bench_function("decode", |b| b.iter(|| walk::decode(black_box(input))));
        g.bench_function("decode_walk", |b| {
            b.iter(|| walk::decode_walk(black_box(input), &mut buf))
        });
        g.bench_function("to_rmcp", |b| b.iter(|| walk::to_rmcp(black_box(input))));
        g.bench_function("reference", |b| {
            b.iter(|| comp::reference(black_box(input)))
        });
        g.bench_function("serde_json_borrowed", |b| {
            b.iter(|| comp::serde_borrowed(black_box(input)))
        });
        g.bench_function("sonic_rs_borrowed", |b| {
            b.iter(|| others::sonic_borrowed(black_box(input)))
        });
        g.bench_function("simd_json_borrowed", |b| {
            b.iter(|| simd.decode(black_box(input)))
        });
        g.finish();
    }
}

fn request(c: &mut Criterion) {
    let mut buf = vec![0u8; 4096];
    let mut simd = Simd::new(4096);
    let input = inputs::request();
    let input = input.as_slice();
    let mut g = c.benchmark_group("request");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| walk::request_decode(black_box(input)))
    });
    g.bench_function("decode_walk", |b| {
        b.iter(|| walk::request_walk(black_box(input), &mut buf))
    });
    g.bench_function("to_rmcp", |b| {
        b.iter(|| walk::to_rmcp_request(black_box(input)))
    });
    g.bench_function("reference", |b| {
        b.iter(|| comp::reference_request(black_box(input)))
    });
    g.bench_function("serde_json_borrowed", |b| {
        b.iter(|| comp::serde_borrowed_request(black_box(input)))
    });
    g.bench_function("sonic_rs_borrowed", |b| {
        b.iter(|| others::sonic_borrowed_request(black_box(input)))
    });
    g.bench_function("simd_json_borrowed", |b| {
        b.iter(|| simd.request(black_box(input)))
    });
    g.finish();
}

/// 512 distinct frames per iteration: branch predictors and caches cannot
/// learn one input.
fn varied(c: &mut Criterion) {
    let set = inputs::varied();
    let total: usize = set.iter().map(Vec::len).sum();
    let mut buf = vec![0u8; 1 << 16];
    let mut simd = Simd::new(1 << 16);
    let mut g = c.benchmark_group("varied");
    g.throughput(Throughput::Bytes(total as u64));
    let each =
        |f: &mut dyn FnMut(&[u8]) -> usize| set.iter().map(|x| f(black_box(x))).sum::<usize>();
    g.bench_function("split", |b| b.iter(|| each(&mut walk::split)));
    g.bench_function("decode", |b| {
        b.iter(|| each(&mut |x| walk::decode(x) as usize))
    });
    g.bench_function("decode_walk", |b| {
        b.iter(|| each(&mut |x| walk::decode_walk(x, &mut buf)))
    });
    g.bench_function("to_rmcp", |b| b.iter(|| each(&mut walk::to_rmcp)));
    g.bench_function("reference", |b| b.iter(|| each(&mut comp::reference)));
    g.bench_function("serde_json_borrowed", |b| {
        b.iter(|| each(&mut comp::serde_borrowed))
    });
    g.bench_function("sonic_rs_borrowed", |b| {
        b.iter(|| each(&mut others::sonic_borrowed))
    });
    g.bench_function("simd_json_borrowed", |b| {
        b.iter(|| each(&mut |x| simd.decode(x)))
    });
    g.finish();
}

/// `64`, `1k`, `4k`, `64k`: the chunk size in a function name.
fn chunk_name(n: usize) -> String {
    if n >= 1024 {
        format!("{}k", n / 1024)
    } else {
        n.to_string()
    }
}

/// The streaming validator and reader in chunks, beside `Frame::decode` and
/// the reference on the same frames: one `stream_<input>` group each.
fn streaming(c: &mut Criterion) {
    for (name, input) in inputs::all() {
        let input = input.as_slice();
        // Same answer as the whole-buffer decoder, whatever the chunking.
        let whole = walk::decode(input);
        let events = stream::read(input, input.len());
        for n in stream::CHUNKS {
            assert_eq!(stream::validate(input, n), whole, "{name} in chunks of {n}");
            assert_eq!(stream::read(input, n), events, "{name} in chunks of {n}");
        }
        assert!(whole && events > 0, "{name}");
        let mut g = c.benchmark_group(format!("stream_{name}"));
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function("decode", |b| b.iter(|| walk::decode(black_box(input))));
        g.bench_function("reference", |b| {
            b.iter(|| comp::reference(black_box(input)))
        });
        for n in stream::CHUNKS {
            g.bench_function(format!("validator_{}", chunk_name(n)), |b| {
                b.iter(|| stream::validate(black_box(input), n))
            });
        }
        for n in stream::CHUNKS {
            g.bench_function(format!("reader_{}", chunk_name(n)), |b| {
                b.iter(|| stream::read(black_box(input), n))
            });
        }
        g.finish();
    }

    let input = inputs::request();
    let input = input.as_slice();
    for n in stream::CHUNKS {
        assert!(
            stream::validate_request(input, n),
            "request in chunks of {n}"
        );
    }
    let mut g = c.benchmark_group("stream_request");
    g.throughput(Throughput::Bytes(input.len() as u64));
    g.bench_function("decode", |b| {
        b.iter(|| walk::request_decode(black_box(input)))
    });
    g.bench_function("reference", |b| {
        b.iter(|| comp::reference_request(black_box(input)))
    });
    for n in stream::CHUNKS {
        g.bench_function(format!("validator_{}", chunk_name(n)), |b| {
            b.iter(|| stream::validate_request(black_box(input), n))
        });
    }
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! { name = benches; config = config(); targets = frames, request, varied, streaming }
criterion_main!(benches);
