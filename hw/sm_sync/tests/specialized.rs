//! Any valid `sm_sync` configuration gets its Verilog: the named ones from
//! the compiled-in top, the rest from a specialized emitter
//! (`hdl_kit::specialize`) that emits the same text for the same widths.

use sm_sync_model::Config;
use sm_sync_rtl::dispatch::specialization;
use sm_sync_rtl::generate_verilog;

#[test]
fn config_file_round_trips_and_sections_replace_the_preset_units() {
    for (name, cfg) in Config::named() {
        let back = Config::from_yaml_str(&cfg.to_yaml(), name).unwrap();
        assert_eq!(back, cfg, "{name} round trip");
    }
    let cfg =
        Config::from_yaml_str("preset: small\nbar:\n  warps: 8\n  cta_slots: 2\n", "f").unwrap();
    assert_eq!(cfg.bar.cta_slots, 2);
    assert_eq!(cfg.membar, Config::small().membar);
    let e = Config::from_yaml_str("preset: small\nbar:\n  warps: 16\n", "f.yaml").unwrap_err();
    assert!(e.contains("bar.warps") && e.contains("16"), "{e}");
    let e = Config::from_yaml_str("bar:\n  warps: 8\n", "f.yaml").unwrap_err();
    assert!(e.contains("`preset` is missing"), "{e}");
    let e = Config::from_yaml_str("preset: small\nbar: 3\n", "f.yaml").unwrap_err();
    assert!(e.contains("key `bar`") && e.contains("mapping"), "{e}");
    let e = Config::from_yaml_str(
        "preset: small\nbar:\n  cta_slots: 99\n  warps: 8\n",
        "f.yaml",
    )
    .unwrap_err();
    assert!(e.contains("f.yaml: bar") && e.contains("cta_slots"), "{e}");
}

#[test]
fn specialized_emitter_matches_the_compiled_in_small_top() {
    let cfg = Config::small();
    let inproc = generate_verilog(&cfg).unwrap();
    let spec = hdl_kit::specialize::verilog(&specialization(&cfg)).unwrap();
    assert_eq!(inproc, spec);
}

#[test]
fn a_users_top_gets_verilog() {
    // small, with 2 CTA slots and 16 mbarrier entries: not compiled in.
    let cfg = Config::from_yaml_str(
        "preset: small\nbar:\n  warps: 8\n  cta_slots: 2\nmbarrier:\n  warps: 8\n  entries: 16\n  count_bits: 4\n  tx_bits: 6\n  try_wait_limit: 8\n  wake_fanout: 1\n  group_depth: 2\n  group_op_bits: 1\n",
        "user.yaml",
    )
    .unwrap();
    assert!(sm_sync_rtl::hdl_dut(&cfg).is_err(), "not compiled in");
    let v = generate_verilog(&cfg).unwrap();
    let w = &v[v.rfind("module sm_sync").unwrap()..];
    let w = w.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(w.contains("input wire [3:0] ctx_entry,"), "{w}");
}
