//! Slot table: per CTA slot `busy`, `size` (warps launched), `live` (warps
//! not yet exited), the `active` bits of its 16 barriers and `last_all`
//! (the id of the slot's last "all"-form arrival), in flops: the
//! state the unit must read or clear for many barriers at once (a launch
//! check, an exit's live count, a whole slot cleared by its last exit). The
//! rest of each barrier is in block RAM (`barrier_ram.rs`).
//!
//! Implements the golden kernel's `slot_busy`, `slot_size`, `slot_live` and
//! `Barrier::active` (`sim/bar_unit/src/bar_unit.rs`, `eval`): a launch sets
//! the slot's registers; an exit lowers `live`, and the last exit clears the
//! slot and its 16 `active` bits; an arrival opens or (completing) closes
//! its barrier; an exit's completion (stage C) closes its barrier.
//!
//! `last_all` replaces the model's search for the "all" barrier an exit
//! completes (`find` over the 16 barriers: `active && all && count >=
//! live`). If an exit completes "all" barrier *b*, every other live warp of
//! the CTA waits on *b*, and the CTA's most recent "all" arrival was at *b*:
//! were it at another barrier *b'* by warp *u*, either *u* still waits on
//! *b'* (so *b'* = *b*), or *b'* completed since, which needed every live
//! warp at *b'* (an "all" phase's arrivals all block, `bar.arrive` needs a
//! count) — so the warps now waiting on *b* arrived there after that
//! most recent arrival, a contradiction. Stage C then checks *b*'s
//! `active`, `all` and `count >= live` from the RAM, as the model does.
//!
//! Ports (C slots, SB slot bits, CB count bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `a_slot` (in, SB), `a_id` (in, 4): stage A's barrier; `a_active` (out);
//!   `a_count` (in, CB), `a_too_big` (out): stage A's count exceeds the
//!   slot's size (compared in every slot, then selected: the slot number
//!   comes late, through the warp table's look-up);
//!   `a_live_m1` (out, CB), `a_live_le1` (out): the slot's live count − 1 and
//!   whether it is ≤ 1 (the completion target of an "all" arrival), formed per
//!   slot before the selection.
//! - `l_slot` (in, SB): the LAUNCH slot; `l_in_range` (out: `l_slot` < C), `l_busy` (out).
//! - `x_slot` (in, SB), `x_live_dec` (in, CB), `x_empty` (in): stage B's
//!   EXIT: its slot, the slot's live count after it and whether that is 0
//!   (all from stage A's look-ups, registered).
//! - `n_slot` (in, SB): stage A's EXIT's slot before this edge; `n_launch`
//!   (in): stage B's LAUNCH takes that warp into `l_slot` (its slot after the
//!   edge; selected last, being late); `n_dec` (out, CB), `n_one` (out),
//!   `n_last` (out, 4): that slot's live count after this edge less one (the
//!   count after stage A's exit), whether that count is 1 (the exit empties
//!   the slot), and its `last_all` after this edge (stage B's launch, exit or
//!   "all" arrival forwarded); formed per slot and per forwarded value
//!   before the selection, so stage B neither decrements nor compares.
//! - `c_slot` (in, SB), `c_id` (in, 4): stage C's barrier; `c_active` (out).
//! - `launch_en` (in), `launch_size` (in, CB): a legal LAUNCH into `l_slot`.
//! - `exit_en` (in): a legal EXIT from `x_slot`.
//! - `w_slot` (in, SB), `w_id` (in, 4): stage B's arrival's barrier.
//! - `act_en` (in), `act_val` (in): an arrival at (`w_slot`, `w_id`): its
//!   `active` becomes `act_val`.
//! - `last_en` (in): that arrival is an "all" arrival (`act_en` and the "all"
//!   form, decided apart from `act_en` so that it needs no count compare):
//!   it sets `last_all`.
//! - `c_clr` (in): clear barrier (`c_slot`, `c_id`)'s `active`.

use rust_hdl::prelude::*;

/// Per-slot registers and barrier `active` bits of `bar_unit`.
#[derive(LogicBlock)]
pub struct SlotTable<const C: usize, const SB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub a_slot: Signal<In, Bits<SB>>,
    pub a_id: Signal<In, Bits<4>>,
    pub a_count: Signal<In, Bits<CB>>,
    pub a_too_big: Signal<Out, Bit>,
    pub a_live_m1: Signal<Out, Bits<CB>>,
    pub a_live_le1: Signal<Out, Bit>,
    pub a_active: Signal<Out, Bit>,
    pub l_slot: Signal<In, Bits<SB>>,
    pub l_in_range: Signal<Out, Bit>,
    pub l_busy: Signal<Out, Bit>,
    pub x_slot: Signal<In, Bits<SB>>,
    pub x_live_dec: Signal<In, Bits<CB>>,
    pub x_empty: Signal<In, Bit>,
    pub n_slot: Signal<In, Bits<SB>>,
    pub n_launch: Signal<In, Bit>,
    pub n_dec: Signal<Out, Bits<CB>>,
    pub n_one: Signal<Out, Bit>,
    pub n_last: Signal<Out, Bits<4>>,
    pub c_slot: Signal<In, Bits<SB>>,
    pub c_id: Signal<In, Bits<4>>,
    pub c_active: Signal<Out, Bit>,
    pub launch_en: Signal<In, Bit>,
    pub launch_size: Signal<In, Bits<CB>>,
    pub exit_en: Signal<In, Bit>,
    pub w_slot: Signal<In, Bits<SB>>,
    pub w_id: Signal<In, Bits<4>>,
    pub act_en: Signal<In, Bit>,
    pub act_val: Signal<In, Bit>,
    pub last_en: Signal<In, Bit>,
    pub c_clr: Signal<In, Bit>,
    busy: [DFF<Bit>; C],
    size: [DFF<Bits<CB>>; C],
    live: [DFF<Bits<CB>>; C],
    active: [DFF<Bits<16>>; C],
    last_all: [DFF<Bits<4>>; C],
    /// One-hot of `a_id`, `w_id` and `c_id`.
    a_bit: Signal<Local, Bits<16>>,
    w_bit: Signal<Local, Bits<16>>,
    c_bit: Signal<Local, Bits<16>>,
    /// The LAUNCH slot's `last_all` (stage A's exit look-up when the launch takes its warp).
    l_last: Signal<Local, Bits<4>>,
    id_bit: [Constant<Bits<16>>; 16],
    slot_const: [Constant<Bits<SB>>; C],
    one: Constant<Bits<CB>>,
}

impl<const C: usize, const SB: usize, const CB: usize> Default for SlotTable<C, SB, CB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            a_slot: Default::default(),
            a_id: Default::default(),
            a_count: Default::default(),
            a_too_big: Default::default(),
            a_live_m1: Default::default(),
            a_live_le1: Default::default(),
            a_active: Default::default(),
            l_slot: Default::default(),
            l_in_range: Default::default(),
            l_busy: Default::default(),
            x_slot: Default::default(),
            x_live_dec: Default::default(),
            x_empty: Default::default(),
            n_slot: Default::default(),
            n_launch: Default::default(),
            n_dec: Default::default(),
            n_one: Default::default(),
            n_last: Default::default(),
            c_slot: Default::default(),
            c_id: Default::default(),
            c_active: Default::default(),
            launch_en: Default::default(),
            launch_size: Default::default(),
            exit_en: Default::default(),
            w_slot: Default::default(),
            w_id: Default::default(),
            act_en: Default::default(),
            act_val: Default::default(),
            last_en: Default::default(),
            c_clr: Default::default(),
            busy: std::array::from_fn(|_| Default::default()),
            size: std::array::from_fn(|_| Default::default()),
            live: std::array::from_fn(|_| Default::default()),
            active: std::array::from_fn(|_| Default::default()),
            last_all: std::array::from_fn(|_| Default::default()),
            a_bit: Default::default(),
            w_bit: Default::default(),
            c_bit: Default::default(),
            l_last: Default::default(),
            id_bit: std::array::from_fn(|a| Constant::new((1u64 << a).into())),
            slot_const: std::array::from_fn(|c| Constant::new((c as u64).into())),
            one: Constant::new(1u64.into()),
        }
    }
}

impl<const C: usize, const SB: usize, const CB: usize> Logic for SlotTable<C, SB, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        for c in 0..C {
            self.busy[c].clock.next = self.clock.val();
            self.busy[c].d.next = self.busy[c].q.val();
            self.size[c].clock.next = self.clock.val();
            self.size[c].d.next = self.size[c].q.val();
            self.live[c].clock.next = self.clock.val();
            self.live[c].d.next = self.live[c].q.val();
            self.active[c].clock.next = self.clock.val();
            self.active[c].d.next = self.active[c].q.val();
            self.last_all[c].clock.next = self.clock.val();
            self.last_all[c].d.next = self.last_all[c].q.val();
        }
        self.a_bit.next = 0.into();
        self.w_bit.next = 0.into();
        self.c_bit.next = 0.into();
        for a in 0..16 {
            if self.a_id.val().index() == a {
                self.a_bit.next = self.id_bit[a].val();
            }
            if self.w_id.val().index() == a {
                self.w_bit.next = self.id_bit[a].val();
            }
            if self.c_id.val().index() == a {
                self.c_bit.next = self.id_bit[a].val();
            }
        }

        // Read ports.
        self.a_too_big.next = false;
        self.a_live_m1.next = 0.into();
        self.a_live_le1.next = false;
        self.a_active.next = false;
        self.n_dec.next = 0.into();
        self.n_one.next = false;
        self.n_last.next = 0.into();
        self.l_in_range.next = false;
        self.l_busy.next = false;
        self.l_last.next = 0.into();
        self.c_active.next = false;
        for c in 0..C {
            if self.a_slot.val() == self.slot_const[c].val() {
                self.a_too_big.next = self.a_count.val() > self.size[c].q.val();
                self.a_live_m1.next = self.live[c].q.val() - self.one.val();
                self.a_live_le1.next = self.live[c].q.val() <= self.one.val();
                self.a_active.next = (self.active[c].q.val() & self.a_bit.val()).any();
            }
            if self.l_slot.val() == self.slot_const[c].val() {
                self.l_in_range.next = true;
                self.l_busy.next = self.busy[c].q.val();
                self.l_last.next = self.last_all[c].q.val();
            }
            if self.n_slot.val() == self.slot_const[c].val() {
                self.n_dec.next = self.live[c].q.val() - self.one.val();
                self.n_one.next = self.live[c].q.val() == self.one.val();
                self.n_last.next = self.last_all[c].q.val();
            }
            if self.c_slot.val() == self.slot_const[c].val() {
                self.c_active.next = (self.active[c].q.val() & self.c_bit.val()).any();
            }
        }
        // Stage A's look-ups see this edge's writes.
        if self.launch_en.val() & (self.l_slot.val() == self.n_slot.val()) {
            self.n_dec.next = self.launch_size.val() - self.one.val();
            self.n_one.next = self.launch_size.val() == self.one.val();
        }
        if self.exit_en.val() & (self.x_slot.val() == self.n_slot.val()) {
            self.n_dec.next = self.x_live_dec.val() - self.one.val();
            self.n_one.next = self.x_live_dec.val() == self.one.val();
        }
        if self.last_en.val() & (self.w_slot.val() == self.n_slot.val()) {
            self.n_last.next = self.w_id.val();
        }
        // The exit's warp launched at this edge: its slot is the launch's
        // (B holds the launch, so no exit or arrival writes it this edge).
        if self.n_launch.val() {
            self.n_dec.next = self.launch_size.val() - self.one.val();
            self.n_one.next = self.launch_size.val() == self.one.val();
            self.n_last.next = self.l_last.val();
        }

        // Updates: stage C's completion, stage B's arrival, launch or exit.
        for c in 0..C {
            if self.c_clr.val() & (self.c_slot.val() == self.slot_const[c].val()) {
                self.active[c].d.next = self.active[c].q.val() & !self.c_bit.val();
            }
            if self.act_en.val() & (self.w_slot.val() == self.slot_const[c].val()) {
                if self.act_val.val() {
                    self.active[c].d.next = self.active[c].q.val() | self.w_bit.val();
                } else {
                    self.active[c].d.next = self.active[c].q.val() & !self.w_bit.val();
                }
            }
            if self.last_en.val() & (self.w_slot.val() == self.slot_const[c].val()) {
                self.last_all[c].d.next = self.w_id.val();
            }
            if self.launch_en.val() & (self.l_slot.val() == self.slot_const[c].val()) {
                self.busy[c].d.next = true;
                self.size[c].d.next = self.launch_size.val();
                self.live[c].d.next = self.launch_size.val();
            }
            if self.exit_en.val() & (self.x_slot.val() == self.slot_const[c].val()) {
                self.live[c].d.next = self.x_live_dec.val();
                if self.x_empty.val() {
                    self.busy[c].d.next = false;
                    self.size[c].d.next = 0.into();
                    self.active[c].d.next = 0.into();
                }
            }
            if self.reset.val() {
                self.busy[c].d.next = false;
                self.size[c].d.next = 0.into();
                self.live[c].d.next = 0.into();
                self.active[c].d.next = 0.into();
            }
        }
    }
}
