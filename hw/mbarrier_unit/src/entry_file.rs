//! Entry file: the M barrier entries' registers, a registered read port
//! and the write-back of the step.
//!
//! Implements the golden kernel's `State::entries`. The entry of the
//! request accepted in cycle *a* (`acc_entry`) is read at the edge ending
//! *a* into the read register, as a block RAM with a synchronous read
//! would (`docs/mbarrier_ram_design.md`); in cycle *a* + 1 the step works
//! on the read register (`e_*`) and its result (`n_*`) is written to that
//! entry (`rd_entry`, the request register's) at the edge. When the entry
//! accepted in *a* + 1 is the one stepped in *a* + 1, the read register
//! takes the step's result instead of the stale entry (forwarding: back to
//! back requests on one entry see each other). A refused or idle step
//! passes its input through unchanged, so no enable is needed.
//!
//! State per entry (registers; `docs/mbarrier_ram_design.md` maps them onto
//! block RAM): `valid`, `parity` (M-bit vectors), `pending`, `expected` (CB
//! bits), `tx` (TB bits, two's complement). Reset clears `valid` (the other
//! fields of an invalid entry are never observed).
//!
//! Ports (M entries, EB = log2 M, CB = count_bits + 1, TB = tx_bits + 1):
//! - `clock`, `reset`.
//! - `acc_entry` (in, EB): the entry of the request accepted this cycle (read at the edge).
//! - `rd_entry` (in, EB): the stepped request's entry (written at the edge).
//! - `e_valid`, `e_parity`, `e_pending`, `e_expected`, `e_tx` (out): that
//!   entry (the read register).
//! - `n_valid`, `n_parity`, `n_pending`, `n_expected`, `n_tx` (in): the step's result, written to it.

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
    pub n_valid: Signal<In, Bit>,
    pub n_parity: Signal<In, Bit>,
    pub n_pending: Signal<In, Bits<CB>>,
    pub n_expected: Signal<In, Bits<CB>>,
    pub n_tx: Signal<In, Bits<TB>>,
    valid: DFF<Bits<M>>,
    parity: DFF<Bits<M>>,
    pending: [DFF<Bits<CB>>; M],
    expected: [DFF<Bits<CB>>; M],
    tx: [DFF<Bits<TB>>; M],
    /// The read register.
    r_valid: DFF<Bit>,
    r_parity: DFF<Bit>,
    r_pending: DFF<Bits<CB>>,
    r_expected: DFF<Bits<CB>>,
    r_tx: DFF<Bits<TB>>,
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
            n_valid: Default::default(),
            n_parity: Default::default(),
            n_pending: Default::default(),
            n_expected: Default::default(),
            n_tx: Default::default(),
            valid: Default::default(),
            parity: Default::default(),
            pending: std::array::from_fn(|_| Default::default()),
            expected: std::array::from_fn(|_| Default::default()),
            tx: std::array::from_fn(|_| Default::default()),
            r_valid: Default::default(),
            r_parity: Default::default(),
            r_pending: Default::default(),
            r_expected: Default::default(),
            r_tx: Default::default(),
        }
    }
}

impl<const M: usize, const EB: usize, const CB: usize, const TB: usize> Logic
    for EntryFile<M, EB, CB, TB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, parity, r_valid, r_parity, r_pending, r_expected, r_tx);
        for i in 0..M {
            self.pending[i].clock.next = self.clock.val();
            self.expected[i].clock.next = self.clock.val();
            self.tx[i].clock.next = self.clock.val();
        }
        // The step's input: the read register.
        self.e_valid.next = self.r_valid.q.val();
        self.e_parity.next = self.r_parity.q.val();
        self.e_pending.next = self.r_pending.q.val();
        self.e_expected.next = self.r_expected.q.val();
        self.e_tx.next = self.r_tx.q.val();
        // Read at the edge: the accepted request's entry, or the step's
        // result when it is the entry stepped now.
        self.r_valid.d.next = self.valid.q.val().get_bit(self.acc_entry.val().index());
        self.r_parity.d.next = self.parity.q.val().get_bit(self.acc_entry.val().index());
        self.r_pending.d.next = 0.into();
        self.r_expected.d.next = 0.into();
        self.r_tx.d.next = 0.into();
        for i in 0..M {
            if self.acc_entry.val().index() == i {
                self.r_pending.d.next = self.pending[i].q.val();
                self.r_expected.d.next = self.expected[i].q.val();
                self.r_tx.d.next = self.tx[i].q.val();
            }
        }
        if self.acc_entry.val() == self.rd_entry.val() {
            self.r_valid.d.next = self.n_valid.val();
            self.r_parity.d.next = self.n_parity.val();
            self.r_pending.d.next = self.n_pending.val();
            self.r_expected.d.next = self.n_expected.val();
            self.r_tx.d.next = self.n_tx.val();
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
        for i in 0..M {
            self.pending[i].d.next = self.pending[i].q.val();
            self.expected[i].d.next = self.expected[i].q.val();
            self.tx[i].d.next = self.tx[i].q.val();
            if self.rd_entry.val().index() == i {
                self.pending[i].d.next = self.n_pending.val();
                self.expected[i].d.next = self.n_expected.val();
                self.tx[i].d.next = self.n_tx.val();
            }
        }
        if self.reset.val() {
            self.valid.d.next = 0.into();
            self.parity.d.next = 0.into();
            self.r_valid.d.next = false;
            self.r_parity.d.next = false;
        }
    }
}
