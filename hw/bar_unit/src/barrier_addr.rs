//! Barrier address: `addr = {slot, id}`, the barrier RAM's address of
//! barrier `id` of CTA slot `slot` (`slot * 16 + id`, the golden model's
//! index into `State::bars`).
//!
//! A leaf written by hand (like `Popcount`): a kernel-level widening cast
//! and shift would emit masked 32-bit arithmetic that `verilator -Wall`
//! flags; the Verilog here is the one concatenation.
//!
//! Ports (SB slot bits, AB = SB + 4):
//! - `slot` (in, SB), `id` (in, 4): the barrier.
//! - `addr` (out, AB): its RAM address.

use rust_hdl::prelude::*;

/// `addr = {slot, id}`.
#[derive(LogicBlock, Default)]
pub struct BarrierAddr<const SB: usize, const AB: usize> {
    pub slot: Signal<In, Bits<SB>>,
    pub id: Signal<In, Bits<4>>,
    pub addr: Signal<Out, Bits<AB>>,
}

impl<const SB: usize, const AB: usize> Logic for BarrierAddr<SB, AB> {
    fn update(&mut self) {
        let a = (self.slot.val().index() << 4) | self.id.val().index();
        self.addr.next = (a as u64).into();
    }

    fn connect(&mut self) {
        self.addr.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom("always @(*) addr = {slot, id};".into())
    }
}
