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
use common::table::{error_rows, request_rows, result_rows};

fn cases() -> usize {
    common::cases(20_000, 20)
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
    for (input, ok) in &request_rows() {
        agree_request(input, *ok);
    }
}

/// REFERENCE.md section 4, rows 36-70, plus neighbours.
#[test]
fn oracle_table_frames() {
    for (json, ok) in &result_rows() {
        agree_frame(json, 0, *ok);
    }
    for (json, ok) in &error_rows() {
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
