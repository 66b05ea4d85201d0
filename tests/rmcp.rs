//! The `alloc` feature against the reference (`serde_json` + `rmcp` 3.11.0):
//! generated rmcp values, the REFERENCE.md oracle table, and mutated frames.
#![cfg(feature = "alloc")]
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::panic,
    missing_docs
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use diverge_frame::FrameError;
use diverge_frame::encode::EncodeError;
use diverge_frame::rmcp::{OwnedFrame, decode_frame, decode_request, encode_frame, encode_request};
use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use rmcp::ErrorData;
use rmcp::model::{
    CacheScope, ErrorCode, MetaObject, ReadResourceRequestParams, ReadResourceResult,
    RequestMetaObject, ResourceContents, ResultType,
};
use serde_json::{Map, Value};

// ----- the reference --------------------------------------------------------

/// The reference decoder's outcome for a frame, in `decode_frame`'s terms.
fn reference_frame(bytes: &[u8]) -> Result<OwnedFrame, FrameError> {
    let body = || {
        FrameError::Body(diverge_frame::BodyError::new(
            diverge_frame::BodyErrorKind::Eof,
            0,
        ))
    };
    match bytes.split_first() {
        None => Err(FrameError::Empty),
        Some((0, json)) => serde_json::from_slice(json)
            .map(OwnedFrame::Result)
            .map_err(|_| body()),
        Some((1, json)) => serde_json::from_slice(json)
            .map(OwnedFrame::Error)
            .map_err(|_| body()),
        Some((&tag, _)) => Err(FrameError::UnknownTag(tag)),
    }
}

fn reference_request(bytes: &[u8]) -> Option<ReadResourceRequestParams> {
    serde_json::from_slice(bytes).ok()
}

fn canonical_frame(frame: &OwnedFrame) -> Vec<u8> {
    match frame {
        OwnedFrame::Result(r) => [&[0u8][..], &serde_json::to_vec(r).unwrap()].concat(),
        OwnedFrame::Error(e) => [&[1u8][..], &serde_json::to_vec(e).unwrap()].concat(),
    }
}

/// Value equality, and equal canonical bytes (which also tells `-0.0` from
/// `0.0`, equal under `PartialEq`).
fn same_frame(a: &OwnedFrame, b: &OwnedFrame) -> bool {
    a == b && canonical_frame(a) == canonical_frame(b)
}

fn same_request(a: &ReadResourceRequestParams, b: &ReadResourceRequestParams) -> bool {
    a == b && serde_json::to_vec(a).unwrap() == serde_json::to_vec(b).unwrap()
}

/// `None` when ours and the reference agree on a frame, else both outcomes.
fn frame_disagreement(bytes: &[u8]) -> Option<String> {
    let ours = decode_frame(bytes);
    let theirs = reference_frame(bytes);
    let agree = match (&ours, &theirs) {
        (Ok(a), Ok(b)) => same_frame(a, b),
        (Err(FrameError::Body(_)), Err(FrameError::Body(_))) => true,
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if agree {
        return None;
    }
    let theirs_text = match bytes.split_first() {
        Some((0, json)) => format!("{:?}", serde_json::from_slice::<ReadResourceResult>(json)),
        Some((1, json)) => format!("{:?}", serde_json::from_slice::<ErrorData>(json)),
        _ => format!("{theirs:?}"),
    };
    Some(format!("ours: {ours:?}\nreference: {theirs_text}"))
}

fn request_disagreement(bytes: &[u8]) -> Option<String> {
    let ours = decode_request(bytes);
    let theirs = serde_json::from_slice::<ReadResourceRequestParams>(bytes);
    let agree = match (&ours, &theirs) {
        (Ok(a), Ok(b)) => same_request(a, b),
        (Err(_), Err(_)) => true,
        _ => false,
    };
    if agree {
        None
    } else {
        Some(format!("ours: {ours:?}\nreference: {theirs:?}"))
    }
}

/// Printable form of an input: ASCII kept, other bytes as `<XX>`, long
/// inputs shortened in the middle.
fn escaped(bytes: &[u8]) -> String {
    let mut out = String::new();
    let show = |out: &mut String, b: &[u8]| {
        for &c in b {
            if (0x20..0x7f).contains(&c) {
                out.push(c as char);
            } else {
                write!(out, "<{c:02X}>").unwrap();
            }
        }
    };
    if bytes.len() > 600 {
        show(&mut out, &bytes[..300]);
        write!(out, "<…{} bytes…>", bytes.len() - 600).unwrap();
        show(&mut out, &bytes[bytes.len() - 300..]);
    } else {
        show(&mut out, bytes);
    }
    out
}

// ----- strategies: rmcp values ----------------------------------------------

const SPECIAL: &[char] = &[
    '\0',
    '\u{1}',
    '\u{8}',
    '\t',
    '\n',
    '\u{b}',
    '\u{c}',
    '\r',
    '\u{1f}',
    '"',
    '\\',
    '/',
    '\u{7f}',
    '\u{80}',
    '\u{2028}',
    '\u{2029}',
    'é',
    '€',
    '😀',
    '\u{fffd}',
    '\u{ffff}',
    '\u{10ffff}',
    ' ',
    'u',
    '0',
];

fn arb_char() -> impl Strategy<Value = char> + Clone {
    prop_oneof![
        4 => any::<char>(),
        4 => proptest::char::range('a', 'z'),
        3 => proptest::sample::select(SPECIAL),
        1 => proptest::char::range('\0', '\u{1f}'),
    ]
}

fn arb_string() -> BoxedStrategy<String> {
    prop_oneof![
        1 => Just(String::new()),
        12 => vec(arb_char(), 0..24).prop_map(String::from_iter),
        1 => (vec(arb_char(), 1..8), 200usize..8_000).prop_map(|(c, n)| c.iter().cycle().take(n).collect()),
    ]
    .boxed()
}

fn arb_key() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        3 => proptest::sample::select(&["a", "b", "z", "progressToken", "uri", "", "\u{0}", "é"][..]).prop_map(String::from),
        2 => vec(arb_char(), 0..8).prop_map(String::from_iter),
    ]
}

/// Any finite float, weighted to the awkward ones.
fn arb_float() -> impl Strategy<Value = f64> + Clone {
    prop_oneof![
        3 => any::<f64>().prop_filter("finite", |f| f.is_finite()),
        2 => proptest::sample::select(&[
            0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1e22, 1e23, 1e300, -1e300, 5e-324, 1e-320,
            f64::MAX, f64::MIN, f64::MIN_POSITIVE, f64::EPSILON, 1.8446744073709552e19, 9007199254740993.0,
        ][..]),
        2 => -1e6..1e6f64,
        1 => any::<i32>().prop_map(f64::from),
    ]
}

/// Whether serde_json (without `float_roundtrip`) reads back the float it
/// writes: its parse is not always correctly rounded.
fn survives(f: f64) -> bool {
    serde_json::from_str::<f64>(&serde_json::to_string(&f).unwrap()).ok() == Some(f)
}

fn arb_number(lossless: bool) -> BoxedStrategy<Value> {
    let float = if lossless {
        arb_float()
            .prop_filter("serde_json round trip", |f| survives(*f))
            .boxed()
    } else {
        arb_float().boxed()
    };
    prop_oneof![
        any::<u64>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        proptest::sample::select(
            &[
                0u64,
                1,
                7,
                u64::MAX,
                i64::MAX as u64,
                (i64::MAX as u64) + 1,
                1 << 53
            ][..]
        )
        .prop_map(Value::from),
        proptest::sample::select(&[i64::MIN, -1, -(1 << 53), -2_147_483_648][..])
            .prop_map(Value::from),
        float.prop_map(Value::from),
    ]
    .boxed()
}

fn arb_value(lossless: bool) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => arb_number(lossless),
        3 => arb_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..6).prop_map(Value::Array),
            btree_map(arb_key(), inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

fn arb_map(lossless: bool) -> BoxedStrategy<Map<String, Value>> {
    btree_map(arb_key(), arb_value(lossless), 0..6)
        .prop_map(|m| m.into_iter().collect())
        .boxed()
}

fn result_type(s: String) -> ResultType {
    serde_json::from_value(Value::String(s)).unwrap()
}

fn arb_request(lossless: bool) -> BoxedStrategy<ReadResourceRequestParams> {
    (
        proptest::option::of(arb_map(lossless)),
        arb_string(),
        proptest::option::of(btree_map(arb_key(), arb_value(lossless), 0..4)),
        proptest::option::of(arb_string()),
    )
        .prop_map(|(meta, uri, input_responses, request_state)| {
            let mut req = ReadResourceRequestParams::new(uri);
            req.meta = meta.map(|m| RequestMetaObject(MetaObject(m)));
            req.input_responses = input_responses;
            req.request_state = request_state;
            req
        })
        .boxed()
}

fn arb_content(lossless: bool) -> BoxedStrategy<ResourceContents> {
    (
        any::<bool>(),
        arb_string(),
        proptest::option::of(arb_string()),
        arb_string(),
        proptest::option::of(arb_map(lossless)),
    )
        .prop_map(|(text, uri, mime_type, body, meta)| {
            let meta = meta.map(MetaObject);
            if text {
                ResourceContents::TextResourceContents {
                    uri,
                    mime_type,
                    text: body,
                    meta,
                }
            } else {
                ResourceContents::BlobResourceContents {
                    uri,
                    mime_type,
                    blob: body,
                    meta,
                }
            }
        })
        .boxed()
}

fn arb_result(lossless: bool) -> BoxedStrategy<ReadResourceResult> {
    let result_type = prop_oneof![
        1 => Just(None),
        1 => Just(Some(ResultType::COMPLETE)),
        1 => Just(Some(ResultType::INPUT_REQUIRED)),
        2 => arb_string().prop_map(|s| Some(result_type(s))),
    ];
    let ttl = prop_oneof![
        2 => Just(None),
        2 => (0u64..100_000).prop_map(Some),
        1 => any::<u64>().prop_map(Some),
        1 => proptest::sample::select(&[0, i64::MAX as u64, (i64::MAX as u64) + 1, u64::MAX][..]).prop_map(Some),
    ];
    let scope =
        proptest::sample::select(&[None, Some(CacheScope::Public), Some(CacheScope::Private)][..]);
    (
        result_type,
        ttl,
        scope,
        vec(arb_content(lossless), 0..4),
        proptest::option::of(arb_map(lossless)),
    )
        .prop_map(|(result_type, ttl_ms, cache_scope, contents, meta)| {
            let mut r = ReadResourceResult::new(contents);
            r.result_type = result_type;
            r.ttl_ms = ttl_ms;
            r.cache_scope = cache_scope;
            r.meta = meta.map(MetaObject);
            r
        })
        .boxed()
}

fn arb_error(lossless: bool) -> BoxedStrategy<ErrorData> {
    let code = prop_oneof![
        any::<i32>(),
        proptest::sample::select(&[-32002, -32602, -32603, -32700, 0, i32::MIN, i32::MAX][..]),
    ];
    (
        code,
        arb_string(),
        proptest::option::of(arb_value(lossless)),
    )
        .prop_map(|(code, message, data)| ErrorData::new(ErrorCode(code), message, data))
        .boxed()
}

fn arb_frame(lossless: bool) -> BoxedStrategy<OwnedFrame> {
    prop_oneof![
        arb_result(lossless).prop_map(OwnedFrame::Result),
        arb_error(lossless).prop_map(OwnedFrame::Error)
    ]
    .boxed()
}

// ----- properties -----------------------------------------------------------

/// Cases per property; `PROPTEST_CASES` overrides.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        max_shrink_iters: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn check_frame_encoding(frame: &OwnedFrame) -> Vec<u8> {
    let theirs = canonical_frame(frame);
    let ours = encode_frame_to_vec(frame);
    assert_eq!(ours, theirs, "encode_frame_to_vec");
    assert_eq!(encoded_frame_len(frame), theirs.len());
    let mut buf = vec![0u8; theirs.len()];
    assert_eq!(encode_frame(frame, &mut buf[..]), Ok(theirs.len()));
    assert_eq!(buf, theirs, "encode_frame");
    assert_eq!(
        encode_frame(frame, &mut buf[..theirs.len() - 1]),
        Err(EncodeError::BufferFull)
    );
    theirs
}

fn check_request_encoding(request: &ReadResourceRequestParams) -> Vec<u8> {
    let theirs = serde_json::to_vec(request).unwrap();
    assert_eq!(
        encode_request_to_vec(request),
        theirs,
        "encode_request_to_vec"
    );
    assert_eq!(encoded_request_len(request), theirs.len());
    let mut buf = vec![0u8; theirs.len()];
    assert_eq!(encode_request(request, &mut buf[..]), Ok(theirs.len()));
    assert_eq!(buf, theirs, "encode_request");
    assert_eq!(
        encode_request(request, &mut buf[..theirs.len() - 1]),
        Err(EncodeError::BufferFull)
    );
    theirs
}

proptest! {
    #![proptest_config(config())]

    /// (a) + (b), any floats: our bytes are serde_json's, and decoding them
    /// gives the reference's outcome and value.
    #[test]
    fn frame_encode_and_decode_match_reference(frame in arb_frame(false)) {
        let bytes = check_frame_encoding(&frame);
        prop_assert_eq!(frame_disagreement(&bytes), None);
    }

    #[test]
    fn request_encode_and_decode_match_reference(request in arb_request(false)) {
        let bytes = check_request_encoding(&request);
        prop_assert_eq!(request_disagreement(&bytes), None);
    }

    /// (c), floats that serde_json reads back exactly: decode -> encode ->
    /// decode is the identity on values, and canonical bytes survive
    /// decode -> encode unchanged.
    #[test]
    fn frame_round_trips(frame in arb_frame(true)) {
        let bytes = canonical_frame(&frame);
        match decode_frame(&bytes) {
            Ok(decoded) => {
                // Only the documented one-way cases may change the value.
                let canonical = canonical_frame(&decoded);
                let again = decode_frame(&encode_frame_to_vec(&decoded)).unwrap();
                prop_assert!(same_frame(&again, &decoded));
                prop_assert_eq!(encode_frame_to_vec(&decode_frame(&canonical).unwrap()), canonical);
                if !one_way_frame(&frame) {
                    prop_assert!(same_frame(&decoded, &frame));
                }
            }
            Err(_) => {
                // The only values the reference cannot read back.
                prop_assert!(reference_frame(&bytes).is_err());
                let OwnedFrame::Result(r) = &frame else { panic!("error frame rejected") };
                prop_assert!(r.ttl_ms.is_some_and(|t| t > i64::MAX as u64));
            }
        }
    }

    #[test]
    fn request_round_trips(request in arb_request(true)) {
        let bytes = serde_json::to_vec(&request).unwrap();
        let decoded = decode_request(&bytes).unwrap();
        prop_assert!(same_request(&decoded, &request));
        let again = encode_request_to_vec(&decoded);
        prop_assert_eq!(&again, &bytes);
        prop_assert!(same_request(&decode_request(&again).unwrap(), &decoded));
    }

    /// Number literals written by hand, not by ryu: the `Value` number port.
    #[test]
    fn number_literals_match_reference(
        lit in prop_oneof![
            "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,3})?",
            "-?(0|[1-9][0-9]{0,3})(\\.[0-9]{0,3}[1-9])?[eE]-3[0-9]{2}",
            "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,12})?",
        ],
    ) {
        let json = format!(r#"{{"uri":"a","_meta":{{"n":{lit},"m":[{lit}]}}}}"#);
        prop_assert_eq!(request_disagreement(json.as_bytes()), None, "{}", json);
        let frame = format!("\x01{{\"code\":1,\"message\":\"m\",\"data\":{lit}}}");
        prop_assert_eq!(frame_disagreement(frame.as_bytes()), None, "{}", frame);
    }

    /// Strings as raw JSON text with arbitrary escapes, not as serde_json
    /// writes them.
    #[test]
    fn escaped_strings_match_reference(parts in vec(prop_oneof![
        arb_char().prop_map(|c| match c { '"' => "q".to_owned(), '\\' => "/".to_owned(), c => c.to_string() }),
        proptest::sample::select(&[
            "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u0041",
            "\\u00e9", "\\u20AC", "\\uD83D\\uDE00", "\\ud800", "\\udc00", "\\ud800\\u0041", "\\uDBFF\\uDFFF",
            "\\uffff", "\\uFFFE",
        ][..]).prop_map(String::from),
    ], 0..12)) {
        let text: String = parts.concat();
        let req = format!(r#"{{"uri":"{text}","requestState":"{text}","_meta":{{"{text}":"{text}"}}}}"#);
        prop_assert_eq!(request_disagreement(req.as_bytes()), None, "{}", req);
        let res = format!(
            r#"{{"resultType":"{text}","contents":[{{"uri":"{text}","mimeType":"{text}","text":"{text}","_meta":{{"k":["{text}"]}}}}]}}"#
        );
        prop_assert_eq!(frame_disagreement(&[b"\0", res.as_bytes()].concat()), None, "{}", res);
        let err = format!(r#"{{"code":-1,"message":"{text}","data":"{text}"}}"#);
        prop_assert_eq!(frame_disagreement(&[b"\x01", err.as_bytes()].concat()), None, "{}", err);
    }
}

/// Values the reference does not read back as themselves.
fn one_way_frame(frame: &OwnedFrame) -> bool {
    match frame {
        OwnedFrame::Error(e) => e.data == Some(Value::Null),
        OwnedFrame::Result(_) => false,
    }
}

// ----- the oracle table (REFERENCE.md section 4) -----------------------------

/// An ignored member holding `n` nested empty arrays.
fn deep_ignored(n: usize) -> Vec<u8> {
    format!(r#"{{"uri":"a","x":{}{}}}"#, "[".repeat(n), "]".repeat(n)).into_bytes()
}

fn nested(n: usize) -> String {
    format!("{}1{}", "[".repeat(n), "]".repeat(n))
}

/// `(row, input, reference accepts)` for requests.
fn request_vectors() -> Vec<(&'static str, Vec<u8>, bool)> {
    let s = |row, text: &str, ok| (row, text.as_bytes().to_vec(), ok);
    let b = |row, bytes: &[u8], ok| (row, bytes.to_vec(), ok);
    vec![
        s("1", r#"{"uri":"docs://x"}"#, true),
        s(
            "2",
            r#"{"uri":"docs://x","_meta":{"progressToken":1}}"#,
            true,
        ),
        s("3", r#"{"uri":"docs://x","_meta":null}"#, true),
        s("4", r#"{}"#, false),
        s("5a", r#"{"uri":null}"#, false),
        s("5b", r#"{"uri":1}"#, false),
        s("6", r#"{"uri":"a","uri":"b"}"#, false),
        s("7", r#"{"uri":"a","\u0075ri":"b"}"#, false),
        s("8", r#"{"\u0075ri":"a"}"#, true),
        s("9", r#"{"uri":"a","extra":1,"extra":2}"#, true),
        s("10", r#"{"uri":"a","_meta":{"k":1,"k":2}}"#, true),
        s("11a", r#"{"uri":"a","_meta":[]}"#, false),
        s("11b", r#"{"uri":"a","_meta":"s"}"#, false),
        s("12", r#"{"uri":"a","requestState":5}"#, false),
        s("13", r#"[null,"a",null,null]"#, true),
        s("14", r#"[null,"a"]"#, false),
        s("15", " \t\r\n{\"uri\":\"a\"} \t\r\n", true),
        s("16a", "{\"uri\":\"a\"}\x0c", false),
        s("16b", r#"{"uri":"a"} x"#, false),
        s("16c", r#"{"uri":"a"}{"uri":"b"}"#, false),
        b("17", b"\xEF\xBB\xBF{\"uri\":\"a\"}", false),
        s("18", "", false),
        s("19", r#"{"uri":"a",}"#, false),
        s("20", r#"{"uri":"\ud800"}"#, false),
        s("21a", r#"{"uri":"\udc00x"}"#, false),
        s("21b", r#"{"uri":"\ud800\u0041"}"#, false),
        s("22", r#"{"uri":"\uD83D\uDE00"}"#, true),
        s("23", r#"{"uri":"a","x":"\ud800"}"#, true),
        s("24", r#"{"uri":"a","_meta":{"x":"\ud800"}}"#, false),
        b("25a", b"{\"uri\":\"\xFF\"}", false),
        b("25b", b"{\"uri\":\"\xED\xA0\x80\"}", false),
        b("25c", b"{\"uri\":\"\xC0\xAF\"}", false),
        b("26", b"{\"uri\":\"a\",\"x\":\"\xFF\"}", true),
        b("27", b"{\"uri\":\"a\",\"\xFF\":1}", false),
        s("28a", "{\"uri\":\"a\tb\"}", false),
        s("28b", "{\"uri\":\"a\",\"x\":\"a\tb\"}", false),
        s("29a", r#"{"uri":"a\u0000b"}"#, true),
        b("29b", b"{\"uri\":\"a\x7Fb\"}", true),
        s("30", r#"{"uri":"a","x":"\q"}"#, false),
        s("31", r#"{"uri":"a","x":1e400}"#, true),
        s("32", r#"{"uri":"a","_meta":{"n":1e400}}"#, false),
        s("33a", r#"{"uri":"a","x":01}"#, false),
        s("33b", r#"{"uri":"a","x":1.}"#, false),
        s("33c", r#"{"uri":"a","x":NaN}"#, false),
        // Row 34 names 10^6 levels: see `row_34_full_depth` (slow here).
        ("34 (10^5)", deep_ignored(100_000), true),
        (
            "35 (126)",
            format!(r#"{{"uri":"a","_meta":{{"x":{}}}}}"#, nested(126)).into_bytes(),
            false,
        ),
        (
            "35 (125)",
            format!(r#"{{"uri":"a","_meta":{{"x":{}}}}}"#, nested(125)).into_bytes(),
            true,
        ),
        // Beyond the table: the draft fields, and values the Value port reads.
        s(
            "x1",
            r#"{"uri":"a","inputResponses":{"k":{"z":[1,-0,1E3,18446744073709551616]},"k":2},"requestState":"s\n"}"#,
            true,
        ),
        s(
            "x2",
            r#"{"uri":"a","inputResponses":null,"requestState":null}"#,
            true,
        ),
        s("x3", r#"{"uri":"a","inputResponses":[]}"#, false),
        s("x4", r#"[{"a":1},"\u00e9",{"q":true},"st"]"#, true),
        s(
            "x5",
            r#"{"uri":"a","_meta":{"z":{"y":1,"b":2},"a":[1.5,-2,"\/"]}}"#,
            true,
        ),
    ]
}

/// `(row, frame, reference accepts)` for response frames.
fn frame_vectors() -> Vec<(&'static str, Vec<u8>, bool)> {
    let res = |row, text: &str, ok| (row, [b"\x00", text.as_bytes()].concat(), ok);
    let item = |row, text: &str, ok| {
        (
            row,
            format!("\x00{{\"contents\":[{text}]}}").into_bytes(),
            ok,
        )
    };
    let item_b = |row, text: &[u8], ok| (row, [b"\x00{\"contents\":[", text, b"]}"].concat(), ok);
    let err = |row, text: &str, ok| (row, [b"\x01", text.as_bytes()].concat(), ok);
    // A `cacheScope` map whose one member's value is `depth` arrays deep.
    let deep_scope = |row, key: &str, depth: usize| {
        let (open, close) = ("[".repeat(depth), "]".repeat(depth));
        let text = format!(r#"{{"contents":[],"cacheScope":{{"{key}":{open}null{close}}}}}"#);
        res(row, &text, false)
    };
    let errm = |row, text: &str, ok| {
        (
            row,
            format!("\x01{{\"code\":1,\"message\":\"m\",{text}}}").into_bytes(),
            ok,
        )
    };
    vec![
        ("empty", vec![], false),
        ("tag 2", b"\x02{}".to_vec(), false),
        ("tag only", b"\x00".to_vec(), false),
        res("36", r#"{"contents":[]}"#, true),
        res("37a", r#"{}"#, false),
        res("37b", r#"{"contents":null}"#, false),
        res("37c", r#"{"contents":{}}"#, false),
        res("38", r#"{"contents":[],"contents":[]}"#, false),
        item("39", r#"{"uri":"u","text":"t"}"#, true),
        item("40", r#"{"uri":"u","blob":"not base64 !!"}"#, true),
        item("41a", r#"{"uri":"u","text":"t","blob":"b"}"#, true),
        item("41b", r#"{"uri":"u","blob":"b","text":"t"}"#, true),
        item("42", r#"{"uri":"u"}"#, false),
        item("43a", r#"{"uri":"u","text":null,"blob":"b"}"#, true),
        item("43b", r#"{"uri":"u","text":1,"blob":"b"}"#, true),
        item("44", r#"{"uri":"u","text":"t","text":"t2"}"#, false),
        item(
            "45",
            r#"{"uri":"u","text":"t","text":"t2","blob":"b"}"#,
            true,
        ),
        item("46a", r#"{"uri":"u","uri":"u","text":"t"}"#, false),
        item(
            "46b",
            r#"{"uri":"u","mimeType":"a","mimeType":"b","text":"t"}"#,
            false,
        ),
        item("47", r#"{"uri":"u","mimeType":null,"text":"t"}"#, true),
        item("48a", r#"{"uri":"u","mimeType":1,"text":"t"}"#, false),
        item("48b", r#"{"uri":"u","text":"t","_meta":[]}"#, false),
        item(
            "49",
            r#"{"uri":"u","text":"t","annotations":{"priority":2}}"#,
            true,
        ),
        res("50", r#"{"contents":[["u",null,"t",null]]}"#, false),
        res("51", r#"[null,null,null,[],null]"#, true),
        res("52a", r#"{"contents":[],"x":"\ud800"}"#, true),
        (
            "52b",
            b"\x00{\"contents\":[],\"x\":\"\xFF\"}".to_vec(),
            true,
        ),
        item("53a", r#"{"uri":"u","text":"t","x":"\ud800"}"#, false),
        item_b(
            "53b",
            b"{\"uri\":\"u\",\"text\":\"t\",\"x\":\"\xFF\"}",
            false,
        ),
        item("53c", r#"{"uri":"u","text":"t","x":1e400}"#, false),
        res("54a", r#"{"contents":[],"resultType":"weird"}"#, true),
        res("54b", r#"{"contents":[],"resultType":null}"#, true),
        res("54c", r#"{"contents":[],"resultType":1}"#, false),
        res("54d", r#"{"contents":[],"resultType":"complete"}"#, true),
        res(
            "54e",
            r#"{"contents":[],"resultType":"input_required"}"#,
            true,
        ),
        res(
            "54f",
            r#"{"contents":[],"resultType":"\u0063omplete"}"#,
            true,
        ),
        res("55", r#"{"contents":[],"ttlMs":-5}"#, true),
        res("56a", r#"{"contents":[],"ttlMs":1.5}"#, false),
        res("56b", r#"{"contents":[],"ttlMs":1e3}"#, false),
        res("56c", r#"{"contents":[],"ttlMs":-0}"#, false),
        res(
            "56d",
            r#"{"contents":[],"ttlMs":9223372036854775808}"#,
            false,
        ),
        res(
            "56e",
            r#"{"contents":[],"ttlMs":9223372036854775807}"#,
            true,
        ),
        res(
            "56f",
            r#"{"contents":[],"ttlMs":-9223372036854775808}"#,
            true,
        ),
        res("57a", r#"{"contents":[],"cacheScope":""}"#, true),
        res("57b", r#"{"contents":[],"cacheScope":"Public"}"#, false),
        res(
            "57c",
            r#"{"contents":[],"cacheScope":{"public":null}}"#,
            true,
        ),
        res("57d", r#"{"contents":[],"cacheScope":"private"}"#, true),
        res("57e", r#"{"contents":[],"cacheScope":{"public":1}}"#, false),
        res(
            "57f",
            r#"{"contents":[],"cacheScope":{"public":null,"private":null}}"#,
            false,
        ),
        res("57g", r#"{"contents":[],"cacheScope":null}"#, true),
        res("57h", r#"{"contents":[],"cacheScope":"\u0070ublic"}"#, true),
        // The one-key map form, walked as a `Value`: duplicate keys collapse
        // (the last value wins), the value's syntax and depth are checked
        // before its shape.
        res(
            "57i",
            r#"{"contents":[],"cacheScope":{"public":null,"public":null}}"#,
            true,
        ),
        res(
            "57j",
            r#"{"contents":[],"cacheScope":{"public":1,"public":null}}"#,
            true,
        ),
        res(
            "57k",
            r#"{"contents":[],"cacheScope":{"public":null,"public":1}}"#,
            false,
        ),
        res("57l", r#"{"contents":[],"cacheScope":{}}"#, false),
        res(
            "57m",
            r#"{"contents":[],"cacheScope":{"x":null,"private":null}}"#,
            false,
        ),
        res(
            "57n",
            r#"{"contents":[],"cacheScope":{"public":null,}}"#,
            false,
        ),
        res(
            "57o",
            r#"{"contents":[],"cacheScope":{"x":[1,{"a":tru}]}}"#,
            false,
        ),
        res(
            "57p",
            r#"{"contents":[],"cacheScope":{ "\u0070rivate" : null }}"#,
            true,
        ),
        deep_scope("57q", "public", 125),
        deep_scope("57r", "x", 126),
        deep_scope("57s", "x", 127),
        item(
            "58",
            r#"{"uri":"u","text":"t","_meta":{"a":1,"a":2}}"#,
            true,
        ),
        err("59a", r#"{"code":-32002,"message":"nf"}"#, true),
        err("59b", r#"{"message":"nf","code":-32002}"#, true),
        err("60", r#"{"code":-32002,"message":"nf","data":null}"#, true),
        err("61a", r#"{"code":2147483648,"message":"m"}"#, false),
        err("61b", r#"{"code":-2147483649,"message":"m"}"#, false),
        err("61c", r#"{"code":-2147483648,"message":"m"}"#, true),
        err("62a", r#"{"code":1.0,"message":"m"}"#, false),
        err("62b", r#"{"code":1e3,"message":"m"}"#, false),
        err("62c", r#"{"code":-0,"message":"m"}"#, false),
        err("62d", r#"{"code":-32002.5,"message":"m"}"#, false),
        err("63a", r#"{"code":"1","message":"m"}"#, false),
        err("63b", r#"{"code":null,"message":"m"}"#, false),
        err("63c", r#"{"code":true,"message":"m"}"#, false),
        err("63d", r#"{"code":01,"message":"m"}"#, false),
        err("64a", r#"{"code":1}"#, false),
        err("64b", r#"{"message":"m"}"#, false),
        err("65a", r#"{"code":1,"message":"m","code":2}"#, false),
        errm("65b", r#""data":1,"data":2"#, false),
        errm("66", r#""data":{"z":1,"a":{"y":1,"b":2}}"#, true),
        errm("67", r#""data":1e400"#, false),
        errm("68a", r#""data":-0"#, true),
        errm("68b", r#""data":1.0"#, true),
        errm("68c", r#""data":1E3"#, true),
        errm("68d", r#""data":123456789012345678901234567890"#, true),
        err("69a", r#"[1,"m",null]"#, true),
        err("69b", r#"[1,"m"]"#, false),
        (
            "70 (127)",
            format!(
                "\x01{{\"code\":1,\"message\":\"m\",\"data\":{}}}",
                nested(127)
            )
            .into_bytes(),
            false,
        ),
        (
            "70 (126)",
            format!(
                "\x01{{\"code\":1,\"message\":\"m\",\"data\":{}}}",
                nested(126)
            )
            .into_bytes(),
            true,
        ),
        (
            "7 _meta.x (126)",
            format!(
                "\x00{{\"contents\":[],\"_meta\":{{\"x\":{}}}}}",
                nested(126)
            )
            .into_bytes(),
            false,
        ),
        (
            "7 _meta.x (125)",
            format!(
                "\x00{{\"contents\":[],\"_meta\":{{\"x\":{}}}}}",
                nested(125)
            )
            .into_bytes(),
            true,
        ),
        (
            "7 item _meta.x (124)",
            format!(
                "\x00{{\"contents\":[{{\"uri\":\"u\",\"text\":\"t\",\"_meta\":{{\"x\":{}}}}}]}}",
                nested(124)
            )
            .into_bytes(),
            false,
        ),
        (
            "7 item _meta.x (123)",
            format!(
                "\x00{{\"contents\":[{{\"uri\":\"u\",\"text\":\"t\",\"_meta\":{{\"x\":{}}}}}]}}",
                nested(123)
            )
            .into_bytes(),
            true,
        ),
        (
            "7 item unknown (125)",
            format!(
                "\x00{{\"contents\":[{{\"uri\":\"u\",\"text\":\"t\",\"x\":{}}}]}}",
                nested(125)
            )
            .into_bytes(),
            false,
        ),
        (
            "7 item unknown (124)",
            format!(
                "\x00{{\"contents\":[{{\"uri\":\"u\",\"text\":\"t\",\"x\":{}}}]}}",
                nested(124)
            )
            .into_bytes(),
            true,
        ),
        // The canonical bytes of REFERENCE.md section 3.
        res(
            "3.full",
            "{\"resultType\":\"complete\",\"ttlMs\":1000,\"cacheScope\":\"private\",\"contents\":[{\"uri\":\"bin://x\",\"mimeType\":\"application/octet-stream\",\"blob\":\"AAE=\",\"_meta\":{\"k\":\"v\"}},{\"uri\":\"u\",\"text\":\"\\u0001\\b\x7f\u{e9}\u{1f600}/\\\"\\\\\u{2028}\"}],\"_meta\":{\"k\":\"v\"}}",
            true,
        ),
        err(
            "3.err",
            r#"{"code":-32002,"message":"Resource not found","data":{"uri":"docs://x"}}"#,
            true,
        ),
        errm("3.float", r#""data":1.2345678901234568e+29"#, true),
    ]
}

#[test]
fn oracle_requests_match_reference() {
    let vectors = request_vectors();
    eprintln!("{} request vectors", vectors.len());
    for (row, bytes, ok) in vectors {
        assert_eq!(
            reference_request(&bytes).is_some(),
            ok,
            "row {row}: the reference changed"
        );
        assert_eq!(
            request_disagreement(&bytes),
            None,
            "row {row}: {}",
            escaped(&bytes)
        );
    }
}

#[test]
fn oracle_frames_match_reference() {
    let vectors = frame_vectors();
    eprintln!("{} frame vectors", vectors.len());
    for (row, bytes, ok) in vectors {
        assert_eq!(
            reference_frame(&bytes).is_ok(),
            ok,
            "row {row}: the reference changed"
        );
        assert_eq!(
            frame_disagreement(&bytes),
            None,
            "row {row}: {}",
            escaped(&bytes)
        );
    }
}

/// The views' public `From` impls (the general path: each string unescaped,
/// then checked) give what `decode_frame` / `decode_request` give (strings
/// from the body's text, checked once), on every vector both accept: the
/// frame, the request, and each `_meta` / `data` value as a `Value`.
#[test]
fn view_conversions_match_the_decoders() {
    for (row, bytes, _) in request_vectors() {
        let Ok(view) = diverge_frame::RequestView::decode(&bytes) else {
            continue;
        };
        let ours = decode_request(&bytes).unwrap();
        assert_eq!(ReadResourceRequestParams::from(view), ours, "row {row}");
        if let Some(meta) = view.meta() {
            let meta = Value::from(meta);
            let want = serde_json::to_value(ours.meta.as_ref().unwrap()).unwrap();
            assert_eq!(meta, want, "row {row}");
        }
    }
    for (row, bytes, _) in frame_vectors() {
        let Ok(frame) = diverge_frame::Frame::decode(&bytes) else {
            continue;
        };
        let ours = decode_frame(&bytes).unwrap();
        if let diverge_frame::Frame::Error(view) = frame
            && let (Some(data), OwnedFrame::Error(error)) = (view.data(), &ours)
        {
            assert_eq!(Some(Value::from(data)), error.data, "row {row}");
        }
        assert_eq!(OwnedFrame::from(frame), ours, "row {row}");
    }
}

/// Row 34 at its full depth (10^6 levels in an ignored member): accepted by
/// both, without recursion (one pass of the scanner and 15 bracket counts
/// over what it has read, on the way back up).
#[test]
fn row_34_full_depth() {
    let bytes = deep_ignored(1_000_000);
    assert!(reference_request(&bytes).is_some());
    assert_eq!(request_disagreement(&bytes), None);
}

/// Spot checks of values the table names.
#[test]
fn oracle_values() {
    let req = decode_request(br#"{"\u0075ri":"a","_meta":{"k":1,"k":2}}"#).unwrap();
    assert_eq!(req.uri, "a");
    assert_eq!(req.meta.unwrap().get("k"), Some(&Value::from(2)));
    let req = decode_request(br#"{"uri":"\uD83D\uDE00"}"#).unwrap();
    assert_eq!(req.uri, "😀");

    let OwnedFrame::Result(r) = decode_frame(b"\x00{\"contents\":[{\"uri\":\"u\",\"blob\":\"b\",\"text\":\"t\"}],\"ttlMs\":-5,\"cacheScope\":\"\",\"resultType\":\"weird\"}").unwrap() else {
        panic!()
    };
    assert_eq!(r.ttl_ms, Some(0));
    assert_eq!(r.cache_scope, None);
    assert_eq!(
        r.result_type.as_ref().map(ResultType::as_str),
        Some("weird")
    );
    assert!(
        matches!(&r.contents[0], ResourceContents::TextResourceContents { text, .. } if text == "t")
    );
    assert_eq!(
        encode_frame_to_vec(&OwnedFrame::Result(r)),
        b"\x00{\"resultType\":\"weird\",\"ttlMs\":0,\"contents\":[{\"uri\":\"u\",\"text\":\"t\"}]}"
    );

    let frame =
        decode_frame(b"\x01{\"code\":1,\"message\":\"m\",\"data\":[-0,1E3,18446744073709551616]}")
            .unwrap();
    assert_eq!(
        encode_frame_to_vec(&frame),
        b"\x01{\"code\":1,\"message\":\"m\",\"data\":[-0.0,1000.0,1.8446744073709552e+19]}"
    );
    let frame = decode_frame(b"\x01{\"code\":1,\"message\":\"m\",\"data\":null}").unwrap();
    assert_eq!(
        encode_frame_to_vec(&frame),
        b"\x01{\"code\":1,\"message\":\"m\"}"
    );
}

/// serde_json's default float parse is not correctly rounded, and the
/// `Value` conversion copies it: this literal (1 + 2^-53, a tie) reads as
/// the next float up instead of 1.0. If this fails, `float_roundtrip` was
/// enabled somewhere and the reference changed.
#[test]
fn serde_json_is_built_without_float_roundtrip() {
    let lit = "1.00000000000000011102230246251565404236316680908203125";
    assert_eq!(
        serde_json::from_str::<f64>(lit).unwrap(),
        1.0000000000000002
    );
    let json = format!(r#"{{"uri":"a","_meta":{{"x":{lit}}}}}"#);
    let meta = decode_request(json.as_bytes()).unwrap().meta.unwrap();
    assert_eq!(meta.get("x"), Some(&Value::from(1.0000000000000002)));
}

#[test]
fn encoding_into_small_buffers_never_panics() {
    let frame = decode_frame(b"\x00{\"contents\":[{\"uri\":\"u\",\"text\":\"t\"}]}").unwrap();
    let full = encode_frame_to_vec(&frame);
    let mut buf = vec![0u8; full.len() + 8];
    for n in 0..full.len() {
        assert_eq!(
            encode_frame(&frame, &mut buf[..n]),
            Err(EncodeError::BufferFull),
            "{n}"
        );
    }
    assert_eq!(encode_frame(&frame, &mut buf[..]), Ok(full.len()));
    assert_eq!(&buf[..full.len()], &full[..]);
}

// ----- mutations ------------------------------------------------------------

/// splitmix64: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const BYTES: &[u8] =
    b"{}[]\",:\\/ \t\n0123456789-+.eEntfrulasbxq\x00\x01\x1f\x7f\x80\xbf\xc0\xc3\xed\xef\xf4\xff";
const TOKENS: &[&str] = &[
    "\"uri\":\"x\",",
    "null",
    "\"text\":\"t\",",
    "\"blob\":\"b\",",
    "\"_meta\":{},",
    "\"_meta\":null,",
    "\\u0000",
    "\\ud800",
    "\\uD83D\\uDE00",
    "\\u0075",
    "1e400",
    "-0",
    "1.5",
    "18446744073709551616",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\"contents\":[],",
    "\"code\":1,",
    "\"message\":\"m\",",
    "\"data\":null,",
    "\"ttlMs\":-1,",
    "\"cacheScope\":\"\",",
    "{\"public\":null}",
    "\"resultType\":null,",
    "\"mimeType\":null,",
    "\"x\":",
    "\"",
    "\\",
    "true",
    "[[[[[[[[",
    "]]]]]]]]",
    "\"inputResponses\":{},",
    "\"requestState\":\"s\",",
    "\u{e9}",
    "\u{1f600}",
];

fn mutate(rng: &mut Rng, input: &[u8], keep_tag: bool) -> Vec<u8> {
    let mut b = input.to_vec();
    let lo = usize::from(keep_tag && !b.is_empty());
    for _ in 0..=rng.below(3) {
        let len = b.len();
        let at = lo + rng.below(len.saturating_sub(lo) + 1);
        match rng.below(10) {
            0 if at < len => b[at] ^= 1 << rng.below(8),
            1 if at < len => b[at] = BYTES[rng.below(BYTES.len())],
            2 => b.insert(at.min(len), BYTES[rng.below(BYTES.len())]),
            3 if at < len => {
                b.remove(at);
            }
            4 if at < len => {
                let end = (at + 1 + rng.below(8)).min(len);
                b.drain(at..end);
            }
            5 if at < len => {
                let end = (at + 1 + rng.below(24)).min(len);
                let piece = b[at..end].to_vec();
                let to = lo + rng.below(b.len().saturating_sub(lo) + 1);
                b.splice(to..to, piece);
            }
            6 | 7 => {
                let token = TOKENS[rng.below(TOKENS.len())].as_bytes();
                b.splice(at.min(len)..at.min(len), token.iter().copied());
            }
            8 if !keep_tag && !b.is_empty() => b[0] = [0u8, 1, 2, 0xff][rng.below(4)],
            9 => b.truncate(at),
            _ => {}
        }
    }
    b
}

/// Small generated values (short strings) to mutate, besides the vectors.
fn generated_seeds<T: std::fmt::Debug>(strategy: BoxedStrategy<T>, n: usize, seed: u8) -> Vec<T> {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    );
    (0..n)
        .map(|_| strategy.new_tree(&mut runner).unwrap().current())
        .collect()
}

fn mutation_count() -> usize {
    std::env::var("DIVERGE_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40_000)
}

/// Prints the counts, and the first disagreements with both outcomes.
fn report(kind: &str, cases: usize, accepted: usize, found: &[(Vec<u8>, String)]) {
    eprintln!(
        "{kind} mutations: {cases} cases ({accepted} accepted by the reference), {} disagreements",
        found.len()
    );
    for (input, outcomes) in found.iter().take(20) {
        eprintln!(
            "--- input: {}\n    hex: {}\n{outcomes}",
            escaped(input),
            hex(input)
        );
    }
}

fn hex(b: &[u8]) -> String {
    if b.len() > 400 {
        return format!("({} bytes)", b.len());
    }
    b.iter().map(|c| format!("{c:02x}")).collect()
}

fn frame_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = frame_vectors()
        .into_iter()
        .filter(|(_, b, ok)| *ok && b.len() < 4096)
        .map(|(_, b, _)| b)
        .collect();
    let small = |f: &OwnedFrame| canonical_frame(f).len() < 1500;
    seeds.extend(
        generated_seeds(arb_frame(false), 400, 7)
            .iter()
            .filter(|f| small(f))
            .map(canonical_frame),
    );
    seeds
}

fn request_seeds() -> Vec<Vec<u8>> {
    let mut seeds: Vec<Vec<u8>> = request_vectors()
        .into_iter()
        .filter(|(_, b, ok)| *ok && b.len() < 4096)
        .map(|(_, b, _)| b)
        .collect();
    seeds.extend(
        generated_seeds(arb_request(false), 400, 9)
            .iter()
            .map(|r| serde_json::to_vec(r).unwrap())
            .filter(|b| b.len() < 1500),
    );
    seeds
}

#[test]
fn mutated_frames_match_reference() {
    let seeds = frame_seeds();
    let mut rng = Rng(0x5eed_f4a3);
    let mut found = Vec::new();
    let cases = mutation_count();
    let mut accepted = 0;
    for i in 0..cases {
        let input = mutate(&mut rng, &seeds[i % seeds.len()], i % 16 != 0);
        accepted += usize::from(reference_frame(&input).is_ok());
        if let Some(outcomes) = frame_disagreement(&input) {
            found.push((input, outcomes));
        }
    }
    report("frame", cases, accepted, &found);
    assert!(found.is_empty(), "{} disagreements", found.len());
}

#[test]
fn mutated_requests_match_reference() {
    let seeds = request_seeds();
    let mut rng = Rng(0x5eed_0e0e);
    let mut found = Vec::new();
    let cases = mutation_count();
    let mut accepted = 0;
    for i in 0..cases {
        let input = mutate(&mut rng, &seeds[i % seeds.len()], false);
        accepted += usize::from(reference_request(&input).is_some());
        if let Some(outcomes) = request_disagreement(&input) {
            found.push((input, outcomes));
        }
    }
    report("request", cases, accepted, &found);
    assert!(found.is_empty(), "{} disagreements", found.len());
}

/// Every prefix of every accepted vector (httparse-style truncation).
#[test]
fn truncated_inputs_match_reference() {
    for (row, bytes, _) in frame_vectors()
        .into_iter()
        .filter(|(_, b, ok)| *ok && b.len() < 4096)
    {
        for n in 0..bytes.len() {
            assert_eq!(
                frame_disagreement(&bytes[..n]),
                None,
                "row {row} prefix {n}: {}",
                escaped(&bytes[..n])
            );
        }
    }
    for (row, bytes, _) in request_vectors()
        .into_iter()
        .filter(|(_, b, ok)| *ok && b.len() < 4096)
    {
        for n in 0..bytes.len() {
            assert_eq!(
                request_disagreement(&bytes[..n]),
                None,
                "row {row} prefix {n}: {}",
                escaped(&bytes[..n])
            );
        }
    }
}

#[test]
fn input_responses_keep_the_last_duplicate() {
    let req = decode_request(br#"{"uri":"a","inputResponses":{"k":1,"j":[true],"k":{"x":null}}}"#)
        .unwrap();
    let mut expected = BTreeMap::new();
    expected.insert("j".to_owned(), serde_json::json!([true]));
    expected.insert("k".to_owned(), serde_json::json!({"x": null}));
    assert_eq!(req.input_responses, Some(expected));
}

/// `encode_frame` into a new `Vec`.
fn encode_frame_to_vec(frame: &OwnedFrame) -> Vec<u8> {
    let mut out = Vec::new();
    diverge_frame::rmcp::encode_frame(frame, &mut out).unwrap();
    out
}

/// `encode_request` into a new `Vec`.
fn encode_request_to_vec(request: &rmcp::model::ReadResourceRequestParams) -> Vec<u8> {
    let mut out = Vec::new();
    diverge_frame::rmcp::encode_request(request, &mut out).unwrap();
    out
}

/// The length `encode_frame` writes, counted.
fn encoded_frame_len(frame: &OwnedFrame) -> usize {
    diverge_frame::rmcp::encode_frame(frame, &mut diverge_frame::encode::Counter::new()).unwrap()
}

/// The length `encode_request` writes, counted.
fn encoded_request_len(request: &rmcp::model::ReadResourceRequestParams) -> usize {
    diverge_frame::rmcp::encode_request(request, &mut diverge_frame::encode::Counter::new())
        .unwrap()
}
