//! Wake arbiter: grants up to F decided warps per cycle, round robin.
//!
//! Implements the golden kernel's "Wake arbiter" (`rr`, the F grants taken
//! in the order rr, rr+1, …, W−1, 0, …, rr−1, and `rr` := last grant + 1).
//! The pointer is kept as the mask of the positions at or after it
//! (`ge`, W flops: a thermometer, bits rr..W−1 set) rather than as an index,
//! so the loop from the pointer back to itself holds neither a decoder in
//! front (index → mask) nor an encoder behind (last grant → index): the
//! candidates at or after the pointer are `hi = cand & ge`, the others
//! `lo`, and the next mask is the positions after the last grant. The
//! empty mask (after a grant of warp W−1) orders the warps as the full
//! mask does (`hi` empty, `lo` = `cand` from warp 0): both are `rr` = 0.
//!
//! F = 1: the lowest set bit of `hi`, or of `lo` when `hi` is empty, as
//! `x & −x`, and the positions after it as `x ^ −x`, from the same adder;
//! `hi`'s emptiness selects between the two (so the emptiness test is not
//! in front of one shared adder). F > 1: the first F of `hi` then `lo` and
//! the positions after the last of them by prefix counts ([`RankPick`],
//! `rank_pick.rs`) instead of F chained stages. A constant (`multi`)
//! selects, so synthesis keeps one.
//!
//! Timing: the loop `ge` → `ge` was the unit's ECP5 critical path with an
//! index pointer (default 47 cells, 68.7 MHz; `w64_m8` 36 cells, 39.1 MHz).
//!
//! Ports (W warps, WB = log2 W, F = wake fan-out):
//! - `clock`, `reset`.
//! - `cand` (in, W): decided warps waiting for their wake (waiters).
//! - `grant` (out, W): the warps woken this cycle.
//!
//! [`RankPick`]: crate::rank_pick::RankPick

use rust_hdl::prelude::*;

use crate::rank_pick::RankPick;

/// Round-robin arbiter with F grants per cycle.
#[derive(LogicBlock)]
pub struct WakeArbiter<const W: usize, const WB: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cand: Signal<In, Bits<W>>,
    pub grant: Signal<Out, Bits<W>>,
    /// The round-robin pointer as a mask: the positions at or after it.
    ge: DFF<Bits<W>>,
    hi: Signal<Local, Bits<W>>,
    lo: Signal<Local, Bits<W>>,
    /// F = 1: `−hi`, `−lo` (one adder each).
    neg_hi: Signal<Local, Bits<W>>,
    neg_lo: Signal<Local, Bits<W>>,
    /// The grants, and the positions after the last of them.
    acc: Signal<Local, Bits<W>>,
    after: Signal<Local, Bits<W>>,
    /// F > 1: the grants by counting (`RankPick`) instead of F chained
    /// stages; a constant, so synthesis keeps one of the two.
    multi: Constant<Bit>,
    ranked: RankPick<W, F>,
    one_w: Constant<Bits<W>>,
    all_w: Constant<Bits<W>>,
}

impl<const W: usize, const WB: usize, const F: usize> Default for WakeArbiter<W, WB, F> {
    fn default() -> Self {
        assert!((1..=W).contains(&F) && (1 << WB) == W);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cand: Default::default(),
            grant: Default::default(),
            ge: Default::default(),
            hi: Default::default(),
            lo: Default::default(),
            neg_hi: Default::default(),
            neg_lo: Default::default(),
            acc: Default::default(),
            after: Default::default(),
            multi: Constant::new(F > 1),
            ranked: Default::default(),
            one_w: Constant::new(1u64.into()),
            all_w: Constant::new((u64::MAX >> (64 - W)).into()),
        }
    }
}

impl<const W: usize, const WB: usize, const F: usize> Logic for WakeArbiter<W, WB, F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ge);
        self.hi.next = self.cand.val() & self.ge.q.val();
        self.lo.next = self.cand.val() & !self.ge.q.val();
        self.ranked.hi.next = self.hi.val();
        self.ranked.lo.next = self.lo.val();
        // F = 1: the lowest set bit of `hi` (else of `lo`) and the
        // positions above it.
        self.neg_hi.next = !self.hi.val() + self.one_w.val();
        self.neg_lo.next = !self.lo.val() + self.one_w.val();
        if self.hi.val().any() {
            self.acc.next = self.hi.val() & self.neg_hi.val();
            self.after.next = self.hi.val() ^ self.neg_hi.val();
        } else {
            self.acc.next = self.lo.val() & self.neg_lo.val();
            self.after.next = self.lo.val() ^ self.neg_lo.val();
        }
        if self.multi.val() {
            self.acc.next = self.ranked.grant.val();
            self.after.next = self.ranked.after.val();
        }
        self.grant.next = self.acc.val();
        // A grant happens iff there is a candidate: the pointer moves past
        // the last grant (unchanged without one).
        if self.cand.val().any() {
            self.ge.d.next = self.after.val();
        }
        if self.reset.val() {
            self.ge.d.next = self.all_w.val();
        }
    }
}
