//! `membar release [--unit U] [--out DIR] [--check]`: the released IP set
//! of every unit (or one), written by one command. Each unit's registry
//! entry names the function that builds its set (`<unit>_rtl::ip_release`:
//! every shipped configuration's Verilog and `config.yaml`, the FuseSoC
//! cores, the Verilator waiver files); the RTL crates' golden tests only
//! read what this command wrote.
//!
//! `DIR` (default `verilog_out`) holds a `MANIFEST`: one line per written
//! file with its SHA-256 and its unit. Writing never replaces a file the
//! command did not write, nor one edited since: `DIR` must be new, empty or
//! a release folder (its `MANIFEST` starts with [`MARKER`]); a file in the
//! way that the manifest does not list, or whose hash is not the listed
//! one, is exit 2 naming it. A unit's files that the new release no longer
//! has are removed (they are the manifest's and unedited). `--check` writes
//! nothing: exit 1 listing every missing, stale or unlisted file.

use crate::registry::{Unit, UnitEntry, REGISTRY};
use cli_kit::common::{CmdError, CmdResult};
use hdl_kit::release::{first_difference, ReleasedFile};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;

/// The first line of a release folder's `MANIFEST`.
pub const MARKER: &str =
    "# membar release manifest: written by `membar release`; do not edit (sha256, unit, path)";

/// Largest `MANIFEST` read (a line is under 200 bytes; a release has tens of files).
const MAX_MANIFEST_BYTES: u64 = 1 << 20;

/// The manifest's file name in a release folder.
pub const MANIFEST: &str = "MANIFEST";

fn sha(text: &[u8]) -> String {
    Sha256::digest(text)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// path -> (sha256, unit)
type Manifest = BTreeMap<String, (String, String)>;

fn parse_manifest(dir: &Path, text: &str) -> Result<Manifest, CmdError> {
    let path = dir.join(MANIFEST);
    let mut lines = text.lines();
    if lines.next() != Some(MARKER) {
        return Err(CmdError::input(format!(
            "{}: not a release manifest (its first line is not `{MARKER}`); allowed --out: a new or empty folder, or one `membar release` wrote",
            path.display()
        )));
    }
    let mut m = Manifest::new();
    for (n, l) in lines.enumerate() {
        let f: Vec<&str> = l.split_whitespace().collect();
        match f.as_slice() {
            [h, unit, p]
                if h.len() == 64 && h.chars().all(|c| c.is_ascii_hexdigit()) && inside(p) =>
            {
                m.insert(p.to_string(), (h.to_string(), unit.to_string()));
            }
            _ => {
                return Err(CmdError::input(format!(
                    "{}:{}: `{l}`: expected `<sha256> <unit> <path>`, the path relative and inside the folder",
                    path.display(),
                    n + 2
                )))
            }
        }
    }
    Ok(m)
}

/// A manifest path names a file inside the release folder: relative, no
/// `..`, so a release never writes or removes anything outside `--out`.
fn inside(p: &str) -> bool {
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
}

fn manifest_text(m: &Manifest) -> String {
    let mut s = format!("{MARKER}\n");
    for (p, (h, u)) in m {
        s += &format!("{h}  {u}  {p}\n");
    }
    s
}

/// The files of `entries`, each with its unit; a path two units claim is
/// an internal error.
fn release_set(entries: &[&UnitEntry]) -> Result<Vec<(Unit, ReleasedFile)>, CmdError> {
    let mut out: Vec<(Unit, ReleasedFile)> = Vec::new();
    for e in entries {
        let files =
            (e.release)().map_err(|m| CmdError::failed(format!("--unit {}: {m}", e.unit)))?;
        for f in files {
            if let Some((u, _)) = out.iter().find(|(_, g)| g.path == f.path) {
                return Err(CmdError::failed(format!(
                    "{}: released by both --unit {u} and --unit {}",
                    f.path, e.unit
                )));
            }
            out.push((e.unit, f));
        }
    }
    Ok(out)
}

fn read_manifest(dir: &Path) -> Result<Option<Manifest>, CmdError> {
    let p = dir.join(MANIFEST);
    if !p.exists() {
        return Ok(None);
    }
    let text =
        cli_kit::common::read_input_text("--out", &p, "a release manifest", MAX_MANIFEST_BYTES)?;
    parse_manifest(dir, &text).map(Some)
}

/// Write `bytes` to a temporary file beside `path` and rename it over
/// `path`: a release cut short leaves each file whole, old or new (a new one
/// equals the generated text, so the next release takes it as its own).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    // Released files are read by others: the usual 0644, not the
    // temporary file's 0600.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o644))
}

/// `membar release`.
pub fn release(unit: Option<Unit>, out: &Path, check: bool) -> CmdResult {
    let entries: Vec<&UnitEntry> = REGISTRY
        .iter()
        .copied()
        .filter(|e| unit.is_none_or(|u| u == e.unit))
        .collect();
    let set = release_set(&entries)?;
    let which = match unit {
        Some(u) => format!("--unit {u}"),
        None => "every unit".to_string(),
    };
    if out.exists() && !out.is_dir() {
        return Err(CmdError::input(format!(
            "--out {}: exists and is not a folder; allowed: a new or empty folder, or one `membar release` wrote",
            out.display()
        )));
    }
    let old = if out.is_dir() {
        read_manifest(out)?
    } else {
        None
    };
    // The manifest the release leaves: other units' lines kept.
    let mut new = old.clone().unwrap_or_default();
    new.retain(|_, (_, u)| !entries.iter().any(|e| e.unit.0 == u));
    for (u, f) in &set {
        new.insert(f.path.clone(), (sha(f.text.as_bytes()), u.0.to_string()));
    }
    let gone: Vec<String> = old
        .as_ref()
        .map(|m| {
            m.iter()
                .filter(|(p, (_, u))| {
                    entries.iter().any(|e| e.unit.0 == u) && !new.contains_key(*p)
                })
                .map(|(p, _)| p.clone())
                .collect()
        })
        .unwrap_or_default();
    if check {
        return check_release(out, &set, &new, old.as_ref(), &gone, &which);
    }
    // Refuse before writing anything.
    let non_empty = out.is_dir()
        && std::fs::read_dir(out)
            .map_err(|e| CmdError::input(format!("--out {}: {e}", out.display())))?
            .next()
            .is_some();
    if non_empty && old.is_none() {
        return Err(CmdError::input(format!(
            "--out {}: holds files that `membar release` did not write (no {MANIFEST}); allowed: a new or empty folder, or one `membar release` wrote",
            out.display()
        )));
    }
    let owned = |p: &str, have: &[u8]| -> Result<(), CmdError> {
        match old.as_ref().and_then(|m| m.get(p)) {
            Some((h, _)) if *h == sha(have) => Ok(()),
            Some(_) => Err(CmdError::input(format!(
                "{}: edited since `membar release` wrote it (its SHA-256 is not the manifest's); move it away or restore it, then release again",
                out.join(p).display()
            ))),
            None => Err(CmdError::input(format!(
                "{}: not written by `membar release` (not in {MANIFEST}); move it away, then release again",
                out.join(p).display()
            ))),
        }
    };
    // Each target is read once: the files already current are skipped, the
    // others must be absent or the manifest's own before anything is written.
    let mut to_write: Vec<&ReleasedFile> = Vec::new();
    for (_, f) in &set {
        match std::fs::read(out.join(&f.path)) {
            Ok(have) if have == f.text.as_bytes() => {}
            Ok(have) => {
                owned(&f.path, &have)?;
                to_write.push(f);
            }
            Err(_) => to_write.push(f),
        }
    }
    let mut to_remove = Vec::new();
    for p in &gone {
        if let Ok(have) = std::fs::read(out.join(p)) {
            owned(p, &have)?;
            to_remove.push(out.join(p));
        }
    }
    let io = |p: &Path, e: std::io::Error| CmdError::input(format!("{}: {e}", p.display()));
    for f in &to_write {
        let p = out.join(&f.path);
        write_atomically(&p, f.text.as_bytes()).map_err(|e| io(&p, e))?;
    }
    for path in &to_remove {
        std::fs::remove_file(path).map_err(|e| io(path, e))?;
    }
    let mp = out.join(MANIFEST);
    write_atomically(&mp, manifest_text(&new).as_bytes()).map_err(|e| io(&mp, e))?;
    println!(
        "membar release ({which}): {} files in {} ({} written, {} unchanged, {} removed); {}",
        set.len(),
        out.display(),
        to_write.len(),
        set.len() - to_write.len(),
        to_remove.len(),
        mp.display()
    );
    Ok(())
}

fn check_release(
    out: &Path,
    set: &[(Unit, ReleasedFile)],
    new: &Manifest,
    old: Option<&Manifest>,
    gone: &[String],
    which: &str,
) -> CmdResult {
    let mut problems =
        hdl_kit::release::stale(out, &set.iter().map(|(_, f)| f.clone()).collect::<Vec<_>>());
    for p in gone {
        if out.join(p).exists() {
            problems.push(format!(
                "{}: released before, no longer generated (`membar release` removes it)",
                out.join(p).display()
            ));
        }
    }
    let want = manifest_text(new);
    match old {
        None => problems.push(format!("{}: missing", out.join(MANIFEST).display())),
        Some(m) => {
            if let Some(d) = first_difference(&want, &manifest_text(m)) {
                problems.push(format!("{} is stale: {d}", out.join(MANIFEST).display()));
            }
        }
    }
    if problems.is_empty() {
        println!(
            "membar release --check ({which}): {} files and {MANIFEST} in {} are current",
            set.len(),
            out.display()
        );
        Ok(())
    } else {
        Err(CmdError::failed(format!(
            "membar release --check ({which}): {} problem(s) in {}:\n{}\nwrite the release with `membar release{}`",
            problems.len(),
            out.display(),
            problems.join("\n"),
            if out == Path::new("verilog_out") {
                String::new()
            } else {
                format!(" --out {}", out.display())
            }
        )))
    }
}
