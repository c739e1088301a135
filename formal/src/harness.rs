//! The formal harness: SystemVerilog text of `membar_formal_top`, which
//! instantiates `membar_unit` with every input free (`(* anyseq *)`), reset
//! forced in the first cycle, and a port-level monitor of SPEC.md's
//! properties written as labelled immediate assertions inside
//! `always @(posedge clock)` (what yosys `read -formal` accepts).
//!
//! The port declarations and the instance are generated from
//! [`membar_unit_env::ports::spec_ports`], never retyped. The monitor mirrors the
//! port-only scoreboard (`sim/membar_unit/src/scoreboard.rs`) with bounded state: see
//! [`GROUPS`] for the properties and `docs/formal.md` for the readings.

use membar_unit_env::ports::{spec_ports, Dir, Port};
use membar_unit_env::Config;
use std::fmt::Write;

/// One property group: one sby task, one `` `define `` selecting its assertions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// Task name (`--props` value).
    pub name: &'static str,
    /// The assertion labels it holds.
    pub props: &'static [&'static str],
    /// What it checks, for reports.
    pub what: &'static str,
}

/// Every property group, in report order.
pub const GROUPS: &[Group] = &[
    Group {
        name: "rst",
        props: &["RST_outputs_zero"],
        what: "every output is 0 in a reset cycle (scoreboard: P2/P3/P7 during reset)",
    },
    Group {
        name: "p2",
        props: &[
            "P2_blocked_eq_pending",
            "P2_no_accept_blocked",
            "P2_release_only_blocked",
            "P2_release_valid",
        ],
        what: "P2 (for a free constant warp fw, hence every warp): warp_blocked equals the pending set (high from the cycle after the MEMBAR is accepted through the release cycle), no request of a pending warp accepted, release_mask only of pending warps, release_valid == (release_mask != 0)",
    },
    Group {
        name: "p3s",
        props: &[
            "P3_stable",
            "P3_kind",
            "P3_txn_form",
            "P3_inval_form",
            "P3_bar_form",
            "P3_ready_valid",
        ],
        what: "P3: dn_* stable while dn_valid && !dn_ready; encodings in range (kind != 3, TXN/INVAL/BARRIER fields as SPEC.md says); req_ready only with req_valid",
    },
    Group {
        name: "p3c",
        props: &["P3_no_extra", "P3_order", "P3_order_pass", "MON_fifo_depth"],
        what: "P3 conservation: a tracked free accepted LD/ST/ATOM/RED leaves as the TXN after exactly the ones accepted before it, with its warp, op and id (none dropped, duplicated, reordered or altered); no TXN without an accepted one; at most 2 accepted and unsent (monitor capacity)",
    },
    Group {
        name: "p7",
        props: &["P7_err", "P7_reserved_refused", "MON_bar_depth"],
        what: "P7: err exactly for a reserved op presented, an ack of a tag with nothing outstanding, or a bar_ack with no dn_ack_req BARRIER awaiting it; a reserved op never accepted; at most one dn_ack_req BARRIER awaiting per tag (monitor capacity)",
    },
    Group {
        name: "cnt",
        props: &["CNT_no_wrap"],
        what: "counter-full rule: no tag ever has more than 2^counter_bits - 1 TXNs sent and unacknowledged (a full counter refuses, never wraps)",
    },
    Group {
        name: "p4",
        props: &["P4_txn_throughput", "P4_cta_never_refused"],
        what: "P4: a refused LD/ST/ATOM/RED of a non-pending warp is excused by a stalled output, a possibly full counter (outstanding of some tag + accepted-unsent >= 2^counter_bits - 1) or an INVAL/BARRIER presented next cycle; a plain MEMBAR.CTA of a non-pending warp is never refused",
    },
    Group {
        name: "p5",
        props: &["P5_liveness_bound"],
        what: "P5 (bounded liveness as a safety property): a pending warp waits at most max(coalesce_window + 2, 3) consecutive quiescent cycles (nothing presented, nothing accepted-unsent, unacknowledged or awaiting bar_ack)",
    },
    Group {
        name: "p1",
        props: &[
            "P1_sent",
            "P1_vc_barrier",
            "P1_gl_acks",
            "P1_sys_bar_ack",
            "P1_ivall",
            "P1_ack_req",
            "MON_bar_depth",
        ],
        what: "P1 for a free constant warp fw: released only after its prior TXNs were sent (CTA), a BARRIER of level >= L sent after them (VC), the ack count check per tag (GL), a bar-acked dn_ack_req BARRIER of level >= L after them (SYS, GL with gl_bar_ack, ivall, with the INVALs between); every BARRIER carries dn_ack_req when SPEC.md requires it",
    },
];

/// The group called `name`.
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// The group an assertion label belongs to (first match).
pub fn group_of(label: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.props.contains(&label))
}

/// Most accepted, not yet transferred TXNs the conservation monitor allows
/// (the design holds one in its output register; `MON_fifo_depth` proves it).
pub const FIFO_DEPTH: u32 = 2;

fn range(w: u32) -> String {
    if w > 1 {
        format!("[{}:0] ", w - 1)
    } else {
        String::new()
    }
}

/// The ports the monitor reads, checked against [`spec_ports`] so a renamed
/// port fails loudly here instead of producing a harness that does not parse.
const MONITOR_PORTS: &[&str] = &[
    "clock",
    "reset",
    "req_valid",
    "req_ready",
    "req_warp",
    "req_op",
    "req_level",
    "req_ivall",
    "req_id",
    "dn_valid",
    "dn_ready",
    "dn_kind",
    "dn_tag",
    "dn_warp",
    "dn_op",
    "dn_level",
    "dn_ack_req",
    "dn_id",
    "ack_valid",
    "ack_tag",
    "bar_ack_valid",
    "bar_ack_tag",
    "warp_blocked",
    "release_valid",
    "release_mask",
    "err",
];

/// SystemVerilog of `membar_formal_top` for `cfg`. Every group's assertions
/// sit under `` `ifdef G_<GROUP> `` (upper case); the sby task defines one.
pub fn harness(cfg: &Config) -> String {
    let ports = spec_ports(cfg);
    for p in MONITOR_PORTS {
        assert!(
            ports.iter().any(|q| q.name == *p),
            "spec_ports has no port `{p}` the formal monitor reads"
        );
    }
    let (w, wb, k, tb, cb) = (cfg.warps, cfg.wb(), cfg.slots, cfg.tb(), cfg.counter_bits);
    let cmax = cfg.counter_max();
    let glack = cfg.gl_bar_ack as u32;
    let ow = cb + 1; // outstanding / tail counters hold cmax + 1
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// membar_formal_top.sv: formal harness of membar_unit, generated by membar-formal {} — do not edit.\n\
         // Configuration: {}\n\
         // All inputs free, reset in cycle 0 (and free later), port-level monitor of SPEC.md\n\
         // properties as labelled immediate assertions; `define G_<GROUP> selects a group.\n",
        env!("CARGO_PKG_VERSION"),
        cfg.to_yaml().trim().replace('\n', ", ")
    );
    let _ = writeln!(s, "module membar_formal_top(input wire clock);");
    let _ = writeln!(
        s,
        "  localparam W = {w}, WB = {wb}, K = {k}, TB = {tb}, CB = {cb}, CMAX = {cmax}, GLACK = {glack};"
    );
    // ---- ports, from spec_ports ----
    let _ = writeln!(
        s,
        "  // The ports of membar_unit (from spec_ports): inputs free, outputs observed."
    );
    for &Port { name, dir, width } in &ports {
        let width = &width;
        match (name, dir) {
            ("clock", _) => {}
            ("reset", _) => {
                let _ = writeln!(s, "  (* anyseq *) wire {}reset_free;", range(*width));
                let _ = writeln!(s, "  reg init = 1'b1;");
                let _ = writeln!(s, "  always @(posedge clock) init <= 1'b0;");
                let _ = writeln!(s, "  wire {}reset = init | reset_free;", range(*width));
            }
            (_, Dir::In | Dir::Clock) => {
                let _ = writeln!(s, "  (* anyseq *) wire {}{name};", range(*width));
            }
            (_, Dir::Out) => {
                let _ = writeln!(s, "  wire {}{name};", range(*width));
            }
        }
    }
    let conns: Vec<String> = ports
        .iter()
        .map(|p| format!("    .{0}({0})", p.name))
        .collect();
    let _ = writeln!(s, "  membar_unit dut (\n{}\n  );\n", conns.join(",\n"));

    // ---- free choices of the monitor ----
    let _ = writeln!(
        s,
        "  (* anyconst *) reg {}fw;   // the warp P1 tracks\n  (* anyseq *) wire pick;          // track this cycle's accepted TXN (P3 conservation)\n",
        range(wb)
    );

    // ---- handshakes ----
    s.push_str(
        "  wire acc      = req_valid && req_ready;
  wire acc_txn  = acc && req_op <= 3'd3;
  wire acc_mb   = acc && req_op == 3'd4;
  wire reserved = req_valid && req_op >= 3'd5;
  wire fire     = dn_valid && dn_ready;
  wire fire_txn = fire && dn_kind == 2'd0;
  wire fire_inv = fire && dn_kind == 2'd1;
  wire fire_bar = fire && dn_kind == 2'd2;
  wire fw_txn   = fire_txn && dn_warp == fw;

",
    );

    // ---- pending set (P2, P1) ----
    let _ = writeln!(
        s,
        "  // Pending MEMBAR of warp fw: accepted in an earlier cycle, not released in an earlier cycle.\n  // P2 is proven for this free constant warp, hence for every warp; the groups\n  // that need the whole pending set (P4, P5) read it as warp_blocked, which P2 proves equal.\n  reg pf;\n  always @(posedge clock) pf <= reset ? 1'b0 : ((pf && !release_mask[fw]) || (acc_mb && req_warp == fw));\n  wire {r}pend = warp_blocked;\n",
        r = range(w)
    );

    // ---- per-tag counters: outstanding, awaiting bar_ack, P1 tails ----
    let _ = writeln!(s, "  // Per tag: TXNs transferred and not acknowledged (outst), a dn_ack_req BARRIER awaiting bar_ack (aw).");
    let mut outst_sel = format!("{ow}'d0");
    let mut aw_sel = String::from("1'b0");
    for t in 0..k {
        outst_sel = format!("(ack_tag == {tb}'d{t}) ? outst_{t} : {outst_sel}");
        aw_sel = format!("(bar_ack_tag == {tb}'d{t}) ? aw_{t} : {aw_sel}");
    }
    for t in 0..k {
        let _ = writeln!(
            s,
            "  reg [{o}:0] outst_{t};\n  reg aw_{t};\n  wire ack_{t}  = ack_valid && ack_tag == {tb}'d{t} && outst_{t} != {ow}'d0;\n  wire inc_{t}  = fire_txn && dn_tag == {tb}'d{t};\n  wire [{o}:0] outst_next_{t} = outst_{t} - ack_{t} + inc_{t};\n  wire pop_{t}  = bar_ack_valid && bar_ack_tag == {tb}'d{t} && aw_{t};\n  wire push_{t} = fire_bar && dn_ack_req && dn_tag == {tb}'d{t};\n  always @(posedge clock) begin\n    outst_{t} <= reset ? {ow}'d0 : outst_next_{t};\n    aw_{t} <= reset ? 1'b0 : ((aw_{t} && !pop_{t}) || push_{t});\n  end",
            o = ow - 1
        );
    }
    let _ = writeln!(
        s,
        "  wire [{o}:0] outst_ack = {outst_sel};\n  wire aw_bar = {aw_sel};\n  wire spur_ack = ack_valid && outst_ack == {ow}'d0;\n  wire spur_bar = bar_ack_valid && !aw_bar;\n",
        o = ow - 1
    );

    // ---- P3 stability ----
    s.push_str(
        "  // The command presented and not taken last cycle.
  reg stalled;
  reg [1:0] s_kind; reg [TB-1:0] s_tag; reg [WB-1:0] s_warp; reg [2:0] s_op; reg [1:0] s_level; reg s_ack_req; reg [15:0] s_id;
  always @(posedge clock) begin
    stalled <= !reset && dn_valid && !dn_ready;
    s_kind <= dn_kind; s_tag <= dn_tag; s_warp <= dn_warp; s_op <= dn_op; s_level <= dn_level; s_ack_req <= dn_ack_req; s_id <= dn_id;
  end

",
    );

    // ---- P3 conservation ----
    let _ = writeln!(
        s,
        "  // Conservation: accepted-unsent count, and one tracked accepted TXN with the count ahead of it.
  reg [3:0] inflight;
  reg trk; reg [WB-1:0] trk_warp; reg [2:0] trk_op; reg [15:0] trk_id; reg [3:0] ahead;
  wire [3:0] avail = inflight + acc_txn;          // accepted (this cycle included) and unsent
  wire head_is_trk = trk && ahead == 4'd0;
  wire new_trk = !trk && acc_txn && pick;
  wire new_is_head = new_trk && inflight == 4'd0; // passes straight through if sent this cycle
  always @(posedge clock) begin
    if (reset) begin
      inflight <= 4'd0; trk <= 1'b0; ahead <= 4'd0;
    end else begin
      inflight <= avail - fire_txn;
      if (trk) begin
        if (fire_txn) begin
          if (ahead == 4'd0) trk <= 1'b0; else ahead <= ahead - 4'd1;
        end
      end else if (new_trk && !(new_is_head && fire_txn)) begin
        trk <= 1'b1; trk_warp <= req_warp; trk_op <= req_op; trk_id <= req_id;
        ahead <= inflight - fire_txn;
      end
    end
  end
"
    );

    // ---- P1 for fw ----
    let _ = writeln!(
        s,
        "  // P1 for warp fw: its pending MEMBAR, its unsent TXNs, what was sent / acked after its last TXN.
  reg [1:0] f_lvl; reg [1:0] f_iv;
  reg [3:0] f_unsent;
  reg [3:0] bar_ge;          // a BARRIER of level >= L sent after fw's last TXN
  reg [3:0] ok_ge;           // a dn_ack_req BARRIER of level >= L sent after fw's last TXN and bar-acked
  reg [3:0] okd_ge, okt_ge;  // ... with an INVAL D / INVAL T between fw's last TXN and it
  reg invd_after, invt_after, inval_since_bar;
  wire fw_rel = release_mask[fw] && pf;
  always @(posedge clock) begin
    if (acc_mb && req_warp == fw) begin f_lvl <= req_level; f_iv <= req_ivall; end
    if (reset) begin
      f_unsent <= 4'd0; bar_ge <= 4'd0; ok_ge <= 4'd0; okd_ge <= 4'd0; okt_ge <= 4'd0;
      invd_after <= 1'b0; invt_after <= 1'b0; inval_since_bar <= 1'b0;
    end else begin
      f_unsent <= f_unsent + (acc_txn && req_warp == fw) - fw_txn;
      inval_since_bar <= fire_inv ? 1'b1 : fire_bar ? 1'b0 : inval_since_bar;
      if (fw_txn) begin
        bar_ge <= 4'd0; ok_ge <= 4'd0; okd_ge <= 4'd0; okt_ge <= 4'd0;
        invd_after <= 1'b0; invt_after <= 1'b0;
      end else begin
        if (fire_bar) bar_ge <= bar_ge | {{dn_level >= 2'd3, dn_level >= 2'd2, dn_level >= 2'd1, 1'b1}};
        if (fire_inv && dn_op == 3'd0) invd_after <= 1'b1;
        if (fire_inv && dn_op == 3'd1) invt_after <= 1'b1;
        ok_ge <= ok_ge | acked_ge; okd_ge <= okd_ge | acked_d; okt_ge <= okt_ge | acked_t;
      end
    end
  end"
    );
    let mut acked = String::from("4'd0");
    let mut acked_d = String::from("4'd0");
    let mut acked_t = String::from("4'd0");
    let mut gl_ok = String::from("1'b1");
    for t in 0..k {
        let _ = writeln!(
            s,
            "  reg [{o}:0] tail_{t}; reg touched_{t};
  reg awa_{t}; reg [1:0] awl_{t}; reg awd_{t}; reg awt_{t};
  wire [3:0] lv_{t} = {{awl_{t} >= 2'd3, awl_{t} >= 2'd2, awl_{t} >= 2'd1, 1'b1}};
  wire [3:0] acked_{t} = (pop_{t} && awa_{t}) ? lv_{t} : 4'd0;
  always @(posedge clock) begin
    if (reset) begin
      tail_{t} <= {ow}'d0; touched_{t} <= 1'b0; awa_{t} <= 1'b0;
    end else begin
      if (fw_txn && dn_tag == {tb}'d{t}) begin touched_{t} <= 1'b1; tail_{t} <= {ow}'d0; end
      else if (inc_{t} && tail_{t} != {{{ow}{{1'b1}}}}) tail_{t} <= tail_{t} + {ow}'d1;
      if (push_{t}) begin awa_{t} <= 1'b1; awl_{t} <= dn_level; awd_{t} <= invd_after; awt_{t} <= invt_after; end
      else if (fw_txn) awa_{t} <= 1'b0;
    end
  end",
            o = ow - 1
        );
        acked = format!("{acked} | acked_{t}");
        acked_d = format!("{acked_d} | (awd_{t} ? acked_{t} : 4'd0)");
        acked_t = format!("{acked_t} | (awt_{t} ? acked_{t} : 4'd0)");
        gl_ok = format!("{gl_ok} && (!touched_{t} || outst_{t} <= tail_{t})");
    }
    let _ = writeln!(
        s,
        "  wire [3:0] acked_ge = {acked};\n  wire [3:0] acked_d = {acked_d};\n  wire [3:0] acked_t = {acked_t};\n  wire gl_ok = {gl_ok};\n  wire need_ack = dn_level == 2'd3 || inval_since_bar || (GLACK && dn_level == 2'd2);\n"
    );

    let bound = (cfg.coalesce_window + 2).max(3);
    let mut full_any = String::from("1'b0");
    let mut quiet_ok = String::from("!dn_valid && inflight == 4'd0");
    for t in 0..k {
        full_any = format!("{full_any} || (outst_{t} + inflight >= CMAX)");
        quiet_ok = format!("{quiet_ok} && outst_{t} == 0 && !aw_{t}");
    }
    let _ = writeln!(
        s,
        "  // P4: a refused TXN request with no excuse now must see a barrier command next cycle.
  wire refused_txn = req_valid && !req_ready && !pend[req_warp] && req_op <= 3'd3;
  wire excused_now = (dn_valid && !dn_ready) || {full_any};
  reg p4_def;
  always @(posedge clock) p4_def <= !reset && refused_txn && !excused_now;
  // P5: consecutive quiescent cycles with a warp pending and not released.
  wire quiescent = {quiet_ok};
  reg [8:0] quiet;
  always @(posedge clock) quiet <= (reset || !(quiescent && (pend & ~release_mask) != 0)) ? 9'd0 : quiet + 9'd1;
"
    );

    // ---- the assertions ----
    let mut cnt_ok = String::from("1'b1");
    let mut aw_ok = String::from("1'b1");
    for t in 0..k {
        cnt_ok = format!("{cnt_ok} && outst_next_{t} <= CMAX");
        aw_ok = format!("{aw_ok} && !(push_{t} && aw_{t} && !pop_{t})");
    }
    let _ = writeln!(
        s,
        "  always @(posedge clock) begin
    if (reset) begin
`ifdef G_RST
      RST_outputs_zero: assert (!req_ready && !dn_valid && dn_kind == 0 && dn_tag == 0 && dn_warp == 0 && dn_op == 0
                         && dn_level == 0 && !dn_ack_req && dn_id == 0 && warp_blocked == 0 && !release_valid
                         && release_mask == 0 && !err);
`endif
    end else begin
`ifdef G_P2
      P2_blocked_eq_pending: assert (warp_blocked[fw] == pf);
      P2_no_accept_blocked: assert (!(acc && req_warp == fw && pf));
      P2_release_only_blocked: assert (!release_mask[fw] || pf);
      P2_release_valid: assert (release_valid == (release_mask != 0));
`endif
`ifdef G_P3S
      P3_stable: assert (!stalled || (dn_valid && dn_kind == s_kind && dn_tag == s_tag && dn_warp == s_warp
                         && dn_op == s_op && dn_level == s_level && dn_ack_req == s_ack_req && dn_id == s_id));
      P3_kind: assert (!dn_valid || dn_kind != 2'd3);
      P3_txn_form: assert (!(dn_valid && dn_kind == 2'd0) || (dn_level == 0 && !dn_ack_req && dn_op <= 3'd3));
      P3_inval_form: assert (!(dn_valid && dn_kind == 2'd1) || (dn_op <= 3'd1 && dn_warp == 0 && dn_id == 0 && dn_level == 0 && !dn_ack_req));
      P3_bar_form: assert (!(dn_valid && dn_kind == 2'd2) || (dn_op == 0 && dn_warp == 0 && dn_id == 0));
      P3_ready_valid: assert (req_valid || !req_ready);
`endif
`ifdef G_P3C
      P3_no_extra: assert (!(fire_txn && avail == 4'd0));
      P3_order: assert (!(fire_txn && head_is_trk) || (dn_warp == trk_warp && dn_op == trk_op && dn_id == trk_id));
      P3_order_pass: assert (!(fire_txn && !trk && new_is_head) || (dn_warp == req_warp && dn_op == req_op && dn_id == req_id));
      MON_fifo_depth: assert (avail <= {FIFO_DEPTH});
`endif
`ifdef G_P7
      P7_err: assert (err == (reserved || spur_ack || spur_bar));
      P7_reserved_refused: assert (!(reserved && req_ready));
`endif
`ifdef G_CNT
      CNT_no_wrap: assert ({cnt_ok});
`endif
`ifdef G_P4
      P4_txn_throughput: assert (!p4_def || (dn_valid && dn_kind != 2'd0));
      P4_cta_never_refused: assert (!(req_valid && !req_ready && !pend[req_warp] && req_op == 3'd4 && req_level == 2'd0 && req_ivall == 2'd0));
`endif
`ifdef G_P5
      P5_liveness_bound: assert (!(quiescent && (pend & ~release_mask) != 0) || quiet < {bound});
`endif
`ifdef G_P1
      P1_sent: assert (!fw_rel || f_unsent == 4'd0);
      P1_vc_barrier: assert (!(fw_rel && f_lvl >= 2'd1) || bar_ge[f_lvl]);
      P1_gl_acks: assert (!(fw_rel && f_lvl >= 2'd2) || gl_ok);
      P1_sys_bar_ack: assert (!(fw_rel && (f_lvl == 2'd3 || (GLACK && f_lvl == 2'd2))) || ok_ge[f_lvl]);
      P1_ivall: assert (!(fw_rel && f_iv != 2'd0) || (ok_ge[f_lvl] && (!f_iv[0] || okd_ge[f_lvl]) && (!f_iv[1] || okt_ge[f_lvl])));
      P1_ack_req: assert (!fire_bar || !need_ack || dn_ack_req);
`endif
`ifdef G_MON_BAR
      MON_bar_depth: assert ({aw_ok});
`endif
    end
  end
endmodule"
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(warps: u32, slots: u32) -> Config {
        Config {
            warps,
            slots,
            ..Config::default()
        }
    }

    #[test]
    fn every_group_label_is_one_assertion_and_every_port_is_connected() {
        for c in [cfg(8, 2), cfg(32, 4), cfg(64, 8)] {
            let h = harness(&c);
            for g in GROUPS {
                for p in g.props {
                    let n = h.matches(&format!("      {p}: assert (")).count();
                    assert_eq!(n, 1, "{p} in {:?}", c.short_name());
                    assert_eq!(group_of(p).map(|g| g.props.contains(p)), Some(true));
                }
            }
            for Port { name, .. } in spec_ports(&c) {
                assert!(
                    h.contains(&format!(".{name}({name})")),
                    "port {name} not connected"
                );
            }
            assert!(h.contains(&format!("localparam W = {}", c.warps)));
        }
        assert!(group("p9").is_none() && group("p1").is_some());
    }
}
