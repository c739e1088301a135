//! First-from-head: a circular priority encoder over a warp's ring of G
//! committed-group slots (combinational, no state).
//!
//! The async-group tracker keeps each warp's committed groups in a ring
//! (`head` = oldest); the golden kernel
//! `mbarrier_unit_model::async_groups::eval` walks them oldest first ("the
//! first group with reads left", "the leading groups with nothing left
//! retire"). The warp block (`ag_warp.rs`) keeps one flag per slot for each
//! property, 0 outside the window `[head, head + n)`, so "the oldest
//! committed slot with a property" is the first set bit of `bits` in
//! circular order starting at `head`. This block finds it: the first set
//! bit at or above `head` if there is one, else the first set bit from
//! slot 0.
//!
//! Ports (G slots, HB = log2 G index bits):
//! - `bits` (in, G): bit s — slot s has the property.
//! - `head` (in, HB): the oldest slot.
//! - `any` (out): some bit of `bits` is set.
//! - `onehot` (out, G): the slot found (0 when `any` is low).
//! - `idx` (out, HB): its index (0 when `any` is low).
//! - `age` (out, HB): its age, `(idx - head) mod G` (groups older than it).

use rust_hdl::prelude::*;

/// Circular priority encoder over G slots starting at `head`.
#[derive(LogicBlock)]
pub struct FirstFromHead<const G: usize, const HB: usize> {
    pub bits: Signal<In, Bits<G>>,
    pub head: Signal<In, Bits<HB>>,
    pub any: Signal<Out, Bit>,
    pub onehot: Signal<Out, Bits<G>>,
    pub idx: Signal<Out, Bits<HB>>,
    pub age: Signal<Out, Bits<HB>>,
    above: Signal<Local, Bit>,
    hi_found: Signal<Local, Bit>,
    lo_found: Signal<Local, Bit>,
    hi_hot: Signal<Local, Bits<G>>,
    lo_hot: Signal<Local, Bits<G>>,
    hi_idx: Signal<Local, Bits<HB>>,
    lo_idx: Signal<Local, Bits<HB>>,
    diff: Signal<Local, Bits<HB>>,
    gmask: Constant<Bits<HB>>,
    slot_idx: [Constant<Bits<HB>>; G],
}

impl<const G: usize, const HB: usize> Default for FirstFromHead<G, HB> {
    fn default() -> Self {
        // G = 1 is not supported: rust-hdl emits a 1-bit `Bits<1>` without a
        // range, so the `get_bit(0)` of a 1-slot ring is invalid Verilog.
        assert!(G.is_power_of_two() && G >= 2 && G == 1 << HB);
        Self {
            bits: Default::default(),
            head: Default::default(),
            any: Default::default(),
            onehot: Default::default(),
            idx: Default::default(),
            age: Default::default(),
            above: Default::default(),
            hi_found: Default::default(),
            lo_found: Default::default(),
            hi_hot: Default::default(),
            lo_hot: Default::default(),
            hi_idx: Default::default(),
            lo_idx: Default::default(),
            diff: Default::default(),
            gmask: Constant::new(((G - 1) as u64).into()),
            slot_idx: std::array::from_fn(|s| Constant::new((s as u64).into())),
        }
    }
}

impl<const G: usize, const HB: usize> Logic for FirstFromHead<G, HB> {
    #[hdl_gen]
    fn update(&mut self) {
        self.above.next = false;
        self.hi_found.next = false;
        self.lo_found.next = false;
        self.hi_hot.next = 0.into();
        self.lo_hot.next = 0.into();
        self.hi_idx.next = 0.into();
        self.lo_idx.next = 0.into();
        for s in 0..G {
            // Slots are visited in ascending order: from `head` on, every slot is at or above it.
            if self.slot_idx[s].val() == self.head.val() {
                self.above.next = true;
            }
            if self.bits.val().get_bit(s) {
                if self.above.val() & !self.hi_found.val() {
                    self.hi_found.next = true;
                    self.hi_hot.next = self.hi_hot.val().replace_bit(s, true);
                    self.hi_idx.next = self.slot_idx[s].val();
                }
                if !self.lo_found.val() {
                    self.lo_found.next = true;
                    self.lo_hot.next = self.lo_hot.val().replace_bit(s, true);
                    self.lo_idx.next = self.slot_idx[s].val();
                }
            }
        }
        self.any.next = self.lo_found.val();
        if self.hi_found.val() {
            self.onehot.next = self.hi_hot.val();
            self.idx.next = self.hi_idx.val();
        } else {
            self.onehot.next = self.lo_hot.val();
            self.idx.next = self.lo_idx.val();
        }
        self.diff.next = self.idx.val() - self.head.val();
        self.age.next = self.diff.val() & self.gmask.val();
    }
}
