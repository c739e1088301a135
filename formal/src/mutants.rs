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
        anchor: "live = req_valid & ~warp_blocked[req_warp];",
        prev: None,
        within: None,
        from: "req_valid & ~warp_blocked[req_warp]",
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

const fn mutant(
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

/// Mutants of `bar_unit` (`verilog_out/bar_unit/w8_c1`), one per kind of bug
/// the B scoreboard's mutants (`sim/bar_unit/tests/mutants.rs`) inject.
pub const BAR_MUTANTS: &[Mutant] = &[
    mutant(
        "bar_no_block",
        "B2: a blocked warp's request is taken",
        None,
        "else if (req_valid & ~warps__req_blocked) begin",
        "req_valid & ~warps__req_blocked",
        "req_valid",
        "b2",
    ),
    mutant(
        "bar_arrive_blocks",
        "B2: bar.arrive blocks its warp",
        None,
        "arr_blocks = req_op != op_arrive;",
        "req_op != op_arrive",
        "1'b1",
        "b2",
    ),
    mutant(
        "bar_no_kind_mix",
        "B3/B6: kind_mix not detected",
        None,
        "else if (sel_active & (sel_kind != arr_kind)) begin",
        "sel_active & (sel_kind != arr_kind)",
        "1'b0",
        "b6c",
    ),
    mutant(
        "bar_count_too_big_off_by_one",
        "B6: a count equal to the CTA size refused as count_too_big",
        None,
        "else if (~req_all & (req_count > sel_size)) begin",
        "req_count > sel_size",
        "req_count >= sel_size",
        "b6c",
    ),
    mutant(
        "bar_exit_blocked_taken",
        "B6: the exit of a blocked warp is taken",
        None,
        "else if (warps__ctl_blocked) begin",
        "warps__ctl_blocked",
        "1'b0",
        "b6",
    ),
    mutant(
        "bar_red_and_as_or",
        "B3: bar.red.and accumulates OR",
        None,
        "ctas__0__arr_and = &req_pred;",
        "&req_pred",
        "|req_pred",
        "b1",
    ),
    mutant(
        "bar_complete_late",
        "B1/B7: a barrier completes one arrival late",
        None,
        "arr_done = new_count >= target;",
        "new_count >= target",
        "new_count > target",
        "b1",
    ),
    mutant(
        "bar_exit_completes_explicit",
        "B5: an exit completes an explicit-count phase",
        None,
        "if (~exit_found & active__3__q & all__3__q & (count__3__q >= live_dec)) begin",
        "active__3__q & all__3__q &",
        "active__3__q &",
        "b1",
    ),
    mutant(
        "bar_slot_never_freed",
        "B5: the CTA's last exit does not free its slot",
        None,
        "if (~|live_dec) begin",
        "~|live_dec",
        "1'b0",
        "b6",
    ),
];

/// Mutants of `cluster_barrier` (`verilog_out/cluster_barrier/n2`), mirroring
/// the C scoreboard's mutants.
pub const CLUSTER_MUTANTS: &[Mutant] = &[
    mutant(
        "cluster_gone_arrival_not_bad",
        "C3: an arrival of a gone rank is not flagged",
        None,
        "bad = arv & (arrived_q__q | gone);",
        "(arrived_q__q | gone)",
        "arrived_q__q",
        "c3",
    ),
    mutant(
        "cluster_bad_arrival_counted",
        "C3/C2: a bad arrival is counted",
        None,
        "arrived_n = arrived_q__q | (arv & ~bad);",
        "(arv & ~bad)",
        "arv",
        "c2",
    ),
    mutant(
        "cluster_complete_without_arrival",
        "C1: a phase completes with every rank gone and no arrival",
        None,
        "if (|arrived_n & ((arrived_n | gone) == all_ranks)) begin",
        "|arrived_n & ",
        "",
        "c1",
    ),
    mutant(
        "cluster_phase_stuck",
        "C2: the phase does not toggle",
        None,
        "phase_q__d = ~phase_q__q;",
        "~phase_q__q",
        "phase_q__q",
        "c2",
    ),
    mutant(
        "cluster_done_phase_new",
        "C1/C2: done_phase carries the new parity",
        None,
        "done_phase_q__d = phase_q__q;",
        "= phase_q__q",
        "= ~phase_q__q",
        "c1",
    ),
];

const MB_OP: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__op_step(");
const MB_CTX: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__ctx_step(");
const MB_WAIT: Option<&str> = Some("module mbar_w8_m8_c4_t6_l8_f1__waiters(");

/// Mutants of `mbarrier_unit` (`verilog_out/mbarrier_unit/reduced_range/w8_m8_c4_t6_l8_f1`),
/// mirroring the M scoreboard's mutants (`sim/mbarrier_unit/tests/mutants.rs`).
pub const MBARRIER_MUTANTS: &[Mutant] = &[
    mutant(
        "mbar_drop_no_underflow",
        "M6: an arrive_drop leaving expected = 0 is taken",
        MB_OP,
        "underflow = (count > e_pending) | (drop & (count >= e_expected));",
        " | (drop & (count >= e_expected))",
        "",
        "m6",
    ),
    mutant(
        "mbar_zero_count_taken",
        "M6: a zero count is taken",
        MB_OP,
        "count_bad = (count == zero_count) | (count > max_count);",
        "(count == zero_count) | ",
        "",
        "m6",
    ),
    mutant(
        "mbar_complete_ignores_tx",
        "M4/M1: a phase completes with tx-count != 0",
        MB_OP,
        "if ((pend_new == zero_count) & (tx_new == zero_xb)) begin",
        " & (tx_new == zero_xb)",
        "",
        "m1",
    ),
    mutant(
        "mbar_ctx_no_complete",
        "M8/M1: a complete-tx that zeroes tx-count does not complete the phase",
        MB_CTX,
        "if ((pend_new == zero_count) & (tx_new == zero_xb)) begin",
        "(pend_new == zero_count) & (tx_new == zero_xb)",
        "1'b0",
        "m1",
    ),
    mutant(
        "mbar_wake_done_unmasked",
        "M3: wake_done raised for a decided-done warp that is not woken this cycle",
        MB_WAIT,
        "wake_done_r__d = grant & done_n;",
        "grant & done_n",
        "done_n",
        "m8",
    ),
];

const AG_W3: Option<&str> = Some("module agrp_w8_g2_o1__warps__3(");

/// Mutants of `async_groups` (`verilog_out/async_groups/w8_g2_o1`), each in
/// one warp's block (warp 3: the free warp `fw` of the harness finds it),
/// mirroring the G scoreboard's mutants (`sim/mbarrier_unit/tests/mutants.rs`).
pub const ASYNC_GROUPS_MUTANTS: &[Mutant] = &[
    mutant(
        "ag_read_pending_short",
        "G1: a .read wait counts one group fewer still reading (released early)",
        AG_W3,
        "read_pend = n__q - age_r;",
        "n__q - age_r",
        "n__q - age_r - 1",
        "g1",
    ),
    mutant(
        "ag_read_as_full",
        "G2: a .read wait treated as a full wait (released late)",
        AG_W3,
        "met = read_pend <= wait_n__q;",
        "read_pend <= wait_n__q",
        "n__q <= wait_n__q",
        "g2",
    ),
    mutant(
        "ag_bulk_wraps",
        "G3: a bulk op into a full open group is accepted (the counter wraps)",
        AG_W3,
        "ready = open_wr__q != max_ops;",
        "open_wr__q != max_ops",
        "1'b1",
        "g3",
    ),
    mutant(
        "ag_spurious_rd_silent",
        "G4: a spurious rd report is not flagged",
        AG_W3,
        "rd_bad = rd_hit & ~enc_r__any & ~|open_rd__q;",
        "rd_hit & ~enc_r__any & ~|open_rd__q",
        "1'b0",
        "g4",
    ),
    mutant(
        "ag_wr_before_rd_taken",
        "G4: a wr report of an unread operation is taken",
        AG_W3,
        "wr_dec_c = wr_hit & enc_w__any & (tgt_wr > tgt_rd_post);",
        " & (tgt_wr > tgt_rd_post)",
        "",
        "g4",
    ),
];

const SM_TOP: Option<&str> = Some("module smsync_w8_k2_c1_m8_g2(");
const SM_DEC: Option<&str> = Some("module smsync_w8_k2_c1_m8_g2__dec(");

/// Mutants of `sm_sync` (`verilog_out/sm_sync/small`): the decoder and the
/// top's routing / combining, mirroring the S scoreboard's model mutants
/// (`sim/sm_sync/tests/random_scoreboard.rs`) where they are port-visible.
pub const SM_SYNC_MUTANTS: &[Mutant] = &[
    mutant(
        "sm_refused_not_taken",
        "S2: a refused instruction is not taken (in_ready = the unit's ready)",
        SM_TOP,
        "in_ready = (dec__refused | unit_ready) & ~reset;",
        "(dec__refused | unit_ready)",
        "unit_ready",
        "s2",
    ),
    mutant(
        "sm_async_warp_inverted",
        "S3/S1: the tracker receives another warp than the issuing one",
        SM_TOP,
        "ag__ag_warp = in_warp;",
        "in_warp",
        "~in_warp",
        "s3",
    ),
    mutant(
        "sm_mb_wake_dropped",
        "S4: mbarrier wakes left out of release_mask (Fault: mbarrier wakes dropped)",
        SM_TOP,
        "release_mask = membar_rel | bar__rel_mask | mb__wake_mask | ag__release_mask;",
        " | mb__wake_mask",
        "",
        "s4",
    ),
    mutant(
        "sm_silent_refusal",
        "S5: a refused instruction is not flagged (Fault: silent refusal)",
        SM_DEC,
        "flag = in_valid & ~op_ok & ~reset;",
        "in_valid & ~op_ok & ~reset",
        "1'b0",
        "s5",
    ),
    mutant(
        "sm_reserved_bar_op_forwarded",
        "S5: a refused bar op reaches the bar unit (Fault: reserved op forwarded)",
        SM_DEC,
        "to_bar = in_valid & op_ok & (in_unit == 32'h1);",
        "in_valid & op_ok &",
        "in_valid &",
        "s5",
    ),
    mutant(
        "sm_bar_err_src_dropped",
        "S6: the bar bit of err_src dropped (Fault: bar err_src bit)",
        SM_TOP,
        "src = (src & ~(1 << (32'h1)) | ((bar__err) << (32'h1)));",
        "((bar__err)",
        "((1'b0)",
        "s6",
    ),
    mutant(
        "sm_mb_warp_inverted",
        "S1: the mbarrier unit receives another warp than the issuing one",
        SM_TOP,
        "mb__op_warp = in_warp;",
        "in_warp",
        "~in_warp",
        "s1m",
    ),
    mutant(
        "sm_bar_id_high_nibble",
        "S1: the bar unit gets in_id[7:4] as its barrier id",
        SM_TOP,
        "bar__req_id = in_id[(32'h0)+:(4)];",
        "(32'h0)",
        "(32'h4)",
        "s1b",
    ),
    mutant(
        "sm_membar_id_truncated",
        "S1: the membar request id loses its high byte",
        SM_TOP,
        "membar__req_id = in_id;",
        "in_id",
        "{8'h00, in_id[7:0]}",
        "s1d",
    ),
];

/// Every unit's mutants.
pub const UNIT_MUTANTS: &[UnitMutants] = &[
    UnitMutants {
        unit: "bar",
        dir: "bar_unit/w8_c1",
        file: "bar_unit.v",
        mutants: BAR_MUTANTS,
    },
    UnitMutants {
        unit: "cluster",
        dir: "cluster_barrier/n2",
        file: "cluster_barrier.v",
        mutants: CLUSTER_MUTANTS,
    },
    UnitMutants {
        unit: "mbarrier",
        dir: "mbarrier_unit/reduced_range/w8_m8_c4_t6_l8_f1",
        file: "mbarrier_unit.v",
        mutants: MBARRIER_MUTANTS,
    },
    UnitMutants {
        unit: "async_groups",
        dir: "async_groups/w8_g2_o1",
        file: "async_groups.v",
        mutants: ASYNC_GROUPS_MUTANTS,
    },
    UnitMutants {
        unit: "sm_sync",
        dir: "sm_sync/small",
        file: "sm_sync.v",
        mutants: SM_SYNC_MUTANTS,
    },
];
