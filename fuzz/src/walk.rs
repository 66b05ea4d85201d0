//! Walks every view accessor to the end and asserts what the library
//! documents: no accessor fails or panics once `decode` returned `Ok`, every
//! way of reading a string agrees, error offsets stay inside the input.

use std::fmt::Write as _;

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use diverge_frame::{
    Base64Error, Blob, Body, BodyError, CapacityError, Content, ErrorView, Fragment, Frame,
    FrameError, JsonStr, RawJson, RequestView, ResultView, Tag,
};

/// Containers the reference allows in a typed value; views never hold more.
const MAX_DEPTH: usize = 127;

/// Keys per object whose `get` is checked against the member walk.
const GET_CHECKS: usize = 8;

/// Formats with `Display` and `Debug`; only "no panic" is checked.
fn format_both<T: std::fmt::Display + std::fmt::Debug>(value: &T) {
    let mut sink = String::new();
    let _ = write!(sink, "{value} {value:?}");
}

/// The std hasher's digest of `value`.
fn hash<T: std::hash::Hash>(value: &T) -> u64 {
    use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};
    BuildHasherDefault::<DefaultHasher>::default().hash_one(value)
}

/// Decodes a response frame and walks the result.
pub fn frame(input: &[u8]) {
    let decoded = Frame::decode(input);
    match Frame::split(input) {
        Ok(raw) => assert_eq!(raw.decode(), decoded, "split().decode() != decode()"),
        Err(e) => assert_eq!(
            Err(e),
            decoded,
            "split failed but decode did not fail the same way"
        ),
    }
    // The tag byte through `TryFrom<u8>` says what `split` says of it.
    if let Some(&byte) = input.first() {
        let tag = Tag::try_from(byte);
        assert_eq!(
            tag.is_ok(),
            Frame::split(input).is_ok(),
            "Tag::try_from({byte})"
        );
        if let Ok(tag) = tag {
            assert_eq!(u8::from(tag), byte, "u8::from(Tag) is not its byte");
        }
    }
    // The body decoders without the tag byte give the same view, or the
    // same error one byte nearer the start.
    if let (Some(&tag), Some(body)) = (input.first(), input.get(1..)) {
        let alone = match Tag::from_byte(tag) {
            Some(Tag::Result) => Some(ResultView::decode(body).map(Frame::Result)),
            Some(Tag::Error) => Some(ErrorView::decode(body).map(Frame::Error)),
            None => None,
        };
        if let Some(alone) = alone {
            let framed = decoded.map_err(|e| match e {
                FrameError::Body(b) => (b.kind(), b.offset()),
                other => panic!("a body with a known tag failed as {other:?}"),
            });
            let alone = alone.map_err(|b| (b.kind(), b.offset() + 1));
            assert_eq!(
                alone, framed,
                "the body decoder disagrees with Frame::decode"
            );
        }
    }
    match decoded {
        Ok(frame) => {
            format_both(&frame);
            match frame {
                Frame::Result(r) => {
                    assert_eq!(frame.tag(), Tag::Result);
                    result(&r, input);
                }
                Frame::Error(e) => {
                    assert_eq!(frame.tag(), Tag::Error);
                    error(&e, input);
                }
            }
        }
        Err(e) => frame_error(e, input),
    }
}

/// An error shown in its input: the message, one line of the input (no
/// line break, whatever it holds), and a caret under a column of it (or
/// one past its end).
fn shown_in_input(message: String, shown: String) {
    let mut lines = shown.split('\n');
    assert_eq!(
        lines.next(),
        Some(message.as_str()),
        "in_input's first line"
    );
    let around = lines.next().expect("in_input's line of input");
    let caret = lines.next().expect("in_input's caret");
    assert!(
        lines.next().is_none(),
        "in_input has three lines: {shown:?}"
    );
    assert!(
        caret.ends_with('^') && caret[..caret.len() - 1].bytes().all(|b| b == b' '),
        "in_input's caret line: {caret:?}"
    );
    assert!(
        caret.len() <= around.len() + 1,
        "caret past the line: {shown:?}"
    );
}

/// A rejected frame: the error must describe the input.
pub fn frame_error(err: FrameError, input: &[u8]) {
    format_both(&err);
    shown_in_input(err.to_string(), err.in_input(input).to_string());
    format_both(&err.in_input(input));
    let offset = match err {
        FrameError::Body(body) => body.offset(),
        _ => 0,
    };
    assert_eq!(err.offset(), offset, "FrameError::offset");
    match err {
        FrameError::Empty => assert!(input.is_empty(), "Empty for {} bytes", input.len()),
        FrameError::UnknownTag(tag) => {
            assert_eq!(input.first(), Some(&tag), "UnknownTag names another byte");
            assert!(
                Tag::from_byte(tag).is_none(),
                "UnknownTag({tag}) for a known tag"
            );
        }
        FrameError::Body(body) => {
            assert!(
                matches!(
                    input.first(),
                    Some(&(diverge_frame::RESULT_TAG | diverge_frame::ERROR_TAG))
                ),
                "Body error without a known tag"
            );
            assert!(
                body.offset() >= 1,
                "frame body error offset {} inside the tag",
                body.offset()
            );
            body_error(body, input);
        }
        other => panic!("a frame error this target does not know: {other:?}"),
    }
}

/// A rejected body: the offset is inside the input (or at its end).
pub fn body_error(err: BodyError, input: &[u8]) {
    format_both(&err);
    shown_in_input(err.to_string(), err.in_input(input).to_string());
    format_both(&err.kind());
    assert!(
        err.offset() <= input.len(),
        "BodyError offset {} beyond input length {} ({:?})",
        err.offset(),
        input.len(),
        err.kind()
    );
}

/// Decodes a request and walks the result.
pub fn request(input: &[u8]) {
    match RequestView::decode(input) {
        Ok(v) => {
            format_both(&v);
            assert_eq!(v.json(), input, "RequestView::json is not the input");
            string(v.uri());
            if let Some(meta) = v.meta() {
                object(meta);
            }
            if let Some(responses) = v.input_responses() {
                object(responses);
            }
            if let Some(state) = v.request_state() {
                string(state);
            }
        }
        Err(e) => body_error(e, input),
    }
}

fn result(r: &ResultView<'_>, frame: &[u8]) {
    format_both(r);
    assert_eq!(
        Some(r.json()),
        frame.get(1..),
        "ResultView::json is not the frame's body"
    );
    if let Some(t) = r.result_type() {
        string(t);
    }
    if let Some(ttl) = r.ttl_ms() {
        assert!(
            i64::try_from(ttl).is_ok(),
            "ttlMs {ttl} beyond i64 (the reference parses i64)"
        );
    }
    if let Some(scope) = r.cache_scope() {
        assert!(matches!(scope.as_str(), "public" | "private"));
    }
    if let Some(meta) = r.meta() {
        object(meta);
    }
    let mut contents = r.contents();
    let len = contents.len();
    let mut seen = 0usize;
    while let Some(item) = contents.next() {
        seen += 1;
        assert_eq!(
            contents.size_hint(),
            (len - seen, Some(len - seen)),
            "contents size_hint"
        );
        content(&item);
    }
    assert_eq!(seen, len, "contents().len() != items walked");
    assert!(
        contents.next().is_none() && contents.next().is_none(),
        "contents not fused"
    );
}

fn content(c: &Content<'_>) {
    format_both(c);
    let json = c.json();
    assert!(
        json.first() == Some(&b'{') && json.last() == Some(&b'}'),
        "content json is not one object"
    );
    string(c.uri());
    if let Some(mime) = c.mime_type() {
        string(mime);
    }
    match c.body() {
        Body::Text(t) => {
            string(t);
        }
        Body::Blob(b) => {
            let text = string(b.text());
            blob(b, &text);
        }
    }
    if let Some(meta) = c.meta() {
        object(meta);
    }
}

fn error(e: &ErrorView<'_>, frame: &[u8]) {
    format_both(e);
    assert_eq!(
        Some(e.json()),
        frame.get(1..),
        "ErrorView::json is not the frame's body"
    );
    let _ = e.code();
    string(e.message());
    if let Some(data) = e.data() {
        assert!(
            !data.is_null(),
            "data() is Some(null); the reference reads null as absent"
        );
        value(data, 1);
    }
}

/// Reads a `JsonStr` every way the API offers and checks they agree; returns
/// the unescaped text.
pub fn string(j: JsonStr<'_>) -> String {
    format_both(&j);
    let len = j.unescaped_len();
    let mut buf = vec![0u8; len];
    let unescaped = match j.unescape_into(&mut buf) {
        Ok(s) => s.to_owned(),
        Err(e) => panic!("unescape_into a buffer of unescaped_len() = {len} failed: {e:?}"),
    };
    assert_eq!(
        unescaped.len(),
        len,
        "unescaped_len() is not the unescaped length"
    );
    if len > 0 {
        let mut short = vec![0u8; len - 1];
        assert_eq!(
            j.unescape_into(&mut short),
            Err(CapacityError::new(len, len - 1)),
            "unescape_into a buffer one byte short"
        );
    }
    let chars: String = j.chars().collect();
    assert_eq!(chars, unescaped, "chars() != unescape_into");
    let mut joined = String::with_capacity(len);
    for fragment in j.fragments() {
        assert!(!fragment.is_empty(), "empty fragment");
        match fragment {
            Fragment::Str(s) => joined.push_str(s),
            Fragment::Char(c) => joined.push(c),
        }
    }
    assert_eq!(joined, unescaped, "fragments() != unescape_into");
    assert!(
        j == unescaped.as_str(),
        "JsonStr == &str is false for its own text"
    );
    // Equality and hashing of the text run on any string without a panic
    // (`tests/str_equality.rs` holds them to the text's spellings).
    let same = j;
    assert!(
        j == same && j.raw_eq(&same),
        "a JsonStr is not equal to itself"
    );
    assert_eq!(hash(&j), hash(&j), "a JsonStr hashes apart from itself");
    assert!(
        unescaped.as_str() == j,
        "&str == JsonStr is false for its own text"
    );
    let mut longer = unescaped.clone();
    longer.push('x');
    assert!(j != longer.as_str(), "JsonStr == its text plus one char");
    if let Some((cut, _)) = unescaped.char_indices().last() {
        assert!(j != unescaped[..cut], "JsonStr == its text minus one char");
    }
    assert_eq!(
        j.is_empty(),
        len == 0,
        "is_empty() disagrees with unescaped_len()"
    );
    match j.as_str() {
        Some(s) => {
            assert!(!j.is_escaped(), "as_str() is Some for escaped text");
            assert_eq!(s, unescaped, "as_str() != unescaped text");
            assert_eq!(j.raw(), s.as_bytes(), "raw() != as_str()");
        }
        None => assert!(j.is_escaped(), "as_str() is None for unescaped text"),
    }
    assert_eq!(j.to_string(), unescaped, "Display != unescaped text");
    match j.to_heapless::<64>() {
        Ok(h) => assert_eq!(h.as_str(), unescaped, "to_heapless != unescaped text"),
        Err(e) => {
            assert!(len > 64, "to_heapless::<64> failed for {len} bytes");
            assert_eq!(e, CapacityError::new(len, 64));
        }
    }
    unescaped
}

/// Blob settings of the library: standard alphabet, padding optional.
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Decodes a blob (invalid base64 is allowed: the reference never checks
/// it) and compares with the `base64` crate on the unescaped text.
fn blob(b: Blob<'_>, text: &str) {
    assert!(b == text && b == *text, "Blob == its unescaped text");
    assert_eq!(JsonStr::from(b), b.text(), "Blob into its JsonStr");
    assert_eq!(
        format!("{b:?}"),
        format!("{:?}", b.text()),
        "Blob's Debug is its text's"
    );
    let needed = b.base64_decoded_len();
    let mut out = vec![0u8; needed];
    let ours = b.decode_base64_into(&mut out);
    let theirs = ENGINE.decode(text.as_bytes());
    match (ours, &theirs) {
        (Ok(n), Ok(bytes)) => {
            assert_eq!(n, needed, "decoded length != base64_decoded_len()");
            assert_eq!(
                out.get(..n),
                Some(bytes.as_slice()),
                "decoded bytes differ from base64's"
            );
        }
        (Err(Base64Error::Invalid { offset }), Err(_)) => {
            assert!(
                offset <= text.len(),
                "base64 error offset {offset} beyond {} bytes",
                text.len()
            );
        }
        (ours, theirs) => panic!(
            "decode_base64_into disagrees with base64: ours {ours:?}, base64 {:?}\n  blob text: {text:?}",
            theirs.as_ref().map(Vec::len)
        ),
    }
    if needed > 0 && theirs.is_ok() {
        let mut short = vec![0u8; needed - 1];
        assert_eq!(
            b.decode_base64_into(&mut short),
            Err(Base64Error::BufferTooSmall {
                needed,
                available: needed - 1
            }),
            "decode_base64_into a buffer one byte short"
        );
    }
}

/// A `_meta` / `inputResponses` value: an object, never `null`.
fn object(v: RawJson<'_>) {
    assert!(v.is_object(), "map field is not an object: {v:?}");
    value(v, 1);
}

/// Any validated value: its text, and its members walked to the end.
fn value(v: RawJson<'_>, depth: usize) {
    assert!(depth <= MAX_DEPTH, "view value nested {depth} deep");
    format_both(&v);
    let bytes = v.as_bytes();
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else {
        panic!("empty RawJson");
    };
    assert!(
        !matches!(first, b' ' | b'\t' | b'\n' | b'\r')
            && !matches!(last, b' ' | b'\t' | b'\n' | b'\r'),
        "RawJson has surrounding whitespace: {v:?}"
    );
    assert_eq!(
        v.as_str().as_bytes(),
        bytes,
        "validated RawJson is not UTF-8"
    );
    assert_eq!(v.is_object(), first == b'{');
    assert_eq!(v.is_null(), bytes == b"null");
    match first {
        b'{' => assert_eq!(last, b'}', "object text does not end in }}: {v:?}"),
        b'[' => assert_eq!(last, b']', "array text does not end in ]: {v:?}"),
        b'"' => assert!(
            bytes.len() >= 2 && last == b'"',
            "string text is not quoted: {v:?}"
        ),
        _ => {}
    }
    let mut keys: Vec<String> = Vec::new();
    let mut members = 0usize;
    for (key, member) in v.members() {
        members += 1;
        let key = string(key);
        value(member, depth + 1);
        if keys.len() < GET_CHECKS && !keys.contains(&key) {
            keys.push(key);
        }
    }
    if !v.is_object() {
        assert_eq!(members, 0, "members() of a non-object");
    }
    for key in &keys {
        let last = v
            .members()
            .filter(|(k, _)| *k == key.as_str())
            .last()
            .map(|(_, m)| m);
        assert!(last.is_some(), "key {key:?} walked but not found again");
        assert_eq!(
            v.get(key),
            last,
            "get({key:?}) is not the last member of that name"
        );
    }
}
