//! The formal harness of `mbarrier_unit` (`spec/mbarrier_unit.md`, M1–M8):
//! every input free, reset in cycle 0, and a port-level monitor that keeps,
//! from the inputs alone, the state of one free constant entry `fe` (valid,
//! phase parity, pending, expected, signed tx-count) through the one step of
//! each cycle (the request the unit accepted in the previous cycle — a
//! complete-tx, a remote arrive or an operation — registered by the monitor
//! from the ports' valid and ready, completing the phase when pending = tx =
//! 0), which warps are suspended on `fe`, and the
//! try_wait of one free constant warp `fw` on `fe` (decision: done at the
//! first completion of `fe`, not done when L cycles pass; the wake within B
//! cycles). Since `fe` and `fw` are arbitrary, the properties hold for every
//! entry and warp.
//!
//! Facts the monitor cannot know at the ports for another entry are read
//! from the unit (sound by the same first-violation argument as the bar
//! harness): whether the issuing warp is suspended (`suspended`, registered:
//! the state at the start of the cycle), checked for `fw` by `m2`.
//! `err` is checked exactly in the cycles whose every valid port either
//! names `fe` or fails an entry-independent check (reserved op, suspended
//! warp); a cycle mixing a good op on `fe` with a complete-tx on another
//! entry is covered by the instance whose `fe` is that entry only when it
//! errs first in report order — see docs/formal.md.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::mbarrier::MbarrierUnitPorts;
use mbarrier_unit_model::scoreboard::MbarScoreboard;
use membar_formal::harness::Group;
use membar_formal::taps::{self, Tap};
use membar_formal::unit::{popcount, ports_section, UnitSpec};
use unit_ports::Unit;

/// The property groups of `mbarrier_unit`.
pub const GROUPS: &[Group] = &[
    Group {
        name: "rst",
        props: &["RST_outputs_zero"],
        what: "every output (op_ready included) is 0 in a reset cycle",
    },
    Group {
        name: "m7",
        props: &["M7_ready", "M7_fair", "M7_rsp", "M7_rsp_idle"],
        what: "M7: at most one of op_ready / ctx_ready / rarv_ready, each only with its valid, one whenever a port requests; a request held valid is taken within 3 cycles; exactly one response (rsp_valid, rsp_warp, rsp_op) two cycles after each accepted operation, none otherwise; rsp_* 0 without rsp_valid",
    },
    Group {
        name: "m1",
        props: &["M1_rsp_exact"],
        what: "M1/M4/M5/M2 answers for entry fe: the token of an arrive (parity of the phase it counted in), test_wait/try_wait done = (parity in its step cycle != op_parity), try_wait suspended iff not done, all 0 for an erroring op — with fe's phase, pending, expected and tx-count followed through init, inval, arrive, arrive_drop, arrive_expect_tx, expect_tx, complete_tx, the ctx and rarv ports and every completion (pending = tx = 0)",
    },
    Group {
        name: "m6",
        props: &["M6_err", "M6_quiet"],
        what: "M6: err / err_src / err_cause two cycles after a request's acceptance exactly its verdict with its port and cause (reserved, suspended warp, uninit, bad count, underflow, tx range, waiters), for every request that names fe or fails an entry-independent check; no err for good inputs; err_src = err_cause = 0 without err",
    },
    Group {
        name: "m2",
        props: &[
            "M2_suspended",
            "M2_not_suspended",
            "M2_wake_decided",
            "M3_wake_bound",
        ],
        what: "M2/M3 for warp fw on entry fe: suspended[fw] from the cycle after its suspending try_wait through the cycle before its wake; woken only after its decision, with wake_done = 1 iff fe completed (the phase waited on) before L cycles passed, 0 iff L passed first; woken within B + 1 cycles of the decision (B = ceil(W/F); decisions are registered before the wake arbiter)",
    },
    Group {
        name: "m8",
        props: &[
            "M3_fanout",
            "M3_done_in_mask",
            "M3_wake_only_suspended",
            "M8_liveness",
        ],
        what: "M3/M8 for any entry: at most F wakes per cycle; wake_done only within wake_mask; a warp woken only if it was suspended; no warp suspended more than L + B + 1 consecutive cycles",
    },
    Group {
        name: "inv",
        props: INV_PROPS,
        what: "strengthening invariants (the monitor's state = the RTL's registers; asserted in m1, m6, m2 too): INV_entry: entry fe's valid, parity, pending, expected and tx-count equal the RTL's (pending/expected/tx only while valid; the monitor's are 0 otherwise); INV_range: tx in [-MAXTX, MAXTX], pending <= expected <= MAXC; INV_sfe: suspended = the RTL's susp, and a suspended warp's latest try_wait was on fe iff its RTL wentry is fe; INV_wt: decided only while suspended, done only when decided; INV_fw: fw's try_wait on fe (suspended, decided, done, timer, waited parity) equals the RTL's; INV_age: the wake arbiter's pointer mask is a thermometer (bits rr..W-1, or empty), and fw decided and not woken: age + (fw - rr mod W) <= W - 1 (round robin); INV_req: the monitor's request register = the RTL's (its byte operand's registered terms those of its tx; its port one of the three; a complete-tx held as complete_tx, a remote arrive as arrive, both of warp 0); INV_rd: when the RTL's request register names fe (valid or not: an idle step writes the read register back), its read register holds fe; INV_on: the waiters check registered at acceptance (per warp, less the warps woken at that edge, or the warp suspending then) = the warps suspended on the request register's entry",
    },
    Group {
        name: "all",
        props: &["RST_outputs_zero", "M7_ready", "M7_fair", "M7_rsp", "M7_rsp_idle", "M1_rsp_exact", "M6_err", "M6_quiet", "M2_suspended", "M2_not_suspended", "M2_wake_decided", "M3_wake_bound", "M3_fanout", "M3_done_in_mask", "M3_wake_only_suspended", "M8_liveness", "INV_entry", "INV_range", "INV_sfe", "INV_wt", "INV_fw", "INV_age", "INV_req", "INV_rd", "INV_on"],
        what: "every group above in one task (one front-end run: the bounded checks of the large configurations)",
    },
];

/// The strengthening invariants (group `inv`, also asserted by the tasks of
/// m1, m6 and m2): `always @*` assertions over the monitor and the RTL's
/// registers (taps, [`membar_formal::taps`]).
pub const INV_PROPS: &[&str] = &[
    "INV_entry",
    "INV_range",
    "INV_sfe",
    "INV_wt",
    "INV_fw",
    "INV_age",
    "INV_req",
    "INV_rd",
    "INV_on",
];

/// Groups `membar formal` does not run under pdr by default: they follow
/// entry fe's counters, which pdr does not relate to the RTL's in 300 s.
/// With the strengthening invariants ([`INV_PROPS`]) k-induction proves
/// them: `--engine kind --depth 2 --props inv,m1,m6,m2` (docs/formal.md).
pub const PDR_SKIP: &[&str] = &["m1", "m6", "m2", "inv"];

/// The groups whose tasks connect the taps and assert the invariants.
pub const TAP_GROUPS: &[&str] = &["m1", "m6", "m2", "inv", "all"];

/// The taps (RTL registers) the invariants read, and their declarations
/// plus the multiplexers on fe / fw.
fn taps(cfg: &Config) -> String {
    let (w, m, eb, cbp, tbp, tmb, wb) = (
        cfg.warps,
        cfg.entries,
        cfg.eb(),
        cfg.count_port_bits(),
        cfg.tx_port_bits(),
        cfg.timer_bits(),
        cfg.wb(),
    );
    let e = "dut.core.entries";
    let wt = "dut.core.waiters";
    let mut t = vec![
        Tap::new("t_valid", m, format!("{e}.valid.q")),
        Tap::new("t_parity", m, format!("{e}.parity.q")),
    ];
    // The counters are block RAMs (`RamFwd`): a word is tapped as
    // `<ram>.mem[i]`.
    for i in 0..m {
        t.push(Tap::new(
            format!("t_pend_{i}"),
            cbp,
            format!("{e}.pending.ram.mem[{i}]"),
        ));
        t.push(Tap::new(
            format!("t_exp_{i}"),
            cbp,
            format!("{e}.expected.ram.mem[{i}]"),
        ));
        t.push(Tap::new(
            format!("t_tx_{i}"),
            tbp,
            format!("{e}.tx.ram.mem[{i}]"),
        ));
    }
    for (n, r) in [
        ("t_susp", "susp"),
        ("t_dec_q", "decided"),
        ("t_done_q", "done"),
        ("t_pendq", "pend_q"),
        ("t_wpar", "wparity"),
        ("t_onq", "on_q"),
    ] {
        t.push(Tap::new(n, w, format!("{wt}.{r}.q")));
    }
    t.push(Tap::new("t_onnew", 1, format!("{wt}.on_new_q.q")));
    t.push(Tap::new("t_cplq", 1, format!("{wt}.cpl_q.q")));
    t.push(Tap::new("t_ge", w, "dut.core.wake.ge.q"));
    let rq = "dut.core.req";
    for (n, wd, r) in [
        ("t_rv", 1, "valid_q"),
        ("t_rport", 2, "port_q"),
        ("t_rwarp", wb, "warp_q"),
        ("t_rcode", 4, "code_q"),
        ("t_rentry", eb, "entry_q"),
        ("t_rcount", cbp, "count_q"),
        ("t_rtx", tbp, "tx_q"),
        ("t_rpar", 1, "parity_q"),
        ("t_rhi", tbp + 2, "hi_key_q"),
        ("t_rlo", tbp + 2, "lo_key_q"),
        ("t_rneg", tbp + 2, "neg_q"),
    ] {
        t.push(Tap::new(n, wd, format!("{rq}.{r}.q")));
    }
    for (n, r) in [("t_dv", "r_valid"), ("t_dpar", "r_parity")] {
        t.push(Tap::new(n, 1, format!("{e}.{r}.q")));
    }
    // The word read of each counter RAM: its read register, its last write
    // and whether that write is the word read (`RamFwd`'s `fwd`).
    for (n, wd, r) in [
        ("pend", cbp, "pending"),
        ("exp", cbp, "expected"),
        ("tx", tbp, "tx"),
    ] {
        t.push(Tap::new(
            format!("t_d{n}_ram"),
            wd,
            format!("{e}.{r}.ram.read_data"),
        ));
        t.push(Tap::new(
            format!("t_d{n}_byp"),
            wd,
            format!("{e}.{r}.byp_data_q.q"),
        ));
        t.push(Tap::new(
            format!("t_d{n}_hit"),
            1,
            format!("{e}.{r}.hit_q.q"),
        ));
        t.push(Tap::new(
            format!("t_d{n}_bv"),
            1,
            format!("{e}.{r}.byp_valid_q.q"),
        ));
    }
    for k in 0..w {
        t.push(Tap::new(
            format!("t_wentry_{k}"),
            eb,
            format!("{wt}.wentry__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_timer_{k}"),
            tmb,
            format!("{wt}.timer__{k}.q"),
        ));
    }
    let mut s = taps::declare(&t, TAP_GROUPS);
    // The waiters apply a completion's decisions a cycle late (`pend_q`,
    // `cpl_q`): the decided / done sets the model has are those with it.
    s += "  wire [W-1:0] t_dec = t_dec_q | (t_cplq ? t_pendq : {W{1'b0}});
  wire [W-1:0] t_done = t_done_q | (t_cplq ? t_pendq : {W{1'b0}});\n";
    // The request register's byte-operand terms, as `RequestReg` computes
    // them from its `tx` (XB = TB + 2 bits; max = MAXTX).
    s += "  wire [TB+1:0] k_amt = {2'b00, t_rtx};
  wire [TB+1:0] k_max = MAXTX;
  wire [TB+1:0] k_sign = {1'b1, {(TB+1){1'b0}}};
  wire [TB+1:0] k_hi = (k_max - k_amt) ^ k_sign;
  wire [TB+1:0] k_lo = (k_amt - k_max) ^ k_sign;
  wire [TB+1:0] k_neg = -k_amt;\n";
    for (n, wd) in [("pend", cbp), ("exp", cbp), ("tx", tbp)] {
        s += &format!(
            "  wire [{}:0] t_d{n} = (t_d{n}_hit && t_d{n}_bv) ? t_d{n}_byp : t_d{n}_ram;\n",
            wd - 1
        );
    }
    s += &format!(
        "  reg [CB-1:0] r_pend, r_exp; reg [TB-1:0] r_tx; reg [{}:0] r_timer;\n",
        tmb - 1
    );
    s += "  always @* begin
    r_pend = 0; r_exp = 0; r_tx = 0; r_timer = 0;
    case (fe)\n";
    for i in 0..m {
        s += &format!(
            "      {i}: begin r_pend = t_pend_{i}; r_exp = t_exp_{i}; r_tx = t_tx_{i}; end\n"
        );
    }
    s += "    endcase
    case (fw)\n";
    for k in 0..w {
        s += &format!("      {k}: r_timer = t_timer_{k};\n");
    }
    s += "    endcase
  end\n";
    s += "  wire signed [TX-1:0] r_txs = $signed({{2{r_tx[TB-1]}}, r_tx});\n";
    // The wake arbiter keeps its pointer as a mask (the positions at or
    // after it): the pointer is the mask's lowest set bit (0 for the empty
    // mask, which orders the warps as the full one does).
    s += "  reg [WB-1:0] t_rr;\n  integer k_rr;\n  always @* begin\n    t_rr = 0;\n    for (k_rr = W - 1; k_rr >= 0; k_rr = k_rr - 1)\n      if (t_ge[k_rr]) t_rr = k_rr;\n  end\n";
    s += "  wire [W-1:0] t_ge_low = t_ge & (~t_ge + 1'b1);\n  wire [W-1:0] t_ge_end = t_ge + t_ge_low;   // 0 iff the mask is a thermometer (or empty)\n";
    s += "  wire [WB-1:0] f_dist = fw - t_rr;   // round-robin distance from the pointer to fw\n";
    let on: Vec<String> = (0..w)
        .rev()
        .map(|k| format!("t_wentry_{k} == fe"))
        .collect();
    s += &format!("  wire [W-1:0] t_on_fe = {{{}}};\n", on.join(", "));
    let on_r: Vec<String> = (0..w)
        .rev()
        .map(|k| format!("t_wentry_{k} == t_rentry"))
        .collect();
    s += &format!("  wire [W-1:0] t_on_rq = {{{}}};\n", on_r.join(", "));
    s
}

/// The invariants: combinational (`always @*`), so each one is checked in
/// the step it names and k-induction assumes it in the steps before.
const INVARIANTS: &str = "
`ifdef G_INV
  always @* begin
    if (!reset) begin
      INV_entry: assert (e_v == t_valid[fe] && e_par == t_parity[fe]
                         && (!e_v || (e_pend == r_pend && e_exp == r_exp && e_tx == r_txs))
                         && (e_v || (e_pend == 0 && e_exp == 0 && e_tx == 0)));
      INV_range: assert (e_tx <= MAXTX && e_tx >= -MAXTX && e_pend <= e_exp && e_exp <= MAXC);
      INV_sfe: assert ((suspended & sfe) == (suspended & t_on_fe) && suspended == t_susp);
      INV_wt: assert ((t_dec & ~t_susp) == 0 && (t_done & ~t_dec) == 0);
      INV_fw: assert (f_s ? (sfe[fw] && (!fw_woken ? (t_susp[fw] && t_on_fe[fw] && t_dec[fw] == f_dec
                                                     && (!f_dec || t_done[fw] == f_done)
                                                     && (f_dec || (r_timer == f_timer && t_wpar[fw] == e_par && e_v && f_timer < L)))
                                    : (!t_susp[fw] && f_dec)))
                          : !(sfe[fw] && (t_susp[fw] || fw_woken)));
      INV_age: assert (t_ge_end == 0 && (!f_dec || f_s) && (!(f_s && f_dec && !fw_woken) || f_age + f_dist <= W - 1));
      INV_req: assert (t_rhi == k_hi && t_rlo == k_lo && t_rneg == k_neg
                       && q_v == t_rv && (!q_v || (q_port != 2'd3 && q_port == t_rport && q_entry == t_rentry
                         && (q_port == 2'd1 || q_count == t_rcount) && (q_port == 2'd2 || q_tx == t_rtx)
                         && (q_port != 2'd0 || (q_warp == t_rwarp && q_code == t_rcode && q_par == t_rpar))
                         && (q_port != 2'd1 || (t_rcode == 4'd6 && t_rwarp == 0))
                         && (q_port != 2'd2 || (t_rcode == 4'd2 && t_rwarp == 0)))));
      INV_on: assert ((t_onq & ~wake_mask & ~(t_susp & t_on_rq)) == 0
                      && (t_onnew || |(t_onq & ~wake_mask)) == |(t_susp & t_on_rq));
      INV_rd: assert (!(t_rentry == fe) || (t_dv == e_v && t_dpar == e_par
                         && (!e_v || (t_dpend == e_pend && t_dexp == e_exp && t_dtx == e_tx[TB-1:0]))));
    end
  end
`endif\n";

/// SystemVerilog of `mbarrier_unit_formal_top` for `cfg`.
pub fn harness(cfg: &Config) -> String {
    let ports = MbarrierUnitPorts::ports(cfg);
    let (w, wb, eb, cbp, tbp) = (
        cfg.warps,
        cfg.wb(),
        cfg.eb(),
        cfg.count_port_bits(),
        cfg.tx_port_bits(),
    );
    let (maxc, maxtx, l, f, b) = (
        cfg.max_count(),
        cfg.max_tx(),
        cfg.try_wait_limit,
        cfg.wake_fanout,
        cfg.wake_bound(),
    );
    let tx = tbp + 2;
    // Counters of L + B + 2 cycles.
    let lb = l as u64 + b + 3;
    let kb = 64 - lb.leading_zeros();
    let fb = 64 - (w as u64).leading_zeros();
    let mut s = format!(
        "// mbarrier_unit_formal_top.sv: formal harness of mbarrier_unit, generated by membar-formal {} — do not edit.\n// Configuration: {}.\n\n",
        env!("CARGO_PKG_VERSION"),
        unit_ports::UnitConfig::short_name(cfg)
    );
    // In proof runs (G_PROVE: pdr, kind) the tasks of m1, m6, m2 assert the
    // invariants too (k-induction needs them); bounded runs check the port
    // properties alone.
    s += "`ifdef G_PROVE\n`ifdef G_M1\n`define G_INV\n`endif\n`ifdef G_M6\n`define G_INV\n`endif\n`ifdef G_M2\n`define G_INV\n`endif\n`endif\n";
    s += "`ifdef G_ALL\n`define G_RST\n`define G_M7\n`define G_M1\n`define G_M6\n`define G_M2\n`define G_M8\n`define G_INV\n`endif\n";
    s += &ports_section(
        &ports,
        "mbarrier_unit",
        "mbarrier_unit_formal_top",
        &[
            "reset",
            "op_valid",
            "op_ready",
            "op_warp",
            "op_code",
            "op_entry",
            "op_count",
            "op_tx",
            "op_parity",
            "ctx_valid",
            "ctx_entry",
            "ctx_bytes",
            "rarv_valid",
            "rarv_entry",
            "rarv_count",
            "ctx_ready",
            "rarv_ready",
            "rsp_valid",
            "rsp_warp",
            "rsp_op",
            "rsp_token",
            "rsp_done",
            "rsp_suspended",
            "wake_mask",
            "wake_done",
            "suspended",
            "err",
            "err_src",
            "err_cause",
        ],
    );
    let pc_wake = popcount("wake_mask", w, fb);
    s += &format!(
        "  localparam W = {w}, WB = {wb}, EB = {eb}, CB = {cbp}, TB = {tbp}, TX = {tx}, KB = {kb};
  localparam integer MAXC = {maxc}, MAXTX = {maxtx}, L = {l}, F = {f}, B = {b};
  (* anyconst *) reg [EB-1:0] fe;   // the entry watched
  (* anyconst *) reg [WB-1:0] fw;   // the warp watched (m2)

  // Entry fe at the start of the cycle.
  reg e_v, e_par; reg [CB-1:0] e_pend, e_exp; reg signed [TX-1:0] e_tx;
  // Warps whose latest suspending try_wait was on fe (with `suspended`: waiters of fe).
  reg [W-1:0] sfe;
  wire waiters = (suspended & sfe) != 0;

  // The request the unit accepted in the previous cycle (registered from
  // the ports' valid and ready), stepped in this cycle: one port at a time.
  reg q_v; reg [1:0] q_port; reg [WB-1:0] q_warp; reg [3:0] q_code; reg [EB-1:0] q_entry;
  reg [CB-1:0] q_count; reg [TB-1:0] q_tx; reg q_par;
  wire s_ctx_valid = q_v && q_port == 2'd1;
  wire [EB-1:0] s_ctx_entry = q_entry;
  wire [TB-1:0] s_ctx_bytes = q_tx;
  wire s_rarv_valid = q_v && q_port == 2'd2;
  wire [EB-1:0] s_rarv_entry = q_entry;
  wire [CB-1:0] s_rarv_count = q_count;
  wire s_op_valid = q_v && q_port == 2'd0;
  wire [WB-1:0] s_op_warp = q_warp;
  wire [3:0] s_op_code = q_code;
  wire [EB-1:0] s_op_entry = q_entry;
  wire [CB-1:0] s_op_count = q_count;
  wire [TB-1:0] s_op_tx = q_tx;
  wire s_op_parity = q_par;
  always @(posedge clock) begin
    q_v <= !reset && (op_ready || ctx_ready || rarv_ready);
    q_port <= ctx_ready ? 2'd1 : rarv_ready ? 2'd2 : 2'd0;
    q_warp <= op_warp; q_code <= op_code; q_par <= op_parity;
    q_entry <= ctx_ready ? ctx_entry : rarv_ready ? rarv_entry : op_entry;
    q_count <= rarv_ready ? rarv_count : op_count;
    q_tx <= ctx_ready ? ctx_bytes : op_tx;
  end

  // Step 1: complete-tx.
  wire signed [TX-1:0] ctxb = $signed({{2'b00, s_ctx_bytes}});
  wire c_hit = s_ctx_valid && s_ctx_entry == fe;
  wire [3:0] c_cause = !e_v ? 4'd3 : (ctxb > MAXTX || (e_tx - ctxb) < -MAXTX) ? 4'd6 : 4'd0;
  wire c_ok = c_hit && c_cause == 0;
  wire signed [TX-1:0] tx1 = c_ok ? e_tx - ctxb : e_tx;
  wire comp1 = c_ok && e_pend == 0 && tx1 == 0;
  wire par1 = comp1 ? !e_par : e_par;
  wire [CB-1:0] pend1 = comp1 ? e_exp : e_pend;
  // Step 2: remote arrive.
  wire r_hit = s_rarv_valid && s_rarv_entry == fe;
  wire [3:0] r_cause = !e_v ? 4'd3 : (s_rarv_count == 0 || s_rarv_count > MAXC) ? 4'd4 : (s_rarv_count > pend1) ? 4'd5 : 4'd0;
  wire r_ok = r_hit && r_cause == 0;
  wire [CB-1:0] pend2a = r_ok ? pend1 - s_rarv_count : pend1;
  wire comp2 = r_ok && pend2a == 0 && tx1 == 0;
  wire par2 = comp2 ? !par1 : par1;
  wire [CB-1:0] pend2 = comp2 ? e_exp : pend2a;
  // Step 3: the operation.
  wire [W-1:0] wbit = {{{{(W-1){{1'b0}}}}, 1'b1}} << s_op_warp;
  wire o_susp_w = (suspended & wbit) != 0;
  wire o_res = s_op_code > 4'd8;
  wire o_hit = s_op_valid && s_op_entry == fe;
  wire o_indep = s_op_valid && (o_res || o_susp_w);        // errs whatever the entry
  wire cnt_bad = s_op_count == 0 || s_op_count > MAXC;
  wire is_arr = s_op_code == 4'd2 || s_op_code == 4'd3 || s_op_code == 4'd4;
  wire signed [TX-1:0] optx = $signed({{2'b00, s_op_tx}});
  wire signed [TX-1:0] tx_arr = (s_op_code == 4'd4) ? tx1 + optx : tx1;
  wire [3:0] o_cause =
      o_res ? 4'd1 : o_susp_w ? 4'd2
    : s_op_code == 4'd0 ? (cnt_bad ? 4'd4 : waiters ? 4'd7 : 4'd0)
    : !e_v ? 4'd3
    : s_op_code == 4'd1 ? (waiters ? 4'd7 : 4'd0)
    : is_arr ? (cnt_bad ? 4'd4 : (tx_arr > MAXTX || (s_op_code == 4'd4 && optx > MAXTX)) ? 4'd6
               : (s_op_count > pend2 || (s_op_code == 4'd3 && s_op_count >= e_exp)) ? 4'd5 : 4'd0)
    : s_op_code == 4'd5 ? ((optx > MAXTX || tx1 + optx > MAXTX) ? 4'd6 : 4'd0)
    : s_op_code == 4'd6 ? ((optx > MAXTX || tx1 - optx < -MAXTX) ? 4'd6 : 4'd0)
    : 4'd0;
  wire o_ok = o_hit && o_cause == 0;
  wire signed [TX-1:0] tx3 = !o_ok ? tx1 : is_arr ? tx_arr : s_op_code == 4'd5 ? tx1 + optx : s_op_code == 4'd6 ? tx1 - optx : tx1;
  wire [CB-1:0] pend3a = (o_ok && is_arr) ? pend2 - s_op_count : pend2;
  wire [CB-1:0] exp3 = (o_ok && s_op_code == 4'd3) ? e_exp - s_op_count : e_exp;
  wire step3_changes = o_ok && (is_arr || s_op_code == 4'd5 || s_op_code == 4'd6);
  wire comp3 = step3_changes && e_v && pend3a == 0 && tx3 == 0;
  wire o_done = par2 != s_op_parity;
  wire o_suspends = o_ok && s_op_code == 4'd8 && !o_done;
  wire comp_any = comp1 || comp2 || comp3;

  // Expected response (m1) and error report (m6), due next cycle.
  reg x_rk, x_tok, x_done, x_sus;
  reg x_ek, x_err; reg [1:0] x_src; reg [3:0] x_cause;
  wire o_known = !s_op_valid || o_indep || o_hit;
  wire [3:0] o_c = s_op_valid ? o_cause : 4'd0;
  wire c_known = !s_ctx_valid || c_hit;
  wire [3:0] c_c = c_hit ? c_cause : 4'd0;
  wire r_known = !s_rarv_valid || r_hit;
  wire [3:0] r_c = r_hit ? r_cause : 4'd0;
  wire e_known = o_known && (o_c != 0 || (c_known && (c_c != 0 || r_known)));

  // Warp fw's try_wait on fe.
  reg f_s, f_dec, f_done; reg [KB-1:0] f_timer, f_age;
  wire fw_woken = wake_mask[fw];
  reg prev_susp_fw; reg [KB-1:0] run;

  always @(posedge clock) begin
    if (reset) begin
      e_v <= 1'b0; e_par <= 1'b0; e_pend <= 0; e_exp <= 0; e_tx <= 0; sfe <= 0;
      x_rk <= 1'b0; x_ek <= 1'b1; x_err <= 1'b0; x_src <= 0; x_cause <= 0;
      f_s <= 1'b0; f_dec <= 1'b0; f_done <= 1'b0; f_timer <= 0; f_age <= 0;
      prev_susp_fw <= 1'b0; run <= 0;
    end else begin
      // fe after the three steps.
      if (o_ok && s_op_code == 4'd0) begin
        e_v <= 1'b1; e_par <= 1'b0; e_pend <= s_op_count; e_exp <= s_op_count; e_tx <= 0;
      end else if (o_ok && s_op_code == 4'd1) begin
        e_v <= 1'b0; e_par <= 1'b0; e_pend <= 0; e_exp <= 0; e_tx <= 0;
      end else begin
        e_par <= comp3 ? !par2 : par2;
        e_pend <= comp3 ? exp3 : pend3a;
        e_exp <= exp3;
        e_tx <= tx3;
      end
      if (s_op_valid && s_op_code == 4'd8 && !o_susp_w && !o_res)
        sfe <= (sfe & ~wbit) | (o_suspends ? wbit : {{W{{1'b0}}}});
      x_rk <= s_op_valid && (o_indep || o_hit);
      x_tok <= o_ok && is_arr ? par2 : 1'b0;
      x_done <= o_ok && (s_op_code == 4'd7 || s_op_code == 4'd8) ? o_done : 1'b0;
      x_sus <= o_suspends;
      x_ek <= e_known;
      x_err <= (o_c | c_c | r_c) != 0;
      x_src <= o_c != 0 ? 2'd0 : c_c != 0 ? 2'd1 : 2'd2;
      x_cause <= o_c != 0 ? o_c : c_c != 0 ? c_c : r_c;
      // fw: decision, age, wake.
      if (f_s && !f_dec) begin
        if (comp_any) begin f_dec <= 1'b1; f_done <= 1'b1; f_age <= 0; end
        else if (f_timer + 1 >= L) begin f_dec <= 1'b1; f_done <= 1'b0; f_age <= 0; end
        else f_timer <= f_timer + 1'b1;
      end else if (f_dec && f_age != {{KB{{1'b1}}}}) f_age <= f_age + 1'b1;
      if (fw_woken) begin f_s <= 1'b0; f_dec <= 1'b0; end
      if (o_suspends && s_op_warp == fw) begin
        f_s <= 1'b1; f_dec <= 1'b0; f_done <= 1'b0; f_timer <= 0; f_age <= 0;
      end
      prev_susp_fw <= suspended[fw];
      run <= suspended[fw] ? (run == {{KB{{1'b1}}}} ? run : run + 1'b1) : 0;
    end
  end

  always @(posedge clock) begin
    if (reset) begin
`ifdef G_RST
      RST_outputs_zero: assert (!op_ready && !ctx_ready && !rarv_ready && !rsp_valid && rsp_warp == 0 && rsp_op == 0 && !rsp_token && !rsp_done
                         && !rsp_suspended && wake_mask == 0 && wake_done == 0 && suspended == 0 && !err
                         && err_src == 0 && err_cause == 0);
`endif
    end else begin
`ifdef G_M7
      M7_ready: assert ((op_ready + ctx_ready + rarv_ready) <= 1 && (!op_ready || op_valid) && (!ctx_ready || ctx_valid)
                        && (!rarv_ready || rarv_valid) && (!(op_valid || ctx_valid || rarv_valid) || op_ready || ctx_ready || rarv_ready));
      M7_fair: assert (h_op < 3 && h_ctx < 3 && h_rarv < 3);
      M7_rsp: assert (rsp_valid == p2_valid && (!rsp_valid || (rsp_warp == p2_warp && rsp_op == p2_code)));
      M7_rsp_idle: assert (rsp_valid || (rsp_warp == 0 && rsp_op == 0 && !rsp_token && !rsp_done && !rsp_suspended));
`endif
`ifdef G_M1
      M1_rsp_exact: assert (!x_rk || (rsp_token == x_tok && rsp_done == x_done && rsp_suspended == x_sus));
`endif
`ifdef G_M6
      M6_err: assert (!x_ek || (err == x_err && (!x_err || (err_src == x_src && err_cause == x_cause))));
      M6_quiet: assert (err || (err_src == 0 && err_cause == 0));
`endif
`ifdef G_M2
      M2_suspended: assert (!(f_s && !fw_woken) || suspended[fw]);
      M2_not_suspended: assert (!(suspended[fw] && sfe[fw]) || (f_s && !fw_woken));
      M2_wake_decided: assert (!(fw_woken && sfe[fw]) || (f_s && f_dec && wake_done[fw] == f_done));
      M3_wake_bound: assert (!(f_dec && !fw_woken && f_age >= B));
`endif
`ifdef G_M8
      M3_fanout: assert (({pc_wake}) <= F);
      M3_done_in_mask: assert ((wake_done & ~wake_mask) == 0);
      M3_wake_only_suspended: assert (!fw_woken || prev_susp_fw);
      M8_liveness: assert (run < L + B + 1);
`endif
    end
  end
  // The operation accepted two cycles before (M7), and how long each port's
  // request has been held without being taken.
  reg p2_valid; reg [WB-1:0] p2_warp; reg [3:0] p2_code;
  reg [1:0] h_op, h_ctx, h_rarv;
  always @(posedge clock) begin
    p2_valid <= !reset && s_op_valid; p2_warp <= q_warp; p2_code <= q_code;
    h_op <= (reset || !op_valid || op_ready) ? 2'd0 : (h_op == 2'd3 ? h_op : h_op + 2'd1);
    h_ctx <= (reset || !ctx_valid || ctx_ready) ? 2'd0 : (h_ctx == 2'd3 ? h_ctx : h_ctx + 2'd1);
    h_rarv <= (reset || !rarv_valid || rarv_ready) ? 2'd0 : (h_rarv == 2'd3 ? h_rarv : h_rarv + 2'd1);
  end
"
    );
    s += &taps(cfg);
    s += INVARIANTS;
    s += "endmodule\n";
    s
}

/// The unit's formal run for `cfg`.
pub fn spec(cfg: &Config) -> UnitSpec {
    let c = *cfg;
    UnitSpec {
        unit: "mbarrier",
        module: "mbarrier_unit",
        groups: GROUPS,
        harness: harness(cfg),
        top: "mbarrier_unit_formal_top".into(),
        replay: Box::new(move |v| {
            let ports = MbarrierUnitPorts::ports(&c);
            let mut model = MbarrierModel::new(&c);
            let mut sv = MbarScoreboard::new(&c);
            let mut sm = MbarScoreboard::new(&c);
            membar_formal::unit::replay_unit::<MbarrierUnitPorts>(
                &ports,
                v,
                &mut model,
                Box::new(move |k, i, o| sv.check(k, i, o).map_err(|e| e.to_string())),
                Box::new(move |k, i, o| sm.check(k, i, o).map_err(|e| e.to_string())),
            )
        }),
    }
}
