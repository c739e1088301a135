//! Entry step: one request's read-modify-write of one barrier entry, purely
//! combinational; the unit steps one request a cycle (a complete-tx, a
//! remote arrive or an operation), on the read register of its entry.
//!
//! Implements the golden kernel's (`mbarrier_unit_model::mbarrier_unit::eval`)
//! entry update of the step: the checks (uninit, bad count,
//! tx range (of the result, checked against bounds from the operand, or
//! the operand itself above the range),
//! underflow, in that priority), the counter arithmetic
//! (`pending -= count`, `expected -= count` for a drop, `tx += / -= amt`) and
//! `complete_if_due` (pending = 0 and tx = 0 on a valid entry: flip the
//! parity, reload pending from expected). `init`/`inval` of the op port are
//! applied here too (their checks are the op port's).
//!
//! Ports (CB = count_bits + 1, TB = tx_bits + 1, XB = TB + 2):
//! - `act` (in): this port applies to the entry this cycle (already checked
//!   for reserved op / suspended warp / waiters by the op port).
//! - `act_mod` (in): `act` of a modifying op (not `init`/`inval`), formed
//!   without the waiters check (which refuses `init`/`inval` only): the
//!   step's checks and its completion read this one, so the waiters' OR
//!   reaches only the write enable.
//! - `init`, `inval` (in): with `act`: write a fresh entry (`pending =
//!   expected = count`) / an invalid one; no checks here.
//! - `arrive`, `drop` (in): arrive `count` times; also lower `expected`.
//! - `tx_up`, `tx_dn` (in): add / subtract `amt` to / from tx-count.
//! - `count` (in, CB), `amt` (in, TB): the operands.
//! - `k_hi`, `k_lo`, `k_neg` (in, XB): the byte operand's terms, computed
//!   and registered with the request (`RequestReg`): the order keys of
//!   `max − amt` and `amt − max`, and `−amt`.
//! - `e_valid`, `e_parity`, `e_pending`, `e_expected`, `e_tx` (in): the entry
//!   before this step (`e_tx` two's complement, TB bits).
//! - `e_tx_ram`, `e_tx_byp`, `e_tx_fwd` (in): `e_tx`'s two sources (the RAM's
//!   word, the forwarded last write) and the select between them: the
//!   tx-count's range check and zero test (the refusal's and the
//!   completion's widest compares) are made on each source and then
//!   selected, so the forwarding multiplexer is behind them, not in front
//!   of them; `e_tx` itself feeds only the write-back's adder. (The same
//!   split of the pending and expected compares cost 160 iCE40 logic cells
//!   and lowered the medians: iCE40 61.5 → 61.1 MHz, ECP5 89.3 → 86.9.)
//! - `n_valid`, `n_parity` (out): the entry's flags after the step (= before
//!   when not `act` or refused).
//! - `n_pending`, `n_expected`, `n_tx` (out): the counters after the step
//!   *if it applies*; meaningful only with `write`.
//! - `write` (out): the step applies (`act`, and `init`/`inval` or no check
//!   fails): the counters are written. A refused or idle step writes
//!   nothing, so the refusal (the compares behind the word read, and the op
//!   port's pre-checks behind `act`) drives the counter RAMs' write enables
//!   and not their ~60 data bits.
//! - `cause` (out, 4): the `err_cause` of a refused step, 0 otherwise.
//! - `refused` (out): `cause` ≠ 0, formed beside it (the late compares one
//!   OR from it).
//! - `complete` (out): this step completed the phase of parity `e_parity`.

use mbarrier_unit_model::ports::mbarrier::cause;
use rust_hdl::prelude::*;

/// One read-modify-write of an entry (CB count bits, TB tx bits, XB = TB + 2).
#[derive(LogicBlock)]
pub struct EntryStep<const CB: usize, const TB: usize, const XB: usize> {
    pub act: Signal<In, Bit>,
    pub act_mod: Signal<In, Bit>,
    pub init: Signal<In, Bit>,
    pub inval: Signal<In, Bit>,
    pub arrive: Signal<In, Bit>,
    pub drop: Signal<In, Bit>,
    pub tx_up: Signal<In, Bit>,
    pub tx_dn: Signal<In, Bit>,
    pub count: Signal<In, Bits<CB>>,
    pub amt: Signal<In, Bits<TB>>,
    pub k_hi: Signal<In, Bits<XB>>,
    pub k_lo: Signal<In, Bits<XB>>,
    pub k_neg: Signal<In, Bits<XB>>,
    pub e_valid: Signal<In, Bit>,
    pub e_parity: Signal<In, Bit>,
    pub e_pending: Signal<In, Bits<CB>>,
    pub e_expected: Signal<In, Bits<CB>>,
    pub e_tx: Signal<In, Bits<TB>>,
    pub e_tx_ram: Signal<In, Bits<TB>>,
    pub e_tx_byp: Signal<In, Bits<TB>>,
    pub e_tx_fwd: Signal<In, Bit>,
    pub n_valid: Signal<Out, Bit>,
    pub n_parity: Signal<Out, Bit>,
    pub n_pending: Signal<Out, Bits<CB>>,
    pub n_expected: Signal<Out, Bits<CB>>,
    pub n_tx: Signal<Out, Bits<TB>>,
    pub write: Signal<Out, Bit>,
    pub cause: Signal<Out, Bits<4>>,
    pub refused: Signal<Out, Bit>,
    pub complete: Signal<Out, Bit>,
    tx_ext: Signal<Local, Bits<XB>>,
    amt_ext: Signal<Local, Bits<XB>>,
    tx_new: Signal<Local, Bits<XB>>,
    /// The tx-count's two sources sign-extended, their order keys, and
    /// the range check and zero test on each.
    ext_ram: Signal<Local, Bits<XB>>,
    ext_byp: Signal<Local, Bits<XB>>,
    key_ram: Signal<Local, Bits<XB>>,
    key_byp: Signal<Local, Bits<XB>>,
    bad_ram: Signal<Local, Bit>,
    bad_byp: Signal<Local, Bit>,
    zero_ram: Signal<Local, Bit>,
    zero_byp: Signal<Local, Bit>,
    pend_new: Signal<Local, Bits<CB>>,
    exp_new: Signal<Local, Bits<CB>>,
    count_bad: Signal<Local, Bit>,
    underflow: Signal<Local, Bit>,
    tx_bad: Signal<Local, Bit>,
    amt_bad: Signal<Local, Bit>,
    pend_zero: Signal<Local, Bit>,
    tx_zero: Signal<Local, Bit>,
    /// A modifying step (not init/inval) of this port.
    gate: Signal<Local, Bit>,
    /// The step's early checks fail (invalid entry, bad count).
    early_bad: Signal<Local, Bit>,
    /// The late checks (the compares on the word read) decide: the tx range
    /// / the underflow is the step's refusal.
    sel_tx: Signal<Local, Bit>,
    sel_uf: Signal<Local, Bit>,
    /// The phase completes if the step applies (`complete` without `act`
    /// and the entry's validity, which applying implies).
    due: Signal<Local, Bit>,
    top_count: Constant<Bits<CB>>,
    zero_count: Constant<Bits<CB>>,
    zero_tx: Constant<Bits<TB>>,
    sign_tb: Constant<Bits<TB>>,
    sign_ext: Constant<Bits<XB>>,
    sign_xb: Constant<Bits<XB>>,
    c_uninit: Constant<Bits<4>>,
    c_bad_count: Constant<Bits<4>>,
    c_underflow: Constant<Bits<4>>,
    c_tx_range: Constant<Bits<4>>,
}

impl<const CB: usize, const TB: usize, const XB: usize> Default for EntryStep<CB, TB, XB> {
    fn default() -> Self {
        assert!(XB == TB + 2 && CB >= 2 && TB >= 2 && XB <= 64);
        let xmask = if XB == 64 { u64::MAX } else { (1u64 << XB) - 1 };
        Self {
            act: Default::default(),
            act_mod: Default::default(),
            init: Default::default(),
            inval: Default::default(),
            arrive: Default::default(),
            drop: Default::default(),
            tx_up: Default::default(),
            tx_dn: Default::default(),
            count: Default::default(),
            amt: Default::default(),
            k_hi: Default::default(),
            k_lo: Default::default(),
            k_neg: Default::default(),
            e_valid: Default::default(),
            e_parity: Default::default(),
            e_pending: Default::default(),
            e_expected: Default::default(),
            e_tx: Default::default(),
            e_tx_ram: Default::default(),
            e_tx_byp: Default::default(),
            e_tx_fwd: Default::default(),
            n_valid: Default::default(),
            n_parity: Default::default(),
            n_pending: Default::default(),
            n_expected: Default::default(),
            n_tx: Default::default(),
            write: Default::default(),
            cause: Default::default(),
            refused: Default::default(),
            complete: Default::default(),
            tx_ext: Default::default(),
            amt_ext: Default::default(),
            tx_new: Default::default(),
            ext_ram: Default::default(),
            ext_byp: Default::default(),
            key_ram: Default::default(),
            key_byp: Default::default(),
            bad_ram: Default::default(),
            bad_byp: Default::default(),
            zero_ram: Default::default(),
            zero_byp: Default::default(),
            pend_new: Default::default(),
            exp_new: Default::default(),
            count_bad: Default::default(),
            underflow: Default::default(),
            tx_bad: Default::default(),
            amt_bad: Default::default(),
            pend_zero: Default::default(),
            tx_zero: Default::default(),
            due: Default::default(),
            gate: Default::default(),
            early_bad: Default::default(),
            sel_tx: Default::default(),
            sel_uf: Default::default(),
            top_count: Constant::new((1u64 << (CB - 1)).into()),
            zero_count: Constant::new(0u64.into()),
            zero_tx: Constant::new(0u64.into()),
            sign_tb: Constant::new((1u64 << (TB - 1)).into()),
            sign_ext: Constant::new((xmask & !((1u64 << TB) - 1)).into()),
            sign_xb: Constant::new((1u64 << (XB - 1)).into()),
            c_uninit: Constant::new(u64::from(cause::UNINIT).into()),
            c_bad_count: Constant::new(u64::from(cause::BAD_COUNT).into()),
            c_underflow: Constant::new(u64::from(cause::UNDERFLOW).into()),
            c_tx_range: Constant::new(u64::from(cause::TX_RANGE).into()),
        }
    }
}

impl<const CB: usize, const TB: usize, const XB: usize> Logic for EntryStep<CB, TB, XB> {
    #[hdl_gen]
    fn update(&mut self) {
        // Signed tx-count arithmetic at XB bits (no wrap, then range-checked).
        self.tx_ext.next = bit_cast::<XB, TB>(self.e_tx.val());
        if (self.e_tx.val() & self.sign_tb.val()).any() {
            self.tx_ext.next = bit_cast::<XB, TB>(self.e_tx.val()) | self.sign_ext.val();
        }
        self.amt_ext.next = bit_cast::<XB, TB>(self.amt.val());
        self.tx_new.next = self.tx_ext.val();
        if self.tx_up.val() {
            self.tx_new.next = self.tx_ext.val() + self.amt_ext.val();
        }
        if self.tx_dn.val() {
            self.tx_new.next = self.tx_ext.val() - self.amt_ext.val();
        }
        self.amt_bad.next = (self.amt.val() & self.sign_tb.val()).any();
        // The range check of the result, without the result: tx + amt >
        // max iff tx > max - amt, and tx - amt < -max iff tx < amt - max.
        // The bounds come from the operand, computed when the request was
        // granted and registered with it (`k_hi`, `k_lo`), so the check is
        // one compare of the entry's tx-count, beside the adder instead of
        // behind it (the adder's result only feeds the write-back).
        // Signed compares as unsigned ones with the sign bits flipped
        // (`key_*`); exact for every TB-bit tx-count and operand. Made on
        // each source of the tx-count, then selected.
        self.ext_ram.next = bit_cast::<XB, TB>(self.e_tx_ram.val());
        if (self.e_tx_ram.val() & self.sign_tb.val()).any() {
            self.ext_ram.next = bit_cast::<XB, TB>(self.e_tx_ram.val()) | self.sign_ext.val();
        }
        self.ext_byp.next = bit_cast::<XB, TB>(self.e_tx_byp.val());
        if (self.e_tx_byp.val() & self.sign_tb.val()).any() {
            self.ext_byp.next = bit_cast::<XB, TB>(self.e_tx_byp.val()) | self.sign_ext.val();
        }
        self.key_ram.next = self.ext_ram.val() ^ self.sign_xb.val();
        self.key_byp.next = self.ext_byp.val() ^ self.sign_xb.val();
        self.bad_ram.next = (self.tx_up.val() & (self.key_ram.val() > self.k_hi.val()))
            | (self.tx_dn.val() & (self.key_ram.val() < self.k_lo.val()));
        self.bad_byp.next = (self.tx_up.val() & (self.key_byp.val() > self.k_hi.val()))
            | (self.tx_dn.val() & (self.key_byp.val() < self.k_lo.val()));
        // The operand itself above 2^tx_bits - 1 is refused too, whatever the
        // tx-count (spec: TB has one bit more so that this is visible).
        self.tx_bad.next = self.bad_ram.val();
        if self.e_tx_fwd.val() {
            self.tx_bad.next = self.bad_byp.val();
        }
        if (self.tx_up.val() | self.tx_dn.val()) & self.amt_bad.val() {
            self.tx_bad.next = true;
        }
        self.count_bad.next = (self.count.val() == self.zero_count.val())
            | (self.count.val() & self.top_count.val()).any();
        self.underflow.next = (self.count.val() > self.e_pending.val())
            | (self.drop.val() & (self.count.val() >= self.e_expected.val()));
        self.pend_new.next = self.e_pending.val();
        if self.arrive.val() {
            self.pend_new.next = self.e_pending.val() - self.count.val();
        }
        self.exp_new.next = self.e_expected.val();
        if self.drop.val() {
            self.exp_new.next = self.e_expected.val() - self.count.val();
        }

        // Checks, in the golden kernel's priority (uninit, bad count, tx
        // range, underflow), written as exclusive selects with the late ones
        // (`tx_bad`, `underflow`: compares on the word read) last, so that
        // they sit one select from `cause` and one OR from `refused`.
        self.gate.next = self.act_mod.val();
        self.early_bad.next =
            self.gate.val() & (!self.e_valid.val() | (self.arrive.val() & self.count_bad.val()));
        self.sel_tx.next = self.gate.val() & !self.early_bad.val() & self.tx_bad.val();
        self.sel_uf.next = self.gate.val()
            & !self.early_bad.val()
            & !self.tx_bad.val()
            & self.arrive.val()
            & self.underflow.val();
        self.cause.next = 0.into();
        if self.gate.val() & !self.e_valid.val() {
            self.cause.next = self.c_uninit.val();
        }
        if self.gate.val() & self.e_valid.val() & self.arrive.val() & self.count_bad.val() {
            self.cause.next = self.c_bad_count.val();
        }
        if self.sel_tx.val() {
            self.cause.next = self.c_tx_range.val();
        }
        if self.sel_uf.val() {
            self.cause.next = self.c_underflow.val();
        }
        self.refused.next = self.early_bad.val() | self.sel_tx.val() | self.sel_uf.val();

        // Completion: the step applies (no check fails) and leaves pending = 0
        // and tx-count = 0. Decided by comparing the entry with the operands,
        // not from the differences, so that it waits for no carry chain:
        // pending - count = 0 iff pending = count, tx ± amt = 0 iff tx = ∓amt,
        // and with both results 0 the only checks that can fail are the
        // operands' own (bad count, byte operand above the range, a drop
        // that would leave expected = 0) and the entry's validity.
        self.pend_zero.next = self.e_pending.val() == self.zero_count.val();
        if self.arrive.val() {
            self.pend_zero.next = self.e_pending.val() == self.count.val();
        }
        self.zero_ram.next = self.e_tx_ram.val() == self.zero_tx.val();
        self.zero_byp.next = self.e_tx_byp.val() == self.zero_tx.val();
        if self.tx_up.val() {
            self.zero_ram.next = self.ext_ram.val() == self.k_neg.val();
            self.zero_byp.next = self.ext_byp.val() == self.k_neg.val();
        }
        if self.tx_dn.val() {
            self.zero_ram.next = self.ext_ram.val() == self.amt_ext.val();
            self.zero_byp.next = self.ext_byp.val() == self.amt_ext.val();
        }
        self.tx_zero.next = self.zero_ram.val();
        if self.e_tx_fwd.val() {
            self.tx_zero.next = self.zero_byp.val();
        }
        // A drop that would leave expected = 0 (`count ≥ expected`) is,
        // with `pending = count` (`pend_zero` of an arrive), `expected =
        // count`: a valid entry has pending ≤ expected (the formal harness's
        // INV_range), so count = pending ≤ expected. An equality, no carry
        // chain on the completion's path.
        self.due.next = !self.init.val()
            & !self.inval.val()
            & !(self.arrive.val() & self.count_bad.val())
            & !((self.tx_up.val() | self.tx_dn.val()) & self.amt_bad.val())
            & !(self.drop.val() & (self.count.val() == self.e_expected.val()))
            & self.pend_zero.val()
            & self.tx_zero.val();
        self.complete.next = self.act_mod.val() & self.e_valid.val() & self.due.val();

        // Whether the step applies: the counters are written only then.
        self.write.next = self.act.val() & !self.refused.val();
        // The counters if it applies: neither `act` nor a check selects
        // them (they only gate `write`).
        self.n_pending.next = self.pend_new.val();
        self.n_expected.next = self.exp_new.val();
        self.n_tx.next = bit_cast::<TB, XB>(self.tx_new.val());
        if self.due.val() {
            self.n_pending.next = self.exp_new.val();
        }
        if self.init.val() {
            self.n_pending.next = self.count.val();
            self.n_expected.next = self.count.val();
            self.n_tx.next = self.zero_tx.val();
        } else if self.inval.val() {
            self.n_pending.next = self.zero_count.val();
            self.n_expected.next = self.zero_count.val();
            self.n_tx.next = self.zero_tx.val();
        }

        // The flags (flip-flops): unchanged unless applied, then completion.
        self.n_valid.next = self.e_valid.val();
        self.n_parity.next = self.e_parity.val();
        if self.act.val() {
            if self.init.val() {
                self.n_valid.next = true;
                self.n_parity.next = false;
            } else if self.inval.val() {
                self.n_valid.next = false;
                self.n_parity.next = false;
            }
        }
        if self.complete.val() {
            self.n_parity.next = !self.e_parity.val();
        }
    }
}
