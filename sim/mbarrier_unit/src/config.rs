//! Parameters of the mbarrier unit and the async-group tracker (one
//! configuration serves both blocks), their allowed values and defaults
//! (`spec/mbarrier_unit.md`, `spec/async_groups.md`), derived port widths,
//! and strict YAML parsing: an unknown key, a wrong type or an out-of-range
//! value is a [`ConfigError`] naming the source, the key, the value and what
//! is allowed. Nothing here panics on bad input.

use serde_yaml::Value;
use std::fmt;

/// A configuration error: where, which key, the value, what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub source: String,
    pub key: String,
    pub value: String,
    pub allowed: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key == "<document>" {
            // Not a key: the file as a whole is of the wrong shape.
            return write!(
                f,
                "{}: the file holds {}; allowed: {}",
                self.source, self.value, self.allowed
            );
        }
        write!(
            f,
            "{}: `{}` = {}: allowed: {}",
            self.source, self.key, self.value, self.allowed
        )
    }
}

/// A YAML value as the user wrote it (`-8`, `"x"`, `a list`), for messages.
fn yaml_repr(v: &Value) -> String {
    match v {
        Value::Null => "null (empty)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("!{}", t.tag),
    }
}

impl std::error::Error for ConfigError {}

/// PTX limit of the arrival counters (pending/expected): 2^20 - 1.
pub const PTX_COUNT_BITS: u32 = 20;
/// PTX limit of the tx-count magnitude: [-(2^20 - 1), 2^20 - 1].
pub const PTX_TX_BITS: u32 = 20;
/// H100: `try_wait.parity` without a hint returns false after ≈73 cycles (sync/README §2.3).
pub const H100_TRY_WAIT_LIMIT: u32 = 73;

/// Parameters of both blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Config {
    /// W: warps that issue operations (8, 16, 32, 64).
    pub warps: u32,
    /// M: barrier entries the unit holds (8, 16, 32, 64).
    pub entries: u32,
    /// Width of the pending/expected arrival counters (1..=20); the largest
    /// count is 2^count_bits - 1 (PTX: 2^20 - 1).
    pub count_bits: u32,
    /// tx-count range is [-(2^tx_bits - 1), 2^tx_bits - 1] (1..=20; PTX: 20).
    pub tx_bits: u32,
    /// L: a suspended `try_wait` answers false after L cycles (1..=4095; H100 73).
    pub try_wait_limit: u32,
    /// F: suspended warps woken per cycle at most (1, 2, 4, … ≤ W).
    pub wake_fanout: u32,
    /// G: committed bulk-async groups pending per warp at most (1, 2, 4, 8, 16).
    pub group_depth: u32,
    /// Width of each group's operation counter (1..=8): at most
    /// 2^group_op_bits - 1 operations in flight per group.
    pub group_op_bits: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            warps: 32,
            entries: 16,
            count_bits: PTX_COUNT_BITS,
            tx_bits: PTX_TX_BITS,
            try_wait_limit: H100_TRY_WAIT_LIMIT,
            wake_fanout: 1,
            group_depth: 8,
            group_op_bits: 4,
        }
    }
}

/// Keys accepted in a YAML configuration, in documentation order.
pub const KEYS: &[&str] = &[
    "warps",
    "entries",
    "count_bits",
    "tx_bits",
    "try_wait_limit",
    "wake_fanout",
    "group_depth",
    "group_op_bits",
];

fn log2_ceil(n: u32) -> u32 {
    if n <= 1 {
        0
    } else {
        32 - (n - 1).leading_zeros()
    }
}

impl Config {
    /// Check every parameter; the first bad one is reported.
    pub fn validate(&self, source: &str) -> Result<(), ConfigError> {
        let err = |key: &str, value: u32, allowed: String| ConfigError {
            source: source.to_string(),
            key: key.to_string(),
            value: value.to_string(),
            allowed,
        };
        if ![8, 16, 32, 64].contains(&self.warps) {
            return Err(err("warps", self.warps, "8, 16, 32, 64".into()));
        }
        if ![8, 16, 32, 64].contains(&self.entries) {
            return Err(err("entries", self.entries, "8, 16, 32, 64".into()));
        }
        if !(1..=PTX_COUNT_BITS).contains(&self.count_bits) {
            return Err(err(
                "count_bits",
                self.count_bits,
                "1..=20 (PTX: pending count up to 2^20-1)".into(),
            ));
        }
        if !(1..=PTX_TX_BITS).contains(&self.tx_bits) {
            return Err(err(
                "tx_bits",
                self.tx_bits,
                "1..=20 (PTX: tx-count in [-(2^20-1), 2^20-1])".into(),
            ));
        }
        if !(1..=4095).contains(&self.try_wait_limit) {
            return Err(err(
                "try_wait_limit",
                self.try_wait_limit,
                "1..=4095 cycles (H100: 73)".into(),
            ));
        }
        if !self.wake_fanout.is_power_of_two() || self.wake_fanout > self.warps {
            return Err(err(
                "wake_fanout",
                self.wake_fanout,
                format!("a power of two from 1 to warps ({})", self.warps),
            ));
        }
        if ![1, 2, 4, 8, 16].contains(&self.group_depth) {
            return Err(err(
                "group_depth",
                self.group_depth,
                "1, 2, 4, 8, 16".into(),
            ));
        }
        if !(1..=8).contains(&self.group_op_bits) {
            return Err(err("group_op_bits", self.group_op_bits, "1..=8".into()));
        }
        Ok(())
    }

    /// Parse a YAML mapping of the [`KEYS`]; missing keys take their defaults.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<Config, ConfigError> {
        let bad = |key: &str, value: String, allowed: &str| ConfigError {
            source: source.to_string(),
            key: key.to_string(),
            value,
            allowed: allowed.to_string(),
        };
        let doc: Value = serde_yaml::from_str(text).map_err(|e| {
            let line = e.location().map(|l| l.line()).unwrap_or(0);
            bad(
                &format!("line {line}"),
                format!("{e}"),
                "a YAML mapping of configuration keys",
            )
        })?;
        let mut cfg = Config::default();
        let map = match doc {
            Value::Null => return Ok(cfg),
            Value::Mapping(m) => m,
            other => {
                return Err(bad(
                    "<document>",
                    yaml_repr(&other),
                    "a YAML mapping of configuration keys",
                ))
            }
        };
        for (k, v) in map {
            let key = match k {
                Value::String(s) => s,
                other => return Err(bad("<key>", yaml_repr(&other), "a string key")),
            };
            let slot = match key.as_str() {
                "warps" => &mut cfg.warps,
                "entries" => &mut cfg.entries,
                "count_bits" => &mut cfg.count_bits,
                "tx_bits" => &mut cfg.tx_bits,
                "try_wait_limit" => &mut cfg.try_wait_limit,
                "wake_fanout" => &mut cfg.wake_fanout,
                "group_depth" => &mut cfg.group_depth,
                "group_op_bits" => &mut cfg.group_op_bits,
                _ => return Err(bad(&key, "(unknown key)".into(), &KEYS.join(", "))),
            };
            *slot = match v.as_u64() {
                Some(n) if n <= u32::MAX as u64 => n as u32,
                _ => return Err(bad(&key, yaml_repr(&v), "a non-negative integer")),
            };
        }
        cfg.validate(source)?;
        Ok(cfg)
    }

    /// WB: bits of a warp index.
    pub fn wb(&self) -> u32 {
        log2_ceil(self.warps)
    }
    /// EB: bits of an entry index.
    pub fn eb(&self) -> u32 {
        log2_ceil(self.entries)
    }
    /// Width of `op_count`/`rarv_count`: one bit more than the counters, so a
    /// count above the maximum is visible (and refused with `err`).
    pub fn count_port_bits(&self) -> u32 {
        self.count_bits + 1
    }
    /// Width of `op_tx`/`ctx_bytes`: one bit more than the tx magnitude.
    pub fn tx_port_bits(&self) -> u32 {
        self.tx_bits + 1
    }
    /// Largest arrival count (pending/expected).
    pub fn max_count(&self) -> u32 {
        (1u32 << self.count_bits) - 1
    }
    /// Largest tx-count magnitude.
    pub fn max_tx(&self) -> i64 {
        (1i64 << self.tx_bits) - 1
    }
    /// Bits of the per-warp suspend timer (counts 0..=L).
    pub fn timer_bits(&self) -> u32 {
        log2_ceil(self.try_wait_limit + 1).max(1)
    }
    /// M3/M8 wake bound B: a warp whose wait is decided (its phase completed,
    /// or its limit passed) in cycle d is woken in a cycle of [d+2, d+B+1]
    /// (the decision is registered before the wake arbiter).
    pub fn wake_bound(&self) -> u64 {
        self.warps.div_ceil(self.wake_fanout) as u64
    }
    /// Bits of `ag_n` (wait_group N): enough for 0..=G.
    pub fn group_n_bits(&self) -> u32 {
        log2_ceil(self.group_depth + 1).max(1)
    }
    /// Most operations in flight per group.
    pub fn max_group_ops(&self) -> u32 {
        (1u32 << self.group_op_bits) - 1
    }
}

impl Config {
    /// Short name of the configuration, for messages, directories and module
    /// names: `w32_m16_c20_t20_l73_f1_g8_o4` (warps, entries, count_bits,
    /// tx_bits, try_wait_limit, wake_fanout, group_depth, group_op_bits).
    pub fn name(&self) -> String {
        format!(
            "w{}_m{}_c{}_t{}_l{}_f{}_g{}_o{}",
            self.warps,
            self.entries,
            self.count_bits,
            self.tx_bits,
            self.try_wait_limit,
            self.wake_fanout,
            self.group_depth,
            self.group_op_bits
        )
    }

    /// Every parameter as (YAML key, value), in documentation order.
    pub fn describe(&self) -> Vec<(&'static str, u32)> {
        vec![
            ("warps", self.warps),
            ("entries", self.entries),
            ("count_bits", self.count_bits),
            ("tx_bits", self.tx_bits),
            ("try_wait_limit", self.try_wait_limit),
            ("wake_fanout", self.wake_fanout),
            ("group_depth", self.group_depth),
            ("group_op_bits", self.group_op_bits),
        ]
    }
}

impl unit_ports::UnitConfig for Config {
    fn short_name(&self) -> String {
        self.name()
    }
}
