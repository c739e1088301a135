//! Commit counters: one C-bit counter per slot of the transactions sent with
//! that tag and not yet acknowledged; checks every `ack`.
//!
//! Twin of `State::cnt` and of the `ack_ok` check, the `cnt_full` refusal,
//! the `next_clean` condition and the counter updates of
//! `membar_unit_model::membar_unit::eval`.
//!
//! An accepted LD/ST/ATOM/RED increments the open slot's counter; a full
//! counter (all ones) refuses further TXNs instead of wrapping. `ack_valid`
//! with tag t is valid when `cnt[t]` exceeds the TXNs of tag t still waiting in
//! the output register (zero or one): only a transferred TXN can commit. A
//! valid ack decrements `cnt[t]`; any other ack changes nothing and flags
//! `ack_err`. Counters need no wrap guard beyond that: a decrement needs
//! `cnt > 0` and an increment `cnt < max`.
//!
//! Timing (docs/fpga.md, "Timing"): every check reads registered per-counter
//! flags (`nz`, `one`, `full`, `am1`) kept in step with the counters, never the
//! counter bits themselves. An accepted TXN reaches its counter one cycle
//! late: `pend` (one-hot, registered) holds the increment of the TXN accepted
//! in the previous cycle, so the accept decision (the unit's longest cone,
//! from `warp_blocked[req_warp]`) ends at one K-bit register instead of the
//! clock enables of every counter and flag. Every read adds `pend` back (the
//! *logical* counter, the model's `cnt`, is `cnt + pend`), so the ports see
//! exactly the model's counters. `pend` never meets a decrement of an empty
//! counter: the TXN it counts sits in the output register in that cycle, so an
//! ack of its tag is valid only when the logical counter is at least 2.
//!
//! Ports, in `io` (K slots, TB = log2 K, C = counter_bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `open_tag` (in, TB): the open slot, which tags accepted TXNs (coalescer).
//! - `accept_txn` (in): a TXN is accepted this cycle (request gate).
//! - `ack_valid`, `ack_tag` (in): SPEC.md ports.
//! - `out_txn`, `out_tag` (in): the output register holds a TXN, and its tag.
//! - `cnt_full` (out): the open slot's counter is full.
//! - `next_clean` (out): the counter of the slot after the open one is zero,
//!   so that slot may be reopened (a VC or CTA+ivall barrier frees its slot
//!   with TXNs still counted; they must stay visible to the release walk).
//! - `zero_next` (out, K): bit k set when `cnt[k]` will be zero next cycle,
//!   not counting a TXN accepted this cycle (for the release walk, which is
//!   computed a cycle ahead: a TXN accepted now is tagged with the open slot,
//!   which next cycle is open or the youngest closed slot, whose BARRIER has
//!   not been sent, so its counter decides no release then).
//! - `ack_err` (out): `ack_valid` for a tag with nothing to acknowledge.

use rust_hdl::prelude::*;

/// The ports of [`CommitCounters`], grouped so that [`CounterBank`] can drive
/// them whatever the counter width.
///
/// [`CounterBank`]: crate::counter_bank::CounterBank
#[derive(LogicInterface, Default)]
pub struct CounterIo<const K: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub open_tag: Signal<In, Bits<TB>>,
    pub accept_txn: Signal<In, Bit>,
    pub ack_valid: Signal<In, Bit>,
    pub ack_tag: Signal<In, Bits<TB>>,
    pub out_txn: Signal<In, Bit>,
    pub out_tag: Signal<In, Bits<TB>>,
    pub cnt_full: Signal<Out, Bit>,
    pub next_clean: Signal<Out, Bit>,
    pub zero_next: Signal<Out, Bits<K>>,
    pub ack_err: Signal<Out, Bit>,
}

impl<const K: usize, const TB: usize> CounterIo<K, TB> {
    /// Copy these inputs to `inner`'s (which this side drives).
    pub fn drive(&self, inner: &mut Self) {
        inner.clock.next = self.clock.val();
        inner.reset.next = self.reset.val();
        inner.open_tag.next = self.open_tag.val();
        inner.accept_txn.next = self.accept_txn.val();
        inner.ack_valid.next = self.ack_valid.val();
        inner.ack_tag.next = self.ack_tag.val();
        inner.out_txn.next = self.out_txn.val();
        inner.out_tag.next = self.out_tag.val();
    }

    /// Copy `inner`'s outputs to these.
    pub fn collect(&mut self, inner: &Self) {
        self.cnt_full.next = inner.cnt_full.val();
        self.next_clean.next = inner.next_clean.val();
        self.zero_next.next = inner.zero_next.val();
        self.ack_err.next = inner.ack_err.val();
    }

    /// Mark the inputs as driven (by whoever calls [`CounterIo::drive`]).
    pub fn claim_inputs(&mut self) {
        self.clock.connect();
        self.reset.connect();
        self.open_tag.connect();
        self.accept_txn.connect();
        self.ack_valid.connect();
        self.ack_tag.connect();
        self.out_txn.connect();
        self.out_tag.connect();
    }
}

/// Per-slot outstanding-transaction counters (K slots, TB = log2 K, C bits).
#[derive(LogicBlock)]
pub struct CommitCounters<const K: usize, const TB: usize, const C: usize> {
    pub io: CounterIo<K, TB>,
    /// Per slot: TXNs sent with this tag and not acknowledged (model `cnt`).
    cnt: [DFF<Bits<C>>; K],
    /// Per-counter flags, bit k for `cnt[k]`, kept in step with the counters
    /// (updated from the increment/decrement decision, not from the counter's
    /// next value), so that the zero, ack and full checks compare no counter
    /// bits: `nz` = nonzero, `one` = exactly 1, `full` = all ones.
    nz: DFF<Bits<K>>,
    one: DFF<Bits<K>>,
    full: DFF<Bits<K>>,
    /// `am1` = all ones but one (`cnt == max - 1`), for the logical full test.
    am1: DFF<Bits<K>>,
    /// One-hot: the TXN accepted last cycle, not yet in its counter.
    pend: DFF<Bits<K>>,
    /// Flags of the logical counter (`cnt + pend`).
    lnz: Signal<Local, Bits<K>>,
    lone: Signal<Local, Bits<K>>,
    lfull: Signal<Local, Bits<K>>,
    nz_n: Signal<Local, Bits<K>>,
    one_n: Signal<Local, Bits<K>>,
    full_n: Signal<Local, Bits<K>>,
    am1_n: Signal<Local, Bits<K>>,
    ack_nz: Signal<Local, Bit>,
    ack_one: Signal<Local, Bit>,
    next_tag: Signal<Local, Bits<TB>>,
    ack_in_out: Signal<Local, Bit>,
    ack_ok: Signal<Local, Bit>,
    out_bit: Signal<Local, Bits<K>>,
    ack_okv: Signal<Local, Bits<K>>,
    one_cnt: Constant<Bits<C>>,
    two_cnt: Constant<Bits<C>>,
    max_m1: Constant<Bits<C>>,
    max_m2: Constant<Bits<C>>,
    one_tag: Constant<Bits<TB>>,
    slot_bit: [Constant<Bits<K>>; K],
}

impl<const K: usize, const TB: usize, const C: usize> Default for CommitCounters<K, TB, C> {
    fn default() -> Self {
        Self {
            io: Default::default(),
            cnt: std::array::from_fn(|_| Default::default()),
            nz: Default::default(),
            one: Default::default(),
            full: Default::default(),
            am1: Default::default(),
            pend: Default::default(),
            lnz: Default::default(),
            lone: Default::default(),
            lfull: Default::default(),
            nz_n: Default::default(),
            one_n: Default::default(),
            full_n: Default::default(),
            am1_n: Default::default(),
            ack_nz: Default::default(),
            ack_one: Default::default(),
            next_tag: Default::default(),
            ack_in_out: Default::default(),
            ack_ok: Default::default(),
            out_bit: Default::default(),
            ack_okv: Default::default(),
            one_cnt: Constant::new(1u64.into()),
            two_cnt: Constant::new(2u64.into()),
            max_m1: Constant::new(((1u64 << C) - 2).into()),
            max_m2: Constant::new(((1u64 << C) - 3).into()),
            one_tag: Constant::new(1u64.into()),
            slot_bit: std::array::from_fn(|k| Constant::new((1u64 << k).into())),
        }
    }
}

impl<const K: usize, const TB: usize, const C: usize> Logic for CommitCounters<K, TB, C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.nz.clock.next = self.io.clock.val();
        self.one.clock.next = self.io.clock.val();
        self.full.clock.next = self.io.clock.val();
        self.am1.clock.next = self.io.clock.val();
        self.pend.clock.next = self.io.clock.val();
        for k in 0..K {
            self.cnt[k].clock.next = self.io.clock.val();
            self.cnt[k].d.next = self.cnt[k].q.val();
        }

        // Read ports, all from the registered flags: the open slot's counter
        // is full, the acknowledged slot's counter is nonzero / one, and
        // which counters are zero.
        // The logical counter is `cnt + pend` (pend is 0 or 1).
        self.lnz.next = self.nz.q.val() | self.pend.q.val();
        self.lone.next =
            (self.one.q.val() & !self.pend.q.val()) | (!self.nz.q.val() & self.pend.q.val());
        self.lfull.next = self.full.q.val() | (self.am1.q.val() & self.pend.q.val());
        self.next_tag.next = self.io.open_tag.val() + self.one_tag.val();
        self.io.cnt_full.next = self.lfull.val().get_bit(self.io.open_tag.val().index());
        self.ack_nz.next = self.lnz.val().get_bit(self.io.ack_tag.val().index());
        self.ack_one.next = self.lone.val().get_bit(self.io.ack_tag.val().index());
        self.io.next_clean.next = !self.lnz.val().get_bit(self.next_tag.val().index());

        // An ack is valid when a transferred TXN of its tag is unacknowledged.
        self.ack_in_out.next =
            self.io.out_txn.val() & (self.io.out_tag.val() == self.io.ack_tag.val());
        self.ack_ok.next = self.io.ack_valid.val()
            & self.ack_nz.val()
            & !(self.ack_in_out.val() & self.ack_one.val());
        self.io.ack_err.next = self.io.ack_valid.val() & !self.ack_ok.val();
        // The same check per slot (`ack_okv[k]`: an ack of tag k would be
        // valid), from flops only, so that counter k's update needs no
        // multiplexer on `ack_tag`: it is `ack_valid & ack_tag == k & ack_okv[k]`.
        self.out_bit.next = 0.into();
        for k in 0..K {
            if self.io.out_txn.val() & (self.io.out_tag.val().index() == k) {
                self.out_bit.next = self.slot_bit[k].val();
            }
        }
        self.ack_okv.next = self.lnz.val() & !(self.out_bit.val() & self.lone.val());

        // Next state of the physical counter: -1 for a valid ack, +1 for last
        // cycle's accepted TXN (`pend`; both: unchanged); the flags follow the
        // same decision. This cycle's accepted TXN goes to `pend`.
        self.pend.d.next = 0.into();
        for k in 0..K {
            if self.io.accept_txn.val() & (self.io.open_tag.val().index() == k) {
                self.pend.d.next = self.slot_bit[k].val();
            }
        }
        self.nz_n.next = self.nz.q.val();
        self.one_n.next = self.one.q.val();
        self.full_n.next = self.full.q.val();
        self.am1_n.next = self.am1.q.val();
        for k in 0..K {
            if self.io.ack_valid.val()
                & (self.io.ack_tag.val().index() == k)
                & self.ack_okv.val().get_bit(k)
            {
                if !self.pend.q.val().get_bit(k) {
                    self.cnt[k].d.next = self.cnt[k].q.val() - self.one_cnt.val();
                    self.full_n.next = self.full_n.val() & !self.slot_bit[k].val();
                    self.am1_n.next = self.am1_n.val() & !self.slot_bit[k].val();
                    if self.full.q.val().get_bit(k) {
                        self.am1_n.next = self.am1_n.val() | self.slot_bit[k].val();
                    }
                    if self.one.q.val().get_bit(k) {
                        self.nz_n.next = self.nz_n.val() & !self.slot_bit[k].val();
                    }
                    self.one_n.next = self.one_n.val() & !self.slot_bit[k].val();
                    if self.cnt[k].q.val() == self.two_cnt.val() {
                        self.one_n.next = self.one_n.val() | self.slot_bit[k].val();
                    }
                }
            } else if self.pend.q.val().get_bit(k) {
                self.cnt[k].d.next = self.cnt[k].q.val() + self.one_cnt.val();
                self.am1_n.next = self.am1_n.val() & !self.slot_bit[k].val();
                if self.cnt[k].q.val() == self.max_m2.val() {
                    self.am1_n.next = self.am1_n.val() | self.slot_bit[k].val();
                }
                self.nz_n.next = self.nz_n.val() | self.slot_bit[k].val();
                self.one_n.next = self.one_n.val() & !self.slot_bit[k].val();
                if !self.nz.q.val().get_bit(k) {
                    self.one_n.next = self.one_n.val() | self.slot_bit[k].val();
                }
                if self.cnt[k].q.val() == self.max_m1.val() {
                    self.full_n.next = self.full_n.val() | self.slot_bit[k].val();
                }
            }
        }
        self.nz.d.next = self.nz_n.val();
        self.io.zero_next.next = !self.nz_n.val();
        self.one.d.next = self.one_n.val();
        self.full.d.next = self.full_n.val();
        self.am1.d.next = self.am1_n.val();
        if self.io.reset.val() {
            for k in 0..K {
                self.cnt[k].d.next = 0.into();
            }
            self.nz.d.next = 0.into();
            self.one.d.next = 0.into();
            self.full.d.next = 0.into();
            self.am1.d.next = 0.into();
            self.pend.d.next = 0.into();
        }
    }
}
