//! Parameters of `sm_sync`: the configurations of its four units, with one
//! warp count W shared by all of them (`spec/sm_sync.md` §Parameters).

use bar_unit_model::config::BarConfig;
use mbarrier_unit_model::config::Config as MbConfig;
use membar_unit_model::Config as MembarConfig;

/// The four units' configurations. `mbarrier` also configures the
/// async-group tracker (`group_depth`, `group_op_bits`), as in its crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    pub membar: MembarConfig,
    pub bar: BarConfig,
    pub mbarrier: MbConfig,
}

impl Config {
    /// W: warps of the SM (every unit's `warps`).
    pub fn warps(&self) -> u32 {
        self.membar.warps
    }
    /// WB = log2 W.
    pub fn wb(&self) -> u32 {
        self.membar.wb()
    }
    /// Width of `in_count`: the widest count operand of the units
    /// (bar `req_count`, mbarrier `op_count`, async-groups `ag_n`).
    pub fn count_bits(&self) -> u32 {
        self.bar
            .cb()
            .max(self.mbarrier.count_port_bits())
            .max(self.mbarrier.group_n_bits())
    }
    /// Width of `in_tx` (= mbarrier `op_tx`).
    pub fn tx_bits(&self) -> u32 {
        self.mbarrier.tx_port_bits()
    }

    /// The small synthesizable default: W = 8, the units' smallest shipped
    /// configurations (membar `w8_k2_n1_c4`, bar `w8_c1`, mbarrier
    /// `w8_m8_c4_t6_l8_f1`, async groups G = 2, 1-bit op counters).
    pub fn small() -> Config {
        Config {
            membar: MembarConfig {
                warps: 8,
                slots: 2,
                ways: 1,
                counter_bits: 4,
                ..MembarConfig::default()
            },
            bar: BarConfig {
                warps: 8,
                cta_slots: 1,
            },
            mbarrier: MbConfig {
                warps: 8,
                entries: 8,
                count_bits: 4,
                tx_bits: 6,
                try_wait_limit: 8,
                wake_fanout: 1,
                group_depth: 2,
                group_op_bits: 1,
            },
        }
    }

    /// W = 16: membar `w16_k4_n4_c6`, bar `w16_c4`, mbarrier
    /// `w16_m32_c10_t12_l40_f2`, async groups G = 4, 2-bit op counters.
    pub fn w16() -> Config {
        Config {
            membar: MembarConfig {
                warps: 16,
                slots: 4,
                ways: 4,
                counter_bits: 6,
                ..MembarConfig::default()
            },
            bar: BarConfig {
                warps: 16,
                cta_slots: 4,
            },
            mbarrier: MbConfig {
                warps: 16,
                entries: 32,
                count_bits: 10,
                tx_bits: 12,
                try_wait_limit: 40,
                wake_fanout: 2,
                group_depth: 4,
                group_op_bits: 2,
            },
        }
    }

    /// The named configurations (`--config` of `membar … --unit sm_sync`).
    pub fn named() -> Vec<(&'static str, Config)> {
        vec![("small", Config::small()), ("w16", Config::w16())]
    }

    /// The configuration called `name`, or an error naming what exists.
    pub fn by_name(name: &str) -> Result<Config, String> {
        Config::named()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, c)| c)
            .ok_or_else(|| {
                format!(
                    "sm_sync: unknown configuration `{name}`: allowed: {}",
                    Config::named()
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }

    /// Every unit valid, and one W shared by all of them.
    pub fn validate(&self) -> Result<(), String> {
        let w = self.membar.warps;
        for (k, v) in [
            ("bar.warps", self.bar.warps),
            ("mbarrier.warps", self.mbarrier.warps),
        ] {
            if v != w {
                return Err(format!(
                    "sm_sync: `{k}` = {v}: allowed: the membar unit's warps ({w}); one W is shared by all units"
                ));
            }
        }
        self.bar
            .validate("sm_sync bar")
            .map_err(|e| e.to_string())?;
        self.mbarrier
            .validate("sm_sync mbarrier")
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}

impl unit_ports::UnitConfig for Config {
    fn short_name(&self) -> String {
        format!(
            "w{}_k{}_c{}_m{}_g{}",
            self.warps(),
            self.membar.slots,
            self.bar.cta_slots,
            self.mbarrier.entries,
            self.mbarrier.group_depth
        )
    }
}
