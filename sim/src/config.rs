//! Configuration of `membar_unit`: the SPEC.md parameters (`warps`, `ways`,
//! `slots`, `counter_bits`) plus the micro-architecture knobs documented in
//! `docs/microarchitecture.md`.
//!
//! Parsing is strict: an unknown key, a wrong type or an out-of-range value is
//! an [`InputError`] that names the file, the key, the value and what is
//! allowed. Nothing here panics on bad input.

use serde_yaml::Value;
use std::fmt;
use std::path::Path;

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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    pub fn parse(s: &str) -> Option<Arch> {
        match s {
            "coalescing" => Some(Arch::Coalescing),
            "per_warp_drain" => Some(Arch::PerWarpDrain),
            "lsu_flush" => Some(Arch::LsuFlush),
            _ => None,
        }
    }
}

/// What happens when a MEMBAR of a different level meets an open coalesced
/// barrier that already has members.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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

    /// A short identifier, e.g. `w32_n8_k4_c8`, used in file and module names.
    pub fn short_name(&self) -> String {
        format!(
            "w{}_n{}_k{}_c{}",
            self.warps, self.ways, self.slots, self.counter_bits
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

    /// Load and validate a YAML config file.
    pub fn load(path: &Path) -> Result<Config, InputError> {
        let src = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| {
            InputError::new(
                &src,
                "file",
                "",
                format!("cannot read the config file: {e}"),
            )
        })?;
        Config::from_yaml_str(&text, &src)
    }

    /// Parse and validate YAML text; `source` names it in errors.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<Config, InputError> {
        let value: Value = if text.trim().is_empty() {
            Value::Mapping(Default::default())
        } else {
            serde_yaml::from_str(text).map_err(|e| {
                InputError::new(
                    source,
                    "yaml",
                    "",
                    format!("not valid YAML ({e}); expected a mapping of config keys"),
                )
            })?
        };
        let map = match value {
            Value::Mapping(m) => m,
            Value::Null => Default::default(),
            other => {
                return Err(InputError::new(
                    source,
                    "<top level>",
                    yaml_repr(&other),
                    "a mapping of config keys",
                ))
            }
        };
        Config::from_pairs(map.iter().map(|(k, v)| (k.clone(), v.clone())), source)
    }

    /// Build a config from already-parsed YAML key/value pairs (the sweep
    /// grid uses this to override keys one point at a time).
    pub fn from_pairs(
        pairs: impl IntoIterator<Item = (Value, Value)>,
        source: &str,
    ) -> Result<Config, InputError> {
        let mut c = Config::default();
        let mut seen_ways = false;
        let mut seen_max_out = false;
        for (k, v) in pairs {
            let key = match &k {
                Value::String(s) => s.clone(),
                other => {
                    return Err(InputError::new(
                        source,
                        &yaml_repr(other),
                        "",
                        format!(
                            "keys must be strings; known keys: {}",
                            CONFIG_KEYS.join(", ")
                        ),
                    ))
                }
            };
            match key.as_str() {
                "warps" => c.warps = get_choice(source, &key, &v, &[8, 16, 32, 64])?,
                "ways" => {
                    c.ways = get_uint(source, &key, &v, 1, 64)?;
                    seen_ways = true;
                }
                "slots" => c.slots = get_choice(source, &key, &v, &[2, 4, 8])?,
                "counter_bits" => c.counter_bits = get_uint(source, &key, &v, 4, 16)?,
                "coalesce_window" => c.coalesce_window = get_uint(source, &key, &v, 0, 255)?,
                "max_outstanding" => {
                    c.max_outstanding = get_uint(source, &key, &v, 1, 7)?;
                    seen_max_out = true;
                }
                "level_mix" => {
                    c.level_mix = match get_str(source, &key, &v, "promote or split")?.as_str() {
                        "promote" => LevelMix::Promote,
                        "split" => LevelMix::Split,
                        s => return Err(InputError::new(source, &key, s, "promote or split")),
                    }
                }
                "gl_bar_ack" => {
                    c.gl_bar_ack = match v {
                        Value::Bool(b) => b,
                        ref other => {
                            return Err(InputError::new(
                                source,
                                &key,
                                yaml_repr(other),
                                "true or false",
                            ))
                        }
                    }
                }
                "arch" => {
                    let s = get_str(source, &key, &v, Arch::NAMES)?;
                    c.arch = Arch::parse(&s)
                        .ok_or_else(|| InputError::new(source, &key, &s, Arch::NAMES))?;
                }
                _ => {
                    return Err(InputError::new(
                        source,
                        &key,
                        yaml_repr(&v),
                        format!("unknown key; known keys: {}", CONFIG_KEYS.join(", ")),
                    ))
                }
            }
        }
        // Cross-key constraints, checked once every key is known.
        if c.ways > c.warps {
            let key = if seen_ways { "ways" } else { "warps" };
            let val = if seen_ways { c.ways } else { c.warps };
            return Err(InputError::new(
                source,
                key,
                val,
                format!(
                    "ways must be 1..=warps (ways = {}, warps = {})",
                    c.ways, c.warps
                ),
            ));
        }
        if c.max_outstanding > c.slots - 1 {
            if !seen_max_out {
                // Only `slots` was lowered: the default outstanding limit is 1,
                // which always fits, so this cannot happen; keep the check honest.
                c.max_outstanding = 1;
            } else {
                return Err(InputError::new(
                    source,
                    "max_outstanding",
                    c.max_outstanding,
                    format!("1..=slots-1 (slots = {})", c.slots),
                ));
            }
        }
        Ok(c)
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

/// A YAML value as the user wrote it, for error messages.
pub fn yaml_repr(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("!{} …", t.tag),
    }
}

/// An unsigned integer in `lo..=hi`.
pub fn get_uint(source: &str, key: &str, v: &Value, lo: u64, hi: u64) -> Result<u32, InputError> {
    let allowed = format!("an integer in {lo}..={hi}");
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(x) if x >= lo && x <= hi => Ok(x as u32),
            _ => Err(InputError::new(source, key, n, allowed)),
        },
        other => Err(InputError::new(source, key, yaml_repr(other), allowed)),
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

/// A number in `lo..=hi` (integers accepted too).
pub fn get_f64(source: &str, key: &str, v: &Value, lo: f64, hi: f64) -> Result<f64, InputError> {
    let allowed = format!("a number in {lo}..={hi}");
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.is_finite() && x >= lo && x <= hi => Ok(x),
            _ => Err(InputError::new(source, key, n, allowed)),
        },
        other => Err(InputError::new(source, key, yaml_repr(other), allowed)),
    }
}

/// One of a fixed set of unsigned integers.
pub fn get_choice(source: &str, key: &str, v: &Value, choices: &[u64]) -> Result<u32, InputError> {
    let allowed = format!(
        "one of {}",
        choices
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(x) if choices.contains(&x) => Ok(x as u32),
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
}

#[cfg(test)]
mod shipped_configs {
    use super::*;

    /// `configs/<name>.yaml` must say exactly what `Config::grid()` says.
    #[test]
    fn config_files_match_grid() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs");
        for (name, cfg) in Config::grid() {
            let path = dir.join(format!("{name}.yaml"));
            let loaded = Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(loaded, cfg, "{}", path.display());
        }
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
