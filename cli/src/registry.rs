//! The table of units behind `--unit`: one line per unit, naming the
//! [`UnitEntry`] the unit declares in its own folder (`hw/<unit>/entry`). `main.rs` dispatches every command through [`entry`] (one
//! arm each, not one per unit), clap's `--unit` lists come from the table
//! ([`parser`]), and `synth --all-configs` and `formal --all-configs` walk
//! [`REGISTRY`] in order. A unit whose command does not honour a flag has it
//! refused before dispatch (`flags.rs`), so every entry takes the same
//! arguments.
//!
//! Adding a unit: its folder (model, RTL, entry crate), its entry crate as a
//! dependency in `cli/Cargo.toml`, and its line in [`REGISTRY`]
//! (`docs/architecture.md`, "Adding a unit").

use cli_kit::common::{CmdError, CmdResult};
pub use cli_kit::entry::{CosimArgs, SimArgs, Unit, UnitEntry};
use std::path::Path;

/// Every unit, in the order of reports (`synth --all-configs`): one line
/// each.
pub static REGISTRY: &[&UnitEntry] = &[
    &membar_unit_entry::MEMBAR,
    &bar_unit_entry::BAR,
    &bar_unit_entry::CLUSTER,
    &mbarrier_unit_entry::MBARRIER,
    &mbarrier_unit_entry::ASYNC_GROUPS,
    &sm_sync_entry::SM_SYNC,
];

/// The entry of `unit` (every `Unit` a parser yields is in the table).
pub fn entry(unit: Unit) -> &'static UnitEntry {
    REGISTRY
        .iter()
        .copied()
        .find(|e| e.unit == unit)
        .expect("every Unit comes from the table's names (parser)")
}

/// The units `soak --unit` / `bench --unit` run through their kits, as text.
pub fn kit_units() -> String {
    names(|e| e.soak.is_some())
}

/// The units `calibrate --unit` takes (those with a calibration entry), as text.
pub fn calibrated_units() -> String {
    names(|e| e.calibrate.is_some())
}

fn names(keep: fn(&UnitEntry) -> bool) -> String {
    REGISTRY
        .iter()
        .filter(|e| keep(e))
        .map(|e| e.unit.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every unit, in registry order.
pub fn units() -> Vec<Unit> {
    REGISTRY.iter().map(|e| e.unit).collect()
}

/// Every unit (`generate`, `cosim`, `sim`, `synth`, `formal`).
pub fn any_unit(_: &UnitEntry) -> bool {
    true
}

/// The units of `soak`, `bench` and `sweep --unit`: membar (its own) and the
/// units with a kit (sm_sync is run as a whole by `cosim --unit sm_sync`).
pub fn soak_unit(e: &UnitEntry) -> bool {
    e.unit == Unit::MEMBAR || e.soak.is_some()
}

/// The units of `calibrate --unit`: membar's fitted table and the units
/// with an H100 table.
pub fn calibrate_unit(e: &UnitEntry) -> bool {
    e.unit == Unit::MEMBAR || e.calibrate.is_some()
}

/// A `--unit` parser that accepts (and lists in help, with each unit's
/// `about`) the units of the table that `keep` keeps.
pub fn parser(keep: fn(&UnitEntry) -> bool) -> impl clap::builder::TypedValueParser<Value = Unit> {
    use clap::builder::{PossibleValue, TypedValueParser};
    clap::builder::PossibleValuesParser::new(
        REGISTRY
            .iter()
            .filter(|e| keep(e))
            .map(|e| {
                PossibleValue::new(e.unit.0)
                    .help(e.about)
                    .aliases(e.aliases.iter().copied())
            })
            .collect::<Vec<_>>(),
    )
    // clap hands back the canonical name of a possible value (an alias too).
    .map(|s| {
        REGISTRY
            .iter()
            .find(|e| e.unit.0 == s || e.aliases.contains(&s.as_str()))
            .map_or(Unit::MEMBAR, |e| e.unit)
    })
}

/// `--config`, required with a unit other than membar.
pub fn need_config(unit: Unit, config: Option<&Path>) -> Result<&Path, CmdError> {
    config.ok_or_else(|| {
        CmdError::input(format!(
            "--config: required with --unit {unit} (e.g. {})",
            entry(unit).example_config
        ))
    })
}

/// `membar soak --unit U` for a unit other than membar.
pub fn soak(
    unit: Unit,
    config: Option<&Path>,
    verilog: Option<&Path>,
    cycles: u64,
    seed: u64,
    chunk: u64,
) -> CmdResult {
    let config = need_config(unit, config)?;
    let a = cli_kit::soak::Args {
        config,
        verilog,
        cycles,
        seed,
        chunk,
    };
    match entry(unit).soak {
        Some(soak) => soak(&a),
        None => Err(CmdError::input(format!(
            "--unit {unit}: soak runs membar and {}; for sm_sync run `membar cosim --unit sm_sync --cycles N --seed S`",
            kit_units()
        ))),
    }
}

/// `membar bench --unit U` for a unit other than membar.
pub fn bench(unit: Unit, config: Option<&Path>, cycles: u64, seed: u64) -> CmdResult {
    let config = need_config(unit, config)?;
    match entry(unit).bench {
        Some(bench) => bench(config, cycles, seed),
        None => Err(CmdError::input(format!(
            "--unit {unit}: bench runs membar and {}; `membar cosim --unit sm_sync` prints the top's cycles/s",
            kit_units()
        ))),
    }
}

/// `membar sweep --unit U --grid G --out DIR` for a unit other than membar.
pub fn sweep(unit: Unit, grid: &Path, out: &Path) -> CmdResult {
    match &entry(unit).sweep {
        Some(sw) => cli_kit::sweep::sweep(unit, sw, grid, out),
        None => Err(CmdError::input(format!(
            "--unit {unit}: sweep is available for membar and {} (sweep a unit of the top on its own)",
            names(|e| e.sweep.is_some())
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_taken_once_and_membar_is_first() {
        let mut seen = std::collections::BTreeSet::new();
        for e in REGISTRY {
            for n in std::iter::once(&e.unit.0).chain(e.aliases) {
                assert!(seen.insert(*n), "--unit {n} names two entries");
            }
        }
        assert_eq!(units()[0], Unit::MEMBAR, "membar first: the default unit");
    }

    fn parse(keep: fn(&UnitEntry) -> bool, v: &str) -> Result<Unit, clap::Error> {
        let cmd = clap::Command::new("t").arg(
            clap::Arg::new("unit")
                .long("unit")
                .value_parser(parser(keep)),
        );
        cmd.try_get_matches_from(["t", "--unit", v])
            .map(|m| *m.get_one::<Unit>("unit").expect("given"))
    }

    #[test]
    fn the_parsers_take_the_tables_names_and_aliases_only() {
        for e in REGISTRY {
            assert_eq!(parse(any_unit, e.unit.0).unwrap(), e.unit);
            for a in e.aliases {
                assert_eq!(parse(any_unit, a).unwrap(), e.unit, "alias {a}");
            }
        }
        assert!(parse(any_unit, "warp_sched").is_err());
        assert!(parse(soak_unit, "sm_sync").is_err());
        assert!(parse(calibrate_unit, "cluster").is_err());
        assert_eq!(
            parse(soak_unit, "async-groups").unwrap(),
            Unit("async_groups")
        );
    }

    #[test]
    fn every_not_honoured_pair_is_in_the_flag_table() {
        for e in REGISTRY {
            for &(cmd, id) in e.not_honoured.iter().flat_map(|l| l.iter()) {
                assert!(
                    crate::flags::NOT_HONOURED
                        .iter()
                        .any(|n| n.cmd == cmd && n.id == id),
                    "{}: ({cmd}, {id}) has no reason in flags::NOT_HONOURED",
                    e.unit
                );
            }
        }
        for n in crate::flags::NOT_HONOURED {
            assert!(
                REGISTRY
                    .iter()
                    .any(|e| crate::flags::not_honoured_by(e.unit, n.cmd, n.id)),
                "flags::NOT_HONOURED ({}, {}) is refused for no unit",
                n.cmd,
                n.id
            );
        }
    }

    #[test]
    fn calibrate_soak_bench_and_sweep_take_the_units_with_an_entry_for_them() {
        assert_eq!(calibrated_units(), "bar, mbarrier");
        assert_eq!(kit_units(), "bar, cluster, mbarrier, async_groups");
        for e in REGISTRY {
            assert_eq!(e.soak.is_some(), e.bench.is_some(), "{}", e.unit);
            assert_eq!(e.soak.is_some(), e.sweep.is_some(), "{}", e.unit);
        }
    }

    #[test]
    fn every_unit_folder_and_example_exist() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for e in REGISTRY {
            assert!(
                root.join("verilog_out").join(e.dir).is_dir(),
                "{}: {}",
                e.unit,
                e.dir
            );
            assert!(
                root.join(e.example_config).is_file(),
                "{}: {}",
                e.unit,
                e.example_config
            );
        }
    }

    #[test]
    fn formal_help_lists_every_units_groups() {
        use clap::CommandFactory;
        let mut cmd = crate::Cli::command();
        let h = cmd
            .find_subcommand_mut("formal")
            .expect("formal")
            .render_long_help()
            .to_string();
        let flat = h.split_whitespace().collect::<Vec<_>>().join(" ");
        for e in REGISTRY {
            let list: Vec<&str> = e
                .formal
                .groups
                .iter()
                .map(|g| g.name)
                .filter(|n| *n != "all")
                .collect();
            let want = format!("{}: {}", e.unit, list.join(", "));
            assert!(flat.contains(&want), "{want}: {flat}");
        }
    }
}
