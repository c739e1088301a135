//! Textual mutants of the emitted `membar_unit.v` (test machinery, never part
//! of the design): each is a one-line edit at an anchor line that must occur
//! exactly once, matching a bug the cosimulation tests inject
//! (`testbench/tests/cosim_emitted.rs`) or a reference-model `Fault`
//! (`membar_unit_model::mutants::Fault`, `sim/membar_unit/src/mutants.rs`,
//! test-only feature `mutants`). The formal run must kill every one; the
//! property expected to kill it is listed (any failing property kills it).

/// One mutant.
#[derive(Clone, Copy, Debug)]
pub struct Mutant {
    pub name: &'static str,
    /// The model fault or testbench mutation it mirrors.
    pub mirrors: &'static str,
    /// The anchor line (trimmed, exact) and its edit.
    pub anchor: &'static str,
    /// The previous line (trimmed) must equal this, when the anchor is not unique alone.
    pub prev: Option<&'static str>,
    /// Search only inside the module whose header line starts with this
    /// (`module <name>(`), when the anchor repeats in several modules.
    pub within: Option<&'static str>,
    pub from: &'static str,
    pub to: &'static str,
    /// The property group expected to kill it.
    pub group: &'static str,
}

/// Every mutant. Anchors are in the small configuration's Verilog
/// (`verilog_out/w8_k2_n1_c4`, K = 2: the release walk has one closed slot).
pub const MUTANTS: &[Mutant] = &[
    Mutant {
        name: "cnt_full_one_early",
        mirrors: "testbench injected_counter_off_by_one_is_caught (counter-full compare off by one)",
        anchor: "if (cnt__0__q == max_m1) begin",
        prev: None,
        within: None,
        from: "== max_m1",
        to: "== (max_m1 - 1)",
        group: "p4",
    },
    Mutant {
        name: "cta_release_inverted",
        mirrors: "testbench injected_inverted_cta_release_is_caught; Fault::CtaEarly",
        anchor: "if (out_txn) begin",
        prev: None,
        within: None,
        from: "if (out_txn)",
        to: "if (~out_txn)",
        group: "p1",
    },
    Mutant {
        name: "no_block",
        mirrors: "Fault::NoBlock",
        anchor: "live = req_valid & ~|(blocked__q & req_dec__onehot);",
        prev: None,
        within: None,
        from: "req_valid & ~|(blocked__q & req_dec__onehot)",
        to: "req_valid",
        group: "p2",
    },
    Mutant {
        name: "no_counter_wait",
        mirrors: "Fault::NoCounterWait",
        anchor: "s_done = s_ok & (~s_drain | s_zero);",
        prev: None,
        within: None,
        from: "s_ok & (~s_drain | s_zero)",
        to: "s_ok",
        group: "p1",
    },
    Mutant {
        name: "release_early",
        mirrors: "Fault::ReleaseEarly (a BARRIER counts as bar_acked the cycle it is sent)",
        anchor: "s_ok = (bar_sent__q | fire_bits) & (~ack_req__q | bar_acked__q | back_bits);",
        prev: None,
        within: None,
        from: "bar_acked__q | back_bits)",
        to: "bar_acked__q | back_bits | fire_bits)",
        group: "p1",
    },
    Mutant {
        name: "no_bar_ack_wait",
        mirrors: "Fault::ReleaseEarly, stronger: SYS/ivall barriers do not wait for bar_ack",
        anchor: "s_ok = (bar_sent__q | fire_bits) & (~ack_req__q | bar_acked__q | back_bits);",
        prev: None,
        within: None,
        from: " & (~ack_req__q | bar_acked__q | back_bits)",
        to: "",
        group: "p1",
    },
    Mutant {
        name: "drop_txn",
        mirrors: "Fault::DropTxn (a TXN whose id ends in 0x3f is accepted, never sent)",
        anchor: "out_valid__d = 1'b1;",
        prev: Some("else if (accept_txn) begin"),
        within: None,
        from: "1'b1",
        to: "~(req_id[5:0] == 6'h3f)",
        group: "p3c",
    },
    Mutant {
        name: "dup_txn",
        mirrors: "Fault::DupTxn (a TXN whose id ends in 0x3f is sent again)",
        anchor: "out_free = ~out_valid__q | dn_ready;",
        prev: None,
        within: None,
        from: "dn_ready",
        to: "(dn_ready & ~(out_txn & (out_id__q[5:0] == 6'h3f)))",
        group: "p3c",
    },
    Mutant {
        name: "counter_wrap",
        mirrors: "Fault::CounterWrap (a full counter does not refuse)",
        anchor: "accept_txn = live & (req_op <= op_red) & out_free & ~seq_busy & ~cnt_full;",
        prev: None,
        within: None,
        from: " & ~cnt_full",
        to: "",
        group: "cnt",
    },
    Mutant {
        name: "accept_spurious_ack",
        mirrors: "Fault::AcceptSpuriousAck",
        anchor: "ack_ok = io__ack_valid & ack_nz & ~(ack_in_out & ack_one);",
        prev: None,
        within: None,
        from: "io__ack_valid & ack_nz & ~(ack_in_out & ack_one)",
        to: "io__ack_valid",
        group: "p7",
    },
    Mutant {
        name: "reserved_no_err",
        mirrors: "Fault::AcceptReservedOp (no err)",
        anchor: "reserved_err = req_valid & (req_op > op_membar);",
        prev: None,
        within: None,
        from: "req_valid & (req_op > op_membar)",
        to: "1'b0",
        group: "p7",
    },
    Mutant {
        name: "reserved_accepted",
        mirrors: "Fault::AcceptReservedOp (accepted as a TXN)",
        anchor: "accept_txn = live & (req_op <= op_red) & out_free & ~seq_busy & ~cnt_full;",
        prev: None,
        within: None,
        from: "(req_op <= op_red)",
        to: "(req_op != op_membar)",
        group: "p7",
    },
    Mutant {
        name: "sys_no_ack_req",
        mirrors: "(no model fault) a SYS BARRIER without dn_ack_req",
        anchor: "need_ack = (open_level == level_sys) | |open_ivall | (gl_bar_ack & (open_level == level_gl));",
        prev: None,
        within: None,
        from: "(open_level == level_sys) | ",
        to: "",
        group: "p1",
    },
    Mutant {
        name: "inval_t_as_d",
        mirrors: "(no model fault) IVALLT sends INVAL D instead of INVAL T",
        anchor: "out_op__d = inval_t;",
        prev: None,
        within: None,
        from: "inval_t",
        to: "inval_d",
        group: "p1",
    },
    Mutant {
        name: "stall_overwrite",
        mirrors: "(no model fault) the sequencer overwrites a stalled command",
        anchor: "out_free = ~out_valid__q | dn_ready;",
        prev: None,
        within: None,
        from: "dn_ready;",
        to: "dn_ready | seq_busy;",
        group: "p3s",
    },
];

/// Apply `m` to `text`: the anchor line must occur exactly once (with `prev`
/// before it when given). Errors name the mutant and what was found.
pub fn apply(m: &Mutant, text: &str) -> Result<String, String> {
    // One module per instance (the emitted file shares identical modules):
    // a mutant edits one instance's module, as the model fault it mirrors.
    let text = hdl_kit::emit::unshare_file(text)?;
    let lines: Vec<&str> = text.lines().collect();
    // Module of each line (for `within`).
    let mut module = "";
    let modules: Vec<&str> = lines
        .iter()
        .map(|l| {
            if l.starts_with("module ") {
                module = l;
            }
            module
        })
        .collect();
    let hits: Vec<usize> = (0..lines.len())
        .filter(|&n| {
            lines[n].trim() == m.anchor
                && m.prev.is_none_or(|p| n > 0 && lines[n - 1].trim() == p)
                && m.within.is_none_or(|w| modules[n].starts_with(w))
        })
        .collect();
    if hits.len() != 1 {
        return Err(format!(
            "mutant {}: expected exactly one anchor line `{}`{}{}, found {}; the emitter changed: update the mutant",
            m.name,
            m.anchor,
            m.prev.map_or(String::new(), |p| format!(" after `{p}`")),
            m.within.map_or(String::new(), |w| format!(" in `{w}`")),
            hits.len()
        ));
    }
    let n = hits[0];
    let new = lines[n].replacen(m.from, m.to, 1);
    if new == lines[n] {
        return Err(format!(
            "mutant {}: `{}` not in the anchor line",
            m.name, m.from
        ));
    }
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[n] = new;
    Ok(out.join("\n") + "\n")
}

/// The mutants of one of the other units, on one shipped configuration's Verilog.
#[derive(Clone, Copy, Debug)]
pub struct UnitMutants {
    /// `--unit` value.
    pub unit: &'static str,
    /// `verilog_out/<dir>/config.yaml` and the Verilog beside it.
    pub dir: &'static str,
    pub file: &'static str,
    pub mutants: &'static [Mutant],
}

/// A [`Mutant`] without a `prev` anchor (the units' tables).
pub const fn mutant(
    name: &'static str,
    mirrors: &'static str,
    within: Option<&'static str>,
    anchor: &'static str,
    from: &'static str,
    to: &'static str,
    group: &'static str,
) -> Mutant {
    Mutant {
        name,
        mirrors,
        anchor,
        prev: None,
        within,
        from,
        to,
        group,
    }
}
