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
//! * `floor`: `clone()` of the reference's finished rmcp values (made before
//!   the group is timed): the allocations, copies and frees any decoder into
//!   those types makes, and no parsing. `decode` then `floor`, one after the
//!   other, is the two-pass bound the `to_rmcp` path is held to
//!   (`report.py --rmcp` prints it beside the path);
//! * `reference`: `serde_json::from_slice` into the rmcp types;
//! * `sonic_rs_rmcp`, `simd_json_rmcp`: sonic-rs and simd-json into the
//!   same rmcp types as the reference (simd-json on a copy of the input, the
//!   copy timed), what a host would write instead of the reference;
//! * `serde_json_borrowed`, `sonic_rs_borrowed`, `simd_json_borrowed`:
//!   hand-written borrowed structs (see `src/competitors.rs`).
//!
//! Groups: one per single input (`small`, `medium`, `dense_1m`, `plain_1m`,
//! `blob_64k`, `error`), `request`, and the sets `varied` and `sdk` (512
//! distinct frames each, all decoded per iteration; see `src/inputs.rs`).
//!
//! Before each group is timed, every input is decoded once by `to_rmcp`,
//! `sonic_rs_rmcp` and `simd_json_rmcp` and compared (`==`) with the
//! reference's value. `to_rmcp` must be equal (the bench stops otherwise).
//! For a competitor, what differs is printed on stderr (the first frames and
//! a count per group, telling floats one ulp apart from anything else) and
//! the bench goes on; one that rejects a frame is left out of that group.
//! On `sdk` both differ from the reference in a few floats by one ulp:
//! serde_json (without `float_roundtrip`) does not round every float
//! correctly, sonic-rs and simd-json do (see `benches/README.md`).
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
use diverge_frame::rmcp::OwnedFrame;
use diverge_frame_benches::competitors as comp;
use diverge_frame_benches::{inputs, stream, walk};
use others::Simd;

mod others;

/// The floats two JSON values differ in, each pair one unit in the last
/// place apart (`(a's, b's)`), or `None` when they differ in anything else.
fn ulp_floats(
    a: &serde_json::Value,
    b: &serde_json::Value,
    pairs: &mut Vec<(f64, f64)>,
) -> Option<()> {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) if x != y && a.is_f64() && b.is_f64() => {
            let (x, y) = (x.as_f64()?, y.as_f64()?);
            let apart = (x.to_bits() as i64)
                .wrapping_sub(y.to_bits() as i64)
                .unsigned_abs();
            (apart == 1).then(|| pairs.push((x, y)))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .try_for_each(|(x, y)| ulp_floats(x, y, pairs)),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            x.iter().zip(y).try_for_each(|((kx, x), (ky, y))| {
                (kx == ky).then_some(())?;
                ulp_floats(x, y, pairs)
            })
        }
        _ => (a == b).then_some(()),
    }
}

/// Whether `x`'s shortest text (`1.5`, or `2.0` for an integral one) is a
/// number token of `json`: then `x` is the correctly rounded reading of it.
fn is_text_of(x: f64, json: &[u8]) -> bool {
    let short = format!("{x}");
    let texts = [short.clone(), format!("{short}.0")];
    texts.iter().any(|t| {
        let t = t.as_bytes();
        json.windows(t.len() + 2).any(|w| {
            matches!(w[0], b':' | b',' | b'[')
                && &w[1..=t.len()] == t
                && matches!(w[t.len() + 1], b',' | b'}' | b']')
        })
    })
}

/// A decoded value as JSON (rmcp's `Serialize`), to tell how two values differ.
trait AsJson {
    fn as_json(&self) -> serde_json::Value;
}

impl AsJson for OwnedFrame {
    fn as_json(&self) -> serde_json::Value {
        match self {
            OwnedFrame::Result(r) => serde_json::to_value(r),
            OwnedFrame::Error(e) => serde_json::to_value(e),
        }
        .unwrap()
    }
}

impl AsJson for rmcp::model::ReadResourceRequestParams {
    fn as_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap()
    }
}

/// How a competitor's answers on a group's frames compare with the
/// reference's values.
#[derive(Default)]
struct Tally {
    equal: usize,
    /// Frames equal but for floats one unit in the last place apart.
    ulp_frames: usize,
    /// Those floats: where the competitor's is the input's text (correctly
    /// rounded) and the reference's is not, the other way round, or neither.
    ulp_competitor_exact: usize,
    ulp_reference_exact: usize,
    ulp_unclear: usize,
    /// Frames that differ otherwise.
    other: usize,
    /// Frames the competitor rejects.
    failed: usize,
}

impl Tally {
    /// Adds one frame's answer (`json`: the frame's JSON text), printing the
    /// first few differences.
    fn add<T: PartialEq + std::fmt::Debug + AsJson, E: std::fmt::Display>(
        &mut self,
        (group, who, i): (&str, &str, usize),
        json: &[u8],
        reference: &T,
        got: Result<T, E>,
    ) {
        let shown = self.ulp_frames + self.other + self.failed;
        match got {
            Ok(v) if v == *reference => self.equal += 1,
            Ok(v) => {
                let mut pairs = Vec::new();
                let kind = match ulp_floats(&reference.as_json(), &v.as_json(), &mut pairs) {
                    Some(()) if !pairs.is_empty() => {
                        self.ulp_frames += 1;
                        for &(r, c) in &pairs {
                            match (is_text_of(r, json), is_text_of(c, json)) {
                                (false, true) => self.ulp_competitor_exact += 1,
                                (true, false) => self.ulp_reference_exact += 1,
                                _ => self.ulp_unclear += 1,
                            }
                        }
                        "differs by one ulp in a float"
                    }
                    _ => {
                        self.other += 1;
                        "DISAGREES"
                    }
                };
                if shown < 3 {
                    let (a, b) = (format!("{reference:?}"), format!("{v:?}"));
                    eprintln!(
                        "{group}: {who} {kind} with the reference on frame {i}: {}",
                        first_difference(&a, &b)
                    );
                }
            }
            Err(e) => {
                self.failed += 1;
                if shown < 3 {
                    eprintln!(
                        "{group}: {who} FAILS on frame {i}, which the reference accepts: {e}"
                    );
                }
            }
        }
    }

    /// Prints the summary unless every frame was equal; true when the
    /// competitor decoded every frame (so it can be timed).
    fn report(&self, group: &str, who: &str) -> bool {
        let n = self.equal + self.ulp_frames + self.other + self.failed;
        if self.equal < n {
            eprintln!(
                "{group}: {who}: equal to the reference on {} of {n} frames; {} equal but for \
                 floats one ulp apart ({} where {who}'s is the input's text and the reference's \
                 is not, {} the other way round, {} unclear); {} different otherwise; {} rejected",
                self.equal,
                self.ulp_frames,
                self.ulp_competitor_exact,
                self.ulp_reference_exact,
                self.ulp_unclear,
                self.other,
                self.failed
            );
        }
        self.failed == 0
    }
}

/// The first place where two `Debug` texts differ, with some context.
fn first_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let around = |s: &str| {
        let mut lo = at.saturating_sub(60);
        while !s.is_char_boundary(lo) {
            lo -= 1;
        }
        let mut hi = (at + 60).min(s.len());
        while !s.is_char_boundary(hi) {
            hi += 1;
        }
        s[lo..hi].to_owned()
    };
    format!("reference …{}… / competitor …{}…", around(a), around(b))
}

/// The rmcp competitors that decoded every frame of a group (and so are
/// timed in it).
struct Timed {
    sonic: bool,
    simd: bool,
}

/// The check before a group is timed: `to_rmcp` must give the reference's
/// value on every frame (the bench stops otherwise); sonic-rs and simd-json
/// into the rmcp types are compared too, and what differs is reported.
fn check_frames(group: &str, frames: &[&[u8]], simd: &mut Simd) -> Timed {
    let (mut sonic, mut simd_json) = (Tally::default(), Tally::default());
    for (i, &f) in frames.iter().enumerate() {
        let reference = comp::reference_frame(f);
        let ours = diverge_frame::rmcp::decode_frame(f);
        assert_eq!(
            ours.as_ref(),
            Ok(&reference),
            "{group}: to_rmcp on frame {i}"
        );
        let json = &f[1..];
        let sonic_value = others::sonic_rmcp_frame(f);
        sonic.add((group, "sonic_rs_rmcp", i), json, &reference, sonic_value);
        let simd_value = simd.rmcp_frame(f);
        simd_json.add((group, "simd_json_rmcp", i), json, &reference, simd_value);
    }
    Timed {
        sonic: sonic.report(group, "sonic_rs_rmcp"),
        simd: simd_json.report(group, "simd_json_rmcp"),
    }
}

fn frames(c: &mut Criterion) {
    let mut buf = vec![0u8; 2 << 20];
    let mut simd = Simd::new(2 << 20);
    for (name, input) in inputs::all() {
        let input = input.as_slice();
        let timed = check_frames(name, &[input], &mut simd);
        let mut g = c.benchmark_group(name);
        g.throughput(Throughput::Bytes(input.len() as u64));
        g.bench_function("split", |b| b.iter(|| walk::split(black_box(input))));
        g.bench_function("decode", |b| b.iter(|| walk::decode(black_box(input))));
        g.bench_function("decode_walk", |b| {
            b.iter(|| walk::decode_walk(black_box(input), &mut buf))
        });
        g.bench_function("to_rmcp", |b| b.iter(|| walk::to_rmcp(black_box(input))));
        let value = comp::reference_frame(input);
        g.bench_function("floor", |b| b.iter(|| black_box(&value).clone()));
        g.bench_function("reference", |b| {
            b.iter(|| comp::reference(black_box(input)))
        });
        if timed.sonic {
            g.bench_function("sonic_rs_rmcp", |b| {
                b.iter(|| others::sonic_rmcp(black_box(input)))
            });
        }
        if timed.simd {
            g.bench_function("simd_json_rmcp", |b| b.iter(|| simd.rmcp(black_box(input))));
        }
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
    let reference = comp::reference_request_value(input);
    let ours = diverge_frame::rmcp::decode_request(input);
    assert_eq!(ours.as_ref(), Ok(&reference), "request: to_rmcp");
    let (mut sonic, mut simd_json) = (Tally::default(), Tally::default());
    let id = |who| ("request", who, 0);
    let sonic_value = others::sonic_rmcp_request_value(input);
    sonic.add(id("sonic_rs_rmcp"), input, &reference, sonic_value);
    let simd_value = simd.rmcp_request_value(input);
    simd_json.add(id("simd_json_rmcp"), input, &reference, simd_value);
    let timed = Timed {
        sonic: sonic.report("request", "sonic_rs_rmcp"),
        simd: simd_json.report("request", "simd_json_rmcp"),
    };
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
    g.bench_function("floor", |b| b.iter(|| black_box(&reference).clone()));
    g.bench_function("reference", |b| {
        b.iter(|| comp::reference_request(black_box(input)))
    });
    if timed.sonic {
        g.bench_function("sonic_rs_rmcp", |b| {
            b.iter(|| others::sonic_rmcp_request(black_box(input)))
        });
    }
    if timed.simd {
        g.bench_function("simd_json_rmcp", |b| {
            b.iter(|| simd.rmcp_request(black_box(input)))
        });
    }
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

/// The sets, 512 distinct frames per iteration: branch predictors and caches
/// cannot learn one input.
fn sets(c: &mut Criterion) {
    set(c, "varied", &inputs::varied());
    set(c, "sdk", &inputs::sdk());
}

/// One set's group: each function decodes all its frames per iteration.
fn set(c: &mut Criterion, name: &str, set: &[Vec<u8>]) {
    let total: usize = set.iter().map(Vec::len).sum();
    let longest = set.iter().map(Vec::len).max().unwrap();
    let mut buf = vec![0u8; longest.max(1 << 16)];
    let mut simd = Simd::new(longest.max(1 << 16));
    let frames: Vec<&[u8]> = set.iter().map(Vec::as_slice).collect();
    let timed = check_frames(name, &frames, &mut simd);
    let mut g = c.benchmark_group(name);
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
    let values: Vec<OwnedFrame> = set.iter().map(|f| comp::reference_frame(f)).collect();
    g.bench_function("floor", |b| b.iter(|| black_box(&values).clone()));
    g.bench_function("reference", |b| b.iter(|| each(&mut comp::reference)));
    if timed.sonic {
        g.bench_function("sonic_rs_rmcp", |b| {
            b.iter(|| each(&mut others::sonic_rmcp))
        });
    }
    if timed.simd {
        g.bench_function("simd_json_rmcp", |b| b.iter(|| each(&mut |x| simd.rmcp(x))));
    }
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

criterion_group! { name = benches; config = config(); targets = frames, request, sets, streaming }
criterion_main!(benches);
