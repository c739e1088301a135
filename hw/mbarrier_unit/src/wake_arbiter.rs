//! Wake arbiter: grants up to F decided warps per cycle, round robin.
//!
//! Implements the golden kernel's "Wake arbiter" (`rr`, the F grants taken
//! in the order rr, rr+1, …, W−1, 0, …, rr−1, and `rr` := last grant + 1).
//! Written without a W-long rotate: the candidates at or after `rr` (`hi`)
//! come before the others (`lo`); each of the F grant stages takes the lowest
//! set bit of `hi`, or of `lo` once `hi` is empty (`x & (~x + 1)`).
//!
//! Ports (W warps, WB = log2 W, F = wake fan-out):
//! - `clock`, `reset`.
//! - `cand` (in, W): decided warps waiting for their wake (waiters).
//! - `grant` (out, W): the warps woken this cycle.

use rust_hdl::prelude::*;

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
    last: Signal<Local, Bits<W>>,
    acc: Signal<Local, Bits<W>>,
    one_w: Constant<Bits<W>>,
    warp_idx: [Constant<Bits<WB>>; W],
    next_idx: [Constant<Bits<WB>>; W],
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
            last: Default::default(),
            acc: Default::default(),
            one_w: Constant::new(1u64.into()),
            warp_idx: std::array::from_fn(|w| Constant::new((w as u64).into())),
            next_idx: std::array::from_fn(|w| Constant::new((((w + 1) % W) as u64).into())),
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
        self.acc.next = 0.into();
        self.last.next = 0.into();
        for _f in 0..F {
            if self.hi.val().any() {
                self.pick.next = self.hi.val() & (!self.hi.val() + self.one_w.val());
            } else {
                self.pick.next = self.lo.val() & (!self.lo.val() + self.one_w.val());
            }
            self.acc.next = self.acc.val() | self.pick.val();
            self.hi.next = self.hi.val() & !self.pick.val();
            self.lo.next = self.lo.val() & !self.pick.val();
            if self.pick.val().any() {
                self.last.next = self.pick.val();
            }
        }
        self.grant.next = self.acc.val();
        for w in 0..W {
            if self.last.val().get_bit(w) {
                self.rr.d.next = self.next_idx[w].val();
            }
        }
        if self.reset.val() {
            self.rr.d.next = 0.into();
        }
    }
}
