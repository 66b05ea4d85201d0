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
    common::cases(3_000, 10)
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
        FrameError::Body(b) => b.offset(),
        _ => 0, // Empty, UnknownTag: the first byte
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

// ----- the reader against the views ---------------------------------------

/// Everything a frame holds, as the views or the reader give it.
#[derive(Debug, Default, PartialEq)]
struct Read {
    result_type: Option<String>,
    ttl: Option<u64>,
    scope: Option<CacheScope>,
    meta: Option<Vec<u8>>,
    items: Vec<Item>,
    code: Option<i32>,
    message: Option<String>,
    data: Option<Vec<u8>>,
}

#[derive(Debug, PartialEq)]
struct Item {
    uri: String,
    mime: Option<String>,
    body: ItemBody,
    meta: Option<Vec<u8>>,
}

#[derive(Debug, PartialEq)]
enum ItemBody {
    Text(String),
    Blob(Result<Vec<u8>, Base64Error>),
}

fn unescaped(s: JsonStr<'_>) -> String {
    s.chars().collect()
}

/// What the views read from a frame `Frame::decode` accepted.
fn views(bytes: &[u8]) -> Read {
    let mut read = Read::default();
    match Frame::decode(bytes).unwrap() {
        Frame::Result(r) => {
            read.result_type = r.result_type().map(unescaped);
            read.ttl = r.ttl_ms();
            read.scope = r.cache_scope();
            read.meta = r.meta().map(|m| m.as_bytes().to_vec());
            for item in r.contents() {
                let body = match item.body() {
                    Body::Text(t) => ItemBody::Text(unescaped(t)),
                    Body::Blob(b) => {
                        let mut out = vec![0u8; b.text().raw().len()];
                        ItemBody::Blob(b.decode_base64_into(&mut out).map(|n| out[..n].to_vec()))
                    }
                };
                read.items.push(Item {
                    uri: unescaped(item.uri()),
                    mime: item.mime_type().map(unescaped),
                    body,
                    meta: item.meta().map(|m| m.as_bytes().to_vec()),
                });
            }
        }
        Frame::Error(e) => {
            read.code = Some(e.code());
            read.message = Some(unescaped(e.message()));
            read.data = e.data().map(|d| d.as_bytes().to_vec());
        }
    }
    read
}

/// A content item as the reader's events build it.
#[derive(Default)]
struct Building {
    uri: Option<String>,
    mime: Option<String>,
    text: Option<String>,
    blob: Option<Vec<u8>>,
    blob_end: Option<Result<usize, Base64Error>>,
    meta: Option<Vec<u8>>,
}

/// What the reader hands out for `chunks`, put together; its answer.
fn reader<const N: usize>(chunks: &[&[u8]]) -> (Result<Tag, FrameError>, Read) {
    let mut read = Read::default();
    let mut item: Option<Building> = None;
    let mut ended = None;
    let mut on = |e: Event<'_>| {
        assert!(ended.is_none(), "{e:?} after the frame's end");
        let empty = match e {
            Event::ResultType(p)
            | Event::Uri(p)
            | Event::MimeType(p)
            | Event::Text(p)
            | Event::Message(p) => p.is_empty(),
            Event::Meta(p) | Event::ItemMeta(p) | Event::Data(p) | Event::Blob(p) => p.is_empty(),
            _ => false,
        };
        assert!(!empty, "an empty piece: {e:?}");
        match e {
            Event::ResultTypeStart => read.result_type = Some(String::new()),
            Event::ResultType(p) => read
                .result_type
                .as_mut()
                .expect("piece before ResultTypeStart")
                .push_str(p),
            Event::TtlMs(v) => read.ttl = v,
            Event::CacheScope(v) => read.scope = v,
            Event::Meta(p) => read.meta.get_or_insert_default().extend_from_slice(p),
            Event::Code(v) => read.code = Some(v),
            Event::MessageStart => read.message = Some(String::new()),
            Event::Message(p) => read
                .message
                .as_mut()
                .expect("piece before MessageStart")
                .push_str(p),
            Event::Data(p) => read.data.get_or_insert_default().extend_from_slice(p),
            Event::ItemStart => {
                assert!(item.is_none(), "nested items");
                item = Some(Building::default());
            }
            Event::ItemEnd(kept) => {
                let b = item.take().expect("ItemEnd without ItemStart");
                let body = match kept {
                    Kept::Text => ItemBody::Text(b.text.expect("kept text never started")),
                    Kept::Blob => {
                        let bytes = b.blob.expect("kept blob never started");
                        match b.blob_end.expect("blob never ended") {
                            Ok(n) => {
                                assert_eq!(n, bytes.len(), "BlobEnd length");
                                ItemBody::Blob(Ok(bytes))
                            }
                            Err(e) => ItemBody::Blob(Err(e)),
                        }
                    }
                };
                read.items.push(Item {
                    uri: b.uri.expect("item without uri"),
                    mime: b.mime,
                    body,
                    meta: b.meta,
                });
            }
            Event::FrameEnd(tag) => ended = Some(tag),
            other => {
                let b = item.as_mut().expect("item event outside an item");
                match other {
                    Event::UriStart => b.uri = Some(String::new()),
                    Event::Uri(p) => b.uri.as_mut().expect("piece before UriStart").push_str(p),
                    Event::MimeTypeStart => b.mime = Some(String::new()),
                    Event::MimeType(p) => b
                        .mime
                        .as_mut()
                        .expect("piece before MimeTypeStart")
                        .push_str(p),
                    Event::TextStart => b.text = Some(String::new()),
                    Event::Text(p) => b.text.as_mut().expect("piece before TextStart").push_str(p),
                    Event::BlobStart => {
                        b.blob = Some(Vec::new());
                        b.blob_end = None;
                    }
                    Event::Blob(p) => {
                        assert!(p.len() <= N, "blob piece of {} bytes through {N}", p.len());
                        b.blob
                            .as_mut()
                            .expect("bytes before BlobStart")
                            .extend_from_slice(p);
                    }
                    Event::BlobEnd(r) => b.blob_end = Some(r),
                    Event::ItemMeta(p) => b.meta.get_or_insert_default().extend_from_slice(p),
                    _ => unreachable!(),
                }
            }
        }
    };
    let mut r = Reader::<N>::sized();
    let mut answer = Ok(());
    for chunk in chunks {
        answer = r.feed(chunk, &mut on);
        if answer.is_err() {
            break;
        }
    }
    let answer = match answer {
        Ok(()) => r.finish(&mut on),
        Err(e) => Err(e),
    };
    if let Ok(tag) = answer {
        assert_eq!(ended, Some(tag), "no FrameEnd");
    }
    (answer, read)
}

/// The reader on `cuts` of `bytes`: the validator's answer, and the views'
/// values when valid.
#[track_caller]
fn reader_agrees(bytes: &[u8], cuts: &[usize]) {
    let chunks = pieces(bytes, cuts);
    let (answer, read) = reader::<48>(&chunks);
    assert_eq!(
        answer,
        stream_frame(&chunks),
        "reader vs validator, cuts {cuts:?}: {}",
        show(bytes)
    );
    if answer.is_ok() {
        assert_eq!(
            read,
            views(bytes),
            "reader vs views, cuts {cuts:?}: {}",
            show(bytes)
        );
    }
}

#[test]
fn generated_frames_read_as_the_views_read_them() {
    let n = cases();
    let mut valid = 0;
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0x4EAD, (seed % 2) as usize);
        let input = g.frame();
        valid += usize::from(whole_frame(&input).is_ok());
        let mut cuts: Vec<usize> = (0..g.rng.below(8))
            .map(|_| g.rng.below(input.len() + 1))
            .collect();
        cuts.sort_unstable();
        reader_agrees(&input, &cuts);
        let ones: Vec<usize> = (1..input.len()).collect();
        reader_agrees(&input, &ones);
    }
    eprintln!("reader: {n} generated frames ({valid} valid), pieces equal the views");
}

// ----- every cut of the golden vectors and the oracle table ---------------

fn vectors() -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/tests/vectors", env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Inputs over this size are cut once at every offset but not at every pair:
/// 512 bytes in release builds (`cargo test --release --test stream`, which
/// `.ci/run` runs), 192 in debug ones, whose every-pair runs take minutes.
const PAIRS_UP_TO: usize = if cfg!(miri) {
    0
} else if cfg!(debug_assertions) {
    192
} else {
    512
};

#[test]
fn golden_vectors_at_every_cut() {
    let mut n = 0;
    for (name, bytes) in vectors() {
        let request = name.ends_with(".json");
        every_cut(&bytes, request, PAIRS_UP_TO);
        if !request && whole_frame(&bytes).is_ok() {
            for a in 0..=bytes.len() {
                reader_agrees(&bytes, &[a]);
            }
            reader_agrees(&bytes, &(1..bytes.len()).collect::<Vec<_>>());
        }
        n += 1;
    }
    assert!(n >= 29, "only {n} vectors");
}

#[test]
fn oracle_rows_at_every_cut() {
    use common::table::{error_rows, request_rows, result_rows};
    let mut rows = 0;
    for (json, ok) in request_rows() {
        assert_eq!(whole_request(&json).is_ok(), ok, "{}", show(&json));
        if json.len() > 100_000 {
            // The million-bracket row: the documented depth limit, at the
            // bracket past it.
            let e = stream_request(&[&json]).unwrap_err();
            assert_eq!(e.kind(), BodyErrorKind::StreamDepthExceeded);
            assert_eq!(e.offset(), 15 + diverge_frame::stream::IGNORED_DEPTH);
            continue;
        }
        every_cut(&json, true, PAIRS_UP_TO);
        rows += 1;
    }
    for (tag, table) in [(0u8, result_rows()), (1, error_rows())] {
        for (json, ok) in table {
            let mut frame = vec![tag];
            frame.extend_from_slice(&json);
            assert_eq!(whole_frame(&frame).is_ok(), ok, "{}", show(&frame));
            every_cut(&frame, false, PAIRS_UP_TO);
            if ok {
                for a in 0..=frame.len() {
                    reader_agrees(&frame, &[a]);
                }
            }
            rows += 1;
        }
    }
    assert!(rows > 100, "only {rows} rows");
}

// ----- hand-written cuts at the hard places --------------------------------

/// Every cut of each, by name of the place it falls in.
#[test]
fn cuts_inside_escapes_pairs_characters_numbers_literals_and_keys() {
    let frames: &[&[u8]] = &[
        // literal `tr|ue`, number, `mime|Type`, escaped key `\u0075ri`
        b"\x00{\"ttlMs\":null,\"x\":[true,false,null,-12.5e-3],\"contents\":[{\"\\u0075ri\":\"u\",\"mimeType\":\"t/p\",\"text\":\"t\"}]}",
        // an escape, a surrogate pair and UTF-8 sequences of 2, 3 and 4 bytes
        "\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"a\\n\\uD83D\\uDE00\u{e9}\u{20ac}\u{1F600}\\u00e9\"}]}".as_bytes(),
        // a lone surrogate, then a bad escape after invalid UTF-8 (the escape wins)
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\ud800x\"}]}",
        // a low surrogate first, a high one after a high one, a non-hex
        // digit third, and one in the second escape of a pair
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\uDE00\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\uD83D\\uD83D\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"a\\u12G4\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\uD83D\\uDEx0\"}]}",
        // the edges of the surrogate ranges, paired and not
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\uDBFF\\uDFFF\\uD800\\uDC00\\uD7FF\\uE000\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\uDBFF\\uE000\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\xff\\q\"}]}",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\xe2\x82\"}]}",
        // a cut-short \u at the end, and one with a quote in its digits
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\u12",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"\\u1\"}]}",
        // numbers at the edges of serde_json's ranges
        b"\x01{\"code\":-2147483648,\"message\":\"m\",\"data\":[1e308,18446744073709551616,-0,1.7976931348623157e308]}",
        b"\x01{\"code\":1,\"message\":\"m\",\"data\":1.8e308}",
        b"\x01{\"code\":1,\"message\":\"m\",\"data\":1e99999999999}",
        b"\x00{\"contents\":[],\"ttlMs\":9223372036854775808}",
        b"\x00{\"contents\":[],\"ttlMs\":-7,\"cacheScope\":{\"pub\\u006cic\":1,\"public\":null}}",
        // a content item that is not an object, ending at the end of the input
        b"\x00{\"contents\":[12",
        // text and blob: text wins; a duplicated text falls through to the blob
        b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"aGVsbG8=\",\"text\":\"t\"},{\"uri\":\"v\",\"text\":\"a\",\"text\":\"b\",\"blob\":\"aGk\\u003d\"}]}",
    ];
    for frame in frames {
        every_cut(frame, false, PAIRS_UP_TO);
        for a in 0..=frame.len() {
            reader_agrees(frame, &[a]);
        }
    }
}

/// A value of the wrong type is read before it is refused, so its own
/// defect (or the end of the input inside it) wins; a duplicate known key is
/// refused before its colon is looked at. Each at every cut, and each prefix.
#[test]
fn wrong_types_and_duplicates_at_every_cut() {
    let frames: &[&[u8]] = &[
        b"\x00\"a\x01\"",
        b"\x00 tru",
        b"\x00-",
        b"\x00nul",
        b"\x00\"x\"",
        b"\x00[1e400]",
        b"\x00{\"contents\":\"\\q\"}",
        b"\x00{\"contents\":{}}",
        b"\x00{\"contents\":[],\"ttlMs\":1.5}",
        b"\x00{\"contents\":[],\"ttlMs\":\"\\ud800\"}",
        b"\x00{\"contents\":[],\"_meta\":[}",
        b"\x00{\"contents\":[],\"_meta\":x}",
        b"\x00{\"contents\":[],\"resultType\":\"\xff\"}",
        b"\x01{\"code\":\"x\",\"message\":\"m\"}",
        b"\x01{\"code\":falsy}",
        b"\x01{\"code\":1,\"message\":12e}",
        b"\x01{\"message\":\"a\",\"code\":1,\"message\"\x0c:\"b\"}",
        b"\x01{\"code\":1,\"code\"",
        b"\x00{\"contents\":[],\"contents\" :",
        b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"t\",\"text\"x}]}",
    ];
    let requests: &[&[u8]] = &[
        b"{\"uri\":1}",
        b"{\"uri\":-x}",
        b"{\"uri\":\"u\",\"inputResponses\":\"\\u12\"}",
        b"{\"uri\":\"u\",\"requestState\":{}}",
        b"{\"uri\":\"u\",\"uri\"}",
        b"[true,\"u\"]",
    ];
    for (bytes, request) in frames
        .iter()
        .map(|b| (b, false))
        .chain(requests.iter().map(|b| (b, true)))
    {
        for end in 1..=bytes.len() {
            every_cut(&bytes[..end], request, 0);
        }
        every_cut(bytes, request, PAIRS_UP_TO);
    }
}

#[test]
fn empty_chunks_change_nothing() {
    let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"t\"}]}";
    let mut v = FrameValidator::new();
    v.feed(b"").unwrap();
    for byte in frame.chunks(1) {
        v.feed(byte).unwrap();
        v.feed(b"").unwrap();
    }
    assert_eq!(v.finish(), Ok(Tag::Result));
    assert_eq!(FrameValidator::new().finish(), Err(FrameError::Empty));
    let mut v = FrameValidator::new();
    assert_eq!(v.feed(b"\x07"), Err(FrameError::UnknownTag(7)));
    assert_eq!(v.feed(b"{}"), Err(FrameError::UnknownTag(7)));
    assert_eq!(v.finish(), Err(FrameError::UnknownTag(7)));
}

#[test]
fn ignored_members_deeper_than_the_stack_are_refused_distinctly() {
    use diverge_frame::stream::IGNORED_DEPTH;
    let nest = |n: usize| {
        let mut v = b"\x00{\"contents\":[],\"x\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.push(b'}');
        v
    };
    // Up to the limit: the reference's answer.
    let ok = nest(IGNORED_DEPTH);
    assert_eq!(whole_frame(&ok), Ok(Tag::Result));
    assert_eq!(stream_frame(&[&ok]), Ok(Tag::Result));
    // One more: valid for the reference, refused here, at that bracket.
    let deep = nest(IGNORED_DEPTH + 1);
    assert_eq!(whole_frame(&deep), Ok(Tag::Result));
    let Err(FrameError::Body(e)) = stream_frame(&deep.chunks(7).collect::<Vec<_>>()) else {
        panic!("accepted")
    };
    assert_eq!(
        (e.kind(), e.offset()),
        (BodyErrorKind::StreamDepthExceeded, 20 + IGNORED_DEPTH)
    );
    // Typed values keep the reference's limit of 127, both ways.
    let mut meta = b"\x00{\"contents\":[],\"_meta\":{\"x\":".to_vec();
    meta.extend(std::iter::repeat_n(b'[', 126));
    meta.extend(std::iter::repeat_n(b']', 126));
    meta.extend_from_slice(b"}}");
    assert_eq!(stream_frame(&[&meta]), whole_frame(&meta));
    assert!(whole_frame(&meta).is_err());
}

#[test]
fn the_state_is_small() {
    use core::mem::size_of;
    let v = size_of::<FrameValidator>();
    let r = size_of::<RequestValidator>();
    eprintln!(
        "FrameValidator {v} B, RequestValidator {r} B, Reader<256> {} B, StreamPath {} B",
        size_of::<Reader>(),
        size_of::<diverge_frame::exchange::StreamPath>()
    );
    // 128 bytes of bracket bits (IGNORED_DEPTH levels) plus the rest.
    assert!(v <= 512, "FrameValidator is {v} bytes");
    assert!(
        v - diverge_frame::stream::IGNORED_DEPTH / 8 <= 256,
        "FrameValidator is {v} bytes"
    );
}

/// The reader's events for `frame` fed in chunks of `n`, as text.
fn event_list(frame: &[u8], n: usize) -> Vec<String> {
    let mut got = Vec::new();
    let mut on = |e: Event<'_>| got.push(format!("{e:?}"));
    let mut r = Reader::new(); // the default size, no annotation
    for chunk in frame.chunks(n) {
        r.feed(chunk, &mut on).unwrap();
    }
    r.finish(&mut on).unwrap();
    got
}

#[test]
fn string_fields_open_with_a_start_and_pieces_are_never_empty() {
    // Empty strings: a start, no piece. `mimeType: null` and absent fields:
    // neither.
    let frame = b"\x00{\"resultType\":\"\",\"contents\":[\
        {\"uri\":\"\",\"mimeType\":\"\",\"text\":\"\"},\
        {\"uri\":\"u\",\"mimeType\":null,\"blob\":\"\"},\
        {\"uri\":\"\\u0076\",\"text\":\"ab\"}]}";
    let want = [
        "ResultTypeStart",
        "ItemStart",
        "UriStart",
        "MimeTypeStart",
        "TextStart",
        "ItemEnd(Text)",
        "ItemStart",
        "UriStart",
        "Uri(\"u\")",
        "BlobStart",
        "BlobEnd(Ok(0))",
        "ItemEnd(Blob)",
        "ItemStart",
        "UriStart",
        "Uri(\"v\")",
        "TextStart",
        "Text(\"a\")",
        "Text(\"b\")",
        "ItemEnd(Text)",
        "FrameEnd(Result)",
    ];
    // One byte at a time: a piece per byte, and still no empty one.
    assert_eq!(event_list(frame, 1), want);
    let whole = event_list(frame, frame.len());
    assert!(whole.iter().all(|e| !e.contains("(\"\")")), "{whole:?}");
    assert!(whole.contains(&"Text(\"ab\")".to_string()), "{whole:?}");

    let error = b"\x01{\"code\":1,\"message\":\"\"}";
    assert_eq!(
        event_list(error, 1),
        ["Code(1)", "MessageStart", "FrameEnd(Error)"]
    );
    assert_eq!(
        event_list(b"\x01{\"code\":1,\"message\":\"m\"}", 64),
        [
            "Code(1)",
            "MessageStart",
            "Message(\"m\")",
            "FrameEnd(Error)"
        ]
    );
}
