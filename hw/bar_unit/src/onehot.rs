//! One-hot decoder primitive: `onehot = 1 << index` (a copy of membar's
//! `hw/src/onehot.rs`, kept here so this crate depends on no other unit).
//!
//! Rust `update` is a plain shift; the Verilog is the one-line shift of an
//! N-bit one. Implements the golden kernel's `bit(w)`.
//!
//! Ports:
//! - `index` (in, NB bits): the bit to set; `NB = log2(N)`.
//! - `onehot` (out, N bits): only bit `index` set.

use rust_hdl::prelude::*;

/// `onehot = 1 << index`, N = 2^NB outputs.
#[derive(LogicBlock, Default)]
pub struct OneHot<const N: usize, const NB: usize> {
    pub index: Signal<In, Bits<NB>>,
    pub onehot: Signal<Out, Bits<N>>,
}

impl<const N: usize, const NB: usize> Logic for OneHot<N, NB> {
    fn update(&mut self) {
        self.onehot.next = (1u64 << self.index.val().index()).into();
    }

    fn connect(&mut self) {
        self.onehot.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!("always @(*) onehot = {N}'h1 << index;"))
    }
}
