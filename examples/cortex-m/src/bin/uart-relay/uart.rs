//! A blocking register-level driver for the LM3S6965's UART0 and UART1 (no HAL crate exists
//! for this chip), with the idle clock the relay's timeout counts on.
//!
//! Every `unsafe` of the firmware's UART access is in [`reg`] and [`set_reg`]: volatile reads
//! and writes of the memory-mapped registers named below, nothing else.

use core::ptr::{read_volatile, write_volatile};

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;

/// System control: run-mode clock gating for the UARTs (bit 0 UART0, bit 1 UART1) ...
const SYSCTL_RCGC1: usize = 0x400F_E104;
/// ... and for the GPIO ports (bit 0 port A, bit 3 port D).
const SYSCTL_RCGC2: usize = 0x400F_E108;
/// GPIO port A (UART0: PA0 = U0Rx, PA1 = U0Tx) and port D (UART1: PD2 = U1Rx, PD3 = U1Tx).
const GPIO_A: usize = 0x4000_4000;
const GPIO_D: usize = 0x4000_7000;
/// GPIO alternate function select and digital enable, offsets from the port's base.
const GPIO_AFSEL: usize = 0x420;
const GPIO_DEN: usize = 0x51C;

/// The UARTs' bases: the first `-serial` of QEMU is UART0, the second UART1.
pub const UART0: usize = 0x4000_C000;
pub const UART1: usize = 0x4000_D000;
/// Register offsets (PL011-compatible).
const DR: usize = 0x000;
const RSR: usize = 0x004;
const FR: usize = 0x018;
const IBRD: usize = 0x024;
const FBRD: usize = 0x028;
const LCRH: usize = 0x02C;
const CTL: usize = 0x030;
/// FR: receive FIFO empty, transmit FIFO full, busy transmitting.
const FR_RXFE: u32 = 1 << 4;
const FR_TXFF: u32 = 1 << 5;
const FR_BUSY: u32 = 1 << 3;
/// LCRH: 8 data bits (WLEN = 3), FIFOs on; no parity, one stop bit.
const LCRH_8N1_FIFO: u32 = (3 << 5) | (1 << 4);
/// CTL: UART enable, transmit enable, receive enable.
const CTL_ENABLE: u32 = (1 << 9) | (1 << 8) | 1;
/// DR's receive error bits: overrun, break, parity, framing.
const DR_ERRORS: u32 = 0xF00;

/// The system clock after reset (the 12 MHz internal oscillator; QEMU's SysTick runs the
/// core clock at this rate too, measured: 10^8 cycles in 8.1 s of host time).
pub const SYSCLK_HZ: u32 = 12_000_000;
/// 115 200 baud from the system clock: divisor = SYSCLK / (16 * 115 200) = 6.5104,
/// integer part 6, fraction round(0.5104 * 64) = 33. (QEMU ignores the rate.)
const IBRD_115200: u32 = 6;
const FBRD_115200: u32 = 33;

/// Reads a register of this module's list.
fn reg(addr: usize) -> u32 {
    // SAFETY: every caller passes one of the registers named above (system control, GPIO,
    // UART), which are always mapped on the LM3S6965; a volatile read of them has no effect on
    // memory Rust knows about.
    unsafe { read_volatile(addr as *const u32) }
}

/// Writes a register of this module's list.
fn set_reg(addr: usize, value: u32) {
    // SAFETY: as for `reg`; these registers configure or feed the peripherals and alias no
    // memory Rust knows about.
    unsafe { write_volatile(addr as *mut u32, value) }
}

/// A receive error of the line, from the data register's error bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineError(pub u8);

/// One UART, set up for 115 200 8N1 with its FIFOs on.
pub struct Uart {
    base: usize,
}

impl Uart {
    /// Sets up UART0 and UART1: clock gates, pins, rate, format, FIFOs, enable. From here on
    /// QEMU takes a byte from the socket only when the receive FIFO has room, so nothing sent
    /// after this is lost.
    ///
    /// QEMU 7.2 needs neither the clock gates nor the pins (tried: the relay works without
    /// them); a real LM3S6965 needs both, so they stay.
    pub fn init() -> (Self, Self) {
        set_reg(SYSCTL_RCGC1, reg(SYSCTL_RCGC1) | 0b11);
        set_reg(SYSCTL_RCGC2, reg(SYSCTL_RCGC2) | 0b1001);
        // A few cycles for the gates to open, as the data sheet asks.
        cortex_m::asm::delay(16);
        set_reg(GPIO_A + GPIO_AFSEL, reg(GPIO_A + GPIO_AFSEL) | 0b0011);
        set_reg(GPIO_A + GPIO_DEN, reg(GPIO_A + GPIO_DEN) | 0b0011);
        set_reg(GPIO_D + GPIO_AFSEL, reg(GPIO_D + GPIO_AFSEL) | 0b1100);
        set_reg(GPIO_D + GPIO_DEN, reg(GPIO_D + GPIO_DEN) | 0b1100);
        (Self::setup(UART0), Self::setup(UART1))
    }

    fn setup(base: usize) -> Self {
        set_reg(base + CTL, 0);
        set_reg(base + IBRD, IBRD_115200);
        set_reg(base + FBRD, FBRD_115200);
        set_reg(base + LCRH, LCRH_8N1_FIFO);
        set_reg(base + RSR, 0); // clears the error flags
        set_reg(base + CTL, CTL_ENABLE);
        Self { base }
    }

    /// The next received byte, if the receive FIFO holds one.
    pub fn try_read(&mut self) -> Option<Result<u8, LineError>> {
        if reg(self.base + FR) & FR_RXFE != 0 {
            return None;
        }
        let dr = reg(self.base + DR);
        if dr & DR_ERRORS != 0 {
            set_reg(self.base + RSR, 0);
            let bits = ((dr & DR_ERRORS) >> 8) as u8;
            return Some(Err(LineError(bits)));
        }
        Some(Ok(dr as u8))
    }

    /// Sends one byte, waiting while the transmit FIFO is full.
    pub fn write(&mut self, byte: u8) {
        while reg(self.base + FR) & FR_TXFF != 0 {}
        set_reg(self.base + DR, u32::from(byte));
    }

    /// Waits until every byte written has left the UART.
    pub fn flush(&mut self) {
        while reg(self.base + FR) & FR_BUSY != 0 {}
    }
}

/// Silence, measured in SysTick wraps of [`TICK_MS`] each (SysTick on the core clock).
pub struct IdleClock {
    syst: SYST,
}

/// One SysTick period.
pub const TICK_MS: u32 = 10;

impl IdleClock {
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(SYSCLK_HZ / 1000 * TICK_MS - 1);
        syst.clear_current();
        syst.enable_counter();
        Self { syst }
    }

    /// Starts a silence: the next tick is a whole period away.
    pub fn restart(&mut self) {
        self.syst.clear_current();
        let _ = self.syst.has_wrapped();
    }

    /// Whether a period passed since the last call (or [`restart`](Self::restart)).
    pub fn ticked(&mut self) -> bool {
        self.syst.has_wrapped()
    }
}
