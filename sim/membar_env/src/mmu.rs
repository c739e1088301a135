//! The memory-system (MMU) model: the downstream side of `membar_unit`.
//!
//! [`Mmu`] implements [`Downstream`]. Each cycle it drives `dn_ready`, at most
//! one `ack` and at most one `bar_ack`, and then observes the command the unit
//! transferred (`dn_valid && dn_ready`):
//!
//! - **TXN**: acknowledged once, with its tag, after a latency drawn from
//!   [`MmuSpec::txn_latency`] (or, with probability [`MmuSpec::tail_prob`],
//!   from the long tail [`MmuSpec::tail_latency`]). Latencies differ, so acks
//!   come back out of order; when several are due in one cycle they queue
//!   (oldest due first) since the port carries one ack per cycle.
//! - **INVAL**: done after [`MmuSpec::inval_latency`]; it sends nothing back.
//! - **BARRIER** with `dn_ack_req = 1`: answered with one `bar_ack` once every
//!   INVAL transferred before it is done and (unless
//!   [`MmuSpec::bar_waits_for_txns`] is off) every TXN transferred before it
//!   has been acked, plus the barrier latency of its level (`vc_bar_latency`
//!   for CTA/VC, `gl_bar_latency`, `sys_bar_latency`), and at least
//!   [`MmuSpec::bar_gap`] cycles after the previous `bar_ack`. One `bar_ack`
//!   per cycle. A BARRIER without `dn_ack_req` is only counted.
//!
//! **Drop/demote** ([`MmuSpec::drop_demote`], off by default; the memory-side
//! trick of US 8,997,103): the MMU tracks the traffic it has seen since the
//! last barrier. A GL barrier with no TXN transferred since the previous GL or
//! SYS BARRIER has nothing to make visible: it is *dropped*, i.e. answered
//! without the barrier latency (and outside `bar_gap`: it never reaches the
//! fabric) as soon as its earlier commands are done. A SYS barrier with no
//! system-scope TXN since the previous SYS BARRIER is *demoted*: treated as GL
//! (GL latency, and dropped too if there was no traffic at all). Which TXNs
//! are system-scope (host or peer memory) is drawn per TXN with
//! [`MmuSpec::sys_traffic_prob`] (default 0: all traffic is GPU memory).
//!
//! An ack or `bar_ack` is driven at the earliest the cycle after its command's
//! transfer. `dn_ready` is high with probability [`MmuSpec::ready_prob`], and
//! low throughout stall bursts ([`MmuSpec::stall_prob`], [`MmuSpec::stall_len`]).
//!
//! Adversarial stimulus (off by default): [`MmuSpec::spurious_ack_prob`] sends
//! an ack for a tag with no outstanding transaction as the unit sees it (TXNs
//! transferred in earlier cycles minus acks already sent is zero), and
//! [`MmuSpec::spurious_bar_ack_prob`] a `bar_ack` for a tag with no BARRIER
//! awaiting one. A spurious response takes the port for that cycle and the
//! real one waits a cycle. Both must be ignored by the unit with an `err`
//! pulse (P7); [`Mmu::injected_this_cycle`] tells a checker when to expect it.
//!
//! A cycle with `reset` high drops everything outstanding (the unit forgets it
//! too). All randomness comes from a `ChaCha8Rng` seeded by the caller, so a
//! run is reproducible from its seed. The steady state does not allocate: the
//! queues are `BinaryHeap`/`VecDeque`s that keep their capacity.
//!
//! [`MmuSpec`] is read from YAML (the `mmu:` section of a workload file)
//! strictly: unknown keys, wrong types and out-of-range values are
//! [`InputError`]s naming the source, the key, the value and what is allowed.

use crate::config::{Config, InputError, MAX_SLOTS, MAX_WARPS};
use crate::input::{
    decode, decode_value, join_key, present, read_input, uint, Doc, Rule, Text, UInt,
};
use crate::ports::{kind, level, Downstream, Inputs, Outputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_yaml::Value;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::fmt;
use std::path::Path;

pub use crate::config::MAX_LATENCY as MAX_CYCLES;

/// Most tags (slots) of any configuration.
const MAX_TAGS: usize = MAX_SLOTS;

/// A float as YAML text that reads back to the same value.
pub(crate) fn fmt_f64(x: f64) -> String {
    format!("{x}")
}

// ---------------------------------------------------------------------------
// CycleRange
// ---------------------------------------------------------------------------

/// An inclusive range of cycles `min..=max`, drawn uniformly. In YAML either
/// an integer `N` (exactly N) or a mapping `{min: A, max: B}` with `A <= B`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CycleRange {
    pub min: u32,
    pub max: u32,
}

impl CycleRange {
    pub const fn new(min: u32, max: u32) -> Self {
        CycleRange { min, max }
    }
    /// Exactly `n` cycles.
    pub const fn fixed(n: u32) -> Self {
        CycleRange { min: n, max: n }
    }
    /// A uniform draw from `min..=max`.
    #[inline]
    pub fn draw<R: Rng>(&self, rng: &mut R) -> u32 {
        if self.min >= self.max {
            self.min
        } else {
            rng.gen_range(self.min..=self.max)
        }
    }
}

/// A cycle range as written: an integer, or `{min, max}` (either may be
/// missing here; the validation pass requires both).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawCycles {
    Fixed(u64),
    MinMax(Option<u64>, Option<u64>),
}

impl<'de> Deserialize<'de> for RawCycles {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RawCycles;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a cycle count or a mapping {min: A, max: B}")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawCycles, E> {
                Ok(RawCycles::Fixed(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawCycles, E> {
                u64::try_from(v)
                    .map(RawCycles::Fixed)
                    .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<RawCycles, A::Error> {
                const KEYS: &[&str] = &["min", "max"];
                let (mut min, mut max) = (None, None);
                while let Some(k) = m.next_key::<String>()? {
                    match k.as_str() {
                        "min" if min.is_none() => min = Some(m.next_value::<UInt>()?.0),
                        "max" if max.is_none() => max = Some(m.next_value::<UInt>()?.0),
                        "min" | "max" => {
                            return Err(de::Error::duplicate_field(KEYS[(k == "max") as usize]))
                        }
                        _ => return Err(de::Error::unknown_field(&k, KEYS)),
                    }
                }
                Ok(RawCycles::MinMax(min, max))
            }
        }
        d.deserialize_any(V)
    }
}

impl RawCycles {
    /// The validation pass: each bound in `lo..=MAX_CYCLES`, min <= max.
    pub(crate) fn validate(
        self,
        source: &str,
        key: &str,
        lo: u64,
    ) -> Result<CycleRange, InputError> {
        let rule = Rule::Cycles(lo, MAX_CYCLES);
        match self {
            RawCycles::Fixed(n) => Ok(CycleRange::fixed(rule.u32(source, key, n)?)),
            RawCycles::MinMax(Some(a), Some(b)) => {
                let a = rule.u32(source, &join_key(key, "min"), a)?;
                let b = rule.u32(source, &join_key(key, "max"), b)?;
                if a <= b {
                    Ok(CycleRange::new(a, b))
                } else {
                    Err(InputError::new(
                        source,
                        key,
                        format!("{{min: {a}, max: {b}}}"),
                        "min <= max",
                    ))
                }
            }
            RawCycles::MinMax(..) => Err(InputError::new(
                source,
                key,
                "a mapping without min or max",
                rule.allowed(),
            )),
        }
    }
}

impl fmt::Display for CycleRange {
    /// YAML flow text that a cycle-range key reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.min == self.max {
            write!(f, "{}", self.min)
        } else {
            write!(f, "{{min: {}, max: {}}}", self.min, self.max)
        }
    }
}

// ---------------------------------------------------------------------------
// MmuSpec
// ---------------------------------------------------------------------------

/// Parameters of the memory-system model (the `mmu:` section of a workload
/// file). Every field has a default ([`MmuSpec::default`]); see the file
/// header for what each does. Build with [`MmuSpec::from_yaml_str`],
/// [`MmuSpec::from_value`] or a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct MmuSpec {
    /// `ready_prob` (0.001..=1, default 0.9): probability `dn_ready` is high
    /// in a cycle outside a stall burst.
    pub ready_prob: f64,
    /// `stall_prob` (0..=0.5, default 0): probability a stall burst starts in a cycle.
    pub stall_prob: f64,
    /// `stall_len` (1.., default 20..200): cycles of `dn_ready` low per burst.
    pub stall_len: CycleRange,
    /// `txn_latency` (1.., default 20..200): transfer of a TXN to its ack.
    pub txn_latency: CycleRange,
    /// `tail_prob` (0..=1, default 0): probability a TXN takes `tail_latency` instead.
    pub tail_prob: f64,
    /// `tail_latency` (1.., default 1000..4000): the long tail.
    pub tail_latency: CycleRange,
    /// `inval_latency` (0.., default 4..16): transfer of an INVAL to done.
    pub inval_latency: CycleRange,
    /// `vc_bar_latency` (0.., default 10..40): CTA/VC BARRIER (with `ack_req`,
    /// i.e. an ivall barrier) from ready to `bar_ack`.
    pub vc_bar_latency: CycleRange,
    /// `gl_bar_latency` (0.., default 40..120): GL BARRIER from ready to `bar_ack`.
    pub gl_bar_latency: CycleRange,
    /// `sys_bar_latency` (0.., default 200..400): SYS BARRIER from ready to `bar_ack`.
    pub sys_bar_latency: CycleRange,
    /// `bar_gap` (0..=1000000, default 0): fewest cycles between two real `bar_ack`s.
    pub bar_gap: u32,
    /// `bar_waits_for_txns` (default true): a BARRIER is ready only when every
    /// TXN transferred before it is acked. False lets `bar_ack` overtake acks.
    pub bar_waits_for_txns: bool,
    /// `spurious_ack_prob` (0..=0.5, default 0): per cycle, send an ack for a
    /// tag with no outstanding TXN.
    pub spurious_ack_prob: f64,
    /// `spurious_bar_ack_prob` (0..=0.5, default 0): per cycle, send a
    /// `bar_ack` for a tag with no BARRIER awaiting one.
    pub spurious_bar_ack_prob: f64,
    /// `drop_demote` (default false): drop GL barriers with no TXN since the
    /// previous GL/SYS barrier (answer at once), demote SYS barriers with no
    /// system-scope TXN since the previous SYS barrier to GL (file header).
    pub drop_demote: bool,
    /// `sys_traffic_prob` (0..=1, default 0): probability a TXN is
    /// system-scope (host/peer memory), which a later SYS barrier must flush;
    /// only drawn with `drop_demote`.
    pub sys_traffic_prob: f64,
}

/// Every key of an `mmu:` section, in documentation order.
pub const MMU_KEYS: &[&str] = &[
    "preset",
    "ready_prob",
    "stall_prob",
    "stall_len",
    "txn_latency",
    "tail_prob",
    "tail_latency",
    "inval_latency",
    "vc_bar_latency",
    "gl_bar_latency",
    "sys_bar_latency",
    "bar_gap",
    "bar_waits_for_txns",
    "spurious_ack_prob",
    "spurious_bar_ack_prob",
    "drop_demote",
    "sys_traffic_prob",
];

/// Named MMU presets (the `preset:` key). A workload scenario name
/// (see `workload::SCENARIOS`) is accepted too and means that scenario's MMU.
pub const MMU_PRESETS: &[&str] = &["default", "ideal", "adversarial", "h100"];

impl Default for MmuSpec {
    /// Fast-ish and benign: acks in 20..200 cycles, ready 90% of cycles.
    fn default() -> Self {
        MmuSpec {
            ready_prob: 0.9,
            stall_prob: 0.0,
            stall_len: CycleRange::new(20, 200),
            txn_latency: CycleRange::new(20, 200),
            tail_prob: 0.0,
            tail_latency: CycleRange::new(1000, 4000),
            inval_latency: CycleRange::new(4, 16),
            vc_bar_latency: CycleRange::new(10, 40),
            gl_bar_latency: CycleRange::new(40, 120),
            sys_bar_latency: CycleRange::new(200, 400),
            bar_gap: 0,
            bar_waits_for_txns: true,
            spurious_ack_prob: 0.0,
            spurious_bar_ack_prob: 0.0,
            drop_demote: false,
            sys_traffic_prob: 0.0,
        }
    }
}

impl MmuSpec {
    /// Always ready, short latencies: the unit's own throughput shows.
    pub fn ideal() -> Self {
        MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::new(1, 4),
            inval_latency: CycleRange::new(1, 2),
            vc_bar_latency: CycleRange::new(1, 2),
            gl_bar_latency: CycleRange::new(1, 4),
            sys_bar_latency: CycleRange::new(2, 8),
            ..MmuSpec::default()
        }
    }

    /// Hostile: back-pressure, long stall bursts, deep reordering with a long
    /// tail, `bar_ack`s that overtake acks, spurious acks and `bar_ack`s.
    pub fn adversarial() -> Self {
        MmuSpec {
            ready_prob: 0.6,
            stall_prob: 0.005,
            stall_len: CycleRange::new(50, 400),
            txn_latency: CycleRange::new(1, 600),
            tail_prob: 0.03,
            tail_latency: CycleRange::new(2000, 6000),
            inval_latency: CycleRange::new(1, 200),
            vc_bar_latency: CycleRange::new(1, 300),
            gl_bar_latency: CycleRange::new(1, 800),
            sys_bar_latency: CycleRange::new(1, 2000),
            bar_gap: 0,
            bar_waits_for_txns: false,
            spurious_ack_prob: 0.05,
            spurious_bar_ack_prob: 0.05,
            ..MmuSpec::default()
        }
    }

    /// Calibrated on the H100 measurements in `shared/calibration/`: a store
    /// acks in ~30..60 cycles, a GL fence with nothing pending ~668 cycles, a
    /// SYS fence ~1403, `CCTL.IVALL` ~4, successive barrier completions at
    /// least 463 cycles apart.
    pub fn h100() -> Self {
        MmuSpec {
            ready_prob: 1.0,
            stall_prob: 0.0,
            txn_latency: CycleRange::new(30, 60),
            tail_prob: 0.0,
            inval_latency: CycleRange::new(2, 6),
            vc_bar_latency: CycleRange::new(10, 20),
            gl_bar_latency: CycleRange::new(630, 670),
            sys_bar_latency: CycleRange::new(1360, 1400),
            bar_gap: 463,
            ..MmuSpec::default()
        }
    }

    /// A preset by name (`default`, `ideal`, `adversarial`, `h100`, or a
    /// workload scenario name for that scenario's MMU).
    pub fn preset(name: &str) -> Option<MmuSpec> {
        match name {
            "default" => Some(MmuSpec::default()),
            "ideal" => Some(MmuSpec::ideal()),
            "adversarial" => Some(MmuSpec::adversarial()),
            "h100" => Some(MmuSpec::h100()),
            _ => MmuSpec::for_scenario(name),
        }
    }

    /// Parse a standalone YAML text holding an `mmu:`-section mapping.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<MmuSpec, InputError> {
        let doc = Doc {
            source,
            lines: true,
            what: &mmu_allowed(""),
        };
        let raw: Option<RawMmu> = decode(&doc, text, &|k| mmu_allowed(k))?;
        raw.unwrap_or_default().validate(source, "")
    }

    /// Load a standalone YAML file holding an `mmu:`-section mapping.
    pub fn load(path: impl AsRef<Path>) -> Result<MmuSpec, InputError> {
        let path = path.as_ref();
        let src = path.display().to_string();
        let text = read_input(path, "MMU")?;
        MmuSpec::from_yaml_str(&text, &src)
    }

    /// Build from a parsed YAML mapping of `mmu:` keys (`null` = defaults);
    /// the sweep grid uses this. `path` prefixes the keys named in errors.
    pub fn from_value(v: &Value, source: &str, path: &str) -> Result<MmuSpec, InputError> {
        let raw: Option<RawMmu> = decode_value(source, v, &mmu_allowed(""), &|k| mmu_allowed(k))
            .map_err(|mut e| {
                if e.key != "<top level>" {
                    e.key = join_key(path, &e.key);
                } else if !path.is_empty() {
                    e.key = path.to_string();
                }
                e
            })?;
        raw.unwrap_or_default().validate(source, path)
    }

    /// Every key as `key: value` pairs (YAML flow values), without `preset`.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        vec![
            ("ready_prob", fmt_f64(self.ready_prob)),
            ("stall_prob", fmt_f64(self.stall_prob)),
            ("stall_len", self.stall_len.to_string()),
            ("txn_latency", self.txn_latency.to_string()),
            ("tail_prob", fmt_f64(self.tail_prob)),
            ("tail_latency", self.tail_latency.to_string()),
            ("inval_latency", self.inval_latency.to_string()),
            ("vc_bar_latency", self.vc_bar_latency.to_string()),
            ("gl_bar_latency", self.gl_bar_latency.to_string()),
            ("sys_bar_latency", self.sys_bar_latency.to_string()),
            ("bar_gap", self.bar_gap.to_string()),
            ("bar_waits_for_txns", self.bar_waits_for_txns.to_string()),
            ("spurious_ack_prob", fmt_f64(self.spurious_ack_prob)),
            ("spurious_bar_ack_prob", fmt_f64(self.spurious_bar_ack_prob)),
            ("drop_demote", self.drop_demote.to_string()),
            ("sys_traffic_prob", fmt_f64(self.sys_traffic_prob)),
        ]
    }

    /// YAML mapping text (every key, one per line, each line prefixed by
    /// `indent`) that [`MmuSpec::from_yaml_str`] reads back.
    pub fn to_yaml(&self, indent: &str) -> String {
        self.describe()
            .into_iter()
            .map(|(k, v)| format!("{indent}{k}: {v}\n"))
            .collect()
    }

    /// The barrier latency range of a level.
    pub fn bar_latency(&self, lvl: u8) -> CycleRange {
        match lvl {
            level::SYS => self.sys_bar_latency,
            level::GL => self.gl_bar_latency,
            _ => self.vc_bar_latency,
        }
    }
}

/// What each `mmu:` key allows.
pub(crate) fn mmu_rule(key: &str) -> Rule {
    match key {
        "ready_prob" => Rule::Num(0.001, 1.0),
        "stall_prob" | "spurious_ack_prob" | "spurious_bar_ack_prob" => Rule::Num(0.0, 0.5),
        "tail_prob" | "sys_traffic_prob" => Rule::Num(0.0, 1.0),
        "stall_len" | "txn_latency" | "tail_latency" => Rule::Cycles(1, MAX_CYCLES),
        "inval_latency" | "vc_bar_latency" | "gl_bar_latency" | "sys_bar_latency" => {
            Rule::Cycles(0, MAX_CYCLES)
        }
        "bar_gap" => Rule::Int(0, MAX_CYCLES),
        "bar_waits_for_txns" | "drop_demote" => Rule::Text("true or false"),
        _ => Rule::Text(""),
    }
}

/// The built-in workload scenarios (`workload::WorkloadFile::builtin`).
pub const SCENARIOS: &[&str] = &[
    "random_mix",
    "producer_consumer",
    "barrier_burst",
    "sys_heavy",
    "ivall_heavy",
    "counter_saturation",
    "adversarial",
    "h100_store_fence",
    "vc_stream",
    "lone_barrier",
    "fence_trickle",
];

impl MmuSpec {
    /// The memory system of built-in workload scenario `name` (the scenario's
    /// `mmu:` section; a preset may name a scenario to take its MMU).
    pub fn for_scenario(name: &str) -> Option<MmuSpec> {
        match name {
            "random_mix" => Some(MmuSpec::default()),
            "producer_consumer" => Some(MmuSpec::default()),
            "barrier_burst" => Some(MmuSpec {
                ready_prob: 1.0,
                txn_latency: CycleRange::new(300, 400),
                gl_bar_latency: CycleRange::new(600, 700),
                ..MmuSpec::default()
            }),
            "sys_heavy" => Some(MmuSpec {
                sys_bar_latency: CycleRange::new(800, 1500),
                ..MmuSpec::default()
            }),
            "ivall_heavy" => Some(MmuSpec {
                inval_latency: CycleRange::new(20, 120),
                ..MmuSpec::default()
            }),
            "counter_saturation" => Some(MmuSpec {
                ready_prob: 1.0,
                txn_latency: CycleRange::new(1000, 1004),
                ..MmuSpec::default()
            }),
            "adversarial" => Some(MmuSpec::adversarial()),
            "h100_store_fence" => Some(MmuSpec::h100()),
            "lone_barrier" | "fence_trickle" => Some(MmuSpec::default()),
            "vc_stream" => Some(MmuSpec {
                txn_latency: CycleRange::new(200, 600),
                tail_prob: 0.05,
                ..MmuSpec::default()
            }),
            _ => None,
        }
    }
}

/// What `preset` allows.
fn preset_allowed() -> String {
    format!(
        "one of {} or a scenario name ({})",
        MMU_PRESETS.join(", "),
        SCENARIOS.join(", ")
    )
}

/// What a key of an `mmu:` section allows (`key` relative to the section,
/// e.g. `txn_latency.min`; empty: the section itself).
pub fn mmu_allowed(key: &str) -> String {
    let (head, sub) = key.split_once('.').unwrap_or((key, ""));
    match (head, mmu_rule(head)) {
        ("", _) => format!("a mapping with keys {}", MMU_KEYS.join(", ")),
        ("preset", _) => preset_allowed(),
        (_, Rule::Cycles(lo, hi)) if !sub.is_empty() => Rule::Int(lo, hi).allowed(),
        (_, r) => r.allowed(),
    }
}

/// An `mmu:` section as written: every key optional, no unknown keys.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMmu {
    #[serde(default, deserialize_with = "present")]
    preset: Option<Text>,
    #[serde(default, deserialize_with = "present")]
    ready_prob: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    stall_prob: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    stall_len: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    txn_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    tail_prob: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    tail_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    inval_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    vc_bar_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    gl_bar_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "present")]
    sys_bar_latency: Option<RawCycles>,
    #[serde(default, deserialize_with = "uint")]
    bar_gap: Option<u64>,
    #[serde(default, deserialize_with = "present")]
    bar_waits_for_txns: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    spurious_ack_prob: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    spurious_bar_ack_prob: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    drop_demote: Option<bool>,
    #[serde(default, deserialize_with = "present")]
    sys_traffic_prob: Option<f64>,
}

impl RawMmu {
    /// The validation pass. A `preset` is applied first; the other keys
    /// override it. `path` prefixes keys in errors (`mmu`).
    pub fn validate(self, source: &str, path: &str) -> Result<MmuSpec, InputError> {
        let mut m = match &self.preset {
            None => MmuSpec::default(),
            Some(Text(name)) => MmuSpec::preset(name).ok_or_else(|| {
                InputError::new(
                    source,
                    &join_key(path, "preset"),
                    format!("{name:?}"),
                    preset_allowed(),
                )
            })?,
        };
        let key = |k: &str| join_key(path, k);
        let prob = |k: &str, v: Option<f64>, dflt: f64| match v {
            Some(x) => mmu_rule(k).num(source, &key(k), x),
            None => Ok(dflt),
        };
        let cyc = |k: &str, v: Option<RawCycles>, dflt: CycleRange| match (v, mmu_rule(k)) {
            (Some(r), Rule::Cycles(lo, _)) => r.validate(source, &key(k), lo),
            _ => Ok(dflt),
        };
        m.ready_prob = prob("ready_prob", self.ready_prob, m.ready_prob)?;
        m.stall_prob = prob("stall_prob", self.stall_prob, m.stall_prob)?;
        m.stall_len = cyc("stall_len", self.stall_len, m.stall_len)?;
        m.txn_latency = cyc("txn_latency", self.txn_latency, m.txn_latency)?;
        m.tail_prob = prob("tail_prob", self.tail_prob, m.tail_prob)?;
        m.tail_latency = cyc("tail_latency", self.tail_latency, m.tail_latency)?;
        m.inval_latency = cyc("inval_latency", self.inval_latency, m.inval_latency)?;
        m.vc_bar_latency = cyc("vc_bar_latency", self.vc_bar_latency, m.vc_bar_latency)?;
        m.gl_bar_latency = cyc("gl_bar_latency", self.gl_bar_latency, m.gl_bar_latency)?;
        m.sys_bar_latency = cyc("sys_bar_latency", self.sys_bar_latency, m.sys_bar_latency)?;
        if let Some(g) = self.bar_gap {
            m.bar_gap = mmu_rule("bar_gap").u32(source, &key("bar_gap"), g)?;
        }
        m.bar_waits_for_txns = self.bar_waits_for_txns.unwrap_or(m.bar_waits_for_txns);
        m.spurious_ack_prob = prob(
            "spurious_ack_prob",
            self.spurious_ack_prob,
            m.spurious_ack_prob,
        )?;
        m.spurious_bar_ack_prob = prob(
            "spurious_bar_ack_prob",
            self.spurious_bar_ack_prob,
            m.spurious_bar_ack_prob,
        )?;
        m.drop_demote = self.drop_demote.unwrap_or(m.drop_demote);
        m.sys_traffic_prob = prob(
            "sys_traffic_prob",
            self.sys_traffic_prob,
            m.sys_traffic_prob,
        )?;
        Ok(m)
    }
}

// ---------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------

/// What the MMU saw and sent. Latencies are from the command's transfer to
/// the cycle its ack / `bar_ack` was driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MmuStats {
    /// Cycles observed.
    pub cycles: u64,
    /// Cycles with `dn_ready` low.
    pub not_ready_cycles: u64,
    /// Stall bursts started.
    pub stall_bursts: u64,
    /// TXNs received, and by op (`dn_op`).
    pub txns: u64,
    pub txns_by_op: [u64; 8],
    /// INVALs received: `[D, T]` (`dn_op` 0 / 1).
    pub invals: [u64; 2],
    /// BARRIERs received by level, and those with `dn_ack_req`.
    pub barriers: [u64; 4],
    pub barriers_ack_req: [u64; 4],
    /// Commands with an unknown `dn_kind` (3) or INVAL op (> 1).
    pub bad_commands: u64,
    /// Real acks / bar_acks driven.
    pub acks: u64,
    pub bar_acks: u64,
    /// Spurious acks / bar_acks driven, and attempts skipped because every tag was busy.
    pub spurious_acks: u64,
    pub spurious_bar_acks: u64,
    pub spurious_skipped: u64,
    /// Sum and maximum of TXN ack latencies.
    pub txn_latency_sum: u64,
    pub txn_latency_max: u64,
    /// Sum and maximum of `bar_ack` latencies.
    pub bar_latency_sum: u64,
    pub bar_latency_max: u64,
    /// Highest [`Mmu::outstanding`] seen.
    pub max_outstanding: u64,
    /// Resets seen, the TXN acks and the `bar_ack`s they dropped.
    pub resets: u64,
    pub dropped_acks: u64,
    pub dropped_bar_acks: u64,
    /// `drop_demote`: ack-requesting GL barriers answered without the
    /// barrier latency, and SYS barriers treated as GL (by original level).
    pub bars_dropped: [u64; 4],
    pub bars_demoted: u64,
}

impl MmuStats {
    /// BARRIER commands of every level.
    pub fn barriers_total(&self) -> u64 {
        self.barriers.iter().sum()
    }
    /// BARRIER commands that asked for `bar_ack`.
    pub fn barriers_ack_req_total(&self) -> u64 {
        self.barriers_ack_req.iter().sum()
    }
}

// ---------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------

/// Completion of a numbered stream of items (TXNs or INVALs) done out of
/// order: [`Completion::prefix`] is the number of leading items all done.
#[derive(Clone, Debug, Default)]
struct Completion {
    /// Every item with a sequence number below `base` is done.
    base: u64,
    /// Done flags of items `base..`.
    done: VecDeque<bool>,
}

impl Completion {
    /// Number the next item.
    fn push(&mut self) -> u64 {
        self.done.push_back(false);
        self.base + self.done.len() as u64 - 1
    }
    /// Mark item `seq` done.
    fn mark(&mut self, seq: u64) {
        if let Some(d) = seq
            .checked_sub(self.base)
            .and_then(|i| self.done.get_mut(i as usize))
        {
            *d = true;
        }
        while self.done.front() == Some(&true) {
            self.done.pop_front();
            self.base += 1;
        }
    }
    /// Items `0..prefix()` are all done.
    fn prefix(&self) -> u64 {
        self.base
    }
    /// Forget every item (reset): they count as done.
    fn clear(&mut self) {
        self.base += self.done.len() as u64;
        self.done.clear();
    }
    /// The sequence number the next item gets.
    fn next(&self) -> u64 {
        self.base + self.done.len() as u64
    }
}

/// A response (ack, INVAL completion, bar_ack) due at `due`. Ordered by due
/// cycle, then by sequence number (oldest first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Due {
    due: u64,
    seq: u64,
    tag: u8,
    warp: u8,
    /// Cycle the command was transferred.
    sent: u64,
    /// A dropped barrier (`drop_demote`): exempt from `bar_gap`.
    dropped: bool,
}

/// A BARRIER with `dn_ack_req` waiting for earlier TXNs/INVALs.
#[derive(Clone, Copy, Debug)]
struct WaitingBar {
    tag: u8,
    level: u8,
    sent: u64,
    /// TXNs / INVALs transferred before it.
    txn_before: u64,
    inval_before: u64,
    /// `drop_demote`: answered without the barrier latency.
    dropped: bool,
}

/// What the last `drive` put on the ports.
#[derive(Clone, Copy, Debug, Default)]
struct Driven {
    /// Warp of the real ack driven (for per-warp accounting in `observe`).
    ack_warp: Option<u8>,
    spurious_ack: bool,
    spurious_bar_ack: bool,
}

/// The memory-system model. See the file header.
#[derive(Clone, Debug)]
pub struct Mmu {
    spec: MmuSpec,
    slots: usize,
    rng: ChaCha8Rng,
    /// Remaining cycles of the current stall burst.
    stall_left: u32,
    /// TXN acks not yet sent, by due cycle.
    acks: BinaryHeap<Reverse<Due>>,
    txn_done: Completion,
    /// INVALs not yet done, by due cycle.
    invals: BinaryHeap<Reverse<Due>>,
    inval_done: Completion,
    /// Ack-requesting BARRIERs waiting for earlier commands, in order.
    bar_wait: VecDeque<WaitingBar>,
    /// Ack-requesting BARRIERs whose `bar_ack` is scheduled.
    bar_due: BinaryHeap<Reverse<Due>>,
    bar_seq: u64,
    last_bar_ack: Option<u64>,
    /// `drop_demote`: a TXN was transferred since the last GL/SYS BARRIER,
    /// a system-scope one since the last SYS BARRIER.
    txn_since_gl: bool,
    sys_txn_since_sys: bool,
    /// Per tag: TXNs transferred in earlier cycles minus acks sent.
    txn_per_tag: [u32; MAX_TAGS],
    /// Per tag: BARRIERs awaiting `bar_ack`.
    bar_per_tag: [u32; MAX_TAGS],
    /// Per warp: TXNs received, and acks delivered (in completed cycles).
    received_by_warp: [u64; MAX_WARPS],
    acked_by_warp: [u64; MAX_WARPS],
    cur: Driven,
    stats: MmuStats,
}

impl Mmu {
    /// A fresh MMU for configuration `cfg` (its `slots` bound the tags),
    /// with every random draw from `ChaCha8Rng::seed_from_u64(seed)`.
    pub fn new(spec: &MmuSpec, cfg: &Config, seed: u64) -> Mmu {
        Mmu {
            spec: spec.clone(),
            slots: (cfg.slots as usize).clamp(1, MAX_TAGS),
            rng: ChaCha8Rng::seed_from_u64(seed),
            stall_left: 0,
            acks: BinaryHeap::with_capacity(256),
            txn_done: Completion::default(),
            invals: BinaryHeap::with_capacity(16),
            inval_done: Completion::default(),
            bar_wait: VecDeque::with_capacity(MAX_TAGS),
            bar_due: BinaryHeap::with_capacity(MAX_TAGS),
            bar_seq: 0,
            last_bar_ack: None,
            txn_since_gl: false,
            sys_txn_since_sys: false,
            txn_per_tag: [0; MAX_TAGS],
            bar_per_tag: [0; MAX_TAGS],
            received_by_warp: [0; MAX_WARPS],
            acked_by_warp: [0; MAX_WARPS],
            cur: Driven::default(),
            stats: MmuStats::default(),
        }
    }

    /// The parameters it runs with.
    pub fn spec(&self) -> &MmuSpec {
        &self.spec
    }

    /// Counters so far.
    pub fn stats(&self) -> MmuStats {
        self.stats
    }

    /// TXNs transferred and not yet acked, plus ack-requesting BARRIERs not
    /// yet answered. Zero when the memory system owes the unit nothing.
    pub fn outstanding(&self) -> usize {
        self.acks.len() + self.bar_wait.len() + self.bar_due.len()
    }

    /// The last `drive` sent a spurious ack or `bar_ack`: the unit must pulse
    /// `err` this cycle (P7).
    pub fn injected_this_cycle(&self) -> bool {
        self.cur.spurious_ack || self.cur.spurious_bar_ack
    }

    /// TXNs of warp `w` received (transferred) in completed cycles (since construction).
    pub fn received_of_warp(&self, w: usize) -> u64 {
        self.received_by_warp.get(w).copied().unwrap_or(0)
    }

    /// Acks for TXNs of warp `w` delivered in completed cycles: the count
    /// `observe` has recorded, so between `Dut::step` and `observe` it
    /// excludes the current cycle's ack.
    pub fn acked_of_warp(&self, w: usize) -> u64 {
        self.acked_by_warp.get(w).copied().unwrap_or(0)
    }

    /// A random tag in `0..slots` whose count in `per_tag` is zero.
    fn free_tag(rng: &mut ChaCha8Rng, per_tag: &[u32; MAX_TAGS], slots: usize) -> Option<u8> {
        let mut cand = [0u8; MAX_TAGS];
        let mut n = 0;
        for (t, &c) in per_tag.iter().enumerate().take(slots) {
            if c == 0 {
                cand[n] = t as u8;
                n += 1;
            }
        }
        (n > 0).then(|| cand[rng.gen_range(0..n)])
    }

    /// Forget everything outstanding (reset).
    fn drop_all(&mut self) {
        self.stats.resets += 1;
        self.stats.dropped_acks += self.acks.len() as u64;
        self.stats.dropped_bar_acks += (self.bar_wait.len() + self.bar_due.len()) as u64;
        self.acks.clear();
        self.txn_done.clear();
        self.invals.clear();
        self.inval_done.clear();
        self.bar_wait.clear();
        self.bar_due.clear();
        self.txn_per_tag = [0; MAX_TAGS];
        self.bar_per_tag = [0; MAX_TAGS];
        self.last_bar_ack = None;
        self.txn_since_gl = false;
        self.sys_txn_since_sys = false;
    }

    /// Move ack-requesting BARRIERs whose earlier commands are done to the
    /// `bar_due` queue, due `lat` cycles from now.
    fn schedule_barriers(&mut self, cycle: u64) {
        while let Some(b) = self.bar_wait.front().copied() {
            let txns_ok = !self.spec.bar_waits_for_txns || b.txn_before <= self.txn_done.prefix();
            if !txns_ok || b.inval_before > self.inval_done.prefix() {
                break;
            }
            self.bar_wait.pop_front();
            let lat = if b.dropped {
                0
            } else {
                self.spec.bar_latency(b.level).draw(&mut self.rng) as u64
            };
            let due = cycle.max(b.sent + 1) + lat;
            self.bar_due.push(Reverse(Due {
                due,
                seq: self.bar_seq,
                tag: b.tag,
                warp: 0,
                sent: b.sent,
                dropped: b.dropped,
            }));
            self.bar_seq += 1;
        }
    }
}

impl Downstream for Mmu {
    fn outstanding(&self) -> usize {
        Mmu::outstanding(self)
    }

    fn drive(&mut self, cycle: u64, i: &mut Inputs) {
        self.cur = Driven::default();

        // Back-pressure.
        i.dn_ready = if self.stall_left > 0 {
            self.stall_left -= 1;
            false
        } else if self.spec.stall_prob > 0.0 && self.rng.gen_bool(self.spec.stall_prob) {
            self.stall_left = self.spec.stall_len.draw(&mut self.rng).saturating_sub(1);
            self.stats.stall_bursts += 1;
            false
        } else {
            self.spec.ready_prob >= 1.0 || self.rng.gen_bool(self.spec.ready_prob)
        };

        // INVALs that are done by now.
        while let Some(&Reverse(d)) = self.invals.peek() {
            if d.due > cycle {
                break;
            }
            self.invals.pop();
            self.inval_done.mark(d.seq);
        }

        // One ack: spurious (adversarial) or the oldest due.
        i.ack_valid = false;
        i.ack_tag = 0;
        if self.spec.spurious_ack_prob > 0.0 && self.rng.gen_bool(self.spec.spurious_ack_prob) {
            match Mmu::free_tag(&mut self.rng, &self.txn_per_tag, self.slots) {
                Some(t) => {
                    i.ack_valid = true;
                    i.ack_tag = t;
                    self.cur.spurious_ack = true;
                    self.stats.spurious_acks += 1;
                }
                None => self.stats.spurious_skipped += 1,
            }
        }
        if !i.ack_valid {
            if let Some(&Reverse(d)) = self.acks.peek() {
                if d.due <= cycle {
                    self.acks.pop();
                    i.ack_valid = true;
                    i.ack_tag = d.tag;
                    self.txn_done.mark(d.seq);
                    let t = d.tag as usize % MAX_TAGS;
                    self.txn_per_tag[t] = self.txn_per_tag[t].saturating_sub(1);
                    self.cur.ack_warp = Some(d.warp);
                    self.stats.acks += 1;
                    let lat = cycle - d.sent;
                    self.stats.txn_latency_sum += lat;
                    self.stats.txn_latency_max = self.stats.txn_latency_max.max(lat);
                }
            }
        }

        // Barriers whose earlier commands are now done (this cycle's ack counts).
        self.schedule_barriers(cycle);

        // One bar_ack: spurious (adversarial) or the oldest due.
        i.bar_ack_valid = false;
        i.bar_ack_tag = 0;
        if self.spec.spurious_bar_ack_prob > 0.0
            && self.rng.gen_bool(self.spec.spurious_bar_ack_prob)
        {
            match Mmu::free_tag(&mut self.rng, &self.bar_per_tag, self.slots) {
                Some(t) => {
                    i.bar_ack_valid = true;
                    i.bar_ack_tag = t;
                    self.cur.spurious_bar_ack = true;
                    self.stats.spurious_bar_acks += 1;
                }
                None => self.stats.spurious_skipped += 1,
            }
        }
        let gap_ok = self
            .last_bar_ack
            .is_none_or(|l| cycle >= l + self.spec.bar_gap as u64);
        if !i.bar_ack_valid {
            if let Some(&Reverse(d)) = self.bar_due.peek() {
                if d.due <= cycle && (gap_ok || d.dropped) {
                    self.bar_due.pop();
                    i.bar_ack_valid = true;
                    i.bar_ack_tag = d.tag;
                    let t = d.tag as usize % MAX_TAGS;
                    self.bar_per_tag[t] = self.bar_per_tag[t].saturating_sub(1);
                    if !d.dropped {
                        self.last_bar_ack = Some(cycle);
                    }
                    self.stats.bar_acks += 1;
                    let lat = cycle - d.sent;
                    self.stats.bar_latency_sum += lat;
                    self.stats.bar_latency_max = self.stats.bar_latency_max.max(lat);
                }
            }
        }
    }

    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.stats.cycles += 1;
        if !i.dn_ready {
            self.stats.not_ready_cycles += 1;
        }
        if i.reset {
            self.drop_all();
            return;
        }
        if let Some(w) = self.cur.ack_warp {
            self.acked_by_warp[w as usize % MAX_WARPS] += 1;
        }
        if o.dn_valid && i.dn_ready {
            let tag = o.dn_tag;
            let t = tag as usize % MAX_TAGS;
            match o.dn_kind {
                kind::TXN => {
                    let seq = self.txn_done.push();
                    let lat = if self.spec.tail_prob > 0.0 && self.rng.gen_bool(self.spec.tail_prob)
                    {
                        self.spec.tail_latency.draw(&mut self.rng)
                    } else {
                        self.spec.txn_latency.draw(&mut self.rng)
                    };
                    let due = cycle + lat.max(1) as u64;
                    self.acks.push(Reverse(Due {
                        due,
                        seq,
                        tag,
                        warp: o.dn_warp,
                        sent: cycle,
                        dropped: false,
                    }));
                    if self.spec.drop_demote {
                        self.txn_since_gl = true;
                        if self.spec.sys_traffic_prob > 0.0
                            && self.rng.gen_bool(self.spec.sys_traffic_prob)
                        {
                            self.sys_txn_since_sys = true;
                        }
                    }
                    self.txn_per_tag[t] += 1;
                    self.received_by_warp[o.dn_warp as usize % MAX_WARPS] += 1;
                    self.stats.txns += 1;
                    self.stats.txns_by_op[(o.dn_op & 7) as usize] += 1;
                }
                kind::INVAL => {
                    let seq = self.inval_done.push();
                    let due = cycle + self.spec.inval_latency.draw(&mut self.rng) as u64;
                    self.invals.push(Reverse(Due {
                        due,
                        seq,
                        tag,
                        warp: 0,
                        sent: cycle,
                        dropped: false,
                    }));
                    match o.dn_op {
                        0 | 1 => self.stats.invals[o.dn_op as usize] += 1,
                        _ => self.stats.bad_commands += 1,
                    }
                }
                kind::BARRIER => {
                    let lv = o.dn_level & 3;
                    self.stats.barriers[lv as usize] += 1;
                    // Drop/demote: the level the memory system treats it as.
                    let (mut eff, mut dropped) = (lv, false);
                    if self.spec.drop_demote && lv >= level::GL {
                        if lv == level::SYS && !self.sys_txn_since_sys {
                            eff = level::GL;
                        }
                        dropped = eff == level::GL && !self.txn_since_gl;
                        if lv == level::SYS {
                            self.sys_txn_since_sys = false;
                        }
                        self.txn_since_gl = false;
                    }
                    if o.dn_ack_req {
                        self.stats.barriers_ack_req[lv as usize] += 1;
                        self.stats.bars_dropped[lv as usize] += dropped as u64;
                        self.stats.bars_demoted += (eff != lv) as u64;
                        self.bar_wait.push_back(WaitingBar {
                            tag,
                            level: eff,
                            sent: cycle,
                            txn_before: self.txn_done.next(),
                            inval_before: self.inval_done.next(),
                            dropped,
                        });
                        self.bar_per_tag[t] += 1;
                    }
                }
                _ => self.stats.bad_commands += 1,
            }
        }
        self.stats.max_outstanding = self.stats.max_outstanding.max(self.outstanding() as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::op;

    fn err(text: &str) -> String {
        MmuSpec::from_yaml_str(text, "m.yaml")
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn empty_text_is_defaults_and_presets_parse() {
        assert_eq!(MmuSpec::from_yaml_str("", "m").unwrap(), MmuSpec::default());
        assert_eq!(
            MmuSpec::from_yaml_str("# only a comment\n", "m").unwrap(),
            MmuSpec::default()
        );
        assert_eq!(
            MmuSpec::from_yaml_str("preset: ideal\n", "m").unwrap(),
            MmuSpec::ideal()
        );
        // The preset is applied first wherever it is written.
        let m = MmuSpec::from_yaml_str("ready_prob: 0.5\npreset: adversarial\n", "m").unwrap();
        assert_eq!(
            m,
            MmuSpec {
                ready_prob: 0.5,
                ..MmuSpec::adversarial()
            }
        );
        for name in MMU_PRESETS {
            assert!(MmuSpec::preset(name).is_some(), "{name}");
        }
    }

    #[test]
    fn yaml_roundtrip_of_presets() {
        for m in [
            MmuSpec::default(),
            MmuSpec::ideal(),
            MmuSpec::adversarial(),
            MmuSpec::h100(),
        ] {
            let text = m.to_yaml("");
            assert_eq!(MmuSpec::from_yaml_str(&text, "t").unwrap(), m, "{text}");
        }
    }

    #[test]
    fn errors_name_source_key_value_allowed() {
        let e = err("ready_prob: 1.5\n");
        assert!(
            e.contains("m.yaml")
                && e.contains("ready_prob")
                && e.contains("1.5")
                && e.contains("0.001..=1"),
            "{e}"
        );
        let e = err("txn_latncy: 3\n");
        assert!(
            e.contains("txn_latncy") && e.contains("unknown key") && e.contains("txn_latency"),
            "{e}"
        );
        let e = err("txn_latency: -4\n");
        assert!(
            e.contains("txn_latency") && e.contains("-4") && e.contains("1..=1000000"),
            "{e}"
        );
        let e = err("txn_latency: 0\n");
        assert!(
            e.contains("txn_latency") && e.contains("1..=1000000"),
            "{e}"
        );
        let e = err("txn_latency: {min: 50, max: 10}\n");
        assert!(
            e.contains("txn_latency") && e.contains("min <= max") && e.contains("50"),
            "{e}"
        );
        let e = err("txn_latency: {min: 5, mux: 10}\n");
        assert!(
            e.contains("txn_latency.mux") && e.contains("unknown key"),
            "{e}"
        );
        let e = err("txn_latency: {min: 5}\n");
        assert!(
            e.contains("txn_latency") && e.contains("min: A, max: B"),
            "{e}"
        );
        let e = err("txn_latency: \"fast\"\n");
        assert!(e.contains("txn_latency") && e.contains("\"fast\""), "{e}");
        let e = err("gl_bar_latency: {min: 1, max: 4294967296}\n");
        assert!(
            e.contains("gl_bar_latency.max")
                && e.contains("4294967296")
                && e.contains("0..=1000000"),
            "{e}"
        );
        let e = err("gl_bar_latency: {min: 1, max: 99999999999999999999999}\n");
        assert!(
            e.contains("gl_bar_latency.max") && e.contains("99999999999999999999999"),
            "{e}"
        );
        let e = err("bar_gap: 18446744073709551615\n");
        assert!(e.contains("bar_gap") && e.contains("0..=1000000"), "{e}");
        let e = err("bar_waits_for_txns: 1\n");
        assert!(
            e.contains("bar_waits_for_txns") && e.contains("true or false"),
            "{e}"
        );
        let e = err("spurious_ack_prob: 0.9\n");
        assert!(
            e.contains("spurious_ack_prob") && e.contains("0.9") && e.contains("0..=0.5"),
            "{e}"
        );
        let e = err("preset: turbo\n");
        assert!(
            e.contains("preset") && e.contains("turbo") && e.contains("ideal"),
            "{e}"
        );
        let e = err("[1, 2]\n");
        assert!(e.contains("<top level>") && e.contains("mapping"), "{e}");
        let e = err("ready_prob: [\n");
        assert!(e.contains("YAML"), "{e}");
        let e = MmuSpec::load("/nonexistent/mmu.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/nonexistent/mmu.yaml") && e.contains("cannot read"),
            "{e}"
        );
    }

    /// A scripted downstream stream: (cycle, command); the MMU is driven and
    /// observes with `dn_valid` only on those cycles.
    fn run_script(
        spec: &MmuSpec,
        cmds: &[(u64, u8, u8, u8, bool)],
        cycles: u64,
    ) -> Vec<(u64, Inputs)> {
        let cfg = Config::default();
        let mut m = Mmu::new(spec, &cfg, 7);
        let mut log = Vec::new();
        for c in 0..cycles {
            let mut i = Inputs::default();
            m.drive(c, &mut i);
            let mut o = Outputs::default();
            if let Some(&(_, k, tag, lvl, ack_req)) = cmds.iter().find(|x| x.0 == c) {
                assert!(i.dn_ready, "script assumes an always-ready MMU");
                o = Outputs {
                    dn_valid: true,
                    dn_kind: k,
                    dn_tag: tag,
                    dn_level: lvl,
                    dn_ack_req: ack_req,
                    dn_op: op::ST,
                    ..o
                };
            }
            if i.ack_valid || i.bar_ack_valid {
                log.push((c, i));
            }
            m.observe(c, &i, &o);
        }
        log
    }

    #[test]
    fn acks_after_latency_and_bar_ack_after_prior_acks() {
        let spec = MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::new(5, 30),
            inval_latency: CycleRange::fixed(40),
            gl_bar_latency: CycleRange::fixed(3),
            ..MmuSpec::default()
        };
        // 4 TXNs (tags 0,0,1,1), an INVAL, a GL barrier with ack_req (tag 1).
        let cmds = [
            (1, kind::TXN, 0, 0, false),
            (2, kind::TXN, 0, 0, false),
            (3, kind::TXN, 1, 0, false),
            (4, kind::TXN, 1, 0, false),
            (5, kind::INVAL, 1, 0, false),
            (6, kind::BARRIER, 1, level::GL, true),
        ];
        let log = run_script(&spec, &cmds, 200);
        let acks: Vec<_> = log.iter().filter(|(_, i)| i.ack_valid).collect();
        let bars: Vec<_> = log.iter().filter(|(_, i)| i.bar_ack_valid).collect();
        assert_eq!(acks.len(), 4);
        assert_eq!(bars.len(), 1);
        assert_eq!(acks.iter().filter(|(_, i)| i.ack_tag == 0).count(), 2);
        for (c, _) in &acks {
            assert!(
                *c >= 6,
                "ack at {c} before the first TXN (cycle 1) plus the minimum latency 5"
            );
        }
        let last_ack = acks.iter().map(|(c, _)| *c).max().unwrap();
        let (bc, bi) = bars[0];
        assert_eq!(bi.bar_ack_tag, 1);
        // After the INVAL (done at 45) and every ack, plus 3.
        assert!(
            *bc >= last_ack + 3 && *bc >= 45 + 3,
            "bar_ack at {bc}, last ack {last_ack}"
        );
    }

    /// Cycles of the bar_acks of a script, in order.
    fn bar_ack_cycles(spec: &MmuSpec, cmds: &[(u64, u8, u8, u8, bool)]) -> Vec<u64> {
        run_script(spec, cmds, 400)
            .iter()
            .filter(|(_, i)| i.bar_ack_valid)
            .map(|(c, _)| *c)
            .collect()
    }

    /// Drop: a GL barrier with no TXN since the previous GL/SYS barrier is
    /// answered the cycle after its transfer (no barrier latency, no
    /// bar_gap); with a TXN in between, or without `drop_demote`, it takes
    /// the GL latency. A VC barrier does not count as a previous one.
    #[test]
    fn drop_answers_a_gl_barrier_without_traffic_at_once() {
        let off = MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::fixed(10),
            vc_bar_latency: CycleRange::fixed(7),
            gl_bar_latency: CycleRange::fixed(50),
            sys_bar_latency: CycleRange::fixed(100),
            bar_gap: 30,
            ..MmuSpec::default()
        };
        let on = MmuSpec {
            drop_demote: true,
            ..off.clone()
        };
        // Every barrier waits for the TXN at 1 (acked at 11).
        let cmds = [
            (1, kind::TXN, 0, 0, false),
            (2, kind::BARRIER, 0, level::GL, true), // traffic before it: 11 + 50
            (3, kind::BARRIER, 1, level::GL, true), // nothing since: dropped
            (4, kind::BARRIER, 2, level::VC, true), // VC: never dropped, 11 + 7
            (5, kind::BARRIER, 3, level::GL, true), // nothing since the GL at 3: dropped
            (100, kind::TXN, 0, 0, false),
            (101, kind::BARRIER, 0, level::GL, true), // traffic: acked at 110, + 50
        ];
        // Off: VC at 18, the GLs at 61 and then 30 apart (bar_gap), the last at 160.
        assert_eq!(bar_ack_cycles(&off, &cmds), vec![18, 61, 91, 121, 160]);
        // On: the dropped ones as soon as the TXN is acked (one bar_ack per
        // cycle), outside the gap; the real ones keep their latency.
        assert_eq!(bar_ack_cycles(&on, &cmds), vec![11, 12, 18, 61, 160]);
        let mmu_stats = |spec: &MmuSpec| {
            let mut m = Mmu::new(spec, &Config::default(), 7);
            for c in 0..400 {
                let mut i = Inputs::default();
                m.drive(c, &mut i);
                let mut o = Outputs::default();
                if let Some(&(_, k, tag, lvl, ack_req)) = cmds.iter().find(|x| x.0 == c) {
                    o = Outputs {
                        dn_valid: true,
                        dn_kind: k,
                        dn_tag: tag,
                        dn_level: lvl,
                        dn_ack_req: ack_req,
                        ..o
                    };
                }
                m.observe(c, &i, &o);
            }
            m.stats()
        };
        assert_eq!(mmu_stats(&on).bars_dropped, [0, 0, 2, 0]);
        assert_eq!(mmu_stats(&off).bars_dropped, [0; 4]);
    }

    /// Demote: a SYS barrier with no system-scope TXN since the previous SYS
    /// barrier takes the GL latency (and is dropped without any traffic);
    /// with every TXN system-scope it keeps the SYS latency.
    #[test]
    fn demote_treats_sys_without_system_traffic_as_gl() {
        let base = MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::fixed(10),
            gl_bar_latency: CycleRange::fixed(50),
            sys_bar_latency: CycleRange::fixed(100),
            drop_demote: true,
            ..MmuSpec::default()
        };
        let cmds = [
            (1, kind::TXN, 0, 0, false),
            (2, kind::BARRIER, 0, level::SYS, true),
            (200, kind::BARRIER, 1, level::SYS, true),
        ];
        // Global traffic only: GL latency after the ack (11), then dropped.
        assert_eq!(bar_ack_cycles(&base, &cmds), vec![61, 201]);
        // Every TXN system-scope: SYS latency; the second SYS has no traffic
        // since the first, so it is demoted and dropped.
        let sys = MmuSpec {
            sys_traffic_prob: 1.0,
            ..base.clone()
        };
        assert_eq!(bar_ack_cycles(&sys, &cmds), vec![111, 201]);
        // The keys parse strictly.
        let m = MmuSpec::from_yaml_str("drop_demote: true\nsys_traffic_prob: 0.25\n", "m.yaml")
            .unwrap();
        assert!(m.drop_demote && m.sys_traffic_prob == 0.25);
        let e = err("drop_demote: 3\n");
        assert!(
            e.contains("drop_demote") && e.contains("true or false"),
            "{e}"
        );
        let e = err("sys_traffic_prob: 2\n");
        assert!(e.contains("sys_traffic_prob") && e.contains('2'), "{e}");
        // Off: SYS latency both times.
        let off = MmuSpec {
            drop_demote: false,
            ..base
        };
        assert_eq!(bar_ack_cycles(&off, &cmds), vec![111, 301]);
    }

    #[test]
    fn one_ack_per_cycle_and_out_of_order() {
        let spec = MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::new(1, 50),
            ..MmuSpec::default()
        };
        let cmds: Vec<_> = (0..40u64)
            .map(|c| (c, kind::TXN, (c % 4) as u8, 0, false))
            .collect();
        let log = run_script(&spec, &cmds, 400);
        assert_eq!(log.iter().filter(|(_, i)| i.ack_valid).count(), 40);
        let tags: Vec<u8> = log.iter().map(|(_, i)| i.ack_tag).collect();
        let in_order: Vec<u8> = (0..40u64).map(|c| (c % 4) as u8).collect();
        assert_ne!(tags, in_order, "acks should come back out of order");
    }

    #[test]
    fn spurious_acks_only_for_idle_tags_and_reset_drops() {
        let spec = MmuSpec {
            ready_prob: 1.0,
            txn_latency: CycleRange::fixed(100),
            spurious_ack_prob: 0.5,
            spurious_bar_ack_prob: 0.5,
            ..MmuSpec::default()
        };
        let cfg = Config::default();
        let mut m = Mmu::new(&spec, &cfg, 3);
        let mut spurious = 0;
        for c in 0..60u64 {
            let mut i = Inputs::default();
            m.drive(c, &mut i);
            if i.ack_valid {
                // Tags 0 and 1 always have TXNs outstanding after cycle 2.
                assert!(
                    c <= 2 || i.ack_tag >= 2,
                    "cycle {c}: spurious ack for busy tag {}",
                    i.ack_tag
                );
                spurious += 1;
            }
            assert_eq!(m.injected_this_cycle(), i.ack_valid || i.bar_ack_valid);
            let o = Outputs {
                dn_valid: true,
                dn_kind: kind::TXN,
                dn_tag: (c % 2) as u8,
                ..Outputs::default()
            };
            m.observe(c, &i, &o);
        }
        assert!(spurious > 0);
        assert_eq!(m.outstanding(), 60);
        let mut i = Inputs {
            reset: true,
            ..Inputs::default()
        };
        m.drive(60, &mut i);
        i.reset = true;
        m.observe(60, &i, &Outputs::default());
        assert_eq!(m.outstanding(), 0);
        assert_eq!(m.stats().dropped_acks, 60);
    }
}
