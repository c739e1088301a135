//! Forwarding RAM: one field of a unit's state words (the bar unit's named
//! barriers, the mbarrier unit's entries) in a memory that yosys maps to
//! block RAM (iCE40 `SB_RAM40_4K`, ECP5 `DP16KD`, or distributed RAM where
//! yosys prefers it), with a synchronous read, and the last write kept for
//! forwarding. The caller selects the word from its two sources, each where
//! its readers want the select (the bar unit's `BarrierRam` and `CountRam`,
//! the mbarrier unit's `EntryFile`).
//!
//! Timing: the address presented in cycle *t* is read at the edge ending
//! *t*; the RAM's output holds the word in cycle *t + 1*. A word written at
//! that same edge (the previous step, to the same address) is not yet in
//! the RAM's output, so the block keeps the last write (`byp_*`) and says
//! when it is the word read (`fwd`): back-to-back updates of one word see
//! each other. Whether the two addresses match is decided a cycle early
//! (`hit_q`, from the write and read addresses of the edge), so `fwd` comes
//! from two flops.
//!
//! Ports (D the field's type, AB address bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset (clears the forwarding register).
//! - `rd_addr` (in, AB): the word to read.
//! - `wr_en` (in), `wr_addr` (in, AB), `wr_data` (in, D): the write of this edge.
//! - `ram_data` (out, D): the RAM's word at the `rd_addr` of the last edge.
//! - `byp_data` (out, D): the last edge's write.
//! - `fwd` (out): the word read is that write (`byp_data`), not `ram_data`.

use rust_hdl::prelude::*;

/// One field in block RAM, with the last write kept for forwarding.
#[derive(LogicBlock, Default)]
pub struct RamFwd<D: Synth, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<AB>>,
    pub wr_en: Signal<In, Bit>,
    pub wr_addr: Signal<In, Bits<AB>>,
    pub wr_data: Signal<In, D>,
    pub ram_data: Signal<Out, D>,
    pub byp_data: Signal<Out, D>,
    pub fwd: Signal<Out, Bit>,
    ram: RAM<D, AB>,
    byp_valid_q: DFF<Bit>,
    /// The last write's address equals the last read's.
    hit_q: DFF<Bit>,
    byp_data_q: DFF<D>,
}

impl<D: Synth, const AB: usize> Logic for RamFwd<D, AB> {
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
        self.ram_data.next = self.ram.read_data.val();
        self.byp_data.next = self.byp_data_q.q.val();
        self.fwd.next = self.byp_valid_q.q.val() & self.hit_q.q.val();
    }
}
