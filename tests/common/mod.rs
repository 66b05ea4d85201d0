//! Shared test support: the reference oracle, the base64 oracle and the input
//! generators.
#![allow(dead_code, unreachable_pub)]

pub mod base64;
pub mod generate;
pub mod oracle;
pub mod table;

/// How many generated cases a test runs: `DIVERGE_CASES` if set, else
/// `default`; at most `miri` under Miri.
pub fn cases(default: usize, miri: usize) -> usize {
    let n = std::env::var("DIVERGE_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    if cfg!(miri) { n.min(miri) } else { n }
}
