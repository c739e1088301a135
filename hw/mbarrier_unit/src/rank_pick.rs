//! Rank pick: the first F set bits of `hi` then `lo` (each in ascending
//! order), and the positions after the last of them, by counting instead
//! of F chained picks.
//!
//! A leaf written by hand (like the bar unit's `Popcount`): its Rust
//! `update` walks the bits, its Verilog is a parallel-prefix (Brent–Kung)
//! count of the set bits below each position, saturated at F, in
//! 2·log2 W − 1 levels of small saturating adders, so F grants cost one
//! count network instead of F chained W-bit lowest-bit picks. The wake arbiter uses it for
//! F > 1 (`wake_arbiter.rs`).
//!
//! Implements the golden kernel's wake arbiter order (`sim/mbarrier_unit/src/mbarrier_unit.rs`,
//! "Wake arbiter"): with `hi` the candidates at or after `rr` and `lo` the
//! others, the grants are the first F of hi's bits ascending, then lo's.
//!
//! Ports (W bits, F grants; the counts have the bits of 0..=F):
//! - `hi`, `lo` (in, W): disjoint candidate sets, `hi` first.
//! - `grant` (out, W): the first F candidates in that order.
//! - `after` (out, W): the positions after the last of them (a thermometer:
//!   position i is after the k-th grant of a set iff at least k of the
//!   set's bits lie below i; 0 without a grant). The wake arbiter's next
//!   pointer mask, decided beside the grants rather than behind them.

use rust_hdl::prelude::*;

/// The first F set bits of `hi` then `lo`, and the positions after the last one.
#[derive(LogicBlock, Default)]
pub struct RankPick<const W: usize, const F: usize> {
    pub hi: Signal<In, Bits<W>>,
    pub lo: Signal<In, Bits<W>>,
    pub grant: Signal<Out, Bits<W>>,
    pub after: Signal<Out, Bits<W>>,
}

impl<const W: usize, const F: usize> Logic for RankPick<W, F> {
    fn update(&mut self) {
        let (hi, lo) = (u64::from(self.hi.val()), u64::from(self.lo.val()));
        let (mut grant, mut last, mut n) = (0u64, None, 0usize);
        for set in [hi, lo] {
            for i in 0..W {
                if n < F && set >> i & 1 == 1 {
                    grant |= 1 << i;
                    last = Some(i);
                    n += 1;
                }
            }
        }
        // The positions above the last grant (bits last+1 .. W−1).
        let after = match last {
            Some(l) if l + 1 < W => (u64::MAX >> (64 - W)) & !((2u64 << l) - 1),
            _ => 0,
        };
        self.grant.next = grant.into();
        self.after.next = after.into();
    }

    fn connect(&mut self) {
        self.grant.connect();
        self.after.connect();
    }

    fn hdl(&self) -> Verilog {
        assert!(F >= 1 && F <= W, "RankPick: W {W}, F {F}");
        // The counts' width: bits of 0..=F.
        #[allow(non_snake_case)]
        let CW = (usize::BITS - F.leading_zeros()) as usize;
        let c = CW - 1;
        let mut v = String::new();
        // sat(a + b) at F, CW bits.
        v += &format!(
            "function [{c}:0] sat_add;\n  input [{c}:0] a;\n  input [{c}:0] b;\n  reg [{CW}:0] s;\n  begin\n    s = {{1'b0, a}} + {{1'b0, b}};\n    sat_add = (s > {cw1}'d{F}) ? {CW}'d{F} : s[{c}:0];\n  end\nendfunction\n",
            cw1 = CW + 1
        );
        // Brent–Kung parallel prefix (2W − 2 − log2 W combines, 2·log2 W − 1
        // levels): `cur[i]` names the wire holding position i's partial
        // count; at the end it is the count of the set bits at or below i,
        // saturated at F. (Kogge–Stone, W·log2 W combines in log2 W levels,
        // took `w64_m8` past the HX8K.)
        let levels = (usize::BITS - (W - 1).leading_zeros()) as usize;
        let mut tops: Vec<Vec<String>> = Vec::new();
        for set in ["hi", "lo"] {
            let mut cur: Vec<String> = (0..W).map(|i| format!("{set}_b{i}")).collect();
            for (i, n) in cur.iter().enumerate() {
                v += &format!("wire [{c}:0] {n} = {{{{{c}{{1'b0}}}}, {set}[{i}]}};\n");
            }
            let mut step = 0;
            let mut combine = |cur: &mut Vec<String>, i: usize, j: usize, v: &mut String| {
                step += 1;
                let n = format!("{set}_s{step}");
                *v += &format!("wire [{c}:0] {n} = sat_add({}, {});\n", cur[i], cur[j]);
                cur[i] = n;
            };
            for d in 0..levels {
                let (half, span) = (1usize << d, 2usize << d);
                for i in (span - 1..W).step_by(span) {
                    combine(&mut cur, i, i - half, &mut v);
                }
            }
            for d in (0..levels.saturating_sub(1)).rev() {
                let (half, span) = (1usize << d, 2usize << d);
                for i in (3 * half - 1..W).step_by(span) {
                    combine(&mut cur, i, i - half, &mut v);
                }
            }
            tops.push(cur);
        }
        let top = |set: &str, i: usize| tops[usize::from(set == "lo")][i].clone();
        let below = |set: &str, i: usize| {
            if i == 0 {
                format!("{CW}'d0")
            } else {
                top(set, i - 1)
            }
        };
        // The hi grants (at most F), the lo grants (what is left of F).
        v += &format!("wire [{c}:0] n_hi = {};\n", top("hi", W - 1));
        v += &format!(
            "wire [{c}:0] f_lo = {CW}'d{F} - n_hi;\nwire [{c}:0] g_lo = ({} < f_lo) ? {} : f_lo;\n",
            top("lo", W - 1),
            top("lo", W - 1)
        );
        v += "always @(*) begin\n";
        for i in 0..W {
            v += &format!(
                "  grant[{i}] = (hi[{i}] && {bh} < {CW}'d{F}) || (lo[{i}] && {bl} < g_lo);\n  after[{i}] = (g_lo != {CW}'d0) ? ({bl} >= g_lo) : (n_hi != {CW}'d0 && {bh} >= n_hi);\n",
                bh = below("hi", i),
                bl = below("lo", i)
            );
        }
        v += "end\n";
        Verilog::Custom(v)
    }
}
