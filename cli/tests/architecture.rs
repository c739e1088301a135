//! The layering `docs/architecture.md` promises, checked on the sources: a
//! unit's crates (`<unit>-model`, `<unit>-rtl`, `<unit>-entry`) are named
//! only in the unit's own folders (`sim/<unit>/`, `hw/<unit>/`, which holds
//! its entry crate), by the registry (`cli/src/registry.rs` and the
//! dependency line in `cli/Cargo.toml`), and — for the units the SM top
//! contains — by the top's composition (`sim/sm_sync/`, `hw/sm_sync/`) and
//! the PTX executor that drives it (`sim/sm_exec/`). So adding a unit is its
//! folders plus the registry, and no layer grows a list of units again.
//!
//! The membar unit is the default unit with an environment and exploration
//! layer of its own (`sim/membar_env`, `sim/explore`), so it is not checked
//! here. Prose (`docs/`, `spec/`, README) may name any unit.

mod common;
use common::root;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            if !matches!(
                name.as_str(),
                "target" | "verilog_out" | ".git" | "node_modules"
            ) {
                sources(&p, out);
            }
        } else if name.ends_with(".rs") || name == "Cargo.toml" || name.ends_with(".sh") {
            out.push(p);
        }
    }
}

/// The crate names of `unit` in both spellings (`bar_unit_model`, `bar-unit-model`).
fn crate_names(unit: &str) -> Vec<String> {
    let mut v = Vec::new();
    for part in ["model", "rtl", "entry"] {
        v.push(format!("{unit}_{part}"));
        v.push(format!("{}-{part}", unit.replace('_', "-")));
    }
    v
}

/// `text` names one of `names` as a whole identifier (not inside a longer one).
fn names_one(text: &str, names: &[String]) -> Option<String> {
    for n in names {
        let mut from = 0;
        while let Some(i) = text[from..].find(n.as_str()) {
            let at = from + i;
            let before = text[..at].chars().next_back();
            let after = text[at + n.len()..].chars().next();
            let ident = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ident(before) && !ident(after) {
                return Some(n.clone());
            }
            from = at + n.len();
        }
    }
    None
}

fn outsiders(unit: &str, folder: &str, allowed: &[&str]) -> Vec<String> {
    let root = root();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let names = crate_names(unit);
    let mut out = Vec::new();
    for f in files {
        let rel = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let own =
            rel.starts_with(&format!("sim/{folder}/")) || rel.starts_with(&format!("hw/{folder}/"));
        if own
            || allowed
                .iter()
                .any(|a| rel == *a || (a.ends_with('/') && rel.starts_with(a)))
        {
            continue;
        }
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        if let Some(n) = names_one(&text, &names) {
            out.push(format!("{rel} names {n}"));
        }
    }
    out
}

/// The registry, and this test (which spells the names to look for).
const REGISTRY: &[&str] = &[
    "cli/src/registry.rs",
    "cli/Cargo.toml",
    "cli/tests/architecture.rs",
];
const SM_TOP: &[&str] = &["sim/sm_sync/", "hw/sm_sync/", "sim/sm_exec/"];

#[test]
fn a_units_crates_are_named_only_by_its_folders_the_registry_and_the_sm_top() {
    let mut problems = Vec::new();
    for unit in ["bar_unit", "mbarrier_unit"] {
        let allowed: Vec<&str> = REGISTRY.iter().chain(SM_TOP).copied().collect();
        problems.extend(outsiders(unit, unit, &allowed));
    }
    // The top itself: the registry, the executor that drives it, and
    // `membar run --on rtl|verilog`.
    let mut allowed: Vec<&str> = REGISTRY.to_vec();
    allowed.extend(["sim/sm_exec/", "cli/src/on_target.rs"]);
    problems.extend(outsiders("sm_sync", "sm_sync", &allowed));
    assert!(
        problems.is_empty(),
        "a unit's crate is named outside its folders and the registry (docs/architecture.md, \"Adding a unit\"):\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn the_check_finds_a_name_outside_and_ignores_longer_identifiers() {
    let names = crate_names("bar_unit");
    assert_eq!(
        names_one("use bar_unit_model::x;", &names).as_deref(),
        Some("bar_unit_model")
    );
    assert_eq!(
        names_one("bar-unit-rtl = { path = \"..\" }", &names).as_deref(),
        Some("bar-unit-rtl")
    );
    assert_eq!(names_one("my_bar_unit_model_x", &names), None);
    assert_eq!(
        names_one("mbarrier_unit_model", &crate_names("bar_unit")),
        None
    );
}
