//! Shared test support: the reference oracle, the base64 oracle and the input
//! generators.
#![allow(dead_code, unreachable_pub)]

pub mod base64;
pub mod generate;
pub mod oracle;
pub mod table;
