//! Bit packing of a port bundle: each port, in declaration order, occupies
//! exactly its width in a little-endian vector of 32-bit words (bit 0 of port
//! 0 is bit 0 of word 0). This is the C ABI between Rust and the Verilated
//! model ([`crate::verilator_shim`] reads and writes the same layout), so a
//! port of any width up to 64 bits, and bundles of any size, cross it without
//! a hand-written struct on either side.

use crate::PortBundle;
use bitvec::prelude::*;

/// 32-bit words needed for ports of these widths.
pub fn words_for(widths: &[u32]) -> usize {
    (widths.iter().map(|&w| w as usize).sum::<usize>())
        .div_ceil(32)
        .max(1)
}

/// Pack `b` (each port truncated to its width) into words.
pub fn pack<B: PortBundle>(b: &B, widths: &[u32]) -> Vec<u32> {
    let mut words = vec![0u32; words_for(widths)];
    let bits = words.view_bits_mut::<Lsb0>();
    let mut off = 0usize;
    for (k, &w) in widths.iter().enumerate() {
        let w = w as usize;
        bits[off..off + w].store_le(b.get(k) & crate::mask(w as u32));
        off += w;
    }
    words
}

/// Unpack words written in the [`pack`] layout.
pub fn unpack<B: PortBundle>(words: &[u32], widths: &[u32]) -> B {
    let bits = words.view_bits::<Lsb0>();
    let mut b = B::default();
    let mut off = 0usize;
    for (k, &w) in widths.iter().enumerate() {
        let w = w as usize;
        b.set(k, bits[off..off + w].load_le::<u64>());
        off += w;
    }
    b
}

/// Bit offset of each port in the [`pack`] layout.
pub fn offsets(widths: &[u32]) -> Vec<u32> {
    widths
        .iter()
        .scan(0u32, |off, &w| {
            let o = *off;
            *off += w;
            Some(o)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    struct B3([u64; 3]);
    impl PortBundle for B3 {
        const NAMES: &'static [&'static str] = &["a", "b", "c"];
        fn get(&self, i: usize) -> u64 {
            self.0[i]
        }
        fn set(&mut self, i: usize, v: u64) {
            self.0[i] = v;
        }
    }

    #[test]
    fn round_trip_across_word_boundaries() {
        let widths = [3, 64, 7];
        let b = B3([5, 0xdead_beef_0123_4567, 0x55]);
        let w = pack(&b, &widths);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0] & 7, 5);
        assert_eq!(w[0] >> 3, 0x0123_4567 & 0x1fff_ffff);
        assert_eq!(unpack::<B3>(&w, &widths), b);
        // Too-wide values are truncated to the port width.
        let w = pack(&B3([0xff, 1, 0xfff]), &widths);
        assert_eq!(unpack::<B3>(&w, &widths), B3([7, 1, 0x7f]));
        assert_eq!(offsets(&widths), [0, 3, 67]);
    }
}
