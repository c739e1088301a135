//! One-hot decoder: `onehot = 1 << index` (shared RTL primitive: the
//! membar unit's request gate and the bar unit's warp table use it).
//!
//! A leaf primitive written by hand (like rust-hdl's own `DFF`): its Rust
//! `update` is a plain shift, and its Verilog is the one-line shift of an
//! N-bit one. A kernel-level `Bits << Bits` would emit the same Verilog but
//! simulates through a big-integer shift on every evaluation, which is what
//! this block avoids on the warp-mask paths of the request gate.
//!
//! Ports:
//! - `index` (in, NB bits): the bit to set; `NB = log2(N)`, so every value is in range.
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
