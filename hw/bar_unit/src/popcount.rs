//! Population count primitive: `count` = number of ones in `bits`.
//!
//! A leaf written by hand (like rust-hdl's `DFF` and membar's `OneHot`): its
//! Rust `update` is `count_ones`, its Verilog an explicit sum of the N bits,
//! each zero-extended to the NB-bit result (exact width, no 32-bit
//! intermediate). Used for the predicate popcount of `bar.red.popc`
//! (N = 32, NB = 6) and the size of a launched CTA (N = W, NB = CB).
//!
//! Implements the golden kernel's `i.req_pred.count_ones()` and
//! `warps.count_ones()` (`sim/bar_unit/src/bar_unit.rs`, `eval`).
//!
//! Ports:
//! - `bits` (in, N): the vector to count.
//! - `count` (out, NB): its number of ones (NB must hold N).

use rust_hdl::prelude::*;

/// `count = popcount(bits)`.
#[derive(LogicBlock, Default)]
pub struct Popcount<const N: usize, const NB: usize> {
    pub bits: Signal<In, Bits<N>>,
    pub count: Signal<Out, Bits<NB>>,
}

impl<const N: usize, const NB: usize> Logic for Popcount<N, NB> {
    fn update(&mut self) {
        self.count.next = (u64::from(self.bits.val()).count_ones() as u64).into();
    }

    fn connect(&mut self) {
        self.count.connect();
    }

    fn hdl(&self) -> Verilog {
        let pad = NB - 1;
        let terms: Vec<String> = (0..N).map(|k| format!("{{{pad}'b0, bits[{k}]}}")).collect();
        Verilog::Custom(format!("always @(*) count = {};", terms.join(" + ")))
    }
}
