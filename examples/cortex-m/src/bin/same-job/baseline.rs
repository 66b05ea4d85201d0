//! The baseline: the same firmware, with a trivial call where a decoder and its checks were.

use core::hint::black_box;

use crate::job::{TEXT_CAP, Vector};

pub const NAME: &str = "baseline       ";

pub fn run(v: &Vector, text: &mut [u8; TEXT_CAP]) -> Result<(), &'static str> {
    black_box((v.bytes, &v.want, text));
    Ok(())
}
