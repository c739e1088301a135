//! Barrier RAM: one field of every named barrier (C CTA slots × 16 ids) in
//! block RAM, read with the last write forwarded.
//!
//! Implements, for one field, the golden kernel's `State::bars`
//! (`sim/bar_unit/src/bar_unit.rs`): the unit keeps the barrier fields that
//! need no scan here — `all`/`kind`/`and_acc`/`or_acc` (one RAM), `expected`
//! and `popc` here, `count` in [`CountRam`] — and `active` in flops
//! (`slot_table.rs`), so a RAM word is meaningful only while its barrier
//! is active and never needs clearing.
//!
//! Timing ([`RamFwd`]): the address presented in cycle *t* (stage A) is
//! read at the edge ending *t*; `rd_data` holds the word in cycle *t + 1*
//! (stage B), with the write of that same edge forwarded — one multiplexer,
//! selected by two flops, behind the RAM's output.
//!
//! Ports (D the field's type, AB = SB + 4 address bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset (clears the forwarding register).
//! - `rd_addr` (in, AB): the barrier to read, {slot, id}.
//! - `wr_en` (in), `wr_addr` (in, AB), `wr_data` (in, D): the write of this edge.
//! - `rd_data` (out, D): the word at the `rd_addr` of the last edge, with the write of that edge forwarded.
//!
//! [`CountRam`]: crate::count_ram::CountRam
//! [`RamFwd`]: crate::ram_fwd::RamFwd

use rust_hdl::prelude::*;

use crate::ram_fwd::RamFwd;

/// One barrier field in block RAM, with forwarding.
#[derive(LogicBlock, Default)]
pub struct BarrierRam<D: Synth, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<AB>>,
    pub wr_en: Signal<In, Bit>,
    pub wr_addr: Signal<In, Bits<AB>>,
    pub wr_data: Signal<In, D>,
    pub rd_data: Signal<Out, D>,
    mem: RamFwd<D, AB>,
}

impl<D: Synth, const AB: usize> Logic for BarrierRam<D, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, mem);
        self.mem.reset.next = self.reset.val();
        self.mem.rd_addr.next = self.rd_addr.val();
        self.mem.wr_en.next = self.wr_en.val();
        self.mem.wr_addr.next = self.wr_addr.val();
        self.mem.wr_data.next = self.wr_data.val();
        self.rd_data.next = self.mem.ram_data.val();
        if self.mem.fwd.val() {
            self.rd_data.next = self.mem.byp_data.val();
        }
    }
}
