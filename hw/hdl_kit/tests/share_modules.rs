//! Sharing identical modules is exact: on every checked-in Verilog file of
//! `verilog_out/`, unsharing (one module per instance, named by its
//! instance path, as rust-hdl emits) and sharing again gives the file back,
//! and in the unshared text every module is instantiated once.

use hdl_kit::emit::{share_identical_modules, unshare_modules};
use std::path::{Path, PathBuf};

fn verilog_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            verilog_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "v") {
            out.push(p);
        }
    }
}

fn first_module(text: &str) -> &str {
    let i = text.find("\nmodule ").expect("a module") + 8;
    let j = text[i..].find('(').unwrap();
    &text[i..i + j]
}

#[test]
fn every_checked_in_file_unshares_and_shares_back_exactly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out");
    let mut files = Vec::new();
    verilog_files(&root, &mut files);
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    let (mut shared_lines, mut flat_lines) = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let prefix = first_module(&text);
        let flat = unshare_modules(&text, prefix).unwrap();
        assert_eq!(share_identical_modules(&flat), text, "{}", f.display());
        // One module per instance: no module name is instantiated twice.
        let mut seen = std::collections::HashSet::new();
        for l in flat.lines() {
            let t = l.trim_start();
            if l.len() > t.len() && t.ends_with('(') && t.starts_with(prefix) {
                let m = t.split(' ').next().unwrap();
                assert!(
                    seen.insert(m.to_string()),
                    "{}: {m} instantiated twice",
                    f.display()
                );
            }
        }
        shared_lines += text.lines().count();
        flat_lines += flat.lines().count();
    }
    eprintln!("verilog_out: {shared_lines} lines shared, {flat_lines} one module per instance");
    assert!(flat_lines >= shared_lines);
}

#[test]
fn a_small_hierarchy_shares_bottom_up() {
    let flat = "// head\nmodule t(a);\n    t__x__0 x__0(\n    );\n    t__x__1 x__1(\n    );\nendmodule // t\n\n\nmodule t__x__0(a);\n    t__x__0__f f(\n    );\nendmodule // t__x__0\n\n\nmodule t__x__0__f(a);\n    q <= d;\nendmodule // t__x__0__f\n\n\nmodule t__x__1(a);\n    t__x__1__f f(\n    );\nendmodule // t__x__1\n\n\nmodule t__x__1__f(a);\n    q <= d;\nendmodule // t__x__1__f\n";
    let shared = share_identical_modules(flat);
    assert_eq!(
        shared,
        "// head\nmodule t(a);\n    t__x__0 x__0(\n    );\n    t__x__0 x__1(\n    );\nendmodule // t\n\n\nmodule t__x__0(a);\n    t__x__0__f f(\n    );\nendmodule // t__x__0\n\n\nmodule t__x__0__f(a);\n    q <= d;\nendmodule // t__x__0__f\n"
    );
    assert_eq!(unshare_modules(&shared, "t").unwrap(), flat);
    // Different bodies are not shared.
    let other = flat.replacen(
        "q <= d;\nendmodule // t__x__1__f",
        "q <= ~d;\nendmodule // t__x__1__f",
        1,
    );
    assert_eq!(share_identical_modules(&other), other, "nothing to share");
}
