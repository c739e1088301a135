//! End-to-end tests of sharded sweeps (`membar sweep --shard I/N` and
//! `--merge DIR...`): merged shards equal the unsharded CSV byte for byte,
//! incomplete or doubled shard sets are refused, and the two documented
//! recipes (GNU parallel on one host, the Slurm job array of
//! `docs/sweep_slurm.sbatch`) work as written.

use std::path::{Path, PathBuf};
use std::process::Command;
mod common;
use common::{membar, membar_bin, root, text, tmp_dir};

/// 3 × 2 × 2 = 12 points, two seeds: enough to interleave over shards.
fn grid(dir: &Path) -> PathBuf {
    let g = dir.join("shardy.yaml");
    std::fs::write(
        &g,
        "cycles: 3000\nseed: [1, 2]\nways: [1, 2, 8]\narch: [coalescing, per_warp_drain]\n",
    )
    .unwrap();
    g
}

fn sweep(args: &[&str]) -> String {
    let o = membar(args);
    assert!(
        o.status.success(),
        "membar {}: {}",
        args.join(" "),
        text(&o)
    );
    text(&o)
}

#[test]
fn merged_shards_equal_the_unsharded_csv_byte_for_byte() {
    let dir = tmp_dir("shard-equal");
    let g = grid(&dir);
    let gs = g.to_str().unwrap();
    let whole = dir.join("whole");
    sweep(&["sweep", "--grid", gs, "--out", whole.to_str().unwrap()]);
    let shards = dir.join("shards");
    for i in 0..5 {
        let s = format!("{i}/5");
        let t = sweep(&[
            "sweep",
            "--grid",
            gs,
            "--out",
            shards.to_str().unwrap(),
            "--shard",
            &s,
            "--jobs",
            "1",
        ]);
        assert!(t.contains(&format!("shard {s}")), "{t}");
        assert!(shards.join(format!("shardy.shard-{i}-of-5.csv")).is_file());
    }
    let merged = dir.join("merged");
    let t = sweep(&[
        "sweep",
        "--grid",
        gs,
        "--merge",
        shards.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(t.contains("merged 5 shards"), "{t}");
    let a = std::fs::read(whole.join("shardy.csv")).unwrap();
    let b = std::fs::read(merged.join("shardy.csv")).unwrap();
    assert!(a == b, "merged CSV differs from the unsharded one");
    // The plots are drawn from the merged rows too, identically.
    let svgs = |d: &Path| {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    };
    let (sa, sb) = (svgs(&whole), svgs(&merged));
    assert!(!sa.is_empty());
    assert!(
        sa == sb,
        "plots differ between the merged and unsharded runs"
    );
}

#[test]
fn merge_refuses_missing_and_doubled_shards() {
    let dir = tmp_dir("shard-bad");
    let g = grid(&dir);
    let gs = g.to_str().unwrap();
    let a = dir.join("a");
    for s in ["0/3", "2/3"] {
        sweep(&[
            "sweep",
            "--grid",
            gs,
            "--out",
            a.to_str().unwrap(),
            "--shard",
            s,
        ]);
    }
    let out = dir.join("out");
    let merge = |dirs: &[&Path]| {
        let mut args = vec![
            "sweep",
            "--grid",
            gs,
            "--out",
            out.to_str().unwrap(),
            "--merge",
        ];
        args.extend(dirs.iter().map(|d| d.to_str().unwrap()));
        membar(&args)
    };
    let o = merge(&[&a]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("missing: 1/3"), "{}", text(&o));
    // The same shard in two directories.
    let b = dir.join("b");
    sweep(&[
        "sweep",
        "--grid",
        gs,
        "--out",
        b.to_str().unwrap(),
        "--shard",
        "1/3",
    ]);
    std::fs::copy(
        a.join("shardy.shard-0-of-3.csv"),
        b.join("shardy.shard-0-of-3.csv"),
    )
    .unwrap();
    let o = merge(&[&a, &b]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("twice"), "{}", text(&o));
    // A shard with a row removed: a missing point.
    std::fs::remove_file(b.join("shardy.shard-0-of-3.csv")).unwrap();
    let p = a.join("shardy.shard-2-of-3.csv");
    let csv = std::fs::read_to_string(&p).unwrap();
    let mut lines: Vec<&str> = csv.lines().collect();
    let dropped = lines.remove(2);
    std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    let o = merge(&[&a, &b]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let idx = dropped.split(',').next().unwrap();
    assert!(
        text(&o).contains("points missing") && text(&o).contains(idx),
        "{}",
        text(&o)
    );
    assert!(!out.join("shardy.csv").exists());
    // Complete again: merges.
    std::fs::write(&p, csv).unwrap();
    let o = merge(&[&a, &b]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn shard_flag_is_checked() {
    for bad in ["3/3", "1/0", "x/2", "1", "-1/2"] {
        let o = membar(&[
            "sweep",
            "--grid",
            "grids/default_sweep.yaml",
            &format!("--shard={bad}"),
        ]);
        assert_eq!(o.status.code(), Some(2), "--shard {bad}: {}", text(&o));
        assert!(text(&o).contains("I/N"), "{}", text(&o));
    }
}

/// The README's GNU parallel recipe, with the binary and paths of the test.
#[test]
fn gnu_parallel_recipe_from_the_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.trim_start().starts_with("parallel "))
        .expect("a `parallel ...` line in the README");
    assert!(
        line.contains("--shard {}/") && line.contains("::: $(seq 0"),
        "{line}"
    );
    let dir = tmp_dir("parallel");
    let g = grid(&dir);
    let shards = dir.join("shards");
    // The same command with this test's binary, grid and directory.
    let cmd = format!(
        "parallel '{}' sweep --grid '{}' --out '{}' --jobs 1 --shard {{}}/4 ::: $(seq 0 3)",
        membar_bin().display(),
        g.display(),
        shards.display()
    );
    let o = Command::new("bash")
        .arg("-c")
        .arg(&cmd)
        .current_dir(root())
        .output()
        .expect("bash");
    assert!(
        o.status.success(),
        "{cmd}: {}{} (GNU parallel comes with .ci/install-tools)",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let whole = dir.join("whole");
    sweep(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        whole.to_str().unwrap(),
    ]);
    let merged = dir.join("merged");
    sweep(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--merge",
        shards.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read(whole.join("shardy.csv")).unwrap(),
        std::fs::read(merged.join("shardy.csv")).unwrap()
    );
}

/// `docs/sweep_slurm.sbatch` run as Slurm would run each array task.
#[test]
fn slurm_array_script_shards_the_sweep() {
    let script = root().join("docs/sweep_slurm.sbatch");
    let text_s = std::fs::read_to_string(&script).unwrap();
    assert!(text_s.contains("#SBATCH"), "not an sbatch script");
    let dir = tmp_dir("slurm");
    let g = grid(&dir);
    let shards = dir.join("shards");
    let n = 3;
    for task in 0..n {
        let o = Command::new("bash")
            .arg(&script)
            .current_dir(root())
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", n.to_string())
            .env("GRID", &g)
            .env("SHARDS_DIR", &shards)
            .env("MEMBAR", membar_bin())
            .env("JOBS", "1")
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "task {task}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let merged = dir.join("merged");
    let t = sweep(&[
        "sweep",
        "--grid",
        g.to_str().unwrap(),
        "--merge",
        shards.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert!(
        t.contains("merged 3 shards") && t.contains("12 rows"),
        "{t}"
    );
    // Without the array variables the script refuses to run.
    let o = Command::new("bash")
        .arg(&script)
        .current_dir(root())
        .env_remove("SLURM_ARRAY_TASK_ID")
        .output()
        .unwrap();
    assert!(!o.status.success());
}
