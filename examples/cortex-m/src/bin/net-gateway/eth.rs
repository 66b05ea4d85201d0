//! A register-level `smoltcp::phy::Device` for the LM3S6965's Ethernet MAC, as QEMU 7.2 models it
//! (`hw/net/stellaris_enet.c`), and the Ethernet interrupt.
//!
//! Every `unsafe` of the network firmware's own code is in this module: the volatile accesses
//! to the MAC's and the clock gate's registers ([`reg`], [`set_reg`]), the NVIC unmask of the
//! Ethernet interrupt, and the default handler that acknowledges it; each has its `// SAFETY:`
//! comment.
//!
//! The controller, as modelled:
//!
//! * Receive: a FIFO of up to 31 frames. Each frame reads from DATA as little-endian words: a
//!   2-byte length (the frame's length + 6), the frame, its CRC, padding to the word. A frame
//!   is read to its end, always: QEMU hands over the frames it queued on the host side only
//!   once the FIFO is empty.
//! * Transmit: words written to DATA; the first word's low 16 bits are the frame's length
//!   without its 14-byte header, and the frame starts at byte 2 of that word; writing 1 to TR
//!   sends it (the transmit threshold is left off).
//! * Interrupts: RX only. Acknowledging TXER in QEMU empties the transmit FIFO, so the handler
//!   acknowledges RX and nothing else: a frame half written into DATA when the interrupt
//!   arrives is sent whole.
//! * No MAC filtering and no PHY registers to bring up (QEMU models neither).

use core::ptr::{read_volatile, write_volatile};

use cortex_m::interrupt::InterruptNumber;
use cortex_m::peripheral::NVIC;
use cortex_m_rt::exception;
use smoltcp::phy::{self, DeviceCapabilities, Medium};
use smoltcp::time::Instant;

/// System control: run-mode clock gating 2 (bit 28 EMAC0, bit 30 EPHY0).
const SYSCTL_RCGC2: usize = 0x400F_E108;
const RCGC2_ETH: u32 = (1 << 28) | (1 << 30);
/// The MAC's base and register offsets.
const MAC: usize = 0x4004_8000;
/// Read: raw interrupt status. Write: acknowledge.
const RIS_IACK: usize = 0x00;
const IM: usize = 0x04;
const RCTL: usize = 0x08;
const TCTL: usize = 0x0C;
const DATA: usize = 0x10;
/// The MAC address: bytes 0..4 and 4..6, little-endian.
const IA0: usize = 0x14;
const IA1: usize = 0x18;
/// Frames waiting in the receive FIFO.
const NP: usize = 0x34;
/// Transmit request: write 1 to send; reads 1 while sending (always 0 in QEMU).
const TR: usize = 0x38;
/// Interrupt bits: a frame received.
const INT_RX: u32 = 0x01;
/// RCTL: receive enable, and reset the receive FIFO.
const RCTL_RXEN: u32 = 0x01;
const RCTL_RSTFIFO: u32 = 0x10;
/// TCTL: transmit enable, pad short frames, append the CRC, full duplex.
const TCTL_ON: u32 = 0x01 | 0x02 | 0x04 | 0x08;

/// The Ethernet interrupt's number on the LM3S6965.
const ETH_IRQ: u16 = 42;
/// The largest frame sent or received: 1 500 bytes of IP and the 14-byte header (no CRC).
pub const MTU: usize = 1514;
/// A frame buffer: the frame at byte 2, after the 2-byte length word, rounded up to words.
pub const FRAME_BUFFER: usize = (2 + MTU + 4 + 3) & !3;

/// Reads a register of this module's list.
fn reg(addr: usize) -> u32 {
    // SAFETY: every caller passes the MAC's registers above (base + offset) or RCGC2, which are
    // always mapped on the LM3S6965; a volatile read aliases no memory Rust knows about. The only
    // read with an effect is DATA's (it pops a word of the receive FIFO), done in `receive` only.
    unsafe { read_volatile(addr as *const u32) }
}

/// Writes a register of this module's list.
fn set_reg(addr: usize, value: u32) {
    // SAFETY: as for `reg`; these registers configure, feed or acknowledge the MAC and alias no
    // memory Rust knows about.
    unsafe { write_volatile(addr as *mut u32, value) }
}

/// The Ethernet interrupt, for the NVIC.
#[derive(Clone, Copy)]
struct EthIrq;

// SAFETY: 42 is the LM3S6965's Ethernet interrupt, a valid interrupt number of the chip (the
// contract of `InterruptNumber`: `number` returns a valid interrupt of the device).
unsafe impl InterruptNumber for EthIrq {
    fn number(self) -> u16 {
        ETH_IRQ
    }
}

/// Every interrupt without its own handler: the Ethernet interrupt is acknowledged (RX only,
/// see the module docs) and so leaves the NVIC; its only job is to end the main loop's `wfi`.
/// Any other interrupt is a bug of the firmware: it panics (the panic handler reports it and
/// exits QEMU).
#[exception]
// SAFETY: this handler also catches NonMaskableInt; it touches nothing but the MAC's IACK
// register (no data shared through a critical section), which is what cortex-m-rt asks of a
// default handler.
unsafe fn DefaultHandler(irqn: i16) {
    if irqn == ETH_IRQ as i16 {
        set_reg(MAC + RIS_IACK, INT_RX);
    } else {
        panic!("unexpected interrupt {}", irqn);
    }
}

/// The MAC, with one receive and one transmit frame buffer.
pub struct Eth {
    rx: &'static mut [u8; FRAME_BUFFER],
    tx: &'static mut [u8; FRAME_BUFFER],
    /// Frames dropped because they did not fit the buffer (never with QEMU's 1 500-byte MTU).
    pub dropped: u32,
}

impl Eth {
    /// Opens the clock gates, resets the receive FIFO, enables receive and transmit and the RX
    /// interrupt; returns the device and the MAC address QEMU gave the board.
    pub fn init(
        rx: &'static mut [u8; FRAME_BUFFER],
        tx: &'static mut [u8; FRAME_BUFFER],
    ) -> (Self, [u8; 6]) {
        // QEMU needs no clock gate; a real LM3S6965 does.
        set_reg(SYSCTL_RCGC2, reg(SYSCTL_RCGC2) | RCGC2_ETH);
        cortex_m::asm::delay(16);
        set_reg(MAC + RCTL, RCTL_RSTFIFO);
        set_reg(MAC + RCTL, RCTL_RXEN);
        set_reg(MAC + TCTL, TCTL_ON);
        set_reg(MAC + RIS_IACK, 0x7F); // nothing is being sent yet: every bit may go
        set_reg(MAC + IM, INT_RX);
        // SAFETY: unmasking can break a critical section that relies on masking this interrupt;
        // the firmware has none (its handler above shares no data with anything).
        unsafe { NVIC::unmask(EthIrq) };
        let (ia0, ia1) = (reg(MAC + IA0).to_le_bytes(), reg(MAC + IA1).to_le_bytes());
        let mac = [ia0[0], ia0[1], ia0[2], ia0[3], ia1[0], ia1[1]];
        (Self { rx, tx, dropped: 0 }, mac)
    }

    /// Whether a received frame waits in the FIFO.
    pub fn has_frame(&self) -> bool {
        reg(MAC + NP) != 0
    }

    /// Pops the next frame of the receive FIFO into the receive buffer; its length, or `None` if
    /// it was too long (then read to its end and dropped).
    fn pop(&mut self) -> Option<usize> {
        let first = reg(MAC + DATA);
        // The length word counts itself (2), the frame and the CRC (4).
        let record = (first & 0xFFFF) as usize;
        let len = record.saturating_sub(6);
        let words = record.div_ceil(4);
        let fits = (2..=MTU).contains(&len);
        if let Some(w) = self.rx.get_mut(..4) {
            w.copy_from_slice(&first.to_le_bytes());
        }
        for i in 1..words {
            let word = reg(MAC + DATA).to_le_bytes();
            if let Some(w) = self.rx.get_mut(4 * i..4 * i + 4) {
                w.copy_from_slice(&word);
            }
        }
        if fits {
            Some(len)
        } else {
            self.dropped += 1;
            None
        }
    }
}

/// Sends the frame in `tx` (`len` bytes at byte 2).
fn send(tx: &mut [u8; FRAME_BUFFER], len: usize) {
    // A real MAC may still be sending the last frame; QEMU sends on the write to TR.
    while reg(MAC + TR) & 1 != 0 {}
    let len = len.min(MTU);
    let head = (len.saturating_sub(14) as u16).to_le_bytes();
    tx[0] = head[0];
    tx[1] = head[1];
    for chunk in tx[..2 + len].chunks(4) {
        let mut word = [0u8; 4];
        word[..chunk.len()].copy_from_slice(chunk);
        set_reg(MAC + DATA, u32::from_le_bytes(word));
    }
    set_reg(MAC + TR, 1);
}

/// A received frame, already out of the FIFO.
pub struct RxToken<'a>(&'a [u8]);

/// Room for one frame to send.
pub struct TxToken<'a>(&'a mut [u8; FRAME_BUFFER]);

impl phy::Device for Eth {
    type RxToken<'a> = RxToken<'a>;
    type TxToken<'a> = TxToken<'a>;

    fn receive(&mut self, _now: Instant) -> Option<(Self::RxToken<'_>, Self::TxToken<'_>)> {
        // A frame too long for the buffer is dropped and the next one taken.
        let len = loop {
            if !self.has_frame() {
                return None;
            }
            if let Some(len) = self.pop() {
                break len;
            }
        };
        // Disjoint borrows: the receive token reads `rx`, the transmit token writes `tx`.
        let Self { rx, tx, .. } = self;
        Some((RxToken(&rx[2..2 + len]), TxToken(tx)))
    }

    fn transmit(&mut self, _now: Instant) -> Option<Self::TxToken<'_>> {
        Some(TxToken(&mut *self.tx))
    }

    fn capabilities(&self) -> DeviceCapabilities {
        let mut caps = DeviceCapabilities::default();
        caps.medium = Medium::Ethernet;
        caps.max_transmission_unit = MTU;
        caps.max_burst_size = Some(1);
        caps
    }
}

impl phy::RxToken for RxToken<'_> {
    fn consume<R, F: FnOnce(&[u8]) -> R>(self, f: F) -> R {
        f(self.0)
    }
}

impl phy::TxToken for TxToken<'_> {
    fn consume<R, F: FnOnce(&mut [u8]) -> R>(self, len: usize, f: F) -> R {
        let len = len.min(MTU);
        let result = f(&mut self.0[2..2 + len]);
        send(self.0, len);
        result
    }
}
