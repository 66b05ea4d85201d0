//! The stack's high-water mark since reset: cortex-m-rt's `paint-stack` fills the stack with
//! [`PAINT`] before `main`; the deepest word no longer painted is how deep the stack went.

use core::ptr::{addr_of, read_volatile};

/// cortex-m-rt's `paint-stack` fill word.
const PAINT: u32 = 0xCCCC_CCCC;

unsafe extern "C" {
    /// Lowest address of the stack (cortex-m-rt's `link.x`).
    static _stack_end: u32;
    /// Highest address of the stack, where it starts.
    static _stack_start: u32;
}

/// Bytes of stack used at the deepest point since reset.
pub fn high_water() -> usize {
    let (start, mut p) = (
        addr_of!(_stack_start) as usize,
        addr_of!(_stack_end) as usize,
    );
    // SAFETY: word-aligned reads inside the stack region that cortex-m-rt's linker script
    // defines; the words below the deepest use are painted and nothing else writes them.
    while p < start && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    start - p
}
