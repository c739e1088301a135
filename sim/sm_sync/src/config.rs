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
    /// The instruction port is registered (`spec/sm_sync.md`, "Registered
    /// instruction port"): the instruction presented in a cycle is at the
    /// decoder in the next, `in_ready` answers for it then, and a refused
    /// one is dropped for warp issue to present again; no input of the
    /// port reaches a unit in the cycle it is presented. `false`: the
    /// decoder reads the port directly (the PTX executor's SM, whose H100
    /// timing preset counts from the instruction reaching its unit).
    pub registered_port: bool,
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
    /// `w8_m8_c20_t20_l8_f1` — PTX's count and tx ranges —, async groups
    /// G = 2, 1-bit op counters), the instruction port registered (as
    /// every shipped configuration has it).
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
                count_bits: 20,
                tx_bits: 20,
                try_wait_limit: 8,
                wake_fanout: 1,
                group_depth: 2,
                group_op_bits: 1,
            },
            registered_port: true,
        }
    }

    /// W = 16: membar `w16_k4_n4_c6`, bar `w16_c4`, mbarrier
    /// `w16_m32_c20_t20_l40_f2`, async groups G = 4, 2-bit op counters.
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
                count_bits: 20,
                tx_bits: 20,
                try_wait_limit: 40,
                wake_fanout: 2,
                group_depth: 4,
                group_op_bits: 2,
            },
            registered_port: true,
        }
    }

    /// The SM at H100 scale (issue 24 item 2): 64 warps; the membar unit as
    /// the calibrated H100 preset has it (`configs/h100.yaml`'s `unit:`: 32
    /// ways, 4 coalescing indices, 8-bit counters, 24-cycle windows,
    /// GPU-scope barrier acks; its `warps` 32 raised to the SM's 64); the
    /// bar unit with 32 resident CTA slots (the H100's 32 blocks an SM), 16
    /// named barriers each (PTX's `bar` ids 0..15: the unit's fixed count);
    /// the mbarrier unit at its largest table, 64 entries (objects by
    /// shared-memory address, the 228 KB window, are not built:
    /// `docs/mbarrier_ram_design.md`), PTX's count and tx ranges, the
    /// H100's 73-cycle `try_wait` limit, four wakes a cycle (the 64 warps
    /// woken in 16 cycles); the async-group tracker 8 groups deep with
    /// 8-bit operation counters (255 bulk copies in a group).
    pub fn h100() -> Config {
        Config {
            membar: MembarConfig {
                warps: 64,
                ways: 32,
                slots: 4,
                counter_bits: 8,
                coalesce_window: 24,
                lone_window: 24,
                max_outstanding: 1,
                level_mix: membar_unit_model::config::LevelMix::Promote,
                gl_bar_ack: true,
                arch: membar_unit_model::config::Arch::Coalescing,
            },
            bar: BarConfig {
                warps: 64,
                cta_slots: 32,
            },
            mbarrier: MbConfig {
                warps: 64,
                entries: 64,
                count_bits: 20,
                tx_bits: 20,
                try_wait_limit: 73,
                wake_fanout: 4,
                group_depth: 8,
                group_op_bits: 8,
            },
            registered_port: true,
        }
    }

    /// The named configurations (`--config` of `membar … --unit sm_sync`).
    pub fn named() -> Vec<(&'static str, Config)> {
        vec![
            ("small", Config::small()),
            ("w16", Config::w16()),
            ("h100", Config::h100()),
        ]
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

/// Keys of an `sm_sync` configuration file.
pub const KEYS: &[&str] = &["preset", "membar", "bar", "mbarrier", "registered_port"];

impl Config {
    /// Parse an `sm_sync` configuration file: a mapping with a `preset` (a
    /// named configuration) and/or `membar`, `bar` and `mbarrier` sections
    /// (all three when there is no preset). A section is that unit's own
    /// configuration file inlined (its keys, its defaults for missing ones,
    /// its checks) and replaces the preset's unit; `mbarrier` also holds the
    /// async-group tracker's keys. One W is shared by all units.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<Config, String> {
        let v: serde_yaml::Value =
            serde_yaml::from_str(text).map_err(|e| format!("{source}: not YAML: {e}"))?;
        let map = match &v {
            serde_yaml::Value::Mapping(m) => m.clone(),
            serde_yaml::Value::Null => Default::default(),
            _ => {
                return Err(format!(
                    "{source}: expected a mapping with the keys {}",
                    KEYS.join(", ")
                ))
            }
        };
        let key_name = |k: &serde_yaml::Value| match k.as_str() {
            Some(s) => s.to_string(),
            None => serde_yaml::to_string(k)
                .unwrap_or_default()
                .trim()
                .to_string(),
        };
        for k in map.keys() {
            if !k.as_str().is_some_and(|k| KEYS.contains(&k)) {
                return Err(format!(
                    "{source}: unknown key `{}`: allowed: {}",
                    key_name(k),
                    KEYS.join(", ")
                ));
            }
        }
        let mut cfg = match map.get("preset") {
            None if ["membar", "bar", "mbarrier"]
                .iter()
                .all(|k| map.contains_key(*k)) =>
            {
                Config::small()
            }
            None => {
                return Err(format!(
                    "{source}: `preset` is missing: give `preset` ({}) or all three sections \
                     `membar`, `bar`, `mbarrier`",
                    Config::named()
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            }
            Some(p) => {
                let allowed = Config::named()
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ");
                let name = p.as_str().ok_or_else(|| {
                    format!(
                        "{source}: key `preset`: value `{}` is not allowed; allowed: {allowed}",
                        key_name(p)
                    )
                })?;
                Config::by_name(name).map_err(|_| {
                    format!(
                        "{source}: key `preset`: value `{name}` is not allowed; allowed: {allowed}"
                    )
                })?
            }
        };
        let section = |key: &str| -> Result<Option<String>, String> {
            match map.get(key) {
                None => Ok(None),
                Some(v @ serde_yaml::Value::Mapping(_)) => Ok(Some(
                    serde_yaml::to_string(v).map_err(|e| format!("{source}: `{key}`: {e}"))?,
                )),
                Some(v) => Err(format!(
                    "{source}: key `{key}`: value `{}` is not allowed; allowed: a mapping of the {key} unit's configuration keys",
                    key_name(v)
                )),
            }
        };
        if let Some(t) = section("membar")? {
            cfg.membar = MembarConfig::from_yaml_str(&t, &format!("{source}: membar"))
                .map_err(|e| e.to_string())?;
        }
        if let Some(t) = section("bar")? {
            cfg.bar =
                BarConfig::from_yaml(&t, &format!("{source}: bar")).map_err(|e| e.to_string())?;
        }
        if let Some(t) = section("mbarrier")? {
            cfg.mbarrier = MbConfig::from_yaml_str(&t, &format!("{source}: mbarrier"))
                .map_err(|e| e.to_string())?;
        }
        if let Some(v) = map.get("registered_port") {
            cfg.registered_port = v.as_bool().ok_or_else(|| {
                format!(
                    "{source}: key `registered_port`: value `{}` is not allowed; allowed: true, false",
                    key_name(v)
                )
            })?;
        }
        cfg.validate().map_err(|e| format!("{source}: {e}"))?;
        Ok(cfg)
    }

    /// The configuration as a file [`Config::from_yaml_str`] reads back.
    pub fn to_yaml(&self) -> String {
        let indent = |t: String| -> String { t.lines().map(|l| format!("  {l}\n")).collect() };
        format!(
            "membar:\n{}bar:\n  warps: {}\n  cta_slots: {}\nmbarrier:\n{}registered_port: {}\n",
            indent(self.membar.to_yaml()),
            self.bar.warps,
            self.bar.cta_slots,
            indent(
                self.mbarrier
                    .describe()
                    .into_iter()
                    .map(|(k, v)| format!("{k}: {v}\n"))
                    .collect()
            ),
            self.registered_port
        )
    }
}

impl unit_ports::UnitConfig for Config {
    fn short_name(&self) -> String {
        format!(
            "w{}_k{}_c{}_m{}_g{}{}",
            self.warps(),
            self.membar.slots,
            self.bar.cta_slots,
            self.mbarrier.entries,
            self.mbarrier.group_depth,
            if self.registered_port { "_r" } else { "" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;
    use unit_ports::UnitConfig;

    /// `registered_port` is read, written back, and a value other than a
    /// boolean is refused naming the key, the value and what is allowed.
    #[test]
    fn registered_port_key_round_trips_and_bad_values_are_named() {
        let c = Config::from_yaml_str("preset: small\nregistered_port: false\n", "f.yaml").unwrap();
        assert!(!c.registered_port && Config::small().registered_port);
        assert_eq!(Config::from_yaml_str(&c.to_yaml(), "back.yaml").unwrap(), c);
        assert_ne!(c.short_name(), Config::small().short_name());
        let e =
            Config::from_yaml_str("preset: small\nregistered_port: maybe\n", "f.yaml").unwrap_err();
        assert!(
            e.contains("f.yaml")
                && e.contains("`registered_port`")
                && e.contains("maybe")
                && e.contains("true, false"),
            "{e}"
        );
        let e =
            Config::from_yaml_str("preset: small\nregister_port: true\n", "f.yaml").unwrap_err();
        assert!(
            e.contains("unknown key `register_port`") && e.contains("registered_port"),
            "{e}"
        );
    }

    /// `h100`'s membar unit is the calibrated H100 preset's (`configs/h100.yaml`,
    /// its `unit:` section) with the SM's 64 warps; the shipped files name
    /// the presets they are.
    #[test]
    fn h100_membar_is_the_h100_preset_at_64_warps_and_files_load() {
        let configs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
        let mut preset = MembarConfig::load(&configs.join("h100.yaml")).unwrap();
        preset.warps = 64;
        let h = Config::h100();
        assert_eq!(h.membar, preset);
        h.validate().unwrap();
        assert!(h.bar.warps == 64 && h.mbarrier.warps == 64);
        for (name, cfg) in Config::named() {
            let path = configs.join(format!("sm_sync_{name}.yaml"));
            let text = std::fs::read_to_string(&path).unwrap();
            let loaded = Config::from_yaml_str(&text, &path.display().to_string()).unwrap();
            assert_eq!(loaded, cfg, "{}", path.display());
        }
    }
}
