//! What a user reads: each error's message names the field it is about, the
//! struct expected at the top level, or why a content item matched neither
//! form. Each case is printed (`--nocapture`),
//! pinned, and given alike by the streaming validators, detail included.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use diverge_frame::stream::{FrameValidator, RequestValidator};
use diverge_frame::{BodyError, BodyErrorKind as K, Frame, FrameError, RequestView};

/// `Frame::decode`'s body error for `frame`, after checking that the
/// validator fed one byte at a time gives the same error.
fn frame_error(frame: &[u8]) -> BodyError {
    let whole = Frame::decode(frame).map(|_| ()).unwrap_err();
    let mut v = FrameValidator::new();
    let mut streamed = Ok(());
    for byte in frame.chunks(1) {
        streamed = streamed.and(v.feed(byte));
    }
    let streamed = streamed.and_then(|()| v.finish().map(|_| ()));
    assert_eq!(streamed, Err(whole), "{}", frame.escape_ascii());
    let FrameError::Body(e) = whole else {
        panic!("{whole:?}")
    };
    e
}

/// `RequestView::decode`'s error for `json`, checked against the validator.
fn request_error(json: &[u8]) -> BodyError {
    let whole = RequestView::decode(json).map(|_| ()).unwrap_err();
    let mut v = RequestValidator::new();
    let mut streamed = Ok(());
    for byte in json.chunks(1) {
        streamed = streamed.and(v.feed(byte));
    }
    let streamed = streamed.and_then(|()| v.finish());
    assert_eq!(streamed, Err(whole), "{}", json.escape_ascii());
    whole
}

#[track_caller]
fn pin(input: &[u8], e: BodyError, kind: K, field: Option<&str>, message: &str) {
    println!("{:<58} {e}", input.escape_ascii().to_string());
    assert_eq!(e.kind(), kind, "{}", input.escape_ascii());
    assert_eq!(e.field(), field, "{}", input.escape_ascii());
    assert_eq!(e.to_string(), message, "{}", input.escape_ascii());
}

#[track_caller]
fn frame(input: &[u8], kind: K, field: Option<&str>, message: &str) {
    pin(input, frame_error(input), kind, field, message);
}

#[track_caller]
fn request(input: &[u8], kind: K, field: Option<&str>, message: &str) {
    pin(input, request_error(input), kind, field, message);
}

/// Item 11: missing and duplicate fields are named, as serde_json names them.
#[test]
fn missing_and_duplicate_fields_are_named() {
    frame(
        b"\x00{\"ttlMs\":1}",
        K::MissingField,
        Some("contents"),
        "missing field `contents` at byte 11",
    );
    frame(
        b"\x00{\"contents\":[],\"contents\":[]}",
        K::DuplicateField,
        Some("contents"),
        "duplicate field `contents` at byte 16",
    );
    // Both missing: serde_json names the first in declaration order.
    frame(
        b"\x01{}",
        K::MissingField,
        Some("code"),
        "missing field `code` at byte 2",
    );
    frame(
        b"\x01{\"code\":1}",
        K::MissingField,
        Some("message"),
        "missing field `message` at byte 10",
    );
    // Refused after the key, whatever follows it.
    frame(
        b"\x01{\"message\":\"a\",\"code\":1,\"message\"\x0c:\"b\"}",
        K::DuplicateField,
        Some("message"),
        "duplicate field `message` at byte 25",
    );
    request(
        b"{\"_meta\":{}}",
        K::MissingField,
        Some("uri"),
        "missing field `uri` at byte 11",
    );
    request(
        b"{\"uri\":\"a\",\"_meta\":null,\"_meta\":{}}",
        K::DuplicateField,
        Some("_meta"),
        "duplicate field `_meta` at byte 24",
    );
}

/// Item 13: a wrong type says what was expected: the struct at the top
/// level, or the field's type.
#[test]
fn wrong_types_say_what_was_expected() {
    frame(
        b"\x00null",
        K::InvalidType,
        None,
        "invalid type: expected a result object at byte 1",
    );
    frame(
        b"\x01 \"x\"",
        K::InvalidType,
        None,
        "invalid type: expected an error object at byte 2",
    );
    request(
        b"7",
        K::InvalidType,
        None,
        "invalid type: expected a request object at byte 0",
    );
    request(
        b"{\"uri\":1}",
        K::InvalidType,
        Some("uri"),
        "invalid type for `uri`: expected a string at byte 7",
    );
    request(
        b"{\"uri\":\"u\",\"inputResponses\":[]}",
        K::InvalidType,
        Some("inputResponses"),
        "invalid type for `inputResponses`: expected an object or null at byte 28",
    );
    frame(
        b"\x01{\"code\":\"x\",\"message\":\"m\"}",
        K::InvalidType,
        Some("code"),
        "invalid type for `code`: expected an integer (i32) at byte 9",
    );
    frame(
        b"\x01{\"code\":1.5,\"message\":\"m\"}",
        K::InvalidType,
        Some("code"),
        "invalid type for `code`: expected an integer (i32) at byte 9",
    );
    frame(
        b"\x00{\"contents\":{}}",
        K::InvalidType,
        Some("contents"),
        "invalid type for `contents`: expected an array of content items at byte 13",
    );
    frame(
        b"\x00[\"r\",true]",
        K::InvalidType,
        Some("ttlMs"),
        "invalid type for `ttlMs`: expected an integer or null at byte 6",
    );
    frame(
        b"\x01{\"code\":2147483648,\"message\":\"m\"}",
        K::IntegerOutOfRange,
        Some("code"),
        "integer out of range for `code` at byte 9",
    );
    // Integer literals past u64 and i64 are floats to serde_json ("invalid
    // type: floating point"), and wrong types here too (the same Data
    // category); `in_input` shows the value itself.
    for big in [
        &b"99999999999999999999"[..],
        b"-99999999999999999999",
        b"-0",
        b"1e3",
    ] {
        let mut input = b"\x01{\"code\":".to_vec();
        input.extend_from_slice(big);
        input.extend_from_slice(b",\"message\":\"m\"}");
        frame(
            &input,
            K::InvalidType,
            Some("code"),
            "invalid type for `code`: expected an integer (i32) at byte 9",
        );
    }
    // The value is read first: its own defect wins, and names no field.
    frame(
        b"\x01{\"code\":\"\\q\",\"message\":\"m\"}",
        K::InvalidEscape,
        None,
        "invalid escape at byte 11",
    );
}

/// Item 12: a content item that matches neither form says which member is
/// wrong and why.
#[test]
fn content_items_say_why_they_match_neither_form() {
    let item = |json: &str| {
        let mut frame = b"\x00{\"contents\":[".to_vec();
        frame.extend_from_slice(json.as_bytes());
        frame.extend_from_slice(b"]}");
        frame
    };
    let neither = "content item matches neither form";
    for (json, field, why) in [
        (
            r#"{"uri":"a","uri":"b","text":"t"}"#,
            Some("uri"),
            r#""uri" appears twice"#,
        ),
        (r#"{"text":"t"}"#, Some("uri"), r#""uri" is missing"#),
        (
            r#"{"uri":1,"text":"t"}"#,
            Some("uri"),
            r#""uri" is not a string"#,
        ),
        (
            r#"{"uri":"a"}"#,
            None,
            r#"it has neither "text" nor "blob""#,
        ),
        (
            r#"{"uri":"a","text":null}"#,
            Some("text"),
            r#""text" is not a string"#,
        ),
        (
            r#"{"uri":"a","blob":"x","blob":"y"}"#,
            Some("blob"),
            r#""blob" appears twice"#,
        ),
        (
            r#"{"uri":"a","text":"t","mimeType":1}"#,
            Some("mimeType"),
            r#""mimeType" is neither a string nor null"#,
        ),
        (
            r#"{"uri":"a","blob":"b","_meta":[]}"#,
            Some("_meta"),
            r#""_meta" is neither an object nor null"#,
        ),
    ] {
        let frame = item(json);
        let at = 14 + json.len() - 1;
        let message = format!("{neither}: {why} at byte {at}");
        self::frame(&frame, K::InvalidContentItem, field, &message);
    }
    frame(
        b"\x00{\"contents\":[\"x\"]}",
        K::InvalidContentItem,
        None,
        "content item is not an object at byte 17",
    );
}

/// Errors that name nothing keep the kind's words.
#[test]
fn other_errors_keep_their_words() {
    frame(
        b"\x00{\"contents\":[],}",
        K::TrailingComma,
        None,
        "trailing comma at byte 16",
    );
    assert_eq!(
        BodyError::new(K::MissingField, 3).to_string(),
        "missing required field at byte 3"
    );
}

/// The detail costs no size: a `BodyError` is an offset and two bytes.
#[test]
#[cfg(target_pointer_width = "64")]
fn errors_stay_small() {
    assert_eq!(size_of::<BodyError>(), 16);
    assert_eq!(size_of::<FrameError>(), 16);
}

/// An error shown in its input: the message, the bytes around the offset on
/// one line (other bytes as `\xNN`), a caret under the spot; past the end
/// when the input ended early.
#[test]
fn errors_show_their_place_in_the_input() {
    let frame = b"\x00{\"contents\":[{\"uri\":\"a\",\"text\":\"line\nbreak\"}]}";
    let e = Frame::decode(frame).unwrap_err();
    let shown = e.in_input(frame).to_string();
    println!("{shown}");
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(lines[0], "control character in string at byte 37");
    // From byte 13 (24 before the offset) to the end.
    assert_eq!(lines[1], r#"  [{"uri":"a","text":"line\x0abreak"}]}"#);
    assert_eq!(lines[2], format!("{}^", " ".repeat(2 + 24)));
    assert_eq!(lines[1].find("\\x0a"), Some(lines[2].len() - 1));

    let cut = b"\x00{\"contents\":[";
    let e = Frame::decode(cut).unwrap_err();
    let shown = e.in_input(cut).to_string();
    assert_eq!(
        shown,
        format!(
            "unexpected end of input at byte 14\n  \\x00{{\"contents\":[\n{}^",
            " ".repeat(2 + 17)
        )
    );

    let e = Frame::decode(b"\x07{}").unwrap_err();
    assert_eq!(
        e.in_input(b"\x07{}").to_string(),
        "unknown frame tag 7 (expected 0 or 1)\n  \\x07{}\n  ^"
    );
    let e = Frame::decode(b"").unwrap_err();
    assert_eq!(
        e.in_input(b"").to_string(),
        "empty frame (no tag byte)\n  \n  ^"
    );
}

/// A spec check of a decoded frame points at the value at fault: the frame
/// from the error's offset on starts with it (strings at their opening
/// quote), whatever whitespace and escapes come before.
#[test]
fn spec_errors_point_at_the_value() {
    use diverge_frame::spec::SpecErrorKind as S;
    // The frame, the kind, the item, and what the frame holds at the offset.
    type Case = (&'static [u8], S, Option<usize>, &'static [u8]);
    let cases: [Case; 9] = [
        (b"\x00 [null,null,null,[],null]", S::PositionalForm, None, b"[null,"),
        (b"\x00{\"contents\":[],\"resultType\":\"nope\"}", S::UnknownResultType, None, b"\"nope\""),
        (b"\x00{\"contents\":[],\"cacheScope\": {\"public\":null}}", S::UnknownCacheScope, None, b"{\"public\":null}"),
        (b"\x00{\"contents\":[{\"uri\":\"a:b\",\"text\":\"\"},{\"uri\" : \"x y\",\"text\":\"\"}]}", S::NotAbsoluteUri, Some(1), b"\"x y\""),
        (b"\x00{\"contents\":[{\"uri\":\"a:b\",\"mimeType\":\"text\",\"text\":\"\"}]}", S::InvalidMimeType, Some(0), b"\"text\""),
        (b"\x00{\"contents\":[{\"uri\":\"a:b\",\"text\":\"\"}, {\"uri\":\"a:b\",\"text\":\"\",\"blob\":\"\"}]}", S::BothTextAndBlob, Some(1), b"{\"uri\":\"a:b\",\"text\":\"\",\"blob\":\"\"}"),
        (b"\x00{\"contents\":[{\"uri\":\"a:b\",\"blob\":\"A\\u0041F=\"}]}", S::InvalidBase64, Some(0), b"\"A\\u0041F=\""),
        (b"\x01{\"message\":\"m\",\"code\": 404}", S::UnknownErrorCode, None, b"404}"),
        (b"\x01  [1,\"m\",null]", S::PositionalForm, None, b"[1,\"m\",null]"),
    ];
    for (bytes, kind, item, at) in cases {
        let frame = Frame::decode(bytes).unwrap();
        let e = frame.check_spec().unwrap_err();
        assert_eq!(
            (e.kind(), e.item()),
            (kind, item),
            "{}",
            bytes.escape_ascii()
        );
        let offset = frame.spec_offset(&e).unwrap();
        assert!(
            bytes[offset..].starts_with(at),
            "{kind:?} at {offset}: {}",
            bytes.escape_ascii()
        );
        // An error the frame's check would not give is found nowhere.
        let elsewhere = diverge_frame::spec::SpecError::new(kind, Some(99));
        if item.is_some() {
            assert_eq!(frame.spec_offset(&elsewhere), None);
        }
    }
    // A request's offsets are in its JSON.
    let json = br#"{ "uri" : "not absolute" }"#;
    let view = RequestView::decode(json).unwrap();
    let e = view.check_spec().unwrap_err();
    assert_eq!(
        &json[view.spec_offset(&e).unwrap()..][..14],
        br#""not absolute""#
    );
}
