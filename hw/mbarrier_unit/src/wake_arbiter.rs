//! Wake arbiter: grants up to F decided warps per cycle, round robin.
//!
//! Implements the golden kernel's "Wake arbiter" (`rr`, the F grants taken
//! in the order rr, rr+1, …, W−1, 0, …, rr−1, and `rr` := last grant + 1).
//! Written without a W-long rotate: the candidates at or after `rr` (`hi`)
//! come before the others (`lo`). F = 1: one stage takes the lowest set bit
//! of `hi`, or of `lo` when `hi` is empty (`x & (~x + 1)`). F > 1: the first
//! F of `hi` then `lo` by prefix counts ([`RankPick`], `rank_pick.rs`)
//! instead of F chained stages (`w64_m8`, F = 4: 17.1 → 21.6 MHz iCE40,
//! 22.1 → 38.9 ECP5). A constant (`multi`) selects, so synthesis keeps one.
//!
//! Timing (ECP5's critical path of the unit until 2026-11-29: `rr` → `rr`,
//! 30 cells, 57.7 MHz): each stage isolates the lowest bit of `hi` and of
//! `lo` in parallel and `hi`'s emptiness selects between the two results
//! (so the emptiness test is not in front of one shared adder), and the
//! pointer's next value is an OR per bit of the last grant's one-hot
//! (`next_mask`), not a W-long chain of `if`s.
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
    rr: DFF<Bits<WB>>,
    ge: Signal<Local, Bits<W>>,
    hi: Signal<Local, Bits<W>>,
    lo: Signal<Local, Bits<W>>,
    pick: Signal<Local, Bits<W>>,
    /// The lowest set bit of `hi` and of `lo`, each stage.
    pick_hi: Signal<Local, Bits<W>>,
    pick_lo: Signal<Local, Bits<W>>,
    /// The warp after the last grant.
    rr_n: Signal<Local, Bits<WB>>,
    last: Signal<Local, Bits<W>>,
    acc: Signal<Local, Bits<W>>,
    /// F > 1: the grants by counting (`RankPick`) instead of F chained
    /// stages; a constant, so synthesis keeps one of the two.
    multi: Constant<Bit>,
    ranked: RankPick<W, F>,
    one_w: Constant<Bits<W>>,
    warp_idx: [Constant<Bits<WB>>; W],
    /// Bit b: the warps w whose successor (w + 1) mod W has bit b set.
    next_mask: [Constant<Bits<W>>; WB],
}

impl<const W: usize, const WB: usize, const F: usize> Default for WakeArbiter<W, WB, F> {
    fn default() -> Self {
        assert!((1..=W).contains(&F) && (1 << WB) == W);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cand: Default::default(),
            grant: Default::default(),
            rr: Default::default(),
            ge: Default::default(),
            hi: Default::default(),
            lo: Default::default(),
            pick: Default::default(),
            pick_hi: Default::default(),
            pick_lo: Default::default(),
            rr_n: Default::default(),
            last: Default::default(),
            acc: Default::default(),
            multi: Constant::new(F > 1),
            ranked: Default::default(),
            one_w: Constant::new(1u64.into()),
            warp_idx: std::array::from_fn(|w| Constant::new((w as u64).into())),
            next_mask: std::array::from_fn(|b| {
                let mut m: Bits<W> = 0.into();
                for w in 0..W {
                    if ((w + 1) % W) >> b & 1 == 1 {
                        m = m.replace_bit(w, true);
                    }
                }
                Constant::new(m)
            }),
        }
    }
}

impl<const W: usize, const WB: usize, const F: usize> Logic for WakeArbiter<W, WB, F> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, rr);
        self.ge.next = 0.into();
        for w in 0..W {
            if self.warp_idx[w].val() >= self.rr.q.val() {
                self.ge.next = self.ge.val().replace_bit(w, true);
            }
        }
        self.hi.next = self.cand.val() & self.ge.val();
        self.lo.next = self.cand.val() & !self.ge.val();
        self.ranked.hi.next = self.hi.val();
        self.ranked.lo.next = self.lo.val();
        self.acc.next = 0.into();
        self.last.next = 0.into();
        // F = 1: one stage (the lowest bit of `hi`, else of `lo`).
        for _f in 0..1 {
            self.pick_hi.next = self.hi.val() & (!self.hi.val() + self.one_w.val());
            self.pick_lo.next = self.lo.val() & (!self.lo.val() + self.one_w.val());
            if self.hi.val().any() {
                self.pick.next = self.pick_hi.val();
            } else {
                self.pick.next = self.pick_lo.val();
            }
            self.acc.next = self.acc.val() | self.pick.val();
            self.hi.next = self.hi.val() & !self.pick.val();
            self.lo.next = self.lo.val() & !self.pick.val();
            if self.pick.val().any() {
                self.last.next = self.pick.val();
            }
        }
        if self.multi.val() {
            self.acc.next = self.ranked.grant.val();
            self.last.next = self.ranked.last.val();
        }
        self.grant.next = self.acc.val();
        // The warp after the last grant (unchanged without a grant).
        self.rr_n.next = 0.into();
        for b in 0..WB {
            self.rr_n.next = self
                .rr_n
                .val()
                .replace_bit(b, (self.last.val() & self.next_mask[b].val()).any());
        }
        // A grant happens iff there is a candidate (the first stage takes
        // one of `hi` or `lo`, whose union is `cand`): the pointer's enable
        // needs no grant stage.
        if self.cand.val().any() {
            self.rr.d.next = self.rr_n.val();
        }
        if self.reset.val() {
            self.rr.d.next = 0.into();
        }
    }
}
