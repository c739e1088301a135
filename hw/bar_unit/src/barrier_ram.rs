//! Barrier RAM: one field of every named barrier (C CTA slots × 16 ids), in
//! a memory that yosys maps to block RAM (iCE40 `SB_RAM40_4K`, ECP5
//! `DP16KD`), with a synchronous read and write-to-read forwarding.
//!
//! Implements, for one field, the golden kernel's `State::bars`
//! (`sim/bar_unit/src/bar_unit.rs`): the unit keeps the barrier fields that
//! need no scan here — `all`/`kind`/`and_acc`/`or_acc` (one RAM), `expected`,
//! `count` and `popc` (one RAM each) — and `active` in flops
//! (`slot_table.rs`), so a RAM word is meaningful only while its barrier
//! is active and never needs clearing.
//!
//! Timing: the address presented in cycle *t* (stage A) is read at the edge
//! ending *t*; `rd_data` holds the word in cycle *t + 1* (stage B). A word
//! written at that same edge (the previous stage-B arrival, to the same
//! barrier) is not yet in the RAM's output, so the block keeps the last
//! write (`byp_*`) and forwards it when the addresses match: back-to-back
//! arrivals at one barrier see each other's updates. Whether the two
//! addresses match is decided a cycle early (`hit_q`, from the write and read
//! addresses of the edge), so stage B's word is one multiplexer behind the
//! RAM's output.
//!
//! Ports (D the field's type, AB = SB + 4 address bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset (clears the forwarding register).
//! - `rd_addr` (in, AB): the barrier to read, {slot, id}.
//! - `wr_en` (in), `wr_addr` (in, AB), `wr_data` (in, D): the write of this edge.
//! - `rd_data` (out, D): the word at the `rd_addr` of the last edge, with the write of that edge forwarded.

use rust_hdl::prelude::*;

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
    ram: RAM<D, AB>,
    byp_valid_q: DFF<Bit>,
    /// The last write's address equals the last read's.
    hit_q: DFF<Bit>,
    byp_data_q: DFF<D>,
}

impl<D: Synth, const AB: usize> Logic for BarrierRam<D, AB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, byp_valid_q, hit_q, byp_data_q);
        self.ram.read_clock.next = self.clock.val();
        self.ram.write_clock.next = self.clock.val();
        self.ram.read_address.next = self.rd_addr.val();
        self.ram.write_address.next = self.wr_addr.val();
        self.ram.write_data.next = self.wr_data.val();
        self.ram.write_enable.next = self.wr_en.val();
        self.byp_valid_q.d.next = self.wr_en.val() & !self.reset.val();
        self.byp_data_q.d.next = self.wr_data.val();
        self.hit_q.d.next = self.wr_addr.val() == self.rd_addr.val();
        self.rd_data.next = self.ram.read_data.val();
        if self.byp_valid_q.q.val() & self.hit_q.q.val() {
            self.rd_data.next = self.byp_data_q.q.val();
        }
    }
}
