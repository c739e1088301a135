//! End-to-end tests of `membar generate`, `membar cosim` and `membar soak`:
//! the README's main job (emit the default configuration and cosimulate it),
//! mismatch detection through the CLI, clear errors, and a short soak.

mod common;
use common::{membar_env as membar, root, text, tmp_dir as tmp};

#[test]
fn main_job_generates_and_cosimulates_the_default_configuration() {
    let out = tmp("main");
    let o = membar(
        &[
            "generate",
            "--config",
            "configs/default.yaml",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let v = out.join("membar_unit.v");
    let emitted = std::fs::read_to_string(&v).unwrap();
    let checked_in =
        std::fs::read_to_string(root().join("verilog_out/default/membar_unit.v")).unwrap();
    assert_eq!(
        emitted, checked_in,
        "generate must reproduce verilog_out/default"
    );
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/default.yaml",
            "--verilog",
            v.to_str().unwrap(),
            "--cycles",
            "100000",
            "--seed",
            "3",
        ],
        &[],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("PASS: 100") && t.contains("Mcycles/s"), "{t}");
}

#[test]
fn generate_refuses_to_overwrite_a_hand_written_file() {
    let out = tmp("clobber");
    std::fs::write(out.join("membar_unit.v"), "module mine; endmodule\n").unwrap();
    let o = membar(
        &[
            "generate",
            "--config",
            "configs/default.yaml",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("refusing to overwrite"));
    assert_eq!(
        std::fs::read_to_string(out.join("membar_unit.v")).unwrap(),
        "module mine; endmodule\n"
    );
}

#[test]
fn cosim_of_a_buggy_file_fails_at_the_first_difference() {
    // Invert the CTA release condition of the checked-in default Verilog.
    let src = std::fs::read_to_string(root().join("verilog_out/default/membar_unit.v")).unwrap();
    let needle = "if (out_txn)";
    assert!(
        src.contains(needle),
        "anchor `{needle}` not found: update this mutation to the emitted text"
    );
    let bad = src.replacen(needle, "if (~out_txn)", 1);
    let dir = tmp("bug");
    let f = dir.join("membar_unit.v");
    std::fs::write(&f, bad).unwrap();
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/default.yaml",
            "--verilog",
            f.to_str().unwrap(),
            "--cycles",
            "50000",
        ],
        &[],
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("MISMATCH at cycle") && t.contains("replay: membar cosim"),
        "{t}"
    );
}

#[test]
fn cosim_without_verilator_says_how_to_install_it() {
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/default.yaml",
            "--cycles",
            "10",
        ],
        &[("MEMBAR_VERILATOR", "/nonexistent/verilator")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("apt-get install -y verilator"),
        "{}",
        text(&o)
    );
}

#[test]
fn cosim_with_no_verilator_on_path_says_how_to_install_it() {
    // The user's situation: Verilator simply not installed (nothing on PATH).
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/default.yaml",
            "--cycles",
            "10",
        ],
        &[("PATH", "/nonexistent-bin"), ("MEMBAR_VERILATOR", "")],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("apt-get install -y verilator"),
        "{}",
        text(&o)
    );
}

#[test]
fn cosim_rejects_bad_inputs() {
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/default.yaml",
            "--verilog",
            "/nonexistent.v",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("/nonexistent.v"));
    // Wrong ports for the configuration: the default Verilog under the W=8 config.
    let o = membar(
        &[
            "cosim",
            "--config",
            "configs/w8_k2_n1_c4.yaml",
            "--verilog",
            "verilog_out/default/membar_unit.v",
            "--cycles",
            "10",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("ports"), "{}", text(&o));
}

#[test]
fn short_soak_passes_with_nothing_lost_and_full_coverage() {
    let o = membar(
        &[
            "soak", "--cycles", "600000", "--chunk", "100000", "--seed", "11",
        ],
        &[],
    );
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("mismatches             0") && t.contains(" 0 lost"),
        "{t}"
    );
    assert!(t.contains("mid-traffic resets"), "{t}");
    let line = t
        .lines()
        .find(|l| l.starts_with("functional coverage"))
        .expect("coverage line");
    let hits: Vec<u64> = line
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .split('/')
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(
        hits[0] * 10 >= hits[1] * 9,
        "a short soak reaches at least 90% of the bins: {line}"
    );
}
