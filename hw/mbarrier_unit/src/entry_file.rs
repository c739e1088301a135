//! Entry file: the M barrier entries' registers, the three chained read
//! ports (with forwarding) and the write-back of the cycle's results.
//!
//! Implements the golden kernel's `State::entries` and the "each step sees
//! the result of the previous one" rule of `eval` (steps 1-3): the
//! complete-tx step reads `ctx_entry`; the remote-arrive step reads
//! `rarv_entry`, or the complete-tx step's result when both name the same
//! entry; the op step reads `op_entry`, or the latest earlier result on the
//! same entry. At the edge each entry takes the last step's result that
//! names it (op, else remote, else complete-tx; a step that was idle or
//! refused passes its input through unchanged, so no enable is needed).
//!
//! State per entry (registers; see `docs/mbarrier_unit.md` for mapping a
//! larger M onto a RAM): `valid`, `parity` (M-bit vectors), `pending`,
//! `expected` (CB bits), `tx` (TB bits, two's complement). Reset clears
//! `valid` (the other fields of an invalid entry are never observed).
//!
//! Ports (M entries, EB = log2 M, CB = count_bits + 1, TB = tx_bits + 1):
//! - `clock`, `reset`.
//! - `ctx_entry`, `rarv_entry`, `op_entry` (in, EB): the three steps' entries.
//! - `ctx_e_*`, `rarv_e_*`, `op_e_*` (out): each step's input entry
//!   (`valid`, `parity`, `pending`, `expected`, `tx`).
//! - `ctx_n_*`, `rarv_n_*`, `op_n_*` (in): each step's result.

use rust_hdl::prelude::*;

/// M entries of (valid, parity, pending, expected, tx).
#[derive(LogicBlock)]
pub struct EntryFile<const M: usize, const EB: usize, const CB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ctx_entry: Signal<In, Bits<EB>>,
    pub rarv_entry: Signal<In, Bits<EB>>,
    pub op_entry: Signal<In, Bits<EB>>,
    pub ctx_e_valid: Signal<Out, Bit>,
    pub ctx_e_parity: Signal<Out, Bit>,
    pub ctx_e_pending: Signal<Out, Bits<CB>>,
    pub ctx_e_expected: Signal<Out, Bits<CB>>,
    pub ctx_e_tx: Signal<Out, Bits<TB>>,
    pub rarv_e_valid: Signal<Out, Bit>,
    pub rarv_e_parity: Signal<Out, Bit>,
    pub rarv_e_pending: Signal<Out, Bits<CB>>,
    pub rarv_e_expected: Signal<Out, Bits<CB>>,
    pub rarv_e_tx: Signal<Out, Bits<TB>>,
    pub op_e_valid: Signal<Out, Bit>,
    pub op_e_parity: Signal<Out, Bit>,
    pub op_e_pending: Signal<Out, Bits<CB>>,
    pub op_e_expected: Signal<Out, Bits<CB>>,
    pub op_e_tx: Signal<Out, Bits<TB>>,
    pub ctx_n_valid: Signal<In, Bit>,
    pub ctx_n_parity: Signal<In, Bit>,
    pub ctx_n_pending: Signal<In, Bits<CB>>,
    pub ctx_n_expected: Signal<In, Bits<CB>>,
    pub ctx_n_tx: Signal<In, Bits<TB>>,
    pub rarv_n_valid: Signal<In, Bit>,
    pub rarv_n_parity: Signal<In, Bit>,
    pub rarv_n_pending: Signal<In, Bits<CB>>,
    pub rarv_n_expected: Signal<In, Bits<CB>>,
    pub rarv_n_tx: Signal<In, Bits<TB>>,
    pub op_n_valid: Signal<In, Bit>,
    pub op_n_parity: Signal<In, Bit>,
    pub op_n_pending: Signal<In, Bits<CB>>,
    pub op_n_expected: Signal<In, Bits<CB>>,
    pub op_n_tx: Signal<In, Bits<TB>>,
    valid: DFF<Bits<M>>,
    parity: DFF<Bits<M>>,
    pending: [DFF<Bits<CB>>; M],
    expected: [DFF<Bits<CB>>; M],
    tx: [DFF<Bits<TB>>; M],
    valid_n: Signal<Local, Bits<M>>,
    parity_n: Signal<Local, Bits<M>>,
}

impl<const M: usize, const EB: usize, const CB: usize, const TB: usize> Default
    for EntryFile<M, EB, CB, TB>
{
    fn default() -> Self {
        assert_eq!(1 << EB, M);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ctx_entry: Default::default(),
            rarv_entry: Default::default(),
            op_entry: Default::default(),
            ctx_e_valid: Default::default(),
            ctx_e_parity: Default::default(),
            ctx_e_pending: Default::default(),
            ctx_e_expected: Default::default(),
            ctx_e_tx: Default::default(),
            rarv_e_valid: Default::default(),
            rarv_e_parity: Default::default(),
            rarv_e_pending: Default::default(),
            rarv_e_expected: Default::default(),
            rarv_e_tx: Default::default(),
            op_e_valid: Default::default(),
            op_e_parity: Default::default(),
            op_e_pending: Default::default(),
            op_e_expected: Default::default(),
            op_e_tx: Default::default(),
            ctx_n_valid: Default::default(),
            ctx_n_parity: Default::default(),
            ctx_n_pending: Default::default(),
            ctx_n_expected: Default::default(),
            ctx_n_tx: Default::default(),
            rarv_n_valid: Default::default(),
            rarv_n_parity: Default::default(),
            rarv_n_pending: Default::default(),
            rarv_n_expected: Default::default(),
            rarv_n_tx: Default::default(),
            op_n_valid: Default::default(),
            op_n_parity: Default::default(),
            op_n_pending: Default::default(),
            op_n_expected: Default::default(),
            op_n_tx: Default::default(),
            valid: Default::default(),
            parity: Default::default(),
            pending: std::array::from_fn(|_| Default::default()),
            expected: std::array::from_fn(|_| Default::default()),
            tx: std::array::from_fn(|_| Default::default()),
            valid_n: Default::default(),
            parity_n: Default::default(),
        }
    }
}

impl<const M: usize, const EB: usize, const CB: usize, const TB: usize> Logic
    for EntryFile<M, EB, CB, TB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid, parity);
        for i in 0..M {
            self.pending[i].clock.next = self.clock.val();
            self.expected[i].clock.next = self.clock.val();
            self.tx[i].clock.next = self.clock.val();
        }

        // Read ports: the registered entries.
        self.ctx_e_valid.next = self.valid.q.val().get_bit(self.ctx_entry.val().index());
        self.ctx_e_parity.next = self.parity.q.val().get_bit(self.ctx_entry.val().index());
        self.rarv_e_valid.next = self.valid.q.val().get_bit(self.rarv_entry.val().index());
        self.rarv_e_parity.next = self.parity.q.val().get_bit(self.rarv_entry.val().index());
        self.op_e_valid.next = self.valid.q.val().get_bit(self.op_entry.val().index());
        self.op_e_parity.next = self.parity.q.val().get_bit(self.op_entry.val().index());
        self.ctx_e_pending.next = 0.into();
        self.ctx_e_expected.next = 0.into();
        self.ctx_e_tx.next = 0.into();
        self.rarv_e_pending.next = 0.into();
        self.rarv_e_expected.next = 0.into();
        self.rarv_e_tx.next = 0.into();
        self.op_e_pending.next = 0.into();
        self.op_e_expected.next = 0.into();
        self.op_e_tx.next = 0.into();
        for i in 0..M {
            if self.ctx_entry.val().index() == i {
                self.ctx_e_pending.next = self.pending[i].q.val();
                self.ctx_e_expected.next = self.expected[i].q.val();
                self.ctx_e_tx.next = self.tx[i].q.val();
            }
            if self.rarv_entry.val().index() == i {
                self.rarv_e_pending.next = self.pending[i].q.val();
                self.rarv_e_expected.next = self.expected[i].q.val();
                self.rarv_e_tx.next = self.tx[i].q.val();
            }
            if self.op_entry.val().index() == i {
                self.op_e_pending.next = self.pending[i].q.val();
                self.op_e_expected.next = self.expected[i].q.val();
                self.op_e_tx.next = self.tx[i].q.val();
            }
        }
        // Forwarding: a later step on the same entry sees the earlier result.
        if self.rarv_entry.val() == self.ctx_entry.val() {
            self.rarv_e_valid.next = self.ctx_n_valid.val();
            self.rarv_e_parity.next = self.ctx_n_parity.val();
            self.rarv_e_pending.next = self.ctx_n_pending.val();
            self.rarv_e_expected.next = self.ctx_n_expected.val();
            self.rarv_e_tx.next = self.ctx_n_tx.val();
        }
        if self.op_entry.val() == self.rarv_entry.val() {
            self.op_e_valid.next = self.rarv_n_valid.val();
            self.op_e_parity.next = self.rarv_n_parity.val();
            self.op_e_pending.next = self.rarv_n_pending.val();
            self.op_e_expected.next = self.rarv_n_expected.val();
            self.op_e_tx.next = self.rarv_n_tx.val();
        } else if self.op_entry.val() == self.ctx_entry.val() {
            self.op_e_valid.next = self.ctx_n_valid.val();
            self.op_e_parity.next = self.ctx_n_parity.val();
            self.op_e_pending.next = self.ctx_n_pending.val();
            self.op_e_expected.next = self.ctx_n_expected.val();
            self.op_e_tx.next = self.ctx_n_tx.val();
        }

        // Write-back: the last step naming an entry wins.
        self.valid_n.next = self.valid.q.val();
        self.parity_n.next = self.parity.q.val();
        for i in 0..M {
            self.pending[i].d.next = self.pending[i].q.val();
            self.expected[i].d.next = self.expected[i].q.val();
            self.tx[i].d.next = self.tx[i].q.val();
            if self.op_entry.val().index() == i {
                self.valid_n.next = self.valid_n.val().replace_bit(i, self.op_n_valid.val());
                self.parity_n.next = self.parity_n.val().replace_bit(i, self.op_n_parity.val());
                self.pending[i].d.next = self.op_n_pending.val();
                self.expected[i].d.next = self.op_n_expected.val();
                self.tx[i].d.next = self.op_n_tx.val();
            } else if self.rarv_entry.val().index() == i {
                self.valid_n.next = self.valid_n.val().replace_bit(i, self.rarv_n_valid.val());
                self.parity_n.next = self.parity_n.val().replace_bit(i, self.rarv_n_parity.val());
                self.pending[i].d.next = self.rarv_n_pending.val();
                self.expected[i].d.next = self.rarv_n_expected.val();
                self.tx[i].d.next = self.rarv_n_tx.val();
            } else if self.ctx_entry.val().index() == i {
                self.valid_n.next = self.valid_n.val().replace_bit(i, self.ctx_n_valid.val());
                self.parity_n.next = self.parity_n.val().replace_bit(i, self.ctx_n_parity.val());
                self.pending[i].d.next = self.ctx_n_pending.val();
                self.expected[i].d.next = self.ctx_n_expected.val();
                self.tx[i].d.next = self.ctx_n_tx.val();
            }
        }
        self.valid.d.next = self.valid_n.val();
        self.parity.d.next = self.parity_n.val();
        if self.reset.val() {
            self.valid.d.next = 0.into();
            self.parity.d.next = 0.into();
        }
    }
}
