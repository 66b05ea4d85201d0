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
use common::table;
use diverge_frame::{BodyError, BodyErrorKind as K, Frame, FrameError, RequestView};
use serde_json::error::Category;

/// The category serde_json gives an error of `kind`.
fn category(kind: K) -> Category {
    match kind {
        K::Eof => Category::Eof,
        K::InvalidType
        | K::MissingField
        | K::DuplicateField
        | K::InvalidLength
        | K::IntegerOutOfRange
        | K::UnknownCacheScope
        | K::InvalidContentItem => Category::Data,
        _ => Category::Syntax,
    }
}

/// One disagreement, kept for the report.
struct Miss {
    input: Vec<u8>,
    ours: BodyError,
    theirs: String,
}

/// Nesting past which an input is left to tests/deep.rs: the scanner's
/// first syntax pass keeps 1024 levels.
const DEEP: usize = 1024;

/// The deepest bracket nesting of `json`, outside strings.
fn nesting(json: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for &b in json {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[derive(Default)]
struct Tally {
    both_reject: usize,
    /// Inputs both reject that nest deeper than [`DEEP`], left out.
    deep: usize,
    misses: BTreeMap<String, Vec<Miss>>,
}

impl Tally {
    /// `json` is the JSON text (a frame without its tag), `ours` our error
    /// with its offset counted in `json`.
    fn check(&mut self, json: &[u8], ours: BodyError, theirs: &serde_json::Error) {
        // Ignored members nested deeper than the first syntax pass's stack
        // take the scanner's deep path, which tests/deep.rs tests (its
        // errors are worded apart here: Eof, MismatchedBracket).
        if nesting(json) > DEEP {
            self.deep += 1;
            return;
        }
        self.both_reject += 1;
        let want = theirs.classify();
        let mut why = None;
        if category(ours.kind()) != want {
            why = Some(format!("{:?} where serde_json says {want:?}", ours.kind()));
        } else if !json.contains(&b'\n') && ours.offset() > theirs.column() {
            why = Some(format!(
                "{:?} offset after serde_json's column",
                ours.kind()
            ));
        }
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
                "{what}: {} inputs both reject, all in serde_json's category ({} nested deeper than {DEEP} left to tests/deep.rs)",
                self.both_reject, self.deep
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
    let n = common::cases(20_000, 200);
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed, 1 + (seed % 4) as usize);
        inputs.push(g.frame());
    }
    let mut g = Gen::new(0xC47E, 0);
    let base = inputs.len();
    for i in 0..base.min(n) {
        let mut m = inputs[i % base].clone();
        g.mutate(&mut m);
        inputs.push(m);
    }
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
    let n = common::cases(20_000, 200);
    for seed in 0..n as u64 {
        let mut g = Gen::new(seed, 1 + (seed % 4) as usize);
        inputs.push(g.request());
    }
    let mut g = Gen::new(0x5EC7, 0);
    let base = inputs.len();
    for i in 0..base.min(n) {
        let mut m = inputs[i % base].clone();
        g.mutate(&mut m);
        inputs.push(m);
    }
    for bytes in &inputs {
        tally.request(bytes);
    }
    tally.assert_none("requests");
}
