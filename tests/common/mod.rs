//! Shared test support: the reference oracle and the input generators.
#![allow(dead_code, unreachable_pub)]

pub mod generate;
pub mod oracle;
