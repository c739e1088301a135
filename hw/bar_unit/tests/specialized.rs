//! Configurations whose widths are not compiled in get their Verilog from a
//! specialized emitter (`hdl_kit::specialize`, built on demand). The emitter
//! runs the same code as the in-process path: for a compiled-in
//! configuration both give the same text, and a configuration outside the
//! compiled-in set (W = 16, C = 2, refused before) gets the contract's ports.

use bar_unit_model::config::BarConfig;
use bar_unit_rtl::dispatch::{specialization, SUPPORTED};
use bar_unit_rtl::generate_verilog;

#[test]
fn specialized_emitter_matches_the_compiled_in_path() {
    let cfg = BarConfig {
        warps: 8,
        cta_slots: 1,
    };
    assert!(SUPPORTED.contains(&(8, 1)));
    let inproc = generate_verilog(&cfg).expect("in-process Verilog");
    let spec = hdl_kit::specialize::verilog(&specialization(&cfg)).expect("specialized Verilog");
    assert_eq!(
        inproc, spec,
        "the specialized emitter must emit the same text"
    );
}

#[test]
fn w16_c2_has_verilog_with_the_contract_ports() {
    let cfg = BarConfig {
        warps: 16,
        cta_slots: 2,
    };
    assert!(!SUPPORTED.contains(&(16, 2)));
    let v = generate_verilog(&cfg).expect("w16_c2 Verilog");
    assert!(
        v.contains("//   warps: 16\n//   cta_slots: 2\n"),
        "header names the configuration"
    );
    let wrapper = &v[v.rfind("module bar_unit").expect("the bar_unit wrapper")..];
    let wrapper = wrapper.split_whitespace().collect::<Vec<_>>().join(" ");
    for port in [
        "input wire [3:0] req_warp,",
        "input wire ctl_slot,",
        "input wire [15:0] ctl_warps",
        "output wire rel_slot,",
        "output wire [15:0] rel_mask,",
        "output wire [15:0] blocked,",
        "output wire [9:0] rel_result,",
    ] {
        assert!(wrapper.contains(port), "missing `{port}` in:\n{wrapper}");
    }
    // The in-process simulation is refused with a message that says why
    // and that the Verilog path works.
    let e = bar_unit_rtl::hdl_dut(&cfg).err().expect("not compiled in");
    assert!(
        e.contains("not compiled in") && e.contains("Verilog"),
        "{e}"
    );
}

#[test]
fn invalid_configuration_is_refused_before_specializing() {
    let cfg = BarConfig {
        warps: 16,
        cta_slots: 17,
    };
    let e = generate_verilog(&cfg).unwrap_err();
    assert!(e.contains("cta_slots") && e.contains("17"), "{e}");
}
