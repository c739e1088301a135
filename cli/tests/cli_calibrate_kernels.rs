//! `membar calibrate --kernels` and `membar run --preset`: the checked-in
//! table `docs/results/calibration_kernels.md` must equal the command's
//! output (the reference kernels under the H100 SM timing preset, read back
//! from their own clock instrumentation, vs the H100's medians); the
//! kernel-level figures the preset is held to are checked here; flags the
//! command does not honour and an unknown preset are input errors (exit 2).
//! After an intended model change:
//! `membar calibrate --kernels --markdown docs/results/calibration_kernels.md`.

mod common;
use common::{membar, root, without_marker};

/// Cell `k` of the row whose first five cells are `key`.
fn cell(table: &str, key: &[&str], k: usize) -> f64 {
    let row = table
        .lines()
        .find(|l| {
            let c: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            c.len() >= 8 && c[..5] == *key
        })
        .unwrap_or_else(|| panic!("no row {key:?}"));
    let c: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    c[k].parse().unwrap_or_else(|e| panic!("{row}: {e}"))
}

#[test]
fn the_checked_in_kernel_table_is_the_command_s_output() {
    let out = membar(&["calibrate", "--kernels"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let file = std::fs::read_to_string(root().join("docs/results/calibration_kernels.md"))
        .expect("docs/results/calibration_kernels.md");
    let checked_in = without_marker(&file);
    assert_eq!(
        text, checked_in,
        "docs/results/calibration_kernels.md is stale: membar calibrate --kernels --markdown docs/results/calibration_kernels.md"
    );
    // Every measured row of the four kernels is there (97 rows).
    assert!(text.contains("\n97 rows:"), "{text}");
    // Per-warp totals, both builds, within ±25 % of the H100 for the
    // named-barrier pipeline, the block reduction and the LDGSTS pipeline
    // (they were 1.1-3.9× before the issue model, load hoisting, the
    // mbarrier return path and the cache model). The TMA pipeline (k4) is
    // not yet: docs/timing.md says why.
    for (kernel, build, role) in [
        ("k1_block_reduce", "prof", "worker"),
        ("k1_block_reduce", "noprof", "worker"),
        ("k3_named_barrier_ws", "prof", "producer"),
        ("k3_named_barrier_ws", "prof", "consumer"),
        ("k3_named_barrier_ws", "noprof", "producer"),
        ("k3_named_barrier_ws", "noprof", "consumer"),
        ("k5_cpasync_pipeline", "prof", "other"),
        ("k5_cpasync_pipeline", "noprof", "other"),
    ] {
        let key = [kernel, build, role, "per_warp", "total_cyc"];
        let (measured, m) = (cell(&text, &key, 5), cell(&text, &key, 6));
        assert!(
            ((m - measured) / measured).abs() <= 0.25,
            "{kernel} {build} {role}: model {m}, H100 {measured}"
        );
    }
    let outside = text.matches("**outside**").count();
    assert!(
        outside <= 52,
        "{outside} rows outside ±20 % (52 when last accepted)"
    );
}

#[test]
fn strict_fails_while_rows_are_outside_and_unhonoured_flags_are_refused() {
    let out = membar(&["calibrate", "--kernels", "--strict"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for flag in [&["--seed", "3"][..], &["--unit", "bar"], &["--fit"]] {
        let mut args = vec!["calibrate", "--kernels"];
        args.extend_from_slice(flag);
        let out = membar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("cannot be used with"),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn run_takes_a_preset_and_refuses_an_unknown_one() {
    let k = "kernels/reference/k1_block_reduce_noprof";
    let (ptx, launch) = (format!("{k}.ptx"), format!("{k}.launch.yaml"));
    let bad = membar(&["run", &ptx, "--launch", &launch, "--preset", "h300"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("h100"));
    let cycles = |preset: &str| {
        let out = membar(&["run", &ptx, "--launch", &launch, "--preset", preset]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("PASS"), "{text}");
        text.lines()
            .find_map(|l| l.strip_prefix("total cycles: "))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{text}"))
    };
    let (h100, h200) = (cycles("h100"), cycles("h200"));
    // The same kernel under the same preset is the same run (no random draw).
    assert_eq!(h100, cycles("h100"));
    // The H200 differs only on the memory side, where its fence calibration
    // gives a shorter L2 transaction latency (260 vs 300 cycles): not slower.
    assert!(h200 <= h100, "h200 {h200} > h100 {h100}");
}
