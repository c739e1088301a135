//! `membar release`: the released IP set of every unit written by one
//! command (the RTL crates' golden tests only read it). The checked-in
//! `verilog_out/` is what the command writes, MANIFEST included; a release
//! folder round-trips; the command never replaces a file it did not write
//! or one edited since, and removes a unit's files that are no longer
//! generated.

mod common;
use common::{membar, root, text, tmp_dir};

#[test]
fn checked_in_verilog_out_is_the_release() {
    // Run from the repository root: `--out verilog_out` is the default.
    let o = std::process::Command::new(common::membar_bin())
        .args(["release", "--check"])
        .current_dir(root())
        .output()
        .unwrap();
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("are current"), "{t}");
}

#[test]
fn a_release_round_trips_and_check_finds_every_kind_of_damage() {
    let dir = tmp_dir("release-round-trip");
    let out = dir.join("ip");
    let outs = out.to_str().unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", outs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("13 files"), "{}", text(&o));
    assert!(out.join("cluster_barrier/n2/cluster_barrier.v").is_file());
    assert!(out.join("cluster_barrier.vlt").is_file());
    assert!(out.join("cluster_barrier_n2.core").is_file());
    // Released files are readable by others (not a temporary file's 0600).
    use std::os::unix::fs::PermissionsExt;
    for f in ["MANIFEST", "cluster_barrier/n2/config.yaml"] {
        let mode = std::fs::metadata(out.join(f)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{f}: {mode:o}");
    }
    let o = membar(&["release", "--unit", "cluster", "--out", outs, "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // The same files as the checked-in ones.
    assert_eq!(
        std::fs::read(out.join("cluster_barrier/n16/cluster_barrier.v")).unwrap(),
        std::fs::read(root().join("verilog_out/cluster_barrier/n16/cluster_barrier.v")).unwrap()
    );
    // A second unit joins the same folder; the first unit's lines stay.
    let o = membar(&["release", "--unit", "sm_sync", "--out", outs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let m = std::fs::read_to_string(out.join("MANIFEST")).unwrap();
    assert!(
        m.contains("  cluster  cluster_barrier/n1/config.yaml"),
        "{m}"
    );
    assert!(m.contains("  sm_sync  sm_sync/small/sm_sync.v"), "{m}");
    // A stale file, a missing file: --check exits 1 naming both.
    std::fs::write(out.join("cluster_barrier/n1/config.yaml"), "ranks: 3\n").unwrap();
    std::fs::remove_file(out.join("cluster_barrier/n2/cluster_barrier.v")).unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", outs, "--check"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("n1/config.yaml is stale"), "{t}");
    assert!(t.contains("n2/cluster_barrier.v: missing"), "{t}");
    // Writing over the edited file is refused (exit 2), nothing written.
    let o = membar(&["release", "--unit", "cluster", "--out", outs]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("n1/config.yaml: edited since"), "{t}");
    assert!(!out.join("cluster_barrier/n2/cluster_barrier.v").exists());
    // Restored, the release writes the missing file back.
    std::fs::write(
        out.join("cluster_barrier/n1/config.yaml"),
        std::fs::read(root().join("verilog_out/cluster_barrier/n1/config.yaml")).unwrap(),
    )
    .unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", outs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("1 written"), "{}", text(&o));
    let o = membar(&["release", "--out", outs, "--check", "--unit", "sm_sync"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_the_release_did_not_write_are_never_replaced() {
    let dir = tmp_dir("release-no-clobber");
    // A folder of someone else's files (no MANIFEST): refused.
    let user = dir.join("user");
    std::fs::create_dir_all(user.join("cluster_barrier/n1")).unwrap();
    std::fs::write(user.join("cluster_barrier/n1/config.yaml"), "mine\n").unwrap();
    let o = membar(&[
        "release",
        "--unit",
        "cluster",
        "--out",
        user.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("did not write (no MANIFEST)"), "{t}");
    assert_eq!(
        std::fs::read_to_string(user.join("cluster_barrier/n1/config.yaml")).unwrap(),
        "mine\n"
    );
    // A release folder with a user's file where a released one goes.
    let rel = dir.join("rel");
    let rels = rel.to_str().unwrap();
    assert_eq!(
        membar(&["release", "--unit", "cluster", "--out", rels])
            .status
            .code(),
        Some(0)
    );
    std::fs::write(rel.join("bar_unit.vlt"), "my waivers\n").unwrap();
    let o = membar(&["release", "--unit", "bar", "--out", rels]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("bar_unit.vlt: not written by `membar release`"),
        "{t}"
    );
    assert_eq!(
        std::fs::read_to_string(rel.join("bar_unit.vlt")).unwrap(),
        "my waivers\n"
    );
    // --out a file; a manifest that is not ours.
    let f = dir.join("file");
    std::fs::write(&f, "x").unwrap();
    let o = membar(&["release", "--out", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is not a folder"), "{}", text(&o));
    // A manifest line that points outside the folder is refused: a release
    // never removes or writes a file outside --out.
    let m = std::fs::read_to_string(rel.join("MANIFEST")).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    std::fs::write(
        rel.join("MANIFEST"),
        format!("{m}{}  cluster  ../victim.txt\n", "0".repeat(64)),
    )
    .unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", rels]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("inside the folder"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    std::fs::write(rel.join("MANIFEST"), "# my manifest\n").unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", rels, "--check"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("not a release manifest"), "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_no_longer_released_is_removed_and_check_names_a_leftover() {
    let dir = tmp_dir("release-gone");
    let out = dir.join("ip");
    let outs = out.to_str().unwrap();
    assert_eq!(
        membar(&["release", "--unit", "cluster", "--out", outs])
            .status
            .code(),
        Some(0)
    );
    // A configuration that was released once and is no longer generated:
    // add it to the manifest as the command would have.
    let old = out.join("cluster_barrier/n8/cluster_barrier.v");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::write(&old, "// old\n").unwrap();
    let m = std::fs::read_to_string(out.join("MANIFEST")).unwrap();
    let sha = "\
        a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    std::fs::write(
        out.join("MANIFEST"),
        format!("{m}{sha}  cluster  cluster_barrier/n8/cluster_barrier.v\n"),
    )
    .unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", outs, "--check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("n8/cluster_barrier.v: released before"),
        "{}",
        text(&o)
    );
    // Its content is not the listed one: an edit, refused.
    let o = membar(&["release", "--unit", "cluster", "--out", outs]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    // With the listed content it is removed.
    let real = {
        use std::fmt::Write;
        let d = <sha2::Sha256 as sha2::Digest>::digest(b"// old\n");
        d.iter().fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    };
    std::fs::write(
        out.join("MANIFEST"),
        format!("{m}{real}  cluster  cluster_barrier/n8/cluster_barrier.v\n"),
    )
    .unwrap();
    let o = membar(&["release", "--unit", "cluster", "--out", outs]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("1 removed"), "{}", text(&o));
    assert!(!old.exists());
    let o = membar(&["release", "--unit", "cluster", "--out", outs, "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
