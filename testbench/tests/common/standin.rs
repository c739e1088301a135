//! A hand-written stand-in `membar_unit` with the SPEC.md ports, used to test
//! the build/FFI/cache path without the emitted design (it is NOT the
//! membar_unit behaviour: it only passes transactions through a one-entry
//! output register and blocks warps on MEMBAR until a `bar_ack`). Test
//! support: `tests/infra.rs` and the library's port-check unit test use it.

use membar_unit_env::Config;

/// Verilog text of the stand-in for `cfg`'s port widths.
pub fn standin_verilog(cfg: &Config) -> String {
    let wb = cfg.wb();
    let tb = cfg.tb();
    let w = cfg.warps;
    format!(
        r#"// Stand-in for membar_unit (testbench development only).
module membar_unit(
  input clock,
  input reset,
  input req_valid,
  output req_ready,
  input [{wbm}:0] req_warp,
  input [2:0] req_op,
  input [1:0] req_level,
  input [1:0] req_ivall,
  input [15:0] req_id,
  output dn_valid,
  input dn_ready,
  output [1:0] dn_kind,
  output [{tbm}:0] dn_tag,
  output [{wbm}:0] dn_warp,
  output [2:0] dn_op,
  output [1:0] dn_level,
  output dn_ack_req,
  output [15:0] dn_id,
  input ack_valid,
  input [{tbm}:0] ack_tag,
  input bar_ack_valid,
  input [{tbm}:0] bar_ack_tag,
  output [{wm}:0] warp_blocked,
  output release_valid,
  output [{wm}:0] release_mask,
  output err
);
  reg v = 1'b0;
  reg [15:0] id = 16'h0;
  reg [{wbm}:0] wq = 0;
  reg [2:0] opq = 3'h0;
  reg [{wm}:0] blocked = 0;
  wire [{wm}:0] wbit = {{{{{wm}{{1'b0}}}}, 1'b1}} << req_warp;
  wire is_blocked = (blocked & wbit) != 0;
  wire reserved = req_op >= 3'd5;
  assign req_ready = !reset && req_valid && !is_blocked && !reserved && (!v || dn_ready);
  assign dn_valid = v;
  assign dn_kind = 2'd0;
  assign dn_tag = 0;
  assign dn_warp = wq;
  assign dn_op = opq;
  assign dn_level = 2'd0;
  assign dn_ack_req = 1'b0;
  assign dn_id = id;
  assign warp_blocked = blocked;
  assign release_valid = !reset && bar_ack_valid && blocked != 0;
  assign release_mask = release_valid ? blocked : 0;
  assign err = !reset && req_valid && reserved;
  always @(posedge clock) begin
    if (reset) begin
      v <= 1'b0; id <= 16'h0; wq <= 0; opq <= 3'h0; blocked <= 0;
    end else begin
      if (!v || dn_ready) v <= 1'b0;
      if (req_ready && req_op != 3'd4) begin
        v <= 1'b1; id <= req_id; wq <= req_warp; opq <= req_op;
      end
      if (release_valid) blocked <= 0;
      else if (req_ready && req_op == 3'd4) blocked <= blocked | wbit;
    end
  end
endmodule
"#,
        wbm = wb - 1,
        tbm = tb.max(1) - 1,
        wm = w - 1
    )
}
