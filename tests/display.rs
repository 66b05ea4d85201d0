//! How the errors print: every error's `Display` is its whole message on one
//! line, each fact said once, and `source()` never leads to a message that
//! the one before it already printed (the rule in `src/error.rs`'s module
//! docs). The lines are pinned exactly, as a user sees them with `{err}` and
//! as a reporter that walks `source()` (anyhow's `{:#}`) joins them.
#![allow(clippy::indexing_slicing, clippy::unwrap_used, clippy::panic)]

use core::error::Error;

use diverge_frame::encode::EncodeError;
use diverge_frame::encode::{RequestEncoder, ResultEncoder};
use diverge_frame::exchange::{Event, Exchange, PathReader, RelayEnd, RelayError};
use diverge_frame::stream::FrameValidator;
use diverge_frame::{Body, Frame, FrameError, RequestView};

/// Every message of the chain, outermost first.
fn chain(err: &(dyn Error + 'static)) -> Vec<String> {
    let mut lines = vec![err.to_string()];
    let mut next = err.source();
    while let Some(e) = next {
        lines.push(e.to_string());
        next = e.source();
    }
    lines
}

/// The chain joined as reporters print it, after checking that no message
/// repeats the one below it.
fn report(err: &(dyn Error + 'static)) -> String {
    let lines = chain(err);
    for pair in lines.windows(2) {
        assert!(
            !pair[0].contains(&pair[1]),
            "{:?} repeats its source {:?}",
            pair[0],
            pair[1]
        );
    }
    lines.join(": ")
}

/// A result frame whose text holds a raw control character at byte `at`
/// (the gateway's malformed frame).
fn control_character_at(at: usize) -> Vec<u8> {
    let mut frame = b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"".to_vec();
    frame.resize(at, b'a');
    frame.extend_from_slice(b"\x01\"}]}");
    frame
}

#[test]
fn a_frame_error_prints_the_defect_once() {
    let frame = control_character_at(60_003);
    let err = Frame::decode(&frame).unwrap_err();
    assert!(matches!(err, FrameError::Body(_)));
    assert_eq!(chain(&err), ["control character in string at byte 60003"]);

    // The streaming validator gives the same error, so the same line.
    let mut v = FrameValidator::new();
    let streamed = frame
        .chunks(4096)
        .try_for_each(|c| v.feed(c))
        .and_then(|()| v.finish().map(drop));
    assert_eq!(streamed, Err(err));

    let err = Frame::decode(b"").unwrap_err();
    assert_eq!(report(&err), "empty frame (no tag byte)");
    let err = Frame::decode(b"\x07{}").unwrap_err();
    assert_eq!(report(&err), "unknown frame tag 7 (expected 0 or 1)");
}

#[test]
fn a_request_error_prints_the_defect_once() {
    let err = RequestView::decode(b"{\"uri\":\"a\x01\"}").unwrap_err();
    assert_eq!(report(&err), "control character in string at byte 9");
}

#[test]
fn the_relay_names_its_case_once() {
    // What the gateway prints for the frame that turns bad after 60 000 bytes.
    let err = Frame::decode(&control_character_at(60_003)).unwrap_err();
    let end: RelayEnd = RelayEnd::Malformed(err);
    assert_eq!(
        end.to_string(),
        "malformed frame: control character in string at byte 60003"
    );

    let mut buf = [0u8; 8];
    let mut reader = PathReader::new(&mut buf);
    let too_large = reader.push(b"\x00{\"contents\":[]}").unwrap_err();
    assert_eq!(report(&too_large), "message larger than the 8-byte buffer");
    let end: RelayEnd = RelayEnd::TooLarge(too_large);
    assert_eq!(end.to_string(), "message larger than the 8-byte buffer");

    // A transport's error is named in parentheses; a cause that carries
    // nothing (`()`, the default) is not printed as `(())`.
    let end: RelayEnd = RelayEnd::Unanswered(());
    assert_eq!(end.to_string(), "upstream ended abruptly");
    let end: RelayEnd<std::io::ErrorKind, ()> = RelayEnd::Unanswered(std::io::ErrorKind::TimedOut);
    assert_eq!(end.to_string(), "upstream ended abruptly (TimedOut)");
    let end: RelayEnd<(), std::io::ErrorKind> =
        RelayEnd::Downstream(std::io::ErrorKind::BrokenPipe);
    assert_eq!(end.to_string(), "downstream write failed (BrokenPipe)");
    let err: RelayError = RelayError::Unanswered(());
    assert_eq!(err.to_string(), "upstream ended abruptly");
}

#[test]
fn encode_and_spec_errors_print_the_defect_once() {
    let mut buf = [0u8; 64];
    let err = RequestEncoder::strict(&mut buf[..])
        .and_then(|e| e.uri("not absolute"))
        .err()
        .unwrap();
    assert!(matches!(err, EncodeError::Spec(_)));
    assert_eq!(report(&err), "`uri` is not an absolute URI");

    let mut buf = [0u8; 128];
    let err = ResultEncoder::strict(&mut buf[..])
        .and_then(|e| e.contents())
        .and_then(|c| c.item("docs://a"))
        .and_then(|i| i.mime_type("text"))
        .err()
        .unwrap();
    assert_eq!(
        report(&err),
        "content item 0: `mimeType` is not a type/subtype media type"
    );

    let mut small = [0u8; 4];
    let err = ResultEncoder::new(&mut small[..])
        .and_then(|e| e.contents())
        .err()
        .unwrap();
    assert_eq!(report(&err), "output buffer full");

    let frame =
        b"\x00{\"contents\":[{\"uri\":\"docs://a\",\"text\":\"\"},{\"uri\":\"b\",\"blob\":\"\"}]}";
    let err = Frame::decode(frame).unwrap().check_spec().unwrap_err();
    assert_eq!(report(&err), "content item 1: `uri` is not an absolute URI");
}

#[test]
fn view_and_exchange_errors_print_the_defect_once() {
    let frame = b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"aGk=\",\"mimeType\":\"a/b\"}]}";
    let Frame::Result(result) = Frame::decode(frame).unwrap() else {
        panic!("a result")
    };
    let item = result.contents().next().unwrap();
    let Body::Blob(blob) = item.body() else {
        panic!("a blob")
    };
    let err = blob.decode_base64_into(&mut [0u8; 1]).unwrap_err();
    assert_eq!(
        report(&err),
        "buffer too small for blob: 2 bytes needed, 1 available"
    );

    let err = item.uri().unescape_into(&mut []).unwrap_err();
    assert_eq!(
        report(&err),
        "buffer too small: 1 bytes needed, 0 available"
    );

    let err = Exchange::new(0).on(Event::PathOpened).unwrap_err();
    assert_eq!(
        report(&err),
        "unexpected event \"path opened\" in exchange status \"ready to ask\""
    );
}

/// Every error of the crate, each variant that the public API gives (or, for
/// the relay's, builds), with the name it is listed under.
fn every_error() -> Vec<(&'static str, Box<dyn Error>)> {
    use diverge_frame::exchange::{StreamPath, decode_ask};
    use std::io::ErrorKind;

    let mut all: Vec<(&'static str, Box<dyn Error>)> = Vec::new();
    let body = Frame::decode(&control_character_at(200)).unwrap_err();
    all.push((
        "FrameError::Empty",
        Box::new(Frame::decode(b"").unwrap_err()),
    ));
    all.push((
        "FrameError::UnknownTag",
        Box::new(Frame::decode(b"\x07{}").unwrap_err()),
    ));
    all.push(("FrameError::Body", Box::new(body)));
    let FrameError::Body(body_error) = body else {
        panic!("a body error")
    };
    all.push(("BodyError", Box::new(body_error)));
    all.push((
        "BodyError (request)",
        Box::new(RequestView::decode(b"{}").unwrap_err()),
    ));

    all.push(("AskError::Empty", Box::new(decode_ask(b"").unwrap_err())));
    all.push((
        "AskError::Kind",
        Box::new(decode_ask(b"\x02{}").unwrap_err()),
    ));
    all.push((
        "AskError::Body",
        Box::new(decode_ask(b"\x03{}").unwrap_err()),
    ));

    let frame =
        b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"aGk=\"},{\"uri\":\"v\",\"blob\":\"a!==\"}]}";
    let Frame::Result(result) = Frame::decode(frame).unwrap() else {
        panic!("a result")
    };
    let mut items = result.contents();
    let (first, second) = (items.next().unwrap(), items.next().unwrap());
    let (Body::Blob(good), Body::Blob(bad)) = (first.body(), second.body()) else {
        panic!("blobs")
    };
    all.push((
        "Base64Error::BufferTooSmall",
        Box::new(good.decode_base64_into(&mut [0u8; 1]).unwrap_err()),
    ));
    all.push((
        "Base64Error::Invalid",
        Box::new(bad.decode_base64_into(&mut [0u8; 8]).unwrap_err()),
    ));
    all.push((
        "CapacityError",
        Box::new(first.uri().unescape_into(&mut []).unwrap_err()),
    ));
    all.push((
        "SpecError",
        Box::new(Frame::decode(frame).unwrap().check_spec().unwrap_err()),
    ));

    let mut buf = [0u8; 64];
    let spec = RequestEncoder::strict(&mut buf[..])
        .and_then(|e| e.uri("not absolute"))
        .err()
        .unwrap();
    all.push(("EncodeError::Spec", Box::new(spec)));
    for (name, e) in [
        ("EncodeError::BufferFull", EncodeError::BufferFull),
        ("EncodeError::Write", EncodeError::Write),
        ("EncodeError::Serialize", EncodeError::Serialize),
        ("EncodeError::NotAnObject", EncodeError::NotAnObject),
        ("EncodeError::TooDeep", EncodeError::TooDeep),
        ("EncodeError::OutOfRange", EncodeError::OutOfRange),
    ] {
        all.push((name, Box::new(e)));
    }

    let mut small = [0u8; 4];
    let too_large = PathReader::new(&mut small)
        .push(b"\x00{\"contents\":[]}")
        .unwrap_err();
    all.push(("TooLarge (buffer)", Box::new(too_large)));
    let mut path = StreamPath::with_cap(4);
    let capped = path.push(b"\x00{\"contents\":[]}").unwrap_err();
    all.push(("Refused::TooLarge", Box::new(capped)));
    let mut path = StreamPath::new();
    let refused = path.push(&control_character_at(200)).unwrap_err();
    all.push(("Refused::Malformed", Box::new(refused)));
    all.push((
        "UnexpectedEvent",
        Box::new(Exchange::new(0).on(Event::PathOpened).unwrap_err()),
    ));

    let relay_errors: [(&str, RelayError<ErrorKind, ErrorKind>); 5] = [
        (
            "RelayError::Unanswered",
            RelayError::Unanswered(ErrorKind::ConnectionReset),
        ),
        ("RelayError::Malformed", RelayError::from(refused)),
        ("RelayError::TooLarge", RelayError::from(capped)),
        (
            "RelayError::Downstream",
            RelayError::Downstream(ErrorKind::BrokenPipe),
        ),
        ("RelayError::WriteZero", RelayError::WriteZero),
    ];
    for (name, e) in relay_errors {
        all.push((name, Box::new(e)));
    }
    all
}

#[test]
fn no_error_chain_repeats_itself() {
    for (name, err) in every_error() {
        let lines = chain(err.as_ref());
        for (i, line) in lines.iter().enumerate() {
            assert!(!line.is_empty() && !line.contains('\n'), "{name}: {line:?}");
            for below in &lines[i + 1..] {
                assert!(
                    !line.contains(below.as_str()),
                    "{name}: {line:?} repeats its source {below:?}"
                );
            }
        }
        // And the one line says it all: nothing in the chain is left unsaid
        // by `{err}` for these errors, which wrap nothing with a source.
        assert_eq!(lines.len(), 1, "{name}: {lines:?}");
    }
}

#[test]
fn a_refused_or_relay_error_prints_the_frame_error_once() {
    use diverge_frame::exchange::StreamPath;

    let mut path = StreamPath::new();
    let refused = path.push(&control_character_at(300)).unwrap_err();
    let line = "malformed frame: control character in string at byte 300";
    assert_eq!(report(&refused), line);
    assert!(refused.source().is_none());
    let err: RelayError = refused.into();
    assert_eq!(report(&err), line);
    assert!(err.source().is_none());
    // The summaries print the same line (they are not errors: no source).
    assert_eq!(path.close().to_string(), line);
    assert_eq!(RelayEnd::<(), ()>::from(refused).to_string(), line);
}
