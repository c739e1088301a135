//! The units the `membar` command drives (`--unit`).

/// Which unit a command acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Unit {
    /// The memory-barrier unit (`spec/membar_unit.md`), the default.
    Membar,
    /// The named-barrier unit (`spec/bar_unit.md`): bar.sync / bar.arrive / bar.red.
    Bar,
    /// The cluster barrier aggregator (`spec/cluster_barrier.md`).
    Cluster,
    /// The transaction-barrier unit (`spec/mbarrier_unit.md`).
    Mbarrier,
    /// The bulk async-group tracker (`spec/async_groups.md`).
    #[value(name = "async_groups", alias = "async-groups")]
    AsyncGroups,
    /// The four units behind one decoded-instruction port (`spec/sm_sync.md`).
    #[value(name = "sm_sync", alias = "sm-sync")]
    SmSync,
}

/// Units of `soak`, `bench` and `sweep --unit` (sm_sync is run as a whole
/// by `cosim --unit sm_sync`).
pub const SOAK_UNITS: &[Unit] = &[
    Unit::Membar,
    Unit::Bar,
    Unit::Cluster,
    Unit::Mbarrier,
    Unit::AsyncGroups,
];

/// Units of `calibrate --unit` (the units with an H100 table; membar is the default table).
pub const CALIBRATE_UNITS: &[Unit] = &[Unit::Membar, Unit::Bar, Unit::Mbarrier];

/// A `--unit` parser that accepts (and lists in help) only `allowed`.
pub fn parser(allowed: &'static [Unit]) -> impl clap::builder::TypedValueParser<Value = Unit> {
    use clap::builder::TypedValueParser;
    use clap::ValueEnum;
    clap::builder::PossibleValuesParser::new(
        allowed
            .iter()
            .filter_map(|u| u.to_possible_value())
            .collect::<Vec<_>>(),
    )
    // Only the names listed above get here, so the fallback is never taken.
    .map(|s| Unit::from_str(&s, false).unwrap_or(Unit::Membar))
}

impl std::fmt::Display for Unit {
    /// The `--unit` value (`async_groups`, not `AsyncGroups`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use clap::ValueEnum;
        match self.to_possible_value() {
            Some(v) => f.write_str(v.get_name()),
            None => write!(f, "{self:?}"),
        }
    }
}
