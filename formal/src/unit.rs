//! What the runner needs of a unit: its contract module name, its property
//! groups, the harness text for one configuration and the counterexample
//! replay through its reference model. [`membar`] builds the membar unit's;
//! each other unit's entry crate builds its own (`<unit>_formal::spec`).
//!
//! [`ports_section`] writes the part of every harness that comes from the
//! unit's port declaration (`unit_ports::Unit::ports`): the free inputs
//! (`(* anyseq *)`), `reset` forced high in cycle 0 and free afterwards, the
//! observed outputs and the instance of the unit.

use crate::harness::Group;
use crate::replay::{parse_vcd, Replay, Trace};
use std::path::Path;
use unit_ports::{Dir, Dut, Port, PortBundle, Unit};

/// Counterexample replay of one configuration: VCD path to report.
pub type ReplayFn = Box<dyn Fn(&Path) -> Replay + Send + Sync>;

/// One unit's formal run, for one configuration.
pub struct UnitSpec {
    /// `--unit` value (`membar`, `bar`, `cluster`, `mbarrier`).
    pub unit: &'static str,
    /// The contract's module name (`bar_unit`): the Verilog's top.
    pub module: &'static str,
    /// Its property groups, in report order.
    pub groups: &'static [Group],
    /// The harness (SystemVerilog of `<top>`).
    pub harness: String,
    /// The harness's top module.
    pub top: String,
    /// Replays a counterexample through the reference model.
    pub replay: ReplayFn,
}

impl UnitSpec {
    /// (Verilog file, harness file, harness top) in the work directory.
    pub fn file_names(&self) -> (String, String, String) {
        (
            format!("{}.v", self.module),
            format!("{}.sv", self.top),
            self.top.clone(),
        )
    }
}

/// The membar unit (harness [`crate::harness::harness`], replay with its scoreboard).
pub fn membar(cfg: &membar_unit_env::Config) -> UnitSpec {
    let c = cfg.clone();
    UnitSpec {
        unit: "membar",
        module: "membar_unit",
        groups: crate::harness::GROUPS,
        harness: crate::harness::harness(cfg),
        top: "membar_formal_top".into(),
        replay: Box::new(move |v| crate::replay::replay_vcd(&c, v)),
    }
}

fn range(w: u32) -> String {
    if w > 1 {
        format!("[{}:0] ", w - 1)
    } else {
        String::new()
    }
}

/// The harness's header, port wires and instance of `module` from its port
/// table: every input free (`(* anyseq *)`), `reset` high in cycle 0
/// (register `init`) and free afterwards, every output a wire of its
/// width. Panics if `reads` names a port the table lacks (a renamed port
/// must fail here, not as a harness that does not parse).
pub fn ports_section(ports: &[Port], module: &str, top: &str, reads: &[&str]) -> String {
    for p in reads {
        assert!(
            ports.iter().any(|q| q.name == *p),
            "the port table of {module} has no port `{p}` the formal monitor reads"
        );
    }
    let mut s = format!("module {top}(input wire clock);\n  // The ports of {module} (from its port declaration): inputs free, outputs observed.\n");
    for &Port { name, dir, width } in ports {
        match (name, dir) {
            ("clock", _) => {}
            ("reset", _) => {
                s += "  (* anyseq *) wire reset_free;\n  reg init = 1'b1;\n  always @(posedge clock) init <= 1'b0;\n  wire reset = init | reset_free;\n";
            }
            (_, Dir::In | Dir::Clock) => {
                s += &format!("  (* anyseq *) wire {}{name};\n", range(width));
            }
            (_, Dir::Out) => s += &format!("  wire {}{name};\n", range(width)),
        }
    }
    let conns: Vec<String> = ports
        .iter()
        .map(|p| format!("    .{0}({0})", p.name))
        .collect();
    s += &format!("  {module} dut (\n{}\n  );\n\n", conns.join(",\n"));
    s
}

/// One cycle of a trace: the inputs and the Verilog's outputs.
pub type Row<U> = (<U as Unit>::Inputs, <U as Unit>::Outputs);

/// The trace's per-cycle inputs and (Verilog) outputs of unit `U`, by port name.
pub fn bundles_of<U: Unit>(ports: &[Port], tr: &Trace) -> Result<Vec<Row<U>>, String> {
    for p in ports {
        if p.dir != Dir::Clock && !tr.values.contains_key(p.name) {
            return Err(format!("the trace has no top-level signal `{}`", p.name));
        }
    }
    Ok((0..tr.cycles)
        .map(|c| {
            let mut i = U::Inputs::default();
            for (k, n) in U::Inputs::NAMES.iter().enumerate() {
                i.set(k, tr.values[*n][c]);
            }
            let mut o = U::Outputs::default();
            for (k, n) in U::Outputs::NAMES.iter().enumerate() {
                o.set(k, tr.values[*n][c]);
            }
            (i, o)
        })
        .collect())
}

/// A port-only checker of a unit's contract (its scoreboard), cycle by cycle.
pub type Check<'a, U> =
    Box<dyn FnMut(u64, &<U as Unit>::Inputs, &<U as Unit>::Outputs) -> Result<(), String> + 'a>;

/// Replay the VCD through `model` (a reference model of `U`) and two
/// scoreboards (one on the Verilog's outputs, one on the model's): where
/// model and Verilog part, and which property the Verilog's trace breaks.
pub fn replay_unit<U: Unit>(
    ports: &[Port],
    vcd: &Path,
    model: &mut dyn Dut<U>,
    mut sb_v: Check<U>,
    mut sb_m: Check<U>,
) -> Replay {
    let res = std::fs::read_to_string(vcd)
        .map_err(|e| format!("{}: {e}", vcd.display()))
        .and_then(|t| parse_vcd(&t))
        .and_then(|tr| bundles_of::<U>(ports, &tr));
    let rows = match res {
        Ok(r) => r,
        Err(e) => {
            return Replay {
                error: Some(e),
                ..Replay::default()
            }
        }
    };
    let mut r = Replay {
        cycles: rows.len(),
        ..Replay::default()
    };
    for (c, (i, v)) in rows.iter().enumerate() {
        let m = model.step(i);
        if r.divergence.is_none() {
            if let Some((p, mv, vv)) = m.first_difference(v) {
                r.divergence = Some((c, p, mv, vv));
            }
        }
        if r.violation.is_none() {
            if let Err(e) = sb_v(c as u64, i, v) {
                r.violation = Some(e);
            }
        }
        if r.model_violation.is_none() {
            if let Err(e) = sb_m(c as u64, i, &m) {
                r.model_violation = Some(e);
            }
        }
    }
    r
}

/// `{w}'d0 + a[0] + a[1] + ...`: the number of ones of the `n`-bit `a`, `w` bits wide.
pub fn popcount(a: &str, n: u32, w: u32) -> String {
    let mut s = format!("{w}'d0");
    for k in 0..n {
        s += &format!(" + {{{}'d0, {a}[{k}]}}", w.saturating_sub(1).max(1));
    }
    if w == 1 {
        // {0'd0, x} is not legal; a 1-bit count is the bit itself (n = 1).
        return format!("{a}[0]");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn popcount_sums_every_bit_at_the_width() {
        assert_eq!(popcount("a", 2, 3), "3'd0 + {2'd0, a[0]} + {2'd0, a[1]}");
        assert_eq!(popcount("a", 1, 1), "a[0]");
    }
}
