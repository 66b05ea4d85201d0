//! The common traits of the public types: `TryFrom<u8>` for `Tag`,
//! `Display`/`FromStr` for `CacheScope` (its wire spelling, as the decoder
//! reads it), `Hash` on the errors, `FusedIterator` on the string and member
//! iterators, and a `Debug` of the streaming types that shows where they stand
//! rather than their machine.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

use std::collections::HashSet;
use std::hash::Hash;
use std::iter::FusedIterator;

use diverge_frame::encode::EncodeError;
use diverge_frame::exchange::{AskError, TooLarge, UnexpectedEvent};
use diverge_frame::exchange::{StreamPath, decode_ask};
use diverge_frame::spec::SpecError;
use diverge_frame::stream::{FrameValidator, Reader, RequestValidator};
use diverge_frame::{
    Base64Error, BodyError, CacheScope, CapacityError, Frame, FrameError, ParseCacheScopeError,
    RequestView, Tag,
};

#[test]
fn a_tag_from_every_byte_is_what_split_says() {
    for byte in 0..=u8::MAX {
        let tag = Tag::try_from(byte);
        assert_eq!(tag.ok(), Tag::from_byte(byte));
        match Frame::split(&[byte]) {
            Ok(raw) => assert_eq!(tag, Ok(raw.tag())),
            Err(e) => assert_eq!(tag, Err(e)),
        }
        if let Ok(tag) = tag {
            assert_eq!(u8::from(tag), byte);
        }
    }
}

#[test]
fn a_cache_scope_parses_as_the_decoder_reads_it() {
    for scope in [CacheScope::Public, CacheScope::Private] {
        assert_eq!(scope.to_string(), scope.as_str());
        assert_eq!(scope.to_string().parse(), Ok(scope));
    }
    for text in [
        "public", "private", "Public", "PRIVATE", "", " public", "publi", "privatee",
    ] {
        let frame = format!("\x00{{\"contents\":[],\"cacheScope\":\"{text}\"}}");
        let decoded = match Frame::decode(frame.as_bytes()) {
            Ok(Frame::Result(r)) => Ok(r.cache_scope()),
            Ok(Frame::Error(_)) => unreachable!(),
            Err(_) => Err(()),
        };
        let parsed = text.parse::<CacheScope>();
        match parsed {
            Ok(scope) => assert_eq!(decoded, Ok(Some(scope)), "{text:?}"),
            // The decoder reads "" as no scope; no other text is one.
            Err(e) => {
                assert_eq!(e, ParseCacheScopeError);
                assert!(decoded == Err(()) || (text.is_empty() && decoded == Ok(None)));
            }
        }
    }
    assert_eq!(
        ParseCacheScopeError.to_string(),
        "unknown cacheScope (expected \"public\" or \"private\")"
    );
}

fn hashes<T: Hash + Eq>(values: &[T]) -> usize {
    values.iter().collect::<HashSet<_>>().len()
}

#[test]
fn errors_are_hash_and_equal_errors_collapse() {
    let body: BodyError = RequestView::decode(b"{}").unwrap_err();
    let frames = [
        FrameError::Empty,
        FrameError::UnknownTag(7),
        FrameError::UnknownTag(7),
        FrameError::Body(body),
    ];
    assert_eq!(hashes(&frames), 3);
    let asks: [AskError; 3] = [
        decode_ask(b"").unwrap_err(),
        decode_ask(b"\x02").unwrap_err(),
        decode_ask(b"").unwrap_err(),
    ];
    assert_eq!(hashes(&asks), 2);
    assert_eq!(hashes(&[body, body]), 1);
    assert_eq!(hashes(&[EncodeError::BufferFull, EncodeError::TooDeep]), 2);
    assert_eq!(
        hashes(&[CapacityError::new(3, 1), CapacityError::new(3, 1)]),
        1
    );
    assert_eq!(
        hashes(&[
            Base64Error::Invalid { offset: 1 },
            Base64Error::Invalid { offset: 2 }
        ]),
        2
    );
    // The rest only need to be `Hash` (their constructors are the crate's).
    fn is_hash<T: Hash>() {}
    is_hash::<SpecError>();
    is_hash::<TooLarge>();
    is_hash::<UnexpectedEvent>();
    is_hash::<diverge_frame::exchange::Refused>();
    is_hash::<diverge_frame::exchange::StreamEnd>();
    is_hash::<diverge_frame::exchange::RelayError<std::io::ErrorKind, u8>>();
    is_hash::<diverge_frame::exchange::RelayEnd<std::io::ErrorKind, u8>>();
}

#[test]
fn the_string_and_member_iterators_stay_ended() {
    fn fused<I: FusedIterator>(mut it: I) -> usize {
        let n = it.by_ref().count();
        for _ in 0..3 {
            assert!(it.next().is_none());
        }
        n
    }
    let req = RequestView::decode(br#"{"uri":"a\u00e9b","_meta":{"k":1,"l":"\n"}}"#).unwrap();
    assert_eq!(fused(req.uri().chars()), 3);
    assert_eq!(fused(req.uri().fragments()), 3);
    assert_eq!(fused(req.meta().unwrap().members()), 2);
}

#[test]
fn streaming_types_debug_where_they_stand() {
    let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"aGVsbG8=\"}]}";
    let mut v = FrameValidator::new();
    assert_eq!(
        format!("{v:?}"),
        "FrameValidator { tag: None, fed: 0, error: None }"
    );
    v.feed(&frame[..20]).unwrap();
    assert_eq!(
        format!("{v:?}"),
        "FrameValidator { tag: Some(Result), fed: 20, error: None }"
    );
    let _ = v.feed(b"}");
    let shown = format!("{v:?}");
    assert!(
        shown.starts_with("FrameValidator { tag: Some(Result), fed: 20, error: Some(Body("),
        "{shown}"
    );

    let mut r = RequestValidator::new();
    r.feed(br#"{"uri":"#).unwrap();
    assert_eq!(format!("{r:?}"), "RequestValidator { fed: 7, error: None }");

    let mut path = StreamPath::with_cap(30);
    path.push(&frame[..10]).unwrap();
    assert_eq!(
        format!("{path:?}"),
        "StreamPath { tag: Some(Result), len: 10, cap: Some(30), refused: None }"
    );
    let refused = path.push(&frame[10..]).unwrap_err();
    assert_eq!(
        format!("{path:?}"),
        format!(
            "StreamPath {{ tag: Some(Result), len: 10, cap: Some(30), refused: Some({refused:?}) }}"
        )
    );

    let mut reader = Reader::<64>::sized();
    reader.feed(frame, |_| {}).unwrap();
    assert_eq!(
        format!("{reader:?}"),
        format!(
            "Reader {{ tag: Some(Result), fed: {}, blob_buffer: 64, done: None }}",
            frame.len()
        )
    );
    reader.finish(|_| {}).unwrap();
    let shown = format!("{reader:?}");
    assert!(shown.ends_with("done: Some(Ok(Result)) }"), "{shown}");
    // Nothing of the machine or of the blob buffer's bytes.
    for shown in [format!("{reader:?}"), format!("{v:?}"), format!("{path:?}")] {
        assert!(
            !shown.contains("machine") && !shown.contains("buf:"),
            "{shown}"
        );
        assert!(shown.len() < 200, "{shown}");
    }
}

/// The dependency types of the public API are reachable through
/// `diverge_frame::deps`, at the versions the crate was built with: a
/// `heapless::String` from `JsonStr::to_heapless` is `deps::heapless`'s.
#[test]
fn dependency_types_are_named_through_deps() {
    use diverge_frame::deps::heapless;
    let Ok(diverge_frame::Frame::Error(e)) =
        diverge_frame::Frame::decode(b"\x01{\"code\":1,\"message\":\"a\\u00e9\"}")
    else {
        panic!("not an error frame")
    };
    let text: heapless::String<8> = e.message().to_heapless().unwrap();
    assert_eq!(text.as_str(), "aé");
    let mut out = heapless::Vec::<u8, 64>::new();
    let n = diverge_frame::exchange::ask_encoder(&mut out)
        .and_then(|e| e.uri("file:///a"))
        .and_then(diverge_frame::encode::RequestEncoder::finish)
        .unwrap();
    // The ask: its kind byte, then the request JSON.
    assert!(out[..n].ends_with(br#"{"uri":"file:///a"}"#));
}

/// Debug output says what a value means: a result shows its items (their
/// uri and body) and `_meta` as JSON, a body error the field by its name.
#[test]
fn debug_shows_what_values_mean() {
    let frame = b"\x00{\"contents\":[{\"uri\":\"a://b\",\"text\":\"hi\"}],\"_meta\":{\"k\":1}}";
    let Ok(diverge_frame::Frame::Result(r)) = diverge_frame::Frame::decode(frame) else {
        panic!("not a result")
    };
    let shown = format!("{r:?}");
    assert!(shown.contains("a://b") && shown.contains("hi"), "{shown}");
    assert!(shown.contains(r#"{"k":1}"#), "{shown}");
    let e = diverge_frame::ResultView::decode(br#"{"ttlMs":1}"#).unwrap_err();
    let shown = format!("{e:?}");
    assert!(shown.contains("contents"), "{shown}");
    assert!(!shown.contains("Detail"), "{shown}");
}

/// `encode::Sink` and `std::io::Write` in scope together: a `Vec<u8>` and a
/// `&mut [u8]` are both, and each call names one trait's method (a `write`
/// of both would not compile, E0034).
#[test]
fn sink_and_io_write_in_scope_together() {
    use diverge_frame::encode::Sink;
    use std::io::Write;

    #[cfg(feature = "alloc")]
    {
        let mut v: Vec<u8> = Vec::new();
        v.try_extend(b"ab").unwrap();
        assert_eq!(v.write(b"cd").unwrap(), 2);
        assert_eq!(v, b"abcd");
    }
    let mut buf = [0u8; 4];
    let mut out = &mut buf[..];
    out.try_extend(b"x").unwrap();
    assert_eq!(out.write(b"yz").unwrap(), 2);
    assert_eq!(&buf[..3], b"xyz");
}
