//! Entry file: the M barrier entries, a registered read port and the
//! write-back of the step; the counters in block RAM.
//!
//! Implements the golden kernel's `State::entries`. The entry of the
//! request accepted in cycle *a* (`acc_entry`) is read at the edge ending
//! *a* (the block RAMs' synchronous read; `valid` and `parity` into the
//! read register); in cycle *a* + 1 the step works on that word (`e_*`) and
//! its result (`n_*`) is written to that entry (`rd_entry`, the request
//! register's) at the edge. When the entry accepted in *a* + 1 is the one
//! stepped in *a* + 1, the word read is the step's result instead of the
//! stale entry (forwarding: back-to-back requests on one entry see each
//! other): for the RAM fields each [`RamFwd`] keeps its last write and
//! says when it is the word read, and the select sits in front of the
//! step; for `valid` and `parity` the read register takes `n_*`. The
//! counters are written only by a step that applies (`n_write`): a refused
//! or idle step leaves the RAM word as it is, and its last write is then
//! not forwarded. `valid` and `parity` take the step's flags every edge.
//!
//! State (`docs/mbarrier_ram_design.md`): `valid`, `parity` (M-bit vectors
//! in flip-flops: `valid` is cleared by reset, `parity` is read by the op
//! port's pre-checks); `pending`, `expected` (CB bits) and `tx` (TB bits,
//! two's complement), one block RAM of M words each (iCE40
//! `SB_RAM40_4K`, ECP5 distributed RAM at M = 16). Reset clears `valid`
//! (the other fields of an invalid entry are never observed).
//!
//! Ports (M entries, EB = log2 M, CB = count_bits + 1, TB = tx_bits + 1):
//! - `clock`, `reset`.
//! - `acc_entry` (in, EB): the entry of the request accepted this cycle (read at the edge).
//! - `rd_entry` (in, EB): the stepped request's entry (written at the edge).
//! - `e_valid`, `e_parity`, `e_pending`, `e_expected`, `e_tx` (out): that
//!   entry (the word read).
//! - `tx_ram`, `tx_byp` (out, TB), `tx_fwd` (out): `e_tx`'s two sources (the
//!   RAM's word, the last write) and the select between them, for the
//!   step's tx compares made on each source.
//! - `n_valid`, `n_parity` (in): the step's flags, written to it every edge.
//! - `n_pending`, `n_expected`, `n_tx`, `n_write` (in): the step's counters,
//!   written to it when `n_write`.
//!
//! [`RamFwd`]: hdl_kit::ram_fwd::RamFwd

use hdl_kit::ram_fwd::RamFwd;
use rust_hdl::prelude::*;

/// M entries of (valid, parity, pending, expected, tx).
#[derive(LogicBlock)]
pub struct EntryFile<const M: usize, const EB: usize, const CB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub acc_entry: Signal<In, Bits<EB>>,
    pub rd_entry: Signal<In, Bits<EB>>,
    pub e_valid: Signal<Out, Bit>,
    pub e_parity: Signal<Out, Bit>,
    pub e_pending: Signal<Out, Bits<CB>>,
    pub e_expected: Signal<Out, Bits<CB>>,
    pub e_tx: Signal<Out, Bits<TB>>,
    pub tx_ram: Signal<Out, Bits<TB>>,
    pub tx_byp: Signal<Out, Bits<TB>>,
    pub tx_fwd: Signal<Out, Bit>,
    pub n_valid: Signal<In, Bit>,
    pub n_parity: Signal<In, Bit>,
    pub n_pending: Signal<In, Bits<CB>>,
    pub n_expected: Signal<In, Bits<CB>>,
    pub n_tx: Signal<In, Bits<TB>>,
    pub n_write: Signal<In, Bit>,
    valid: DFF<Bits<M>>,
    parity: DFF<Bits<M>>,
    pending: RamFwd<Bits<CB>, EB>,
    expected: RamFwd<Bits<CB>, EB>,
    tx: RamFwd<Bits<TB>, EB>,
    /// The read register of `valid` and `parity`.
    r_valid: DFF<Bit>,
    r_parity: DFF<Bit>,
}

impl<const M: usize, const EB: usize, const CB: usize, const TB: usize> Default
    for EntryFile<M, EB, CB, TB>
{
    fn default() -> Self {
        assert_eq!(1 << EB, M);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            acc_entry: Default::default(),
            rd_entry: Default::default(),
            e_valid: Default::default(),
            e_parity: Default::default(),
            e_pending: Default::default(),
            e_expected: Default::default(),
            e_tx: Default::default(),
            tx_ram: Default::default(),
            tx_byp: Default::default(),
            tx_fwd: Default::default(),
            n_valid: Default::default(),
            n_parity: Default::default(),
            n_pending: Default::default(),
            n_expected: Default::default(),
            n_tx: Default::default(),
            n_write: Default::default(),
            valid: Default::default(),
            parity: Default::default(),
            pending: Default::default(),
            expected: Default::default(),
            tx: Default::default(),
            r_valid: Default::default(),
            r_parity: Default::default(),
        }
    }
}

impl<const M: usize, const EB: usize, const CB: usize, const TB: usize> Logic
    for EntryFile<M, EB, CB, TB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, parity, r_valid, r_parity);
        clock!(self, clock, pending, expected, tx);
        // The counters: read the accepted entry, write the stepped one.
        self.pending.reset.next = self.reset.val();
        self.pending.rd_addr.next = self.acc_entry.val();
        self.pending.wr_en.next = self.n_write.val();
        self.pending.wr_addr.next = self.rd_entry.val();
        self.pending.wr_data.next = self.n_pending.val();
        self.expected.reset.next = self.reset.val();
        self.expected.rd_addr.next = self.acc_entry.val();
        self.expected.wr_en.next = self.n_write.val();
        self.expected.wr_addr.next = self.rd_entry.val();
        self.expected.wr_data.next = self.n_expected.val();
        self.tx.reset.next = self.reset.val();
        self.tx.rd_addr.next = self.acc_entry.val();
        self.tx.wr_en.next = self.n_write.val();
        self.tx.wr_addr.next = self.rd_entry.val();
        self.tx.wr_data.next = self.n_tx.val();
        // The step's input: the word read, or the last write when it is
        // that word.
        self.e_valid.next = self.r_valid.q.val();
        self.e_parity.next = self.r_parity.q.val();
        self.e_pending.next = self.pending.ram_data.val();
        if self.pending.fwd.val() {
            self.e_pending.next = self.pending.byp_data.val();
        }
        self.e_expected.next = self.expected.ram_data.val();
        if self.expected.fwd.val() {
            self.e_expected.next = self.expected.byp_data.val();
        }
        self.tx_ram.next = self.tx.ram_data.val();
        self.tx_byp.next = self.tx.byp_data.val();
        self.tx_fwd.next = self.tx.fwd.val();
        self.e_tx.next = self.tx.ram_data.val();
        if self.tx.fwd.val() {
            self.e_tx.next = self.tx.byp_data.val();
        }
        // `valid` and `parity`: read at the edge, the step's result when
        // it is the entry stepped now.
        self.r_valid.d.next = self.valid.q.val().get_bit(self.acc_entry.val().index());
        self.r_parity.d.next = self.parity.q.val().get_bit(self.acc_entry.val().index());
        if self.acc_entry.val() == self.rd_entry.val() {
            self.r_valid.d.next = self.n_valid.val();
            self.r_parity.d.next = self.n_parity.val();
        }
        // Write-back to the entry read.
        self.valid.d.next = self
            .valid
            .q
            .val()
            .replace_bit(self.rd_entry.val().index(), self.n_valid.val());
        self.parity.d.next = self
            .parity
            .q
            .val()
            .replace_bit(self.rd_entry.val().index(), self.n_parity.val());
        if self.reset.val() {
            self.valid.d.next = 0.into();
            self.parity.d.next = 0.into();
            self.r_valid.d.next = false;
            self.r_parity.d.next = false;
        }
    }
}
