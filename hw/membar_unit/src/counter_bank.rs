//! Counter bank: [`CommitCounters`] of any counter width behind one type.
//!
//! Not a hardware block of its own: it is transparent in the Verilog (its
//! `accept` visits the counters directly, so the emitted module is exactly
//! `CommitCounters<K, TB, C>` with C-bit flops) and in simulation it only
//! copies its ports to and from the counters.
//!
//! Why: the counters are the only C-wide state and no port of theirs is C
//! wide. Holding them behind `dyn` lets [`MembarUnit`] be generic over
//! (W, K) alone, so the 156 (warps, slots, counter_bits) combinations SPEC.md
//! allows cost 12 instantiations of the unit and 39 of the counters instead
//! of 156 of the whole unit (a release build of this crate takes about 45 s
//! more than with one configuration, instead of 3–4 minutes more).
//!
//! Timing: `update_all` settles its own ports first, then drives the
//! counters' inputs and updates them in the same pass, so the counters see
//! their inputs (the clock included) in the same pass as a direct child
//! would: their flops take the clock edge in the same pass as every other
//! flop of the unit.
//!
//! [`MembarUnit`]: crate::membar_unit::MembarUnit

use rust_hdl::prelude::*;

use crate::commit_counters::{CommitCounters, CounterIo};

/// What [`CounterBank`] needs of a `CommitCounters<K, TB, C>`, for any C.
trait CounterCore<const K: usize, const TB: usize>: Block {
    fn io(&self) -> &CounterIo<K, TB>;
    fn io_mut(&mut self) -> &mut CounterIo<K, TB>;
}

impl<const K: usize, const TB: usize, const C: usize> CounterCore<K, TB>
    for CommitCounters<K, TB, C>
{
    fn io(&self) -> &CounterIo<K, TB> {
        &self.io
    }
    fn io_mut(&mut self) -> &mut CounterIo<K, TB> {
        &mut self.io
    }
}

/// The commit counters of a unit with K slots, whatever `counter_bits`.
pub struct CounterBank<const K: usize, const TB: usize> {
    /// The counters' ports, as seen by the parent.
    pub io: CounterIo<K, TB>,
    counters: Box<dyn CounterCore<K, TB>>,
}

impl<const K: usize, const TB: usize> CounterBank<K, TB> {
    /// Counters of `counter_bits` bits (4..=16).
    pub fn new(counter_bits: u32) -> Result<Self, String> {
        macro_rules! of_width {
            ($($c:literal)*) => {
                match counter_bits {
                    $($c => Box::new(CommitCounters::<K, TB, $c>::default()) as Box<dyn CounterCore<K, TB>>,)*
                    other => return Err(format!("`counter_bits` = {other}: allowed: {}", membar_unit_model::config::rules::COUNTER_BITS.allowed())),
                }
            };
        }
        let counters = of_width!(4 5 6 7 8 9 10 11 12 13 14 15 16);
        Ok(CounterBank {
            io: Default::default(),
            counters,
        })
    }
}

impl<const K: usize, const TB: usize> Logic for CounterBank<K, TB> {
    fn update(&mut self) {}
}

impl<const K: usize, const TB: usize> Block for CounterBank<K, TB> {
    fn connect_all(&mut self) {
        self.counters.connect_all();
        self.counters.io_mut().claim_inputs();
    }

    fn update_all(&mut self) {
        self.io.update_all();
        self.io.drive(self.counters.io_mut());
        self.counters.update_all();
        self.io.collect(self.counters.io());
    }

    fn has_changed(&self) -> bool {
        self.io.has_changed() || self.counters.has_changed()
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        self.counters.accept(name, probe);
    }
}
