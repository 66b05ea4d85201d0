//! The same job for two decoders, for a side-by-side flash comparison on a Cortex-M3.
//!
//! Six golden vectors of `tests/vectors/` (two text results, a blob result, a result with a text
//! and a blob item and `_meta`, an error frame, a request with `_meta`), every field read and
//! compared with the values written in [`job`]: URIs, MIME types, text unescaped into one
//! 512-byte buffer and compared, blob text checked as base64 (not decoded) with its decoded
//! length, codes, messages, and whether `_meta` / `data` / `inputResponses` are present. Exactly
//! one decoder per build:
//!
//! * `--features job-ours`: diverge-frame ([`ours`]);
//! * `--features job-anchor`: serde-json-core ([`anchor`]);
//! * `--features job-baseline`: neither ([`baseline`]), for the figures by difference.
//!
//! `panic-halt` selects the panic-halt handler instead of panic-semihosting. Nothing is formatted
//! (fixed strings only), so no formatting code is in the baseline. The firmware prints one line
//! per vector and exits through semihosting with status 0 when every check held, 1 otherwise; a
//! panic under panic-halt hangs, and the caller's timeout fails the run. `ci.sh` builds the three
//! at opt-level `s` and `z` and prints the differences.

#![no_std]
#![no_main]

#[cfg(any(
    all(feature = "job-ours", feature = "job-anchor"),
    all(feature = "job-ours", feature = "job-baseline"),
    all(feature = "job-anchor", feature = "job-baseline"),
    not(any(feature = "job-ours", feature = "job-anchor", feature = "job-baseline")),
))]
compile_error!("same-job: enable exactly one of job-ours, job-anchor, job-baseline");

use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};

#[cfg(feature = "panic-halt")]
use panic_halt as _;
#[cfg(not(feature = "panic-halt"))]
use panic_semihosting as _;

// The baseline only hands the expected values to `black_box`.
#[cfg_attr(feature = "job-baseline", allow(dead_code))]
mod job;

#[cfg(feature = "job-anchor")]
mod anchor;
#[cfg(feature = "job-baseline")]
mod baseline;
#[cfg(feature = "job-ours")]
mod ours;

#[cfg(feature = "job-anchor")]
use anchor as decoder;
#[cfg(feature = "job-baseline")]
use baseline as decoder;
#[cfg(feature = "job-ours")]
use ours as decoder;

#[entry]
fn main() -> ! {
    let mut text = [0u8; job::TEXT_CAP];
    let mut out = hio::hstdout().ok();
    let mut put = |s: &str| {
        if let Some(out) = out.as_mut() {
            let _ = out.write_all(s.as_bytes());
        }
    };
    put("decoder: ");
    put(decoder::NAME);
    put("\n");
    let mut failed = false;
    for v in &job::VECTORS {
        match decoder::run(v, &mut text) {
            Ok(()) => put("ok   "),
            Err(what) => {
                failed = true;
                put("FAIL ");
                put(what);
                put(": ");
            }
        }
        put(v.name);
        put("\n");
    }
    put(if failed { "FAILED\n" } else { "PASS\n" });
    debug::exit(if failed {
        debug::EXIT_FAILURE
    } else {
        debug::EXIT_SUCCESS
    });
    loop {
        cortex_m::asm::wfi();
    }
}
