//! The oracle table of REFERENCE.md section 4: inputs with the outcome the
//! reference gives them, for tests that check our side against both.

/// REFERENCE.md section 4, rows 1-35, plus neighbours: request JSON and
/// whether the reference accepts it.
pub fn request_rows() -> Vec<(Vec<u8>, bool)> {
    let deep_ignored = {
        let mut v = b"{\"uri\":\"a\",\"x\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', 1_000_000));
        v.extend(std::iter::repeat_n(b']', 1_000_000));
        v.push(b'}');
        v
    };
    let meta_nest = |n: usize| {
        let mut v = b"{\"uri\":\"a\",\"_meta\":{\"x\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.push(b'1');
        v.extend(std::iter::repeat_n(b']', n));
        v.extend_from_slice(b"}}");
        v
    };
    let rows: &[(&[u8], bool)] = &[
        (br#"{"uri":"docs://x"}"#, true),
        (br#"{"uri":"docs://x","_meta":{"progressToken":1}}"#, true),
        (br#"{"uri":"docs://x","_meta":null}"#, true),
        (br"{}", false),
        (br#"{"uri":null}"#, false),
        (br#"{"uri":1}"#, false),
        (br#"{"uri":"a","uri":"b"}"#, false),
        (br#"{"uri":"a","\u0075ri":"b"}"#, false),
        (br#"{"\u0075ri":"a"}"#, true),
        (br#"{"uri":"a","extra":1,"extra":2}"#, true),
        (br#"{"uri":"a","_meta":{"k":1,"k":2}}"#, true),
        (br#"{"uri":"a","_meta":[]}"#, false),
        (br#"{"uri":"a","_meta":"s"}"#, false),
        (br#"{"uri":"a","requestState":5}"#, false),
        (br#"[null,"a",null,null]"#, true),
        (br#"[null,"a"]"#, false),
        (br#"[null,"a",null,null,null]"#, false),
        (b" \t\r\n{\"uri\":\"a\"} \t\r\n", true),
        (b"{\"uri\":\"a\"}\x0c", false),
        (br#"{"uri":"a"} x"#, false),
        (br#"{"uri":"a"}{"uri":"b"}"#, false),
        (b"\xef\xbb\xbf{\"uri\":\"a\"}", false),
        (b"", false),
        (b"   ", false),
        (br#"{"uri":"a",}"#, false),
        (br#"{"uri":"\ud800"}"#, false),
        (br#"{"uri":"\udc00x"}"#, false),
        (br#"{"uri":"\ud800\u0041"}"#, false),
        (br#"{"uri":"\uD83D\uDE00"}"#, true),
        (br#"{"uri":"a","x":"\ud800"}"#, true),
        (br#"{"uri":"a","_meta":{"x":"\ud800"}}"#, false),
        (b"{\"uri\":\"\xff\"}", false),
        (b"{\"uri\":\"\xed\xa0\x80\"}", false),
        (b"{\"uri\":\"\xc0\xaf\"}", false),
        (b"{\"uri\":\"a\",\"x\":\"\xff\"}", true),
        (b"{\"uri\":\"a\",\"\xff\":1}", false),
        (b"{\"uri\":\"a\tb\"}", false),
        (b"{\"uri\":\"a\",\"x\":\"a\tb\"}", false),
        (br#"{"uri":"a\u0000b"}"#, true),
        (b"{\"uri\":\"a\x7fb\"}", true),
        (br#"{"uri":"a","x":"\q"}"#, false),
        (br#"{"uri":"a","x":1e400}"#, true),
        (br#"{"uri":"a","_meta":{"n":1e400}}"#, false),
        (br#"{"uri":"a","x":01}"#, false),
        (br#"{"uri":"a","x":1.}"#, false),
        (br#"{"uri":"a","x":NaN}"#, false),
        (br#"{"uri":"a","x":[1,2,}"#, false),
        (br#"{"uri":"a","x":[1}"#, false),
        (br#"{"uri":"a","x":{"a":1]}"#, false),
        (&deep_ignored, true),
        (&meta_nest(125), true),
        (&meta_nest(126), false),
        (
            br#"{"uri":"a","inputResponses":{"k":[1,{"x":null}]},"requestState":"s"}"#,
            true,
        ),
        (br#"{"uri":"a","inputResponses":[]}"#, false),
        (br#"{"uri":"a","requestState":null}"#, true),
    ];
    rows.iter().map(|&(json, ok)| (json.to_vec(), ok)).collect()
}

/// REFERENCE.md section 4, rows 36-70, plus neighbours: result JSON (no tag
/// byte) and whether the reference accepts it.
pub fn result_rows() -> Vec<(Vec<u8>, bool)> {
    let item = |body: &str| format!("{{\"contents\":[{body}]}}");
    let item_meta_nest = |n: usize| {
        let mut v = b"{\"contents\":[{\"uri\":\"u\",\"text\":\"t\",\"_meta\":{\"x\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.extend_from_slice(b"}}]}");
        v
    };
    let item_unknown_nest = |n: usize| {
        let mut v = b"{\"contents\":[{\"uri\":\"u\",\"text\":\"t\",\"x\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.extend_from_slice(b"}]}");
        v
    };
    vec![
        (br#"{"contents":[]}"#.to_vec(), true),
        (br"{}".to_vec(), false),
        (br#"{"contents":null}"#.to_vec(), false),
        (br#"{"contents":{}}"#.to_vec(), false),
        (br#"{"contents":[],"contents":[]}"#.to_vec(), false),
        (item(r#"{"uri":"u","text":"t"}"#).into_bytes(), true),
        (
            item(r#"{"uri":"u","blob":"not base64 !!"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","text":"t","blob":"b"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","blob":"b","text":"t"}"#).into_bytes(),
            true,
        ),
        (item(r#"{"uri":"u"}"#).into_bytes(), false),
        (
            item(r#"{"uri":"u","text":null,"blob":"b"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","text":1,"blob":"b"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","text":"t","text":"t2"}"#).into_bytes(),
            false,
        ),
        (
            item(r#"{"uri":"u","text":"t","text":"t2","blob":"b"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","uri":"u","text":"t"}"#).into_bytes(),
            false,
        ),
        (
            item(r#"{"uri":"u","mimeType":"a","mimeType":"a","text":"t"}"#).into_bytes(),
            false,
        ),
        (
            item(r#"{"uri":"u","mimeType":null,"text":"t"}"#).into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","mimeType":1,"text":"t"}"#).into_bytes(),
            false,
        ),
        (
            item(r#"{"uri":"u","text":"t","_meta":[]}"#).into_bytes(),
            false,
        ),
        (
            item(r#"{"uri":"u","text":"t","annotations":{"priority":2}}"#).into_bytes(),
            true,
        ),
        (item(r#"["u",null,"t",null]"#).into_bytes(), false),
        (item(r#""u""#).into_bytes(), false),
        (br"[null,null,null,[],null]".to_vec(), true),
        (br"[null,null,null,[]]".to_vec(), false),
        (br#"{"contents":[],"x":"\ud800"}"#.to_vec(), true),
        (b"{\"contents\":[],\"x\":\"\xff\"}".to_vec(), true),
        (
            item(r#"{"uri":"u","text":"t","x":"\ud800"}"#).into_bytes(),
            false,
        ),
        (
            item("{\"uri\":\"u\",\"text\":\"t\",\"x\":\"\u{fffd}\"}").into_bytes(),
            true,
        ),
        (
            item(r#"{"uri":"u","text":"t","x":1e400}"#).into_bytes(),
            false,
        ),
        (br#"{"contents":[],"resultType":"weird"}"#.to_vec(), true),
        (br#"{"contents":[],"resultType":null}"#.to_vec(), true),
        (br#"{"contents":[],"resultType":1}"#.to_vec(), false),
        (br#"{"contents":[],"ttlMs":-5}"#.to_vec(), true),
        (br#"{"contents":[],"ttlMs":1.5}"#.to_vec(), false),
        (br#"{"contents":[],"ttlMs":1e3}"#.to_vec(), false),
        (br#"{"contents":[],"ttlMs":-0}"#.to_vec(), false),
        (
            br#"{"contents":[],"ttlMs":9223372036854775808}"#.to_vec(),
            false,
        ),
        (
            br#"{"contents":[],"ttlMs":9223372036854775807}"#.to_vec(),
            true,
        ),
        (
            br#"{"contents":[],"ttlMs":-9223372036854775808}"#.to_vec(),
            true,
        ),
        (
            br#"{"contents":[],"ttlMs":-9223372036854775809}"#.to_vec(),
            false,
        ),
        (br#"{"contents":[],"cacheScope":""}"#.to_vec(), true),
        (br#"{"contents":[],"cacheScope":"Public"}"#.to_vec(), false),
        (
            br#"{"contents":[],"cacheScope":{"public":null}}"#.to_vec(),
            true,
        ),
        (
            br#"{"contents":[],"cacheScope":{"public":1}}"#.to_vec(),
            false,
        ),
        (
            br#"{"contents":[],"cacheScope":{"public":null,"private":null}}"#.to_vec(),
            false,
        ),
        (
            br#"{"contents":[],"cacheScope":{"public":1,"public":null}}"#.to_vec(),
            true,
        ),
        (br#"{"contents":[],"cacheScope":{}}"#.to_vec(), false),
        // The map form walked once: `]` after a member, as the value machine
        // words it (found by the stream fuzzer), and the other closers.
        (
            br#"{"contents":[],"cacheScope":{"public":null],"ttlMs":-5,"resultType":null}"#
                .to_vec(),
            false,
        ),
        (
            br#"{"contents":[],"cacheScope":{"public":null,]}"#.to_vec(),
            false,
        ),
        (
            br#"{"contents":[],"cacheScope":{"public":null}]}"#.to_vec(),
            false,
        ),
        (br#"{"contents":[],"cacheScope":{]}"#.to_vec(), false),
        (br#"{"contents":[],"cacheScope":{"x":1 ]}"#.to_vec(), false),
        (
            br#"{"contents":[],"cacheScope":{"public":null,"public":null}}"#.to_vec(),
            true,
        ),
        (br#"{"contents":[],"cacheScope":"private"}"#.to_vec(), true),
        (
            item(r#"{"uri":"u","text":"t","_meta":{"a":1,"a":2}}"#).into_bytes(),
            true,
        ),
        (item_meta_nest(123), true),
        (item_meta_nest(124), false),
        (item_unknown_nest(124), true),
        (item_unknown_nest(125), false),
    ]
}

/// REFERENCE.md section 4, rows 36-70, plus neighbours: error JSON (no tag
/// byte) and whether the reference accepts it.
pub fn error_rows() -> Vec<(Vec<u8>, bool)> {
    let data_nest = |n: usize| {
        let mut v = b"{\"code\":1,\"message\":\"m\",\"data\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.push(b'}');
        v
    };
    vec![
        (br#"{"code":-32002,"message":"nf"}"#.to_vec(), true),
        (br#"{"message":"nf","code":-32002}"#.to_vec(), true),
        (
            br#"{"code":-32002,"message":"nf","data":null}"#.to_vec(),
            true,
        ),
        (br#"{"code":2147483648,"message":"m"}"#.to_vec(), false),
        (br#"{"code":-2147483649,"message":"m"}"#.to_vec(), false),
        (br#"{"code":2147483647,"message":"m"}"#.to_vec(), true),
        (br#"{"code":-2147483648,"message":"m"}"#.to_vec(), true),
        (br#"{"code":1.0,"message":"m"}"#.to_vec(), false),
        (br#"{"code":1e3,"message":"m"}"#.to_vec(), false),
        (br#"{"code":-0,"message":"m"}"#.to_vec(), false),
        (br#"{"code":-32002.5,"message":"m"}"#.to_vec(), false),
        (br#"{"code":"1","message":"m"}"#.to_vec(), false),
        (br#"{"code":null,"message":"m"}"#.to_vec(), false),
        (br#"{"code":01,"message":"m"}"#.to_vec(), false),
        (br#"{"code":1}"#.to_vec(), false),
        (br#"{"message":"m"}"#.to_vec(), false),
        (br#"{"code":1,"message":"m","code":2}"#.to_vec(), false),
        (
            br#"{"code":1,"message":"m","data":1,"data":2}"#.to_vec(),
            false,
        ),
        (
            br#"{"code":1,"message":"m","data":{"z":1,"a":{"y":1,"b":2}}}"#.to_vec(),
            true,
        ),
        (br#"{"code":1,"message":"m","data":1e400}"#.to_vec(), false),
        (br#"{"code":1,"message":"m","data":-0}"#.to_vec(), true),
        (
            br#"{"code":1,"message":"m","data":123456789012345678901234567890}"#.to_vec(),
            true,
        ),
        (br#"[1,"m",null]"#.to_vec(), true),
        (br#"[1,"m"]"#.to_vec(), false),
        (data_nest(126), true),
        (data_nest(127), false),
    ]
}
