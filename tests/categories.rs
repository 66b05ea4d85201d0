//! Error categories against the reference: on every input both reject, the
//! kind of our error falls in the category `serde_json::Error::classify()`
//! gives the reference's (Eof, Syntax, Data), and our offset is not after the
//! point where serde_json noticed the defect (its `column()`, on input of one
//! line).
//!
//! Inputs: the vectors, the oracle table's rows, generated frames and
//! requests, and mutations of each.
#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

mod common;

use std::collections::BTreeMap;

use common::generate::Gen;
use common::oracle::{category, same_category};
use common::table;
use diverge_frame::{BodyError, Frame, FrameError, RequestView};

/// One disagreement, kept for the report.
struct Miss {
    input: Vec<u8>,
    ours: BodyError,
    theirs: String,
}

#[derive(Default)]
struct Tally {
    both_reject: usize,
    misses: BTreeMap<String, Vec<Miss>>,
}

impl Tally {
    /// `json` is the JSON text (a frame without its tag), `ours` our error
    /// with its offset counted in `json`.
    fn check(&mut self, json: &[u8], ours: BodyError, theirs: &serde_json::Error) {
        self.both_reject += 1;
        // The oracle's rule (every differential test holds it); a miss is
        // filed under our kind and the reference's message class.
        let why = same_category(json, ours, theirs)
            .err()
            .map(|_| format!("{:?} ({:?})", ours.kind(), category(ours.kind())));
        if let Some(why) = why {
            let theirs = theirs.to_string();
            let class = format!("{why}: {}", strip_position(&theirs));
            self.misses.entry(class).or_default().push(Miss {
                input: json.to_vec(),
                ours,
                theirs,
            });
        }
    }

    fn frame(&mut self, bytes: &[u8]) {
        let Err(FrameError::Body(ours)) = Frame::decode(bytes) else {
            return;
        };
        let json = &bytes[1..];
        let theirs = match bytes[0] {
            0 => serde_json::from_slice::<rmcp::model::ReadResourceResult>(json).err(),
            _ => serde_json::from_slice::<rmcp::ErrorData>(json).err(),
        };
        let theirs = theirs.expect("the differential tests pin acceptance");
        self.check(
            json,
            BodyError::new(ours.kind(), ours.offset() - 1),
            &theirs,
        );
    }

    fn request(&mut self, bytes: &[u8]) {
        let Err(ours) = RequestView::decode(bytes) else {
            return;
        };
        let theirs = serde_json::from_slice::<rmcp::model::ReadResourceRequestParams>(bytes)
            .expect_err("the differential tests pin acceptance");
        self.check(bytes, ours, &theirs);
    }

    fn assert_none(&self, what: &str) {
        let missed: usize = self.misses.values().map(Vec::len).sum();
        if missed == 0 {
            println!(
                "{what}: {} inputs both reject, all in serde_json's category",
                self.both_reject
            );
            return;
        }
        let mut report = format!(
            "{what}: {missed} of {} inputs both reject leave serde_json's category or lie after its position\n",
            self.both_reject
        );
        for (class, misses) in &self.misses {
            let m = &misses[0];
            report += &format!(
                "  {:5} × {class}\n        e.g. {:?}: ours {} / serde_json {}\n",
                misses.len(),
                String::from_utf8_lossy(&m.input[..m.input.len().min(160)]),
                m.ours,
                m.theirs
            );
        }
        panic!("{report}");
    }
}

/// serde_json's message without its " at line L column C".
fn strip_position(message: &str) -> String {
    let cut = message.find(" at line ").unwrap_or(message.len());
    let mut s = message[..cut].to_owned();
    // Keep the class, not the value: `invalid type: integer `1`, expected …`.
    if let Some(a) = s.find('`')
        && let Some(b) = s[a + 1..].find('`')
    {
        s.replace_range(a..a + b + 2, "`…`");
    }
    s
}

fn vectors() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors")).unwrap() {
        let path = entry.unwrap().path();
        out.push((path.display().to_string(), std::fs::read(&path).unwrap()));
    }
    out
}

/// Adds generated inputs (`make`, at every chaos level) to the hand-written
/// ones, then a mutation of each (`seed` picks the mutations).
fn grow(inputs: &mut Vec<Vec<u8>>, make: fn(&mut Gen) -> Vec<u8>, seed: u64) {
    let n = common::cases(20_000, 200);
    for seed in 0..n as u64 {
        inputs.push(make(&mut Gen::new(seed, 1 + (seed % 4) as usize)));
    }
    let mut g = Gen::new(seed, 0);
    let base = inputs.len();
    for i in 0..base.min(n) {
        let mut m = inputs[i % base].clone();
        g.mutate(&mut m);
        inputs.push(m);
    }
}

#[test]
fn frames_fall_in_serde_jsons_categories() {
    let mut tally = Tally::default();
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for (name, bytes) in vectors() {
        if name.ends_with(".bin") {
            inputs.push(bytes);
        }
    }
    for (json, _) in table::result_rows() {
        inputs.push([&[0u8][..], &json].concat());
    }
    for (json, _) in table::error_rows() {
        inputs.push([&[1u8][..], &json].concat());
    }
    grow(&mut inputs, Gen::frame, 0xC47E);
    for bytes in &inputs {
        if bytes.len() > 1 {
            tally.frame(bytes);
        }
    }
    tally.assert_none("frames");
}

#[test]
fn requests_fall_in_serde_jsons_categories() {
    let mut tally = Tally::default();
    let mut inputs: Vec<Vec<u8>> = Vec::new();
    for (name, bytes) in vectors() {
        if name.ends_with(".json") {
            inputs.push(bytes);
        }
    }
    for (json, _) in table::request_rows() {
        inputs.push(json);
    }
    grow(&mut inputs, Gen::request, 0x5EC7);
    for bytes in &inputs {
        tally.request(bytes);
    }
    tally.assert_none("requests");
}

/// A number the end of the input cuts short (`-`, `1.`, `1e`, `1e+`):
/// `Eof` where the reference reads a typed number or a `Value` (`ttlMs`,
/// `code`, `data`, `_meta`), `InvalidNumber` (Syntax) in an ignored member,
/// where serde_json's ignore path reads the missing digit as a NUL; the same
/// from the validators at every cut.
#[test]
fn numbers_cut_by_the_end() {
    use diverge_frame::BodyErrorKind as K;
    use diverge_frame::stream::FrameValidator;
    for cut in ["-", "1.", "1e", "1e+", "-0.5E-"] {
        for (head, want) in [
            (r#"{"contents":[],"x":"#, K::InvalidNumber),
            (r#"{"contents":[],"x":[1,{"y":"#, K::InvalidNumber),
            (r#"{"contents":[],"ttlMs":"#, K::Eof),
            (r#"{"contents":[],"_meta":{"a":"#, K::Eof),
            (r#"{"contents":[],"resultType":"#, K::Eof),
        ] {
            let frame = [b"\x00".as_slice(), head.as_bytes(), cut.as_bytes()].concat();
            let Err(FrameError::Body(e)) = Frame::decode(&frame) else {
                panic!("accepted {frame:?}");
            };
            assert_eq!((e.kind(), e.offset()), (want, frame.len()), "{frame:?}");
            let theirs = serde_json::from_slice::<rmcp::model::ReadResourceResult>(&frame[1..])
                .expect_err("the reference rejects it");
            let json_error = BodyError::new(e.kind(), e.offset() - 1);
            same_category(&frame[1..], json_error, &theirs).unwrap();
            for at in 0..=frame.len() {
                let mut v = FrameValidator::new();
                let got = v
                    .feed(&frame[..at])
                    .and_then(|()| v.feed(&frame[at..]))
                    .and_then(|()| v.finish().map(|_| ()));
                assert_eq!(got, Err(FrameError::Body(e)), "{frame:?} cut at {at}");
            }
        }
    }
}
