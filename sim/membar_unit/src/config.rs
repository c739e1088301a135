//! Configuration of `membar_unit`: the SPEC.md parameters (`warps`, `ways`,
//! `slots`, `counter_bits`) plus the micro-architecture knobs documented in
//! `docs/microarchitecture.md`.
//!
//! Parsing is strict: serde decodes the file into `RawConfig`
//! (`deny_unknown_fields`, typed enums), then one validation pass checks
//! ranges and cross-key constraints. An unknown key, a wrong type or an
//! out-of-range value is an [`InputError`] that names the file (and line), the
//! key, the value and what is allowed (see `input.rs`). Nothing here panics on
//! bad input. A calibrated preset (`configs/h100.yaml`) is read as its `unit:`
//! section. The limits shared by the whole tree (`MAX_WARPS`, ...) live here.

use crate::input::{decode, decode_value, present, read_input, uint, Doc, Rule};
use serde::Deserialize;
use serde_yaml::Value;
use std::fmt;
use std::path::Path;

pub use crate::input::{join_key, yaml_repr};

// ---------------------------------------------------------------------------
// Limits shared by the whole tree (model, MMU, workloads, RTL, testbench, CLI)
// ---------------------------------------------------------------------------

/// Most warps of any configuration (`warps` is one of [`WARPS_CHOICES`]).
pub const MAX_WARPS: usize = 64;
/// The warp counts SPEC.md allows.
pub const WARPS_CHOICES: &[u32] = &[8, 16, 32, 64];
/// Most slots (tags) of any configuration.
pub const MAX_SLOTS: usize = 8;
/// The slot counts SPEC.md allows.
pub const SLOTS_CHOICES: &[u32] = &[2, 4, 8];
/// Narrowest and widest commit counter (`counter_bits`).
pub const MIN_COUNTER_BITS: u32 = 4;
pub const MAX_COUNTER_BITS: u32 = 16;
/// Largest `coalesce_window`.
pub const MAX_COALESCE_WINDOW: u32 = 255;
/// Largest run length (`cycles` of a workload file or grid).
pub const MAX_RUN_CYCLES: u64 = 1_000_000_000_000;
/// Largest latency, stall or delay (in cycles) any cycle range may name.
pub const MAX_LATENCY: u64 = 1_000_000;
/// Largest `ops_per_warp` / `membars_per_warp` / program step repeat count.
pub const MAX_COUNT: u64 = 1_000_000_000;

/// What each config key allows.
pub mod rules {
    use super::*;
    pub const WARPS: Rule = Rule::OneOf(WARPS_CHOICES);
    pub const WAYS: Rule = Rule::Int(1, MAX_WARPS as u64);
    pub const SLOTS: Rule = Rule::OneOf(SLOTS_CHOICES);
    pub const COUNTER_BITS: Rule = Rule::Int(MIN_COUNTER_BITS as u64, MAX_COUNTER_BITS as u64);
    pub const COALESCE_WINDOW: Rule = Rule::Int(0, MAX_COALESCE_WINDOW as u64);
    pub const LONE_WINDOW: Rule = Rule::Int(0, MAX_COALESCE_WINDOW as u64);
    pub const MAX_OUTSTANDING: Rule = Rule::Int(1, MAX_SLOTS as u64 - 1);
    pub const LEVEL_MIX: Rule = Rule::Text("promote or split");
    pub const BOOL: Rule = Rule::Text("true or false");
    pub const ARCH: Rule = Rule::Text(Arch::NAMES);
}

/// A user-facing input error (config, workload, CLI value). Its `Display`
/// names where (file, key or line), the offending value and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// File (or `<cli>`, `<string>`) the input came from.
    pub source: String,
    /// Key, line or flag the problem is attached to.
    pub key: String,
    /// The offending value, as written (empty when the key is missing).
    pub value: String,
    /// What would have been accepted.
    pub allowed: String,
}

impl InputError {
    pub fn new(
        source: &str,
        key: &str,
        value: impl fmt::Display,
        allowed: impl fmt::Display,
    ) -> Self {
        InputError {
            source: source.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            allowed: allowed.to_string(),
        }
    }
}

impl unit_ports::UnitConfig for Config {
    fn short_name(&self) -> String {
        Config::short_name(self)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}: `{}`: {}", self.source, self.key, self.allowed)
        } else {
            write!(
                f,
                "{}: `{}` = {}: allowed: {}",
                self.source, self.key, self.value, self.allowed
            )
        }
    }
}

impl std::error::Error for InputError {}

/// Which micro-architecture the reference model implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arch {
    /// The patent's N-way coalescing design (the RTL implements this one).
    Coalescing,
    /// Baseline: each warp waits for its own outstanding transactions (one
    /// counter per warp, one BARRIER per MEMBAR), as GPGPU-Sim models MEMBAR.
    PerWarpDrain,
    /// Baseline: a fence stalls every warp until everything outstanding is
    /// done (one BARRIER per MEMBAR), as Vortex does.
    LsuFlush,
}

impl Arch {
    pub const NAMES: &'static str = "coalescing, per_warp_drain, lsu_flush";
    pub fn name(self) -> &'static str {
        match self {
            Arch::Coalescing => "coalescing",
            Arch::PerWarpDrain => "per_warp_drain",
            Arch::LsuFlush => "lsu_flush",
        }
    }
}

/// What happens when a MEMBAR of a different level meets an open coalesced
/// barrier that already has members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LevelMix {
    /// Join it; the coalesced barrier's level becomes the highest member level.
    Promote,
    /// Close the open barrier (when the outstanding limit allows) and start a
    /// new one for the newcomer; until then the newcomer waits (refused).
    Split,
}

impl LevelMix {
    pub fn name(self) -> &'static str {
        match self {
            LevelMix::Promote => "promote",
            LevelMix::Split => "split",
        }
    }
}

/// A validated configuration. Construct with [`Config::from_yaml_str`],
/// [`Config::load`] or [`Config::default`]; then every field is in range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Config {
    /// W: warps in the SM (8, 16, 32, 64).
    pub warps: u32,
    /// N: most barriers coalesced into one (1..=W).
    pub ways: u32,
    /// K: coalescing indices (2, 4, 8).
    pub slots: u32,
    /// Width of each tag's outstanding-transaction counter (4..=16).
    pub counter_bits: u32,
    /// Cycles an open coalesced barrier with members waits for more members
    /// before it may close (0..=255). 0 closes it as soon as allowed.
    pub coalesce_window: u32,
    /// The window of a lone coalesced barrier (nothing older outstanding
    /// when its first member joined): it may close once its first member is
    /// this many cycles old (0..=255; above `coalesce_window` it acts as
    /// `coalesce_window`). 0 closes a lone barrier at once (no window tax);
    /// `lone_window = coalesce_window` is the unit before issue 15 (every
    /// barrier waits the full window).
    pub lone_window: u32,
    /// Coalesced barriers closed (sent) but not yet released, at most
    /// (1..=slots-1). The patent's default embodiment: 1.
    pub max_outstanding: u32,
    /// Level-mixing policy.
    pub level_mix: LevelMix,
    /// Ask downstream for a `bar_ack` on GL barriers too, and wait for it.
    pub gl_bar_ack: bool,
    /// Micro-architecture (the RTL exists for `coalescing` only).
    pub arch: Arch,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            warps: 32,
            ways: 8,
            slots: 4,
            counter_bits: 8,
            coalesce_window: 16,
            lone_window: 0,
            max_outstanding: 1,
            level_mix: LevelMix::Promote,
            gl_bar_ack: false,
            arch: Arch::Coalescing,
        }
    }
}

/// Every key a config file may hold, in the order they are documented.
pub const CONFIG_KEYS: &[&str] = &[
    "warps",
    "ways",
    "slots",
    "counter_bits",
    "coalesce_window",
    "lone_window",
    "max_outstanding",
    "level_mix",
    "gl_bar_ack",
    "arch",
];

impl Config {
    /// log2(W): width of `req_warp`/`dn_warp`.
    pub fn wb(&self) -> u32 {
        self.warps.trailing_zeros()
    }
    /// log2(K): width of the tag ports.
    pub fn tb(&self) -> u32 {
        self.slots.trailing_zeros()
    }
    /// Coalescing indices the design tags transactions with: K slots, or one
    /// per warp for the `per_warp_drain` baseline.
    pub fn tag_count(&self) -> u32 {
        match self.arch {
            Arch::PerWarpDrain => self.warps,
            _ => self.slots,
        }
    }
    /// Width of the tag ports (`dn_tag`, `ack_tag`, `bar_ack_tag`): log2 of
    /// [`Config::tag_count`] (= `tb()` for the coalescing design).
    pub fn tag_bits(&self) -> u32 {
        self.tag_count().trailing_zeros()
    }
    /// Largest value a commit counter holds (all ones): a full counter.
    pub fn counter_max(&self) -> u32 {
        (1u32 << self.counter_bits) - 1
    }
    /// Mask of the `warp_blocked`/`release_mask` bits.
    pub fn warp_mask(&self) -> u64 {
        if self.warps == 64 {
            u64::MAX
        } else {
            (1u64 << self.warps) - 1
        }
    }

    /// A short identifier spelled as the shipped configuration files are
    /// named (`w32_k4_n8_c8`: warps, slots, ways, counter bits).
    pub fn short_name(&self) -> String {
        format!(
            "w{}_k{}_n{}_c{}",
            self.warps, self.slots, self.ways, self.counter_bits
        )
    }

    /// Every parameter as `key: value` lines (for generated-file headers).
    pub fn describe(&self) -> Vec<(String, String)> {
        vec![
            ("warps".into(), self.warps.to_string()),
            ("ways".into(), self.ways.to_string()),
            ("slots".into(), self.slots.to_string()),
            ("counter_bits".into(), self.counter_bits.to_string()),
            ("coalesce_window".into(), self.coalesce_window.to_string()),
            ("lone_window".into(), self.lone_window.to_string()),
            ("max_outstanding".into(), self.max_outstanding.to_string()),
            ("level_mix".into(), self.level_mix.name().into()),
            ("gl_bar_ack".into(), self.gl_bar_ack.to_string()),
            ("arch".into(), self.arch.name().into()),
        ]
    }

    /// The config as YAML text that [`Config::from_yaml_str`] reads back.
    pub fn to_yaml(&self) -> String {
        self.describe()
            .into_iter()
            .map(|(k, v)| format!("{k}: {v}\n"))
            .collect()
    }

    /// Load and validate a YAML config file, or the `unit:` section of a
    /// calibrated preset (`configs/h100.yaml`; see [`Config::from_yaml_str`]).
    pub fn load(path: &Path) -> Result<Config, InputError> {
        let src = path.display().to_string();
        let text = read_input(path, "config")?;
        Config::from_yaml_str(&text, &src)
    }

    /// Parse and validate YAML text; `source` names it in errors. A preset
    /// (top-level `unit:` or `name:`, as in `configs/h100.yaml`) is read as a
    /// whole and its `unit:` section is the config; its errors name keys as
    /// `unit.<key>`.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<Config, InputError> {
        if is_preset(text) {
            return unit_section_of_preset(text, source);
        }
        let doc = Doc {
            source,
            lines: true,
            what: "a mapping of config keys",
        };
        let raw: Option<RawConfig> = decode(&doc, text, &|k| config_allowed(k))?;
        raw.unwrap_or_default().validate(source, "")
    }

    /// Build a config from a parsed YAML mapping of config keys (the sweep
    /// grid overrides keys one point at a time).
    pub fn from_value(v: &Value, source: &str) -> Result<Config, InputError> {
        let raw: Option<RawConfig> = decode_value(source, v, "a mapping of config keys", &|k| {
            config_allowed(k)
        })?;
        raw.unwrap_or_default().validate(source, "")
    }

    /// The named configurations shipped in `configs/` (file stem, config).
    pub fn grid() -> Vec<(&'static str, Config)> {
        let mk = |w, k, n, cb| Config {
            warps: w,
            slots: k,
            ways: n,
            counter_bits: cb,
            ..Config::default()
        };
        vec![
            ("default", Config::default()),
            ("w32_k4_n8_c8", mk(32, 4, 8, 8)),
            ("w8_k2_n1_c4", mk(8, 2, 1, 4)),
            ("w64_k8_n16_c8", mk(64, 8, 16, 8)),
            ("w16_k4_n4_c6", mk(16, 4, 4, 6)),
        ]
    }
}

/// An unsigned integer in `lo..=hi`, as u64 (for cycle counts and the like).
pub fn get_u64(source: &str, key: &str, v: &Value, lo: u64, hi: u64) -> Result<u64, InputError> {
    let allowed = format!("an integer in {lo}..={hi}");
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(x) if x >= lo && x <= hi => Ok(x),
            _ => Err(InputError::new(source, key, n, allowed)),
        },
        other => Err(InputError::new(source, key, yaml_repr(other), allowed)),
    }
}

/// A string.
pub fn get_str(source: &str, key: &str, v: &Value, allowed: &str) -> Result<String, InputError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        other => Err(InputError::new(source, key, yaml_repr(other), allowed)),
    }
}

/// The `unit:` section of a calibrated preset (`name`, `unit`, `mmu`,
/// `sm`), its keys named `unit.<key>` in errors. The other sections belong to
/// the environment, which validates them (`membar_explore::load_config`).
fn unit_section_of_preset(text: &str, source: &str) -> Result<Config, InputError> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PresetUnit {
        #[serde(default)]
        unit: Option<RawConfig>,
        #[serde(default, rename = "name")]
        _name: Option<serde::de::IgnoredAny>,
        #[serde(default, rename = "mmu")]
        _mmu: Option<serde::de::IgnoredAny>,
        #[serde(default, rename = "sm")]
        _sm: Option<serde::de::IgnoredAny>,
    }
    let doc = Doc {
        source,
        lines: true,
        what: "a preset: a mapping with keys name, unit, mmu, sm",
    };
    let allowed = |k: &str| match k.split_once('.') {
        Some(("unit", rest)) => config_allowed(rest),
        _ => "a preset: a mapping with keys name, unit, mmu, sm".to_string(),
    };
    let raw: Option<PresetUnit> = decode(&doc, text, &allowed)?;
    raw.and_then(|p| p.unit)
        .unwrap_or_default()
        .validate(source, "unit")
}

/// Is this text a calibrated preset (top-level `unit:` or `name:`)?
pub fn is_preset(text: &str) -> bool {
    #[derive(Deserialize)]
    struct TopKeys {
        #[serde(default, deserialize_with = "present")]
        unit: Option<serde::de::IgnoredAny>,
        #[serde(default, deserialize_with = "present")]
        name: Option<serde::de::IgnoredAny>,
    }
    matches!(
        serde_yaml::from_str::<TopKeys>(text),
        Ok(TopKeys { unit, name }) if unit.is_some() || name.is_some()
    )
}

/// What a config key allows (`key` without a section prefix).
pub fn config_allowed(key: &str) -> String {
    use rules::*;
    match key {
        "warps" => WARPS,
        "ways" => WAYS,
        "slots" => SLOTS,
        "counter_bits" => COUNTER_BITS,
        "coalesce_window" => COALESCE_WINDOW,
        "lone_window" => LONE_WINDOW,
        "max_outstanding" => MAX_OUTSTANDING,
        "level_mix" => LEVEL_MIX,
        "gl_bar_ack" => BOOL,
        "arch" => ARCH,
        _ => Rule::Text("a mapping of config keys"),
    }
    .allowed()
}

/// A config file as written: every key optional, no unknown keys.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    #[serde(default, deserialize_with = "uint")]
    warps: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    ways: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    slots: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    counter_bits: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    coalesce_window: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    lone_window: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    max_outstanding: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    level_mix: Option<LevelMix>,
    #[serde(default, deserialize_with = "present")]
    gl_bar_ack: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    arch: Option<Arch>,
}

impl RawConfig {
    /// The validation pass: ranges and cross-key constraints. `path`
    /// prefixes keys in errors (`unit` in a preset).
    pub fn validate(self, source: &str, path: &str) -> Result<Config, InputError> {
        use rules::*;
        let d = Config::default();
        let k = |name: &str| join_key(path, name);
        let int = |rule: Rule, name: &str, v: Option<u64>, dflt: u32| match v {
            Some(v) => rule.u32(source, &k(name), v),
            None => Ok(dflt),
        };
        let c = Config {
            warps: int(WARPS, "warps", self.warps, d.warps)?,
            ways: int(WAYS, "ways", self.ways, d.ways)?,
            slots: int(SLOTS, "slots", self.slots, d.slots)?,
            counter_bits: int(
                COUNTER_BITS,
                "counter_bits",
                self.counter_bits,
                d.counter_bits,
            )?,
            coalesce_window: int(
                COALESCE_WINDOW,
                "coalesce_window",
                self.coalesce_window,
                d.coalesce_window,
            )?,
            lone_window: int(LONE_WINDOW, "lone_window", self.lone_window, d.lone_window)?,
            max_outstanding: int(
                MAX_OUTSTANDING,
                "max_outstanding",
                self.max_outstanding,
                d.max_outstanding,
            )?,
            level_mix: self.level_mix.unwrap_or(d.level_mix),
            gl_bar_ack: self.gl_bar_ack.unwrap_or(d.gl_bar_ack),
            arch: self.arch.unwrap_or(d.arch),
        };
        // Cross-key constraints, checked once every key is known.
        if c.ways > c.warps {
            let seen_ways = self.ways.is_some();
            let key = if seen_ways { "ways" } else { "warps" };
            let val = if seen_ways { c.ways } else { c.warps };
            return Err(InputError::new(
                source,
                &k(key),
                val,
                format!(
                    "ways must be 1..=warps (ways = {}, warps = {})",
                    c.ways, c.warps
                ),
            ));
        }
        // The default outstanding limit (1) fits every slot count.
        if c.max_outstanding > c.slots - 1 {
            return Err(InputError::new(
                source,
                &k("max_outstanding"),
                c.max_outstanding,
                format!("1..=slots-1 (slots = {})", c.slots),
            ));
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_match_spec() {
        let c = Config::from_yaml_str("", "t").unwrap();
        assert_eq!((c.warps, c.ways, c.slots, c.counter_bits), (32, 8, 4, 8));
        assert_eq!(c.wb(), 5);
        assert_eq!(c.tb(), 2);
        assert_eq!(c.counter_max(), 255);
    }

    #[test]
    fn roundtrip_yaml() {
        for (_, c) in Config::grid() {
            assert_eq!(Config::from_yaml_str(&c.to_yaml(), "t").unwrap(), c);
        }
    }

    #[test]
    fn errors_name_key_value_allowed() {
        let e = Config::from_yaml_str("ways: 9\nwarps: 8\n", "f.yaml").unwrap_err();
        let s = e.to_string();
        assert!(
            s.contains("f.yaml")
                && s.contains("ways")
                && s.contains('9')
                && s.contains("1..=warps"),
            "{s}"
        );
        let e = Config::from_yaml_str("wraps: 8\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("wraps") && e.contains("unknown key") && e.contains("warps"),
            "{e}"
        );
        let e = Config::from_yaml_str("slots: 3\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("slots") && e.contains('3') && e.contains("2, 4, 8"),
            "{e}"
        );
        let e = Config::from_yaml_str("counter_bits: -1\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("counter_bits") && e.contains("-1") && e.contains("4..=16"),
            "{e}"
        );
        let e = Config::from_yaml_str("counter_bits: \"8\"\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("counter_bits") && e.contains("\"8\""), "{e}");
        let e = Config::from_yaml_str("max_outstanding: 3\nslots: 2\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("max_outstanding") && e.contains("slots = 2"),
            "{e}"
        );
        // A lone window above coalesce_window is allowed (it acts as
        // coalesce_window), so a sweep can vary coalesce_window under a preset.
        assert_eq!(
            Config::from_yaml_str("coalesce_window: 8\nlone_window: 9\n", "f.yaml")
                .unwrap()
                .lone_window,
            9
        );
        let e = Config::from_yaml_str("lone_window: 256\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("lone_window") && e.contains("0..=255"), "{e}");
        assert_eq!(
            Config::from_yaml_str("lone_window: 16\n", "f.yaml")
                .unwrap()
                .lone_window,
            16
        );
        let e = Config::from_yaml_str("level_mix: mix\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("level_mix") && e.contains("promote or split"),
            "{e}"
        );
        let e = Config::from_yaml_str("[1, 2]", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("mapping"), "{e}");
        let e = Config::from_yaml_str("warps: 99999999999999999999999\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("warps"), "{e}");
    }

    /// Issue 11: a number beyond 64 bits names key, value and the allowed
    /// set (it used to say "as u128"); serde_yaml's errors carry the line.
    #[test]
    fn numbers_beyond_64_bits_name_key_value_allowed() {
        let e = Config::from_yaml_str("slots: 4\nwarps: 99999999999999999999\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("f.yaml:2")
                && e.contains("`warps` = 99999999999999999999")
                && e.contains("allowed: one of 8, 16, 32, 64")
                && !e.contains("u128"),
            "{e}"
        );
        let e = Config::from_yaml_str("coalesce_window: -99999999999999999999\n", "f.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("`coalesce_window` = -99999999999999999999")
                && e.contains("0..=255")
                && !e.contains("i128"),
            "{e}"
        );
    }
}

#[cfg(test)]
mod shipped_configs {
    use super::*;

    /// Issue 11: a configuration is spelled one way: its short name is the
    /// name of its shipped file.
    #[test]
    fn short_names_are_the_file_names() {
        for (name, cfg) in Config::grid() {
            if name != "default" {
                assert_eq!(cfg.short_name(), name);
            }
        }
    }

    /// `configs/<name>.yaml` must say exactly what `Config::grid()` says.
    #[test]
    fn config_files_match_grid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
        for (name, cfg) in Config::grid() {
            let path = dir.join(format!("{name}.yaml"));
            let loaded = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(loaded, cfg, "{}", path.display());
        }
    }

    /// Issue 11 item 12: a calibrated preset is a config: its `unit:` section.
    #[test]
    fn presets_load_as_their_unit_section() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
        for name in ["h100", "h200"] {
            let path = dir.join(format!("{name}.yaml"));
            let cfg = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_ne!(cfg, Config::default(), "{name}");
        }
        let e = Config::from_yaml_str("name: x\nunit: {ways: 99}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("p.yaml") && e.contains("`unit.ways`") && e.contains("99"),
            "{e}"
        );
        let e = Config::from_yaml_str("name: x\nunit:\n  slots: [3]\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("p.yaml:3") && e.contains("`unit.slots`") && e.contains("2, 4, 8"),
            "{e}"
        );
        // A plain config with a preset-only key is still a config error.
        let e = Config::from_yaml_str("warps: 8\nsm: {}\n", "c.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`sm`") && e.contains("unknown key"), "{e}");
    }

    /// Issue 11: an endless file is refused at the size limit, naming it.
    #[test]
    fn endless_file_is_refused() {
        let e = Config::load(Path::new("/dev/zero"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/dev/zero") && e.contains("4 MiB limit"), "{e}");
    }

    #[test]
    fn missing_file_is_a_clear_error() {
        let e = Config::load(Path::new("/nonexistent/x.yaml"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/x.yaml") && e.contains("cannot read"),
            "{e}"
        );
    }
}
