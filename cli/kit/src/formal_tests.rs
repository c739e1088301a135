//! What the unit entry crates' formal tests (`hw/<unit>/entry/tests/formal*.rs`)
//! take from their registry entries: the harness of a shipped configuration
//! through `UnitEntry::formal.spec` (the path `membar formal --unit U`
//! takes, port check included), and the two mutant tests over a unit's
//! mutant table, run by `membar_formal::suite`.

use crate::entry::UnitEntry;
use membar_formal::mutants::UnitMutants;
use membar_formal::suite::{check_mutant_anchors, kill_mutants, root, MutantRun};
use membar_formal::unit::UnitSpec;
use std::path::PathBuf;

/// The repository root from an entry crate's `CARGO_MANIFEST_DIR`
/// (`hw/<unit>/entry`).
pub fn repo(manifest_dir: &str) -> PathBuf {
    root(manifest_dir, 3)
}

/// (harness, Verilog) of `entry`'s checked-in configuration
/// `verilog_out/<entry.dir>/<name>/`, through the entry's formal spec.
pub fn shipped(manifest_dir: &str, entry: &UnitEntry, name: &str) -> (UnitSpec, PathBuf) {
    let d = repo(manifest_dir)
        .join("verilog_out")
        .join(entry.dir)
        .join(name);
    let v = d.join(format!("{}.v", entry.module));
    let (spec, _, v) = (entry.formal.spec)(&d.join("config.yaml"), Some(&v))
        .unwrap_or_else(|e| panic!("{} {name}: {}", entry.unit, e.message));
    (spec, v)
}

/// A unit's mutant table and how its tests run it.
pub struct MutantTable<'a> {
    pub manifest_dir: &'a str,
    /// The entries the table's `unit` names resolve to.
    pub entries: &'a [&'a UnitEntry],
    pub mutants: &'a [UnitMutants],
    /// BMC depth per unit: enough for each mutant's shortest trace.
    pub depth: fn(&str) -> u32,
    /// Which mutants CI runs besides the first of each group (`None`: the
    /// first of each group).
    pub ci_only: Option<&'a [&'a str]>,
}

impl MutantTable<'_> {
    fn spec_of(&self, u: &UnitMutants) -> UnitSpec {
        let d = repo(self.manifest_dir).join("verilog_out").join(u.dir);
        let e = self
            .entries
            .iter()
            .find(|e| e.unit.0 == u.unit)
            .unwrap_or_else(|| {
                panic!("mutant table names unit {}, not one of the entries", u.unit)
            });
        (e.formal.spec)(&d.join("config.yaml"), Some(&d.join(u.file)))
            .unwrap_or_else(|e| panic!("{}: {}", u.dir, e.message))
            .0
    }

    /// Every mutant changes one line and names a group of its harness.
    pub fn check_anchors(&self) {
        check_mutant_anchors(self.mutants, &repo(self.manifest_dir), &|u| self.spec_of(u));
    }

    /// Every selected mutant is killed and its trace replays.
    pub fn kill(&self) {
        let root = repo(self.manifest_dir);
        let spec_of = |u: &UnitMutants| self.spec_of(u);
        kill_mutants(
            self.mutants,
            &MutantRun {
                root: &root,
                spec_of: &spec_of,
                depth: self.depth,
                ci_only: self.ci_only,
            },
        );
    }
}
