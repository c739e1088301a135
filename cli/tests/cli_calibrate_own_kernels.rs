//! `membar calibrate --own-kernels`: the checked-in table
//! `docs/results/calibration_own_kernels.md` must equal the command's output
//! (the own kernels' timed copies under the H200 SM timing preset vs the same
//! PTX timed on the device's H200); the timed copies must be what
//! `kernels/own/timing/instrument.py` writes from the kernels; every own
//! kernel is measured and predicted; flags the command does not honour are
//! input errors (exit 2). After an intended model change:
//! `membar calibrate --own-kernels --markdown docs/results/calibration_own_kernels.md`.

mod common;
use common::{membar, root, stderr, without_marker};

#[test]
fn the_checked_in_own_kernel_table_is_the_command_s_output() {
    let out = membar(&["calibrate", "--own-kernels"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = String::from_utf8(out.stdout).unwrap();
    let file = std::fs::read_to_string(root().join("docs/results/calibration_own_kernels.md"))
        .expect("docs/results/calibration_own_kernels.md");
    assert_eq!(
        text,
        without_marker(&file),
        "docs/results/calibration_own_kernels.md is stale: membar calibrate --own-kernels --markdown docs/results/calibration_own_kernels.md"
    );
    // Every own kernel of kernels/own/ is in it, three rows each, predicted.
    let own: Vec<String> = std::fs::read_dir(root().join("kernels/own"))
        .unwrap()
        .filter_map(|e| {
            let n = e.unwrap().file_name().into_string().unwrap();
            n.strip_suffix(".ptx").map(str::to_string)
        })
        .collect();
    assert_eq!(own.len(), 9, "{own:?}");
    for k in &own {
        assert_eq!(
            text.lines()
                .filter(|l| l.starts_with(&format!("| {k} |")))
                .count(),
            3,
            "{k}"
        );
    }
    assert!(text.contains("\n27 rows:"), "{text}");
    assert!(!text.contains("no prediction"), "{text}");
    // Every row gives the device's range over the buffer layouts.
    for l in text.lines().filter(|l| l.starts_with("| o")) {
        let range = l.split('|').nth(5).unwrap().trim();
        let (lo, hi) = range
            .trim_end_matches(" in")
            .split_once('–')
            .unwrap_or_else(|| panic!("no layout range: {l}"));
        let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
        assert!(lo <= hi, "{l}");
    }
}

#[test]
fn the_timed_copies_are_the_kernels_plus_the_clock_reads() {
    let out = std::process::Command::new("python3")
        .arg("kernels/own/timing/instrument.py")
        .arg("--check")
        .current_dir(root())
        .output()
        .expect("python3 (installed by .ci/install-tools)");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // The copy differs from the kernel only by the added lines and the
    // extra parameter.
    let plain =
        std::fs::read_to_string(root().join("kernels/own/o4_cp_async_pipeline.ptx")).unwrap();
    let timed = std::fs::read_to_string(root().join("kernels/own/timing/o4_cp_async_pipeline.ptx"))
        .unwrap();
    let added: Vec<&str> = {
        let p: std::collections::HashSet<&str> = plain.lines().collect();
        timed.lines().filter(|l| !p.contains(l)).collect()
    };
    assert!(
        added.iter().all(|l| l.contains("%tim")
            || l.contains("_param_tim")
            || l.trim_end().ends_with("_param_1,")),
        "{added:#?}"
    );
    assert_eq!(
        timed.lines().count(),
        plain.lines().count() + added.len() - 1
    );
}

#[test]
fn own_kernels_refuses_flags_it_does_not_honour() {
    for flag in [
        &["--seed", "3"][..],
        &["--unit", "bar"],
        &["--kernels"],
        &["--sm"],
    ] {
        let mut args = vec!["calibrate", "--own-kernels"];
        args.extend_from_slice(flag);
        let out = membar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // Rows are outside ±20 %: --strict fails.
    let out = membar(&["calibrate", "--own-kernels", "--strict"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// `run_device.py` (run on the device machine) refuses a bad flag or value
/// before it touches the GPU: exit 2 and a message naming it.
#[test]
fn the_device_runner_refuses_bad_flags() {
    for (args, says) in [
        (vec!["--warm"], "--warm needs"),
        (vec!["--warm", "x"], "--warm needs"),
        (vec!["--layouts", "0"], "--layouts needs"),
        (vec!["--only"], "--only needs"),
        (
            vec!["--only", "o99_nothing"],
            "--only o99_nothing: no such kernel",
        ),
        (vec!["--fast"], "usage: run_device.py"),
        (vec!["a", "b"], "usage: run_device.py"),
    ] {
        let out = std::process::Command::new("python3")
            .arg("kernels/own/timing/run_device.py")
            .args(&args)
            .current_dir(root())
            .output()
            .expect("python3 (installed by .ci/install-tools)");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
}

/// The measured figures are medians over several buffer layouts, each
/// layout's median and the SM clock kept beside them (`run_device.py`).
#[test]
fn the_measured_figures_span_the_buffer_layouts() {
    let csv = std::fs::read_to_string(root().join("data/kernels/own_kernels_measured.csv"))
        .expect("data/kernels/own_kernels_measured.csv");
    let rows = |p: &str| csv.lines().filter(|l| l.starts_with(p)).count();
    let warps = rows("own_kernel,o");
    assert_eq!(rows("own_layout,o"), 8 * warps, "8 layouts of every warp");
    assert_eq!(rows("own_clock,o"), 9, "the clock before each kernel");
    for l in csv.lines().filter(|l| l.starts_with("own_clock,o")) {
        let mhz: f64 = l.rsplit(',').next().unwrap().parse().unwrap();
        assert!((1900.0..=2000.0).contains(&mhz), "{l}");
    }
}
