//! Counterexample replay: reads the VCD sby writes for a failed task, turns
//! it into one [`Inputs`] per cycle (the free inputs of `membar_formal_top`,
//! which carry the SPEC.md port names) plus the Verilog's [`Outputs`], and
//! replays the inputs through the reference model ([`MembarModel`] via
//! [`Dut::step`]) and the port-only scoreboard, so a report can say at which
//! cycle and port the model and the Verilog part, and which SPEC property
//! the Verilog's trace breaks.

use membar_unit_env::ports::{spec_ports, Dir, PortBundle};
use membar_unit_env::scoreboard::Scoreboard;
use membar_unit_env::{Config, Dut, Inputs, MembarModel, Outputs};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

/// What the replay found.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// Cycles in the trace.
    pub cycles: usize,
    /// First cycle where the model's outputs differ from the Verilog's:
    /// (cycle, port, model value, Verilog value).
    pub divergence: Option<(usize, &'static str, u64, u64)>,
    /// The scoreboard's first violation on the Verilog's outputs.
    pub violation: Option<String>,
    /// The scoreboard's verdict on the model's outputs (None: no violation).
    pub model_violation: Option<String>,
    /// Why the trace could not be read, if so.
    pub error: Option<String>,
    /// The per-cycle inputs (for printing and re-use).
    pub inputs: Vec<Inputs>,
}

impl fmt::Display for Replay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(e) = &self.error {
            return write!(f, "trace not replayed: {e}");
        }
        write!(f, "{} cycles; ", self.cycles)?;
        match self.divergence {
            Some((c, p, m, v)) => write!(
                f,
                "model and Verilog part at cycle {c}, port {p}: model {m:#x}, Verilog {v:#x}; "
            )?,
            None => write!(f, "model and Verilog agree on every port; ")?,
        }
        match &self.violation {
            Some(v) => write!(f, "scoreboard on the Verilog: {v}")?,
            None => write!(
                f,
                "scoreboard on the Verilog: no violation within the trace"
            )?,
        }
        if let Some(v) = &self.model_violation {
            write!(f, "; scoreboard on the model: {v}")?;
        }
        Ok(())
    }
}

/// A parsed VCD: per top-level signal name, its value at each sampled cycle.
#[derive(Debug, Default)]
pub struct Trace {
    pub cycles: usize,
    pub values: HashMap<String, Vec<u64>>,
}

/// Parse the VCD: signals declared directly in the first (top) scope; one
/// sample per timestamp in which `clock` rises (yosys-smtbmc writes step k's
/// inputs and outputs in the timestamp of its rising edge), taken with that
/// timestamp's final values; without a clock, one per timestamp with changes.
pub fn parse_vcd(text: &str) -> Result<Trace, String> {
    let mut depth = 0usize;
    let mut id_names: HashMap<String, Vec<String>> = HashMap::new();
    let mut toks = text.split_whitespace().peekable();
    let mut header_done = false;
    // Header.
    while let Some(t) = toks.next() {
        match t {
            "$scope" => {
                depth += 1;
            }
            "$upscope" => depth = depth.saturating_sub(1),
            "$var" => {
                let _ty = toks.next();
                let _w = toks.next();
                let id = toks.next().ok_or("truncated $var")?.to_string();
                let name = toks.next().ok_or("truncated $var")?.to_string();
                if depth == 1 {
                    id_names.entry(id).or_default().push(name);
                }
            }
            "$enddefinitions" => {
                header_done = true;
                // skip "$end"
                toks.next();
                break;
            }
            _ => {}
        }
    }
    if !header_done {
        return Err("no $enddefinitions in the VCD".into());
    }
    let clock_id = id_names
        .iter()
        .find(|(_, n)| n.iter().any(|n| n == "clock"))
        .map(|(id, _)| id.clone());
    let mut cur: HashMap<String, u64> = HashMap::new();
    let mut samples: Vec<HashMap<String, u64>> = Vec::new();
    let mut last_clock = 0u64;
    // The current timestamp holds a rising clock edge (or, without a clock,
    // any change): its final values are one cycle.
    let mut edge = false;
    let parse_bits =
        |b: &str| -> u64 { b.chars().fold(0u64, |a, c| (a << 1) | u64::from(c == '1')) };
    while let Some(t) = toks.next() {
        if t.starts_with('#') {
            if edge {
                samples.push(cur.clone());
            }
            edge = false;
            continue;
        }
        if t.starts_with('$') {
            continue; // $dumpvars, $end, ...
        }
        let (id, v) = if let Some(bits) = t.strip_prefix('b').or_else(|| t.strip_prefix('B')) {
            let id = toks.next().ok_or("truncated vector change")?;
            (id.to_string(), parse_bits(bits))
        } else {
            let c = t.chars().next().unwrap_or('x');
            (t[c.len_utf8()..].to_string(), u64::from(c == '1'))
        };
        match &clock_id {
            Some(ck) if *ck == id => {
                if v == 1 && last_clock == 0 {
                    edge = true;
                }
                last_clock = v;
            }
            Some(_) => {}
            None => edge = true,
        }
        cur.insert(id, v);
    }
    if edge {
        samples.push(cur.clone());
    }
    let mut values: HashMap<String, Vec<u64>> = HashMap::new();
    for (id, names) in &id_names {
        let col: Vec<u64> = samples
            .iter()
            .map(|s| s.get(id).copied().unwrap_or(0))
            .collect();
        for n in names {
            values.insert(n.clone(), col.clone());
        }
    }
    Ok(Trace {
        cycles: samples.len(),
        values,
    })
}

/// The trace's inputs and Verilog outputs, per cycle.
pub fn ports_of(cfg: &Config, tr: &Trace) -> Result<(Vec<Inputs>, Vec<Outputs>), String> {
    for p in spec_ports(cfg) {
        if p.dir != Dir::Clock && !tr.values.contains_key(p.name) {
            return Err(format!("the trace has no top-level signal `{}`", p.name));
        }
    }
    // Every port by name, from the one port declaration.
    let row = |c: usize| {
        let mut i = Inputs::default();
        for (k, n) in Inputs::NAMES.iter().enumerate() {
            i.set(k, tr.values[*n][c]);
        }
        let mut o = Outputs::default();
        for (k, n) in Outputs::NAMES.iter().enumerate() {
            o.set(k, tr.values[*n][c]);
        }
        (i, o)
    };
    let (ins, outs) = (0..tr.cycles).map(row).unzip();
    Ok((ins, outs))
}

/// Replay `inputs` through the model and the scoreboard, comparing with the
/// Verilog's `outputs`.
pub fn replay(cfg: &Config, inputs: &[Inputs], outputs: &[Outputs]) -> Replay {
    let mut model = MembarModel::new(cfg);
    let mut sb_v = Scoreboard::new(cfg);
    let mut sb_m = Scoreboard::new(cfg);
    let mut r = Replay {
        cycles: inputs.len(),
        inputs: inputs.to_vec(),
        ..Replay::default()
    };
    for (c, (i, v)) in inputs.iter().zip(outputs).enumerate() {
        let m = model.step(i);
        if r.divergence.is_none() {
            if let Some((p, mv, vv)) = m.first_difference(v) {
                r.divergence = Some((c, p, mv, vv));
            }
        }
        if r.violation.is_none() {
            if let Err(e) = sb_v.check(c as u64, i, v) {
                r.violation = Some(e.to_string());
            }
        }
        if r.model_violation.is_none() {
            if let Err(e) = sb_m.check(c as u64, i, &m) {
                r.model_violation = Some(e.to_string());
            }
        }
    }
    r
}

/// Read a counterexample VCD and replay it.
pub fn replay_vcd(cfg: &Config, vcd: &Path) -> Replay {
    let res = std::fs::read_to_string(vcd)
        .map_err(|e| format!("{}: {e}", vcd.display()))
        .and_then(|t| parse_vcd(&t))
        .and_then(|tr| ports_of(cfg, &tr));
    match res {
        Ok((i, o)) => replay(cfg, &i, &o),
        Err(e) => Replay {
            error: Some(e),
            ..Replay::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vcd_is_sampled_at_rising_clock_edges_top_scope_only() {
        let vcd = "$timescale 1ns $end\n$scope module top $end\n$var wire 1 ! clock $end\n$var wire 3 \" req_op $end\n\
                   $scope module dut $end\n$var wire 3 # req_op $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n\
                   #0\n$dumpvars\n1!\nb101 \"\nb111 #\n$end\n#5\n0!\n#10\n1!\nb10 \"\n#15\n0!\n#20\n1!\n";
        let t = parse_vcd(vcd).unwrap();
        // One cycle per timestamp with a rising edge, with its final values;
        // the nested scope's req_op is not the top's.
        assert_eq!(t.values["req_op"], vec![5, 2, 2]);
        assert_eq!(t.cycles, 3);
        assert!(parse_vcd("$var wire 1 ! a $end").is_err());
    }

    #[test]
    fn a_trace_missing_a_port_is_reported() {
        let t = Trace {
            cycles: 1,
            values: [("reset".to_string(), vec![1])].into_iter().collect(),
        };
        let e = ports_of(&Config::default(), &t).unwrap_err();
        assert!(e.contains("req_valid"), "{e}");
    }
}
