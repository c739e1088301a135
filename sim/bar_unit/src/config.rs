//! Parameters of the named-barrier unit (`bar_unit`) and the cluster barrier
//! aggregator (`cluster_barrier`), and of the H100 timing preset that drives
//! them (`timing.rs`). Parsing is strict: an unknown key, a wrong type or an
//! out-of-range value is an [`InputError`] naming the source, the key, the
//! value and what is allowed. Nothing here panics on bad input.

use serde_yaml::Value;
use std::fmt;

/// A user-facing input error. Its `Display` names where (file, key), the
/// offending value and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub source: String,
    pub key: String,
    pub value: String,
    pub allowed: String,
}

impl fmt::Display for InputError {
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
            "{}: key `{}`: value `{}` is not allowed; allowed: {}",
            self.source, self.key, self.value, self.allowed
        )
    }
}

impl std::error::Error for InputError {}

fn err(
    source: &str,
    key: &str,
    value: impl fmt::Display,
    allowed: impl fmt::Display,
) -> InputError {
    InputError {
        source: source.to_string(),
        key: key.to_string(),
        value: value.to_string(),
        allowed: allowed.to_string(),
    }
}

/// Number of named barriers per CTA, fixed by PTX (`bar` ids 0..15).
pub const BARRIERS_PER_CTA: usize = 16;

/// Parameters of `bar_unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BarConfig {
    /// W, warps in the SM: 8, 16, 32 or 64.
    pub warps: u32,
    /// C, CTA slots (CTAs resident at once): 1..=W.
    pub cta_slots: u32,
}

impl Default for BarConfig {
    fn default() -> Self {
        BarConfig {
            warps: 32,
            cta_slots: 8,
        }
    }
}

/// Keys of a `bar_unit` configuration file.
pub const BAR_KEYS: &[&str] = &["warps", "cta_slots"];

impl BarConfig {
    /// WB = log2(W): width of a warp index.
    pub fn wb(&self) -> u32 {
        self.warps.trailing_zeros()
    }
    /// SB = max(1, ceil(log2(C))): width of a CTA slot index.
    pub fn sb(&self) -> u32 {
        let mut b = 1;
        while (1u32 << b) < self.cta_slots {
            b += 1;
        }
        b
    }
    /// CB = WB + 1: width of a count in warps (0..=W).
    pub fn cb(&self) -> u32 {
        self.wb() + 1
    }
    /// RB = WB + 6: width of a reduction result (popc over W × 32 threads).
    pub fn rb(&self) -> u32 {
        self.wb() + 6
    }
    /// Mask of the W warp bits.
    pub fn warp_mask(&self) -> u64 {
        if self.warps == 64 {
            u64::MAX
        } else {
            (1u64 << self.warps) - 1
        }
    }

    /// Checks the parameters; `source` names where they came from.
    pub fn validate(&self, source: &str) -> Result<(), InputError> {
        if ![8, 16, 32, 64].contains(&self.warps) {
            return Err(err(source, "warps", self.warps, "8, 16, 32, 64"));
        }
        if self.cta_slots < 1 || self.cta_slots > self.warps {
            return Err(err(
                source,
                "cta_slots",
                self.cta_slots,
                format!("1..=warps (warps = {})", self.warps),
            ));
        }
        Ok(())
    }

    /// Parses a YAML mapping (`warps`, `cta_slots`; missing keys take defaults).
    pub fn from_yaml(text: &str, source: &str) -> Result<BarConfig, InputError> {
        let map = parse_map(text, source)?;
        let mut c = BarConfig::default();
        for (k, v) in map {
            match k.as_str() {
                "warps" => c.warps = int(source, &k, &v, 8, 64)?,
                "cta_slots" => c.cta_slots = int(source, &k, &v, 1, 64)?,
                _ => {
                    return Err(err(
                        source,
                        &k,
                        yaml_repr(&v),
                        format!("unknown key; known keys: {}", BAR_KEYS.join(", ")),
                    ))
                }
            }
        }
        c.validate(source)?;
        Ok(c)
    }
}

/// Cluster sizes the cluster barrier supports.
pub const CLUSTER_SIZES: [u32; 5] = [1, 2, 4, 8, 16];

/// Parameters of `cluster_barrier` (one aggregator per cluster).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClusterConfig {
    /// N, CTAs (ranks) in the cluster: 1, 2, 4, 8 or 16.
    pub ranks: u32,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig { ranks: 8 }
    }
}

impl ClusterConfig {
    pub fn validate(&self, source: &str) -> Result<(), InputError> {
        if !CLUSTER_SIZES.contains(&self.ranks) {
            return Err(err(source, "ranks", self.ranks, "1, 2, 4, 8, 16"));
        }
        Ok(())
    }
    /// Parses a YAML mapping (`ranks`; missing = default).
    pub fn from_yaml(text: &str, source: &str) -> Result<ClusterConfig, InputError> {
        let mut c = ClusterConfig::default();
        for (k, v) in parse_map(text, source)? {
            match k.as_str() {
                "ranks" => c.ranks = int(source, &k, &v, 1, 16)?,
                _ => {
                    return Err(err(
                        source,
                        &k,
                        yaml_repr(&v),
                        "unknown key; known keys: ranks",
                    ))
                }
            }
        }
        c.validate(source)?;
        Ok(c)
    }

    pub fn rank_mask(&self) -> u32 {
        ((1u64 << self.ranks) - 1) as u32
    }
}

/// Latencies of the timing preset (cycles): the environment around the two
/// blocks (issue path, release path, reduction path, cross-SM network, the
/// membar unit's GPU-scope fence), not the blocks themselves. See `timing.rs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimingConfig {
    /// Cycles between two warp arrivals at the SM's barrier port (serialised).
    pub arrival_interval: u32,
    /// Same for `bar.red` arrivals: the 32 predicates of a warp go through the
    /// reduction path, which accepts one warp per this many cycles.
    pub red_arrival_interval: u32,
    /// From the unit's release pulse until the released warp issues again
    /// (the environment's release path only: the unit's own 2 cycles from the
    /// last arrival to its release pulse, B7, come on top).
    pub release_latency: u32,
    /// Extra cycles for the `B2R.RESULT` read of a `bar.red.popc` result.
    pub red_popc_latency: u32,
    /// Extra cycles for the `B2R.RESULT` read of a `bar.red.and/or` result.
    pub red_pred_latency: u32,
    /// Loop overhead of the warp between release and its next barrier issue.
    pub loop_overhead: u32,
    /// Extra issue cycles of a barrier with a count operand (`bar.sync a, b`, `bar.red`) over the
    /// no-count `bar.sync a` (H100: 12, the same for an immediate or a register count).
    pub count_overhead: u32,
    /// One-way SM ↔ cluster-aggregator latency when the cluster fits one TPC (≤ 2 CTAs).
    pub cross_sm_tpc: u32,
    /// One-way latency when the cluster spans TPCs (≥ 4 CTAs): GPC-level path.
    pub cross_sm_gpc: u32,
    /// Local cost of `UCGABAR_ARV` + `UCGABAR_WAIT` issue in a warp.
    pub cluster_local: u32,
    /// GPU-scope MEMBAR (`.release` arrive) base latency, nothing pending.
    pub fence_gpu: u32,
    /// Concurrent GPU-scope fences of different SMs serialise at the fabric: cycles each.
    pub fence_serial: u32,
}

impl TimingConfig {
    /// The H100 preset (fitted by mechanism to `data/calibration/h100_sync_bar.csv`).
    pub fn h100() -> TimingConfig {
        TimingConfig {
            arrival_interval: 2,
            red_arrival_interval: 3,
            // 11 cycles from the last arrival to the warp's next issue: the
            // unit's 2 (release in t + 2, B7) + this path's 9. (It was 10
            // while the unit released in t + 1; the total is unchanged.)
            release_latency: 9,
            red_popc_latency: 62,
            red_pred_latency: 36,
            loop_overhead: 2,
            count_overhead: 12,
            cross_sm_tpc: 25,
            cross_sm_gpc: 34,
            cluster_local: 12,
            fence_gpu: 616,
            fence_serial: 15,
        }
    }

    pub fn validate(&self, source: &str) -> Result<(), InputError> {
        let fields: [(&str, u32, u32, u32); 12] = [
            ("arrival_interval", self.arrival_interval, 1, 64),
            ("red_arrival_interval", self.red_arrival_interval, 1, 64),
            ("release_latency", self.release_latency, 0, 10_000),
            ("red_popc_latency", self.red_popc_latency, 0, 10_000),
            ("red_pred_latency", self.red_pred_latency, 0, 10_000),
            ("loop_overhead", self.loop_overhead, 0, 10_000),
            ("count_overhead", self.count_overhead, 0, 10_000),
            ("cross_sm_tpc", self.cross_sm_tpc, 0, 10_000),
            ("cross_sm_gpc", self.cross_sm_gpc, 0, 10_000),
            ("cluster_local", self.cluster_local, 0, 10_000),
            ("fence_gpu", self.fence_gpu, 0, 100_000),
            ("fence_serial", self.fence_serial, 0, 10_000),
        ];
        for (k, v, lo, hi) in fields {
            if v < lo || v > hi {
                return Err(err(
                    source,
                    &format!("timing.{k}"),
                    v,
                    format!("an integer in {lo}..={hi}"),
                ));
            }
        }
        Ok(())
    }

    /// Parses a YAML mapping of timing keys over the H100 preset.
    pub fn from_yaml(text: &str, source: &str) -> Result<TimingConfig, InputError> {
        let map = parse_map(text, source)?;
        let mut t = TimingConfig::h100();
        for (k, v) in map {
            let slot = match k.as_str() {
                "arrival_interval" => &mut t.arrival_interval,
                "red_arrival_interval" => &mut t.red_arrival_interval,
                "release_latency" => &mut t.release_latency,
                "red_popc_latency" => &mut t.red_popc_latency,
                "red_pred_latency" => &mut t.red_pred_latency,
                "loop_overhead" => &mut t.loop_overhead,
                "count_overhead" => &mut t.count_overhead,
                "cross_sm_tpc" => &mut t.cross_sm_tpc,
                "cross_sm_gpc" => &mut t.cross_sm_gpc,
                "cluster_local" => &mut t.cluster_local,
                "fence_gpu" => &mut t.fence_gpu,
                "fence_serial" => &mut t.fence_serial,
                _ => {
                    return Err(err(
                        source,
                        &format!("timing.{k}"),
                        yaml_repr(&v),
                        "a timing key (arrival_interval, red_arrival_interval, release_latency, red_popc_latency, red_pred_latency, loop_overhead, count_overhead, cross_sm_tpc, cross_sm_gpc, cluster_local, fence_gpu, fence_serial)",
                    ))
                }
            };
            *slot = int(source, &format!("timing.{k}"), &v, 0, 100_000)?;
        }
        t.validate(source)?;
        Ok(t)
    }
}

fn parse_map(text: &str, source: &str) -> Result<Vec<(String, Value)>, InputError> {
    let v: Value = serde_yaml::from_str(text).map_err(|e| {
        err(
            source,
            "<document>",
            format!("not valid YAML ({e})"),
            "a mapping of keys to integers",
        )
    })?;
    match v {
        Value::Null => Ok(vec![]),
        Value::Mapping(m) => {
            let mut out = vec![];
            for (k, v) in m {
                let k = match k {
                    Value::String(s) => s,
                    other => return Err(err(source, "<key>", yaml_repr(&other), "a string key")),
                };
                out.push((k, v));
            }
            Ok(out)
        }
        other => Err(err(
            source,
            "<document>",
            yaml_repr(&other),
            "a mapping of keys to integers",
        )),
    }
}

fn yaml_repr(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("{s:?}"),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("!{}", t.tag),
    }
}

fn int(source: &str, key: &str, v: &Value, lo: u32, hi: u32) -> Result<u32, InputError> {
    let allowed = format!("an integer in {lo}..={hi}");
    match v {
        Value::Number(n) => match n.as_u64() {
            Some(x) if x >= lo as u64 && x <= hi as u64 => Ok(x as u32),
            _ => Err(err(source, key, n, allowed)),
        },
        other => Err(err(source, key, yaml_repr(other), allowed)),
    }
}
