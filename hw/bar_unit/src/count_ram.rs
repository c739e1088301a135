//! Count RAM: the arrival count of every named barrier (C CTA slots × 16
//! ids) in block RAM with write-to-read forwarding, as [`BarrierRam`] keeps
//! the other fields, plus the completion compare of stage B made on both
//! of the read word's sources.
//!
//! Implements the golden kernel's `Barrier::count` (`sim/bar_unit/src/bar_unit.rs`)
//! and the compare of its `arrive` (`count + 1 >= target`, as
//! `count >= target − 1`).
//!
//! Timing: as in [`BarrierRam`], the word read in cycle *t + 1* is the RAM's
//! output or, when the last edge wrote the address it read, that write
//! ([`RamFwd`]'s `fwd`). The compare with `target_m1` is the unit's critical
//! decision (it gates the release register and the `active` bit), so it is
//! made on the RAM's output and on the forwarded word in parallel and `fwd`
//! selects the verdict: the forwarding multiplexer is behind the compare,
//! not in front of it.
//!
//! Ports (CB count bits, AB = SB + 4 address bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset (clears the forwarding register).
//! - `rd_addr` (in, AB): the barrier to read, {slot, id}.
//! - `wr_en` (in), `wr_addr` (in, AB), `wr_data` (in, CB): the write of this edge.
//! - `rd_data` (out, CB): the count at the `rd_addr` of the last edge, with the write of that edge forwarded.
//! - `target_m1` (in, CB): the completion target less one.
//! - `rd_reaches` (out): `rd_data >= target_m1`.
//!
//! [`BarrierRam`]: crate::barrier_ram::BarrierRam
//! [`RamFwd`]: crate::ram_fwd::RamFwd

use rust_hdl::prelude::*;

use crate::ram_fwd::RamFwd;

/// The barriers' arrival counts in block RAM, with forwarding and the completion compare.
#[derive(LogicBlock, Default)]
pub struct CountRam<const CB: usize, const AB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rd_addr: Signal<In, Bits<AB>>,
    pub wr_en: Signal<In, Bit>,
    pub wr_addr: Signal<In, Bits<AB>>,
    pub wr_data: Signal<In, Bits<CB>>,
    pub rd_data: Signal<Out, Bits<CB>>,
    pub target_m1: Signal<In, Bits<CB>>,
    pub rd_reaches: Signal<Out, Bit>,
    mem: RamFwd<Bits<CB>, AB>,
    /// The compare on each source.
    reach_ram: Signal<Local, Bit>,
    reach_byp: Signal<Local, Bit>,
}

impl<const CB: usize, const AB: usize> Logic for CountRam<CB, AB> {
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
        self.reach_ram.next = self.mem.ram_data.val() >= self.target_m1.val();
        self.reach_byp.next = self.mem.byp_data.val() >= self.target_m1.val();
        self.rd_reaches.next = self.reach_ram.val();
        if self.mem.fwd.val() {
            self.rd_reaches.next = self.reach_byp.val();
        }
    }
}
