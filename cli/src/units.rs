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
