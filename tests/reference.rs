//! The equivalence promise in code: our decoder and the reference
//! (`serde_json::from_slice` into rmcp 3.11.0 types) agree on accept/reject
//! and on every value read through the views.
//!
//! Case counts scale with `DIVERGE_CASES` (default 20 000 per generator).

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::panic,
    clippy::missing_panics_doc
)]

mod common;

use common::generate::Gen;
use common::oracle::{check_frame, check_request, show};

fn cases() -> usize {
    let n = std::env::var("DIVERGE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    if cfg!(miri) { n.min(20) } else { n }
}

fn frame(json: &[u8], tag: u8) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend_from_slice(json);
    out
}

#[track_caller]
fn agree_request(input: &[u8], expect_ok: bool) {
    match check_request(input) {
        Ok(accepted) => assert_eq!(
            accepted,
            expect_ok,
            "both sides agree, but not with the table: {}",
            show(input)
        ),
        Err(e) => panic!("{e}\n  input: {}", show(input)),
    }
}

#[track_caller]
fn agree_frame(json: &[u8], tag: u8, expect_ok: bool) {
    let input = frame(json, tag);
    match check_frame(&input) {
        Ok(accepted) => assert_eq!(
            accepted,
            expect_ok,
            "both sides agree, but not with the table: {}",
            show(&input)
        ),
        Err(e) => panic!("{e}\n  input: {}", show(&input)),
    }
}

/// REFERENCE.md section 4, rows 1-35, plus neighbours.
#[test]
fn oracle_table_requests() {
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
    for (input, ok) in rows {
        agree_request(input, *ok);
    }
}

/// REFERENCE.md section 4, rows 36-70, plus neighbours.
#[test]
fn oracle_table_frames() {
    let item = |body: &str| format!("{{\"contents\":[{body}]}}");
    let data_nest = |n: usize| {
        let mut v = b"{\"code\":1,\"message\":\"m\",\"data\":".to_vec();
        v.extend(std::iter::repeat_n(b'[', n));
        v.extend(std::iter::repeat_n(b']', n));
        v.push(b'}');
        v
    };
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
    let results: Vec<(Vec<u8>, bool)> = vec![
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
        (br#"{"contents":[],"cacheScope":"private"}"#.to_vec(), true),
        (
            item(r#"{"uri":"u","text":"t","_meta":{"a":1,"a":2}}"#).into_bytes(),
            true,
        ),
        (item_meta_nest(123), true),
        (item_meta_nest(124), false),
        (item_unknown_nest(124), true),
        (item_unknown_nest(125), false),
    ];
    for (json, ok) in &results {
        agree_frame(json, 0, *ok);
    }
    let errors: Vec<(Vec<u8>, bool)> = vec![
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
    ];
    for (json, ok) in &errors {
        agree_frame(json, 1, *ok);
    }
}

#[test]
fn generated_requests_agree() {
    let mut accepted = 0usize;
    let n = cases();
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed, (seed % 4) as usize);
        let input = g.request();
        match check_request(&input) {
            Ok(ok) => accepted += usize::from(ok),
            Err(e) => panic!("seed {seed}: {e}\n  input: {}", show(&input)),
        }
    }
    eprintln!("generated requests: {n} cases, {accepted} accepted by both, 0 disagreements");
    assert!(
        accepted > n / 10,
        "the generator should produce valid requests too ({accepted}/{n})"
    );
}

#[test]
fn generated_frames_agree() {
    let mut accepted = 0usize;
    let n = cases();
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0xF00D, (seed % 4) as usize);
        let input = g.frame();
        match check_frame(&input) {
            Ok(ok) => accepted += usize::from(ok),
            Err(e) => panic!("seed {seed}: {e}\n  input: {}", show(&input)),
        }
    }
    eprintln!("generated frames: {n} cases, {accepted} accepted by both, 0 disagreements");
    assert!(
        accepted > n / 10,
        "the generator should produce valid frames too ({accepted}/{n})"
    );
}

#[test]
fn mutated_inputs_agree() {
    let n = cases();
    let mut accepted = 0usize;
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed ^ 0xBEEF, 0);
        let request = seed % 2 == 0;
        let mut input = if request { g.request() } else { g.frame() };
        g.mutate(&mut input);
        let outcome = if request {
            check_request(&input)
        } else {
            check_frame(&input)
        };
        match outcome {
            Ok(ok) => accepted += usize::from(ok),
            Err(e) => panic!("seed {seed}: {e}\n  input: {}", show(&input)),
        }
    }
    eprintln!("mutated inputs: {n} cases, {accepted} accepted by both, 0 disagreements");
}

/// Prints a few generated inputs (run with `--ignored --nocapture`).
#[test]
#[ignore = "diagnostic: shows what the generators produce"]
fn show_samples() {
    for seed in 0..12u64 {
        let mut g = Gen::new(seed ^ 0xF00D, (seed % 4) as usize);
        let f = g.frame();
        eprintln!("{:?} {}", check_frame(&f), show(&f));
    }
}
