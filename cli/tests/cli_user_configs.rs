//! A user's own configurations, from their own YAML files, through every
//! Verilog command: a named-barrier unit of 16 warps and 2 CTA slots (not
//! compiled in; refused before) and an mbarrier unit of the user's sizes.
//! Their widths are not compiled in, so the tool specializes an emitter on
//! demand and says so (hdl_kit::specialize); generate, cosim, synth and
//! formal then run on that Verilog.

mod common;
use common::*;

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

fn ok(args: &[&str]) -> String {
    let o = membar(args);
    assert_eq!(o.status.code(), Some(0), "membar {args:?}:\n{}", text(&o));
    text(&o)
}

#[test]
fn bar_w16_c2_generate_cosim_synth_formal() {
    let d = tmp_dir("user-bar");
    let cfg = write(&d, "my_bar.yaml", "warps: 16\ncta_slots: 2\n");
    let out = d.join("out").display().to_string();
    let t = ok(&["generate", "--unit", "bar", "--config", &cfg, "--out", &out]);
    assert!(t.contains("not precompiled"), "says it specializes: {t}");
    let v = std::fs::read_to_string(d.join("out/bar_unit.v")).unwrap();
    assert!(v.contains("//   warps: 16\n//   cta_slots: 2\n"));
    let t = ok(&[
        "cosim", "--unit", "bar", "--config", &cfg, "--cycles", "20000", "--seed", "3",
    ]);
    assert!(t.contains("PASS"), "{t}");
    let t = ok(&[
        "synth", "--unit", "bar", "--config", &cfg, "--target", "generic",
    ]);
    assert!(t.contains("LUTs") && t.contains("w16_c2"), "{t}");
    let t = ok(&[
        "formal", "--unit", "bar", "--config", &cfg, "--engine", "bmc", "--depth", "3", "--props",
        "b1,b2",
    ]);
    assert!(t.contains("b1") && t.contains("bounded"), "{t}");
}

#[test]
fn mbarrier_own_sizes_generate_cosim_synth_formal() {
    let d = tmp_dir("user-mbar");
    // 8 warps, 16 entries, 6-bit counts, 8-bit tx magnitude, fan-out 2:
    // not among the compiled-in width sets.
    let cfg = write(
        &d,
        "my_mbarrier.yaml",
        "warps: 8\nentries: 16\ncount_bits: 6\ntx_bits: 8\ntry_wait_limit: 20\nwake_fanout: 2\n",
    );
    let out = d.join("out").display().to_string();
    let t = ok(&[
        "generate", "--unit", "mbarrier", "--config", &cfg, "--out", &out,
    ]);
    assert!(t.contains("not precompiled"), "says it specializes: {t}");
    let v = std::fs::read_to_string(d.join("out/mbarrier_unit.v")).unwrap();
    assert!(
        v.contains("//   entries: 16\n"),
        "header names the configuration"
    );
    let t = ok(&[
        "cosim", "--unit", "mbarrier", "--config", &cfg, "--cycles", "20000", "--seed", "5",
    ]);
    assert!(t.contains("no mismatch"), "{t}");
    let t = ok(&[
        "synth", "--unit", "mbarrier", "--config", &cfg, "--target", "generic",
    ]);
    assert!(t.contains("LUTs"), "{t}");
    let t = ok(&[
        "formal", "--unit", "mbarrier", "--config", &cfg, "--engine", "bmc", "--depth", "3",
        "--props", "m1",
    ]);
    assert!(t.contains("m1") && t.contains("bounded"), "{t}");
}

#[test]
fn a_configuration_the_hardware_cannot_take_is_exit_2_naming_key_and_rule() {
    let d = tmp_dir("user-bad");
    let cfg = write(&d, "bad.yaml", "warps: 16\ncta_slots: 20\n");
    let o = membar(&[
        "generate",
        "--unit",
        "bar",
        "--config",
        &cfg,
        "--out",
        &d.join("o").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("cta_slots") && t.contains("20") && t.contains("1..=warps"),
        "{t}"
    );
    let cfg = write(&d, "bad_ag.yaml", "group_depth: 1\n");
    let o = membar(&[
        "generate",
        "--unit",
        "async_groups",
        "--config",
        &cfg,
        "--out",
        &d.join("o2").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("group_depth"), "{}", text(&o));
}
