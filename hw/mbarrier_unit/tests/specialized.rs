//! Configurations whose widths are not compiled in get their Verilog from a
//! specialized emitter (`hdl_kit::specialize`, built on demand): for a
//! compiled-in configuration it emits the same text as the in-process path,
//! and a user's own sizes get the contract's ports.

use mbarrier_unit_model::config::Config;
use mbarrier_unit_rtl::ag_dispatch::ag_specialization;
use mbarrier_unit_rtl::dispatch::specialization;
use mbarrier_unit_rtl::{ag_generate_verilog, generate_verilog};

fn wrapper(v: &str, module: &str) -> String {
    let w = &v[v.rfind(&format!("module {module}")).expect("the wrapper")..];
    w.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn specialized_emitters_match_the_compiled_in_path() {
    let small = mbarrier_unit_rtl::reduced_range()
        .into_iter()
        .find(|(n, _)| n == "w8_m8_c4_t6_l8_f1")
        .expect("reduced-range small configuration")
        .1;
    let inproc = generate_verilog(&small).unwrap();
    let spec = hdl_kit::specialize::verilog(&specialization(&small)).unwrap();
    assert_eq!(inproc, spec, "mbarrier_unit: same text both ways");
    let ag = Config {
        warps: 8,
        group_depth: 2,
        group_op_bits: 1,
        ..Config::default()
    };
    let inproc = ag_generate_verilog(&ag).unwrap();
    let spec = hdl_kit::specialize::verilog(&ag_specialization(&ag)).unwrap();
    assert_eq!(inproc, spec, "async_groups: same text both ways");
}

#[test]
fn a_users_own_sizes_get_verilog() {
    // 16 warps, 64 entries, PTX's full count and tx ranges, fan-out 4: not compiled in.
    let cfg = Config {
        warps: 16,
        entries: 64,
        count_bits: 20,
        tx_bits: 20,
        try_wait_limit: 100,
        wake_fanout: 4,
        ..Config::default()
    };
    assert!(mbarrier_unit_rtl::hdl_dut(&cfg).is_err(), "not compiled in");
    let v = generate_verilog(&cfg).expect("Verilog of a user's configuration");
    let w = wrapper(&v, "mbarrier_unit");
    for port in [
        "input wire [3:0] op_warp,",
        "input wire [5:0] op_entry,",
        "input wire [20:0] op_count,",
        "input wire [20:0] op_tx,",
    ] {
        assert!(w.contains(port), "missing `{port}` in:\n{w}");
    }
    // async groups: 8 warps, 16 groups, 6-bit counters.
    let ag = Config {
        warps: 8,
        group_depth: 16,
        group_op_bits: 6,
        ..Config::default()
    };
    let v = ag_generate_verilog(&ag).expect("async_groups Verilog");
    let w = wrapper(&v, "async_groups");
    assert!(w.contains("input wire [2:0] ag_warp,"), "{w}");
    assert!(w.contains("input wire [4:0] ag_n,"), "{w}");
}

#[test]
fn what_the_rtl_cannot_take_is_refused_naming_the_key() {
    let e = ag_generate_verilog(&Config {
        group_depth: 1,
        ..Config::default()
    })
    .unwrap_err();
    assert!(
        e.contains("group_depth") && e.contains("2, 4, 8, 16"),
        "{e}"
    );
    let e = generate_verilog(&Config {
        entries: 12,
        ..Config::default()
    })
    .unwrap_err();
    assert!(e.contains("entries") && e.contains("12"), "{e}");
}
