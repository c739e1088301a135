//! Which flags each command honours per unit, in one table: a flag given on
//! the command line (not a default) that the chosen unit's command does not
//! honour is refused with exit 2 before anything runs, naming the flag, the
//! unit and what to do instead. A flag is never silently ignored.

use crate::common::CmdError;
use crate::registry::Unit;
use clap::parser::ValueSource;
use clap::ArgMatches;

/// A flag of `cmd` that some units' commands do not honour: which units is
/// said by their registry entries (`UnitEntry::not_honoured` names
/// `(cmd, id)` pairs of this table), not here.
pub struct NotHonoured {
    pub cmd: &'static str,
    /// The clap argument id (the field name: `no_check` is `--no-check`).
    pub id: &'static str,
    /// What to do instead (`{u}` is the unit's `--unit` value).
    pub why: &'static str,
}

/// The table. Every other (command, flag, unit) combination is honoured.
pub const NOT_HONOURED: &[NotHonoured] = &[
    NotHonoured {
        cmd: "cosim",
        id: "workload",
        why: "cosim --unit {u} drives the unit's seeded random stimulus (--seed); run a scenario on the model with `membar sim --unit {u} --workload NAME`",
    },
    NotHonoured {
        cmd: "sim",
        id: "trace",
        why: "the unit's golden model writes no VCD; use `membar cosim --unit {u} --waves FILE` for a waveform of its ports",
    },
    NotHonoured {
        cmd: "sweep",
        id: "jobs",
        why: "a unit sweep runs its points one after another",
    },
    NotHonoured {
        cmd: "sweep",
        id: "cycles",
        why: "each point of a unit sweep runs its scenario to the end (set `iterations` in the grid's workload section)",
    },
    NotHonoured {
        cmd: "sweep",
        id: "no_check",
        why: "a unit sweep always runs the unit's scoreboard",
    },
    NotHonoured {
        cmd: "sweep",
        id: "shard",
        why: "unit sweeps are not sharded",
    },
    NotHonoured {
        cmd: "sweep",
        id: "merge",
        why: "unit sweeps are not sharded",
    },
    NotHonoured {
        cmd: "bench",
        id: "workload",
        why: "bench --unit {u} runs the unit's seeded random stimulus; allowed: random_mix (the default)",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "preset",
        why: "the unit's table uses its built-in H100 timing preset",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "data",
        why: "the unit's measurements are built in (data/calibration/h100_sync_*.csv)",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "fit",
        why: "the unit's timing preset is derived from its mechanisms, not fitted",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "seed",
        why: "the unit's table is computed without random draws",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "jobs",
        why: "the unit's table is computed in one pass",
    },
    NotHonoured {
        cmd: "calibrate",
        id: "markdown",
        why: "--markdown writes a sync unit's table; allowed: --unit {calibrated}",
    },
    NotHonoured {
        cmd: "synth",
        id: "csv",
        why: "the CSV columns are the membar unit's parameters; use --all-configs --markdown F for every unit's table",
    },
];

/// Whether `unit`'s registry entry says its `cmd` does not honour `id`.
pub fn not_honoured_by(unit: Unit, cmd: &str, id: &str) -> bool {
    crate::registry::entry(unit)
        .not_honoured
        .iter()
        .flat_map(|l| l.iter())
        .any(|&(c, i)| c == cmd && i == id)
}

/// The unit a command acts on (`None`: the command has no `--unit`).
pub fn unit_of(cmd: &str, m: &ArgMatches) -> Option<Unit> {
    let has_unit = matches!(
        cmd,
        "cosim" | "sim" | "soak" | "bench" | "sweep" | "generate" | "calibrate" | "synth"
    );
    if !has_unit {
        return None;
    }
    Some(m.get_one::<Unit>("unit").copied().unwrap_or(Unit::MEMBAR))
}

/// `--no-check` for the argument id `no_check`.
pub fn flag_name(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// `--flag VALUE` as given (the flag alone for a switch).
fn given(cli: &clap::Command, cmd: &str, m: &ArgMatches, id: &str) -> String {
    let takes_value = cli
        .find_subcommand(cmd)
        .and_then(|c| c.get_arguments().find(|a| a.get_id() == id))
        .is_some_and(|a| a.get_action().takes_values());
    let values: Vec<String> = if takes_value {
        m.get_raw(id)
            .map(|v| v.map(|x| x.to_string_lossy().into_owned()).collect())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    if values.is_empty() {
        flag_name(id)
    } else {
        format!("{} {}", flag_name(id), values.join(" "))
    }
}

/// Refuse a flag given on the command line that `cmd --unit U` does not
/// honour; `cli` is the whole command (for how each flag is spelled).
pub fn check(cli: &clap::Command, cmd: &str, m: &ArgMatches) -> Result<(), CmdError> {
    let Some(unit) = unit_of(cmd, m) else {
        return Ok(());
    };
    // `calibrate --kernels|--sm|--own-kernels` has no unit (its flags'
    // conflicts are clap's).
    if cmd == "calibrate"
        && (m.get_flag("kernels") || m.get_flag("sm") || m.get_flag("own_kernels"))
    {
        return Ok(());
    }
    let u = unit.to_string();
    for n in NOT_HONOURED
        .iter()
        .filter(|n| n.cmd == cmd && not_honoured_by(unit, cmd, n.id))
    {
        if m.value_source(n.id) == Some(ValueSource::CommandLine) {
            return Err(CmdError::input(format!(
                "{} is not supported with `{cmd} --unit {u}`: {}",
                given(cli, cmd, m, n.id),
                n.why
                    .replace("{u}", &u)
                    .replace("{calibrated}", &crate::registry::calibrated_units())
            )));
        }
    }
    Ok(())
}
