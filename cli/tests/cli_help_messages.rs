//! Help and messages as users meet them: every subcommand is listed in
//! `membar --help` with a one-line about and in the README's command table;
//! the per-command help says what each unit does (module file names, formal
//! groups, which `--unit` values a command takes, what unit sweeps make);
//! messages name what the user wrote (no enum names, no `Number(-8)`, no
//! `<document>`, no C return codes, no "os error", the right module, no
//! `--verilog` the user did not give, a BOM and non-UTF-8 bytes said
//! plainly) and a deadlock prints its seed and replay command.

mod common;
use common::{membar, membar_env, root, stderr, stdout, text};

/// The subcommands listed in `membar --help`, with their about lines.
fn commands() -> Vec<(String, String)> {
    let o = membar(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let h = stdout(&o);
    let mut v = Vec::new();
    let mut inside = false;
    for l in h.lines() {
        if l.starts_with("Commands:") {
            inside = true;
            continue;
        }
        if inside {
            if !l.starts_with("  ") {
                break;
            }
            let t = l.trim_start();
            let (name, about) = t.split_once(' ').unwrap_or((t, ""));
            if name != "help" {
                v.push((name.to_string(), about.trim().to_string()));
            }
        }
    }
    v
}

/// The commands of the README's `membar` command table.
fn readme_commands() -> Vec<String> {
    let r = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut v: Vec<String> = r
        .lines()
        .filter_map(|l| l.strip_prefix("| `membar "))
        .filter_map(|l| l.split([' ', '`']).next().map(str::to_string))
        .collect();
    v.dedup();
    v
}

#[test]
fn every_subcommand_is_in_help_with_one_line_and_in_the_readme_table() {
    let cmds = commands();
    let names: Vec<&str> = cmds.iter().map(|(n, _)| n.as_str()).collect();
    for want in [
        "run",
        "litmus",
        "ptx",
        "formal",
        "generate",
        "release",
        "cosim",
        "soak",
        "sim",
        "bench",
        "sweep",
        "calibrate",
        "synth",
    ] {
        assert!(
            names.contains(&want),
            "{want} not in membar --help: {names:?}"
        );
    }
    for (n, about) in &cmds {
        assert!(
            !about.is_empty() && about.len() <= 90 && !about.contains(". "),
            "{n}: the about should be one short line: {about:?}"
        );
    }
    let readme = readme_commands();
    for n in &names {
        assert!(
            readme.iter().any(|r| r == n),
            "{n} is not in the README command table: {readme:?}"
        );
    }
    for r in &readme {
        assert!(
            names.contains(&r.as_str()),
            "README lists `membar {r}`, which --help does not"
        );
    }
    // The first line of --help and of the README describe the project, not one unit.
    let h = stdout(&membar(&["--help"]));
    assert!(
        h.lines().next().unwrap().contains("synchronisation units"),
        "{h}"
    );
    let r = std::fs::read_to_string(root().join("README.md")).unwrap();
    let intro: String = r
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    assert!(intro.contains("synchronisation units"), "{intro}");
}

#[test]
fn readme_rows_match_what_the_commands_accept() {
    let r = std::fs::read_to_string(root().join("README.md")).unwrap();
    // synth --csv is the membar unit's: no row offers it together with --unit.
    for l in r.lines().filter(|l| l.starts_with("| `membar synth")) {
        let cmd = l.split('|').nth(1).unwrap();
        assert!(!(cmd.contains("--csv") && cmd.contains("--unit")), "{l}");
    }
    // The `--unit` list in the README names every unit value.
    for u in ["bar", "cluster", "mbarrier", "async_groups", "sm_sync"] {
        assert!(
            r.contains(&format!("--unit {u}")) || r.contains(&format!("|{u}")),
            "{u}"
        );
    }
}

#[test]
fn per_command_help_says_what_each_unit_does() {
    let h = stdout(&membar(&["generate", "--help"]));
    assert!(h.contains("DIR/<module>.v"), "{h}");
    for f in [
        "membar_unit.v",
        "bar_unit.v",
        "cluster_barrier.v",
        "mbarrier_unit.v",
        "async_groups.v",
        "sm_sync.v",
    ] {
        assert!(h.contains(f), "{f}: {h}");
    }
    // formal: --config is explained, and --props lists every unit's groups.
    let h = stdout(&membar(&["formal", "--help"]));
    let config = h.split("      --config <CONFIG>").nth(1).unwrap();
    assert!(config.trim_start().starts_with("YAML configuration"), "{h}");
    // Every unit's groups in --props: registry.rs's test
    // `formal_help_lists_every_units_groups`.
    // --unit lists only the values a command takes.
    let values = |cmd: &str| -> Vec<String> {
        let h = stdout(&membar(&[cmd, "--help"]));
        let seg = h.split("--unit <UNIT>").nth(1).unwrap();
        let seg = seg.split("\n      --").next().unwrap();
        seg.lines()
            .filter_map(|l| l.trim().strip_prefix("- "))
            .filter_map(|l| l.split(':').next().map(str::to_string))
            .collect()
    };
    assert_eq!(values("calibrate"), ["membar", "bar", "mbarrier"]);
    for cmd in ["soak", "bench", "sweep"] {
        assert_eq!(
            values(cmd),
            ["membar", "bar", "cluster", "mbarrier", "async_groups"],
            "{cmd}"
        );
    }
    // sweep: unit sweeps make no plots and run one point at a time.
    let h = stdout(&membar(&["sweep", "--help"]));
    assert!(h.contains("no plots") && h.contains("membar only"), "{h}");
}

#[test]
fn messages_name_what_the_user_wrote() {
    let d = common::tmp_dir("messages");
    let w = |name: &str, bytes: &[u8]| {
        let p = d.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let neg = w("neg.yaml", b"warps: -8\n");
    let list = w("list.yaml", b"- 1\n");
    let file = w("file", b"x");
    let bom = w("bom.ptx", "\u{feff}---\nwarps: []\n---\n".as_bytes());
    let nonutf = w("bad.v", b"module bar_unit;\n\xff\xfe\nendmodule\n");
    let cases: Vec<(Vec<&str>, Vec<&str>, Vec<&str>)> = vec![
        // (args, must contain, must not contain)
        (
            vec!["calibrate", "--unit", "cluster"],
            vec!["cluster"],
            vec!["Cluster"],
        ),
        (
            vec!["sim", "--unit", "mbarrier", "--config", &neg],
            vec!["`warps` = -8"],
            vec!["Number("],
        ),
        (
            vec!["sim", "--unit", "bar", "--config", &list],
            vec!["the file holds a list"],
            vec!["<document>"],
        ),
        (
            vec!["sim", "--unit", "async_groups", "--config", &list],
            vec!["the file holds a list"],
            vec!["<document>", "Sequence"],
        ),
        (
            vec![
                "generate",
                "--config",
                "configs/default.yaml",
                "--out",
                &file,
            ],
            vec!["exists and is not a directory"],
            vec!["os error"],
        ),
        (
            vec![
                "cosim",
                "--unit",
                "bar",
                "--config",
                "configs/bar_unit/w8_c1.yaml",
                "--verilog",
                "verilog_out/bar_unit/w16_c4/bar_unit.v",
            ],
            vec!["--verilog verilog_out/bar_unit/w16_c4/bar_unit.v: module bar_unit does not have"],
            vec!["membar_unit", "bar_unit.v: verilog_out"],
        ),
        (vec!["run", &bom], vec!["byte-order mark"], vec!["\u{feff}"]),
        (
            vec![
                "formal",
                "--unit",
                "bar",
                "--config",
                "configs/bar_unit/w8_c1.yaml",
                "--verilog",
                &nonutf,
            ],
            vec!["byte 17"],
            vec!["stream did not contain"],
        ),
        (
            vec![
                "synth",
                "--unit",
                "bar",
                "--config",
                "configs/bar_unit/w8_c1.yaml",
                "--verilog",
                &nonutf,
            ],
            vec!["byte 17"],
            vec!["stream did not contain"],
        ),
    ];
    for (args, want, not) in cases {
        let o = membar(&args);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {t}");
        for x in want {
            assert!(t.contains(x), "{args:?}: `{x}` not in: {t}");
        }
        for x in not {
            assert!(!t.contains(x), "{args:?}: `{x}` in: {t}");
        }
    }
}

#[test]
fn a_waveform_that_cannot_be_opened_is_said_plainly() {
    let o = membar(&[
        "cosim",
        "--unit",
        "mbarrier",
        "--config",
        "verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/config.yaml",
        "--cycles",
        "10",
        "--waves",
        "/proc/membar-x.vcd",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        !t.contains("unit_trace_open") && !t.contains("returned -2"),
        "{t}"
    );
    assert!(t.contains("/proc/membar-x.vcd"), "{t}");
}

#[test]
fn a_generated_verilog_is_not_called_a_flag_the_user_gave() {
    // No Verilator: the build of the generated Verilog fails; the message
    // must not name a `--verilog` the user never gave.
    let empty = common::tmp_dir("messages-nopath");
    let o = membar_env(
        &[
            "cosim",
            "--unit",
            "cluster",
            "--config",
            "verilog_out/cluster_barrier/n1/config.yaml",
            "--cycles",
            "10",
            "--seed",
            "12345",
        ],
        &[
            ("PATH", empty.to_str().unwrap()),
            ("MEMBAR_VERILATOR", "/nonexistent/verilator"),
            ("MEMBAR_VERILATOR_CACHE", empty.to_str().unwrap()),
        ],
    );
    let t = text(&o);
    // An empty build cache: the missing Verilator is found and reported.
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("Verilator is required"), "{t}");
    assert!(!t.contains("--verilog"), "{t}");
    assert!(t.contains("generated for --config"), "{t}");
}

#[test]
fn a_deadlock_prints_its_seed_and_replay_command() {
    let d = common::tmp_dir("messages-deadlock");
    let f = d.join("d.ptx");
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n  - {cta: 0, warp: 1, program: b}\n---\n.entry a {\n    bar.sync 1, 64;\n    ret;\n}\n.entry b {\n    bar.sync 2, 64;\n    ret;\n}\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let o = membar(&["run", f, "--seed", "9"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let e = stderr(&o);
    assert!(e.contains("seed 9"), "{e}");
    assert!(
        e.contains(&format!("replay: membar run {f} --seed 9")),
        "{e}"
    );
}
