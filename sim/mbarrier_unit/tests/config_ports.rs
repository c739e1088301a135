//! Configuration parsing/validation (every bad value named with key, value
//! and what is allowed; never a panic) and the port tables (spec order,
//! widths as functions of the parameters, names matching the structs).

use mbarrier_unit_model::config::{Config, KEYS};
use mbarrier_unit_model::ports::{async_groups, mbarrier, Dir};

#[test]
fn defaults_are_valid_and_yaml_round_trips() {
    let d = Config::default();
    d.validate("<default>").expect("default config is valid");
    let c = Config::from_yaml_str(
        "warps: 16\nentries: 64\ntry_wait_limit: 25\nwake_fanout: 4\n",
        "t.yaml",
    )
    .expect("valid");
    assert_eq!(
        (c.warps, c.entries, c.try_wait_limit, c.wake_fanout),
        (16, 64, 25, 4)
    );
    assert_eq!(c.count_bits, d.count_bits, "missing keys take defaults");
    assert_eq!(Config::from_yaml_str("", "empty.yaml").expect("empty"), d);
}

#[test]
fn bad_values_name_key_value_and_allowed() {
    for (yaml, key, value) in [
        ("warps: 12", "warps", "12"),
        ("entries: 128", "entries", "128"),
        ("count_bits: 21", "count_bits", "21"),
        ("count_bits: 0", "count_bits", "0"),
        ("tx_bits: 25", "tx_bits", "25"),
        ("try_wait_limit: 0", "try_wait_limit", "0"),
        ("wake_fanout: 3", "wake_fanout", "3"),
        ("warps: 8\nwake_fanout: 16", "wake_fanout", "16"),
        ("group_depth: 3", "group_depth", "3"),
        ("group_op_bits: 9", "group_op_bits", "9"),
    ] {
        let e = Config::from_yaml_str(yaml, "c.yaml").expect_err(yaml);
        assert_eq!((e.key.as_str(), e.value.as_str()), (key, value), "{yaml}");
        let s = e.to_string();
        assert!(
            s.starts_with("c.yaml: `") && s.contains("allowed:") && !e.allowed.is_empty(),
            "{s}"
        );
    }
    let e = Config::from_yaml_str("wraps: 8", "c.yaml").expect_err("unknown key");
    assert_eq!(e.key, "wraps");
    assert!(KEYS.iter().all(|k| e.allowed.contains(k)));
    let e = Config::from_yaml_str("warps: -1", "c.yaml").expect_err("negative");
    assert_eq!(e.key, "warps");
    // The value as written, not serde_yaml's debug form.
    assert!(e.to_string().contains("`warps` = -1"), "{e}");
    assert!(!e.to_string().contains("Number("), "{e}");
    let e = Config::from_yaml_str("warps: [1, 2]", "c.yaml").expect_err("list");
    assert_eq!(e.key, "warps");
    let e = Config::from_yaml_str("warps: 8\n  entries: :", "c.yaml").expect_err("syntax");
    assert!(e.key.starts_with("line "), "{e}");
    let e = Config::from_yaml_str("- 1", "c.yaml").expect_err("not a mapping");
    assert_eq!(e.key, "<document>");
    assert_eq!(
        e.to_string(),
        "c.yaml: the file holds a list; allowed: a YAML mapping of configuration keys"
    );
}

#[test]
fn port_tables_follow_the_parameters() {
    let c = Config {
        warps: 64,
        entries: 32,
        count_bits: 20,
        tx_bits: 20,
        ..Config::default()
    };
    let t = mbarrier::port_table(&c);
    let get = |n: &str| {
        t.iter()
            .find(|p| p.0 == n)
            .copied()
            .unwrap_or_else(|| panic!("port {n}"))
    };
    assert_eq!(get("op_warp"), ("op_warp", Dir::In, 6));
    assert_eq!(get("op_entry"), ("op_entry", Dir::In, 5));
    assert_eq!(get("op_count"), ("op_count", Dir::In, 21));
    assert_eq!(get("ctx_bytes"), ("ctx_bytes", Dir::In, 21));
    assert_eq!(get("wake_mask"), ("wake_mask", Dir::Out, 64));
    assert_eq!(get("err_cause"), ("err_cause", Dir::Out, 4));
    assert_eq!(t[0].0, "clock");
    assert_eq!(t.len(), 30);
    let mut names: Vec<_> = t.iter().map(|p| p.0).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), t.len(), "unique port names");
    // Every field of the structs is a port (Debug shows the field names).
    let dbg = format!(
        "{:?} {:?}",
        mbarrier::Inputs::default(),
        mbarrier::Outputs::default()
    );
    for (n, _, _) in &t {
        if *n != "clock" {
            assert!(
                dbg.contains(&format!("{n}:")),
                "port {n} has no struct field"
            );
        }
    }
    let g = async_groups::port_table(&Config {
        group_depth: 8,
        ..c
    });
    assert_eq!(g.iter().find(|p| p.0 == "ag_n").map(|p| p.2), Some(4));
    let dbg = format!(
        "{:?} {:?}",
        async_groups::Inputs::default(),
        async_groups::Outputs::default()
    );
    for (n, _, _) in &g {
        if *n != "clock" {
            assert!(
                dbg.contains(&format!("{n}:")),
                "port {n} has no struct field"
            );
        }
    }
}
