//! Stack depth by painting: cortex-m-rt's `paint-stack` fills the stack with [`PAINT`] before
//! `main`; the deepest word no longer painted is how deep the stack went. [`measure`] repaints
//! the free stack below its own frame to measure one call.

use core::ptr::{addr_of, read_volatile, write_volatile};

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
    let start = addr_of!(_stack_start) as usize;
    start - deepest(start)
}

/// Runs `f` and returns how many bytes of stack it used below this function's frame. `f` runs
/// behind a `dyn` call, so nothing it does can hide in this frame.
#[inline(never)]
pub fn measure(f: &mut dyn FnMut()) -> usize {
    let top = cortex_m::register::msp::read() as usize;
    let mut p = addr_of!(_stack_end) as usize;
    while p < top {
        // SAFETY: a word between the stack's lowest address and this function's stack
        // pointer: free memory (nothing lives below the stack pointer; an interrupt or
        // exception handler, where one is enabled, uses it only while it runs, and this loop
        // does not run then); the loop itself keeps to registers.
        unsafe { write_volatile(p as *mut u32, PAINT) };
        p += 4;
    }
    f();
    top - deepest(top)
}

/// The lowest address below `top` whose word is no longer painted (`top` if none).
fn deepest(top: usize) -> usize {
    let mut p = addr_of!(_stack_end) as usize;
    // SAFETY: word-aligned reads inside the stack region that cortex-m-rt's linker script
    // defines, below `top`.
    while p < top && unsafe { read_volatile(p as *const u32) } == PAINT {
        p += 4;
    }
    p
}
