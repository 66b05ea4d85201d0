//! `split`, `decode` and a full walk of the views make zero heap
//! allocations (a thread-local counting allocator; see TOOLCHAIN.md).
#![allow(
    unsafe_code,
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic
)]

use diverge_frame::{Body, Frame, RequestView};

#[path = "common/counting.rs"]
mod counting;

use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Decodes and reads everything a view offers, into fixed buffers.
fn walk(bytes: &[u8], buf: &mut [u8]) -> usize {
    let mut seen = 0usize;
    let raw = Frame::split(bytes).unwrap();
    seen += raw.json().len();
    match raw.decode().unwrap() {
        Frame::Result(r) => {
            seen += r
                .result_type()
                .map_or(0, |t| t.unescape_into(buf).unwrap().len());
            seen += usize::from(r.ttl_ms().is_some()) + usize::from(r.cache_scope().is_some());
            seen += r.meta().map_or(0, |m| m.members().count());
            for c in r.contents() {
                seen += c.uri().unescape_into(buf).unwrap().len();
                seen += c.mime_type().map_or(0, |m| m.chars().count());
                seen += c.meta().map_or(0, |m| m.members().count());
                match c.body() {
                    Body::Text(t) => {
                        seen += t.unescape_into(buf).unwrap().len() + usize::from(t == "x")
                    }
                    Body::Blob(b) => seen += b.decode_base64_into(buf).unwrap_or(0),
                }
            }
        }
        Frame::Error(e) => {
            seen += e.code().unsigned_abs() as usize;
            seen += e.message().unescape_into(buf).unwrap().len();
            seen += e.data().map_or(0, |d| d.as_bytes().len());
        }
    }
    seen
}

#[test]
fn counter_sees_an_allocation() {
    let (n, v) = allocations(|| vec![1u8; 16]);
    assert_eq!(n, 1);
    assert_eq!(v.len(), 16);
}

#[test]
fn split_decode_and_walk_allocate_nothing() {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut inputs = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        if !name.starts_with("invalid_") {
            inputs.push((name, std::fs::read(&path).unwrap()));
        }
    }
    let mut buf = vec![0u8; 1 << 16];
    for (name, bytes) in &inputs {
        let (n, seen) = allocations(|| {
            if name.ends_with(".json") {
                let r = RequestView::decode(bytes).unwrap();
                r.uri().unescape_into(&mut buf).unwrap().len()
                    + r.meta().map_or(0, |m| m.members().count())
            } else {
                walk(bytes, &mut buf)
            }
        });
        assert_eq!(n, 0, "{name} allocated {n} times");
        assert!(
            seen > 0 || name.contains("empty"),
            "{name}: the walk read nothing"
        );
    }
    // Rejections allocate nothing either.
    let (n, _) = allocations(|| Frame::decode(b"\x00{\"contents\":[{\"uri\":\"u\"}]}").is_err());
    assert_eq!(n, 0);
}

#[test]
fn streaming_validators_and_reader_allocate_nothing() {
    use diverge_frame::stream::{Event, FrameValidator, Reader, RequestValidator};
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let bytes = std::fs::read(&path).unwrap();
        for chunk in [1, 7, 64, 4096] {
            let (n, seen) = allocations(|| {
                if name.ends_with(".json") {
                    let mut v = RequestValidator::new();
                    let fed: Result<(), _> = bytes.chunks(chunk).try_for_each(|c| v.feed(c));
                    usize::from(fed.and_then(|()| v.finish()).is_ok())
                } else {
                    let mut v = FrameValidator::new();
                    let fed: Result<(), _> = bytes.chunks(chunk).try_for_each(|c| v.feed(c));
                    let ok = usize::from(fed.and_then(|()| v.finish().map(|_| ())).is_ok());
                    let mut r = Reader::<64>::sized();
                    let mut seen = 0usize;
                    let mut on = |e: Event<'_>| {
                        seen += match e {
                            Event::Text(t) | Event::Uri(t) | Event::Message(t) => t.len(),
                            Event::Blob(b) | Event::Meta(b) | Event::Data(b) => b.len(),
                            _ => 1,
                        };
                    };
                    let fed: Result<(), _> =
                        bytes.chunks(chunk).try_for_each(|c| r.feed(c, &mut on));
                    let _ = fed.and_then(|()| r.finish(&mut on).map(|_| ()));
                    ok + seen
                }
            });
            assert_eq!(n, 0, "{name} in {chunk}-byte chunks allocated {n} times");
            assert!(
                seen > 0 || name.starts_with("invalid_"),
                "{name}: nothing read"
            );
        }
    }
}
