//! Calibration of the model against fence latencies measured on real GPUs
//! (`shared/calibration/`: H100, H200; see its README).
//!
//! A **preset** ([`Preset`], `configs/h100.yaml`, `configs/h200.yaml`) holds
//! everything the calibration fits, in three parts:
//!
//! - `unit:` the `membar_unit` configuration ([`Config`] keys). The way fences
//!   of different warps combine comes from the unit's own mechanism: the open
//!   slot collects every MEMBAR that arrives within `coalesce_window` of the
//!   first, and with `max_outstanding: 1` every MEMBAR that arrives while a
//!   coalesced barrier is outstanding piles into the open slot and joins the
//!   next one. Nothing per experiment is fitted.
//! - `mmu:` the memory-system model ([`MmuSpec`] keys): per-level barrier
//!   latency, store acknowledgement latency, invalidate latency.
//! - `sm:` the SM side outside the unit ([`SmSpec`]): the rest of the fence
//!   sequence after the unit releases the warp (sm_90 compiles `fence.sc.gpu`
//!   to `MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL`), a fixed per-level
//!   overhead; how fast one warp issues 128-byte stores; and the SM-wide
//!   serial issue of MEMBARs (fences of different warps enter the unit at
//!   least `fence_issue_gap` cycles apart).
//!
//! A measured fence latency is modelled as: the warp reads the clock (time
//! 0), issues its stores and its fence through the scripted SM upstream
//! ([`SmUpstream`]), the unit releases it, and the SM-side overhead of the
//! fence's level is added. GPU/SYS fences are `MEMBAR.GL.IVALLD` /
//! `MEMBAR.SYS.IVALLD` (the `CCTL.IVALL` travels with the fence on sm_90);
//! CTA fences are plain `MEMBAR.CTA`.
//!
//! A **cell** ([`Cell`]) is one measured number (a median, in cycles) and the
//! scenario ([`Scenario`]) that reproduces it: `k` warps looping (stores +)
//! fence, a fencing warp among warps that only store, or warps fencing once at
//! given clock offsets (pairs and groups). [`load_cells`] reads the cells from
//! the measurement CSVs; [`run_scenario`] simulates one scenario (reference
//! model + [`Mmu`] + [`SmUpstream`], with the P1–P7 scoreboard watching);
//! [`evaluate`] gives model vs measured for each cell. [`fit`] derives the
//! per-level parameters from the measurements.

use membar_unit_env::config::{Config, InputError, RawConfig, MAX_WARPS};
use membar_unit_env::input::{decode, join_key, present, read_input, uint, Doc, Rule, Text};
use membar_unit_env::mmu::{mmu_allowed, CycleRange, Mmu, MmuSpec, RawMmu};
use membar_unit_env::ports::{level, op, Downstream, Inputs, Outputs, Upstream};
use membar_unit_env::scoreboard::Scoreboard;
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

// ---------------------------------------------------------------------------
// SM-side parameters
// ---------------------------------------------------------------------------

/// The SM side of a fence, outside `membar_unit` (the `sm:` section of a preset).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmSpec {
    /// `overhead: {cta, vc, gl, sys}`: cycles from the unit's release of a
    /// warp until the warp continues (the rest of the fence sequence), per level.
    pub overhead: [u32; 4],
    /// `loop_cycles`: from a fence's completion to the warp's next clock read
    /// (the benchmark loop).
    pub loop_cycles: u32,
    /// `store_issue`: one warp issues its stores this many cycles apart.
    pub store_issue: u32,
    /// `fence_after_stores`: the fence is issued this many cycles after the
    /// warp's last store was issued (0 stores: right at the clock read).
    pub fence_after_stores: u32,
    /// `fence_issue_gap`: after a fence enters the unit, the SM's memory
    /// instruction issue (shared by every warp) is busy this many cycles.
    pub fence_issue_gap: u32,
    /// `store_issue_gap`: after a store enters the unit, the shared memory
    /// instruction issue is busy this many cycles (0: stores do not occupy
    /// it). A ready fence goes before ready stores.
    pub store_issue_gap: u32,
}

impl Default for SmSpec {
    fn default() -> Self {
        SmSpec {
            overhead: [7, 7, 180, 570],
            loop_cycles: 20,
            store_issue: 14,
            fence_after_stores: 30,
            fence_issue_gap: 5,
            store_issue_gap: 0,
        }
    }
}

/// Keys of the `sm:` section.
pub const SM_KEYS: &[&str] = &[
    "overhead",
    "loop_cycles",
    "store_issue",
    "fence_after_stores",
    "fence_issue_gap",
    "store_issue_gap",
];

const LEVEL_KEYS: &[&str] = &["cta", "vc", "gl", "sys"];

/// What each `sm:` key allows (relative key; empty: the section).
fn sm_allowed(key: &str) -> String {
    match key {
        "" => format!("a mapping with keys {}", SM_KEYS.join(", ")),
        "overhead" => "a mapping {cta: N, vc: N, gl: N, sys: N} of cycles".into(),
        "overhead.cta" | "overhead.vc" | "overhead.gl" | "overhead.sys" => OVERHEAD.allowed(),
        k => sm_rule(k).allowed(),
    }
}

const OVERHEAD: Rule = Rule::Int(0, 100_000);

fn sm_rule(key: &str) -> Rule {
    match key {
        "loop_cycles" => Rule::Int(0, 100_000),
        "store_issue" | "fence_after_stores" => Rule::Int(1, 10_000),
        "fence_issue_gap" => Rule::Int(1, 1_000),
        "store_issue_gap" => Rule::Int(0, 1_000),
        _ => Rule::Text(""),
    }
}

/// `sm.overhead` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOverhead {
    #[serde(default, deserialize_with = "uint")]
    cta: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    vc: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    gl: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    sys: Option<u64>,
}

/// An `sm:` section as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSm {
    #[serde(default, deserialize_with = "present")]
    overhead: Option<RawOverhead>,
    #[serde(default, deserialize_with = "uint")]
    loop_cycles: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    store_issue: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    fence_after_stores: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    fence_issue_gap: Option<u64>,
    #[serde(default, deserialize_with = "uint")]
    store_issue_gap: Option<u64>,
}

impl RawSm {
    /// The validation pass; `path` prefixes keys in errors (`sm`).
    fn validate(self, source: &str, path: &str) -> Result<SmSpec, InputError> {
        let mut s = SmSpec::default();
        if let Some(o) = self.overhead {
            let key = join_key(path, "overhead");
            for (i, (name, v)) in [("cta", o.cta), ("vc", o.vc), ("gl", o.gl), ("sys", o.sys)]
                .into_iter()
                .enumerate()
            {
                if let Some(v) = v {
                    s.overhead[i] = OVERHEAD.u32(source, &join_key(&key, name), v)?;
                }
            }
        }
        for (name, raw, field) in [
            ("loop_cycles", self.loop_cycles, &mut s.loop_cycles),
            ("store_issue", self.store_issue, &mut s.store_issue),
            (
                "fence_after_stores",
                self.fence_after_stores,
                &mut s.fence_after_stores,
            ),
            (
                "fence_issue_gap",
                self.fence_issue_gap,
                &mut s.fence_issue_gap,
            ),
            (
                "store_issue_gap",
                self.store_issue_gap,
                &mut s.store_issue_gap,
            ),
        ] {
            if let Some(v) = raw {
                *field = sm_rule(name).u32(source, &join_key(path, name), v)?;
            }
        }
        Ok(s)
    }
}

impl SmSpec {
    /// YAML lines (each prefixed by `indent`) that the `sm:` section reads back.
    pub fn to_yaml(&self, indent: &str) -> String {
        let o = self.overhead;
        format!(
            "{indent}overhead: {{cta: {}, vc: {}, gl: {}, sys: {}}}\n{indent}loop_cycles: {}\n{indent}store_issue: {}\n{indent}fence_after_stores: {}\n{indent}fence_issue_gap: {}\n{indent}store_issue_gap: {}\n",
            o[0], o[1], o[2], o[3], self.loop_cycles, self.store_issue, self.fence_after_stores, self.fence_issue_gap, self.store_issue_gap
        )
    }
}

// ---------------------------------------------------------------------------
// Presets
// ---------------------------------------------------------------------------

/// A calibrated machine: unit configuration, memory system, SM side.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    /// `name` (e.g. `h100`): which measurement files it is calibrated on.
    pub name: String,
    pub unit: Config,
    pub mmu: MmuSpec,
    pub sm: SmSpec,
}

/// Top-level keys of a preset file.
pub const PRESET_KEYS: &[&str] = &["name", "unit", "mmu", "sm"];

impl Preset {
    /// Load and validate a preset file (`configs/h100.yaml`).
    pub fn load(path: impl AsRef<Path>) -> Result<Preset, InputError> {
        let path = path.as_ref();
        let src = path.display().to_string();
        let text = read_input(path, "preset")?;
        Preset::from_yaml_str(&text, &src)
    }

    /// Parse and validate preset YAML; `source` names it in errors.
    pub fn from_yaml_str(text: &str, source: &str) -> Result<Preset, InputError> {
        let what = format!("a mapping with keys {}", PRESET_KEYS.join(", "));
        let doc = Doc {
            source,
            lines: true,
            what: &what,
        };
        let raw: RawPreset = decode(&doc, text, &preset_allowed)?.unwrap_or_default();
        let Text(name) = raw.name.ok_or_else(|| {
            InputError::new(source, "name", "", "missing: the preset's name (e.g. h100)")
        })?;
        Ok(Preset {
            name,
            unit: raw.unit.unwrap_or_default().validate(source, "unit")?,
            mmu: raw.mmu.unwrap_or_default().validate(source, "mmu")?,
            sm: raw.sm.unwrap_or_default().validate(source, "sm")?,
        })
    }

    /// The preset as YAML that [`Preset::from_yaml_str`] reads back.
    pub fn to_yaml(&self) -> String {
        let unit: String = self
            .unit
            .describe()
            .into_iter()
            .map(|(k, v)| format!("  {k}: {v}\n"))
            .collect();
        format!(
            "name: {}\nunit:\n{unit}mmu:\n{}sm:\n{}",
            self.name,
            self.mmu.to_yaml("  "),
            self.sm.to_yaml("  ")
        )
    }
}

/// What a key of a preset file allows (dotted path from the top).
fn preset_allowed(key: &str) -> String {
    let (head, rest) = key.split_once('.').unwrap_or((key, ""));
    match head {
        "name" => "a name such as h100".into(),
        "unit" if rest.is_empty() => "a mapping of membar_unit config keys".into(),
        "unit" => membar_unit_env::config::config_allowed(rest),
        "mmu" => mmu_allowed(rest),
        "sm" => sm_allowed(rest),
        _ => format!("a mapping with keys {}", PRESET_KEYS.join(", ")),
    }
}

/// A preset file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPreset {
    #[serde(default, deserialize_with = "present")]
    name: Option<Text>,
    #[serde(default)]
    unit: Option<RawConfig>,
    #[serde(default)]
    mmu: Option<RawMmu>,
    #[serde(default)]
    sm: Option<RawSm>,
}

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------

/// The fence a scenario's warps issue, by level (`level::CTA`, `GL`, `SYS`).
pub fn fence_request(lvl: u8) -> (u8, u8) {
    // (level, ivall): GPU/SYS fences invalidate the L1 (CCTL.IVALL) on sm_90.
    if lvl == level::CTA || lvl == level::VC {
        (lvl, 0)
    } else {
        (lvl, 1)
    }
}

/// A measurement scenario on one SM.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// Warps `0..fencers` loop: clock read, `stores` stores, a fence of
    /// `level`, wait for it. Warps `fencers..fencers+storers` only store, one
    /// store every `store_issue + store_pace` cycles. All start at cycle 0.
    Loop {
        level: u8,
        stores: u32,
        fencers: u32,
        storers: u32,
        store_pace: u32,
    },
    /// One fence per warp per round: warp i reads the clock at
    /// `offsets[i] - min(offsets)`, issues `stores` stores and the fence.
    /// Rounds are separated by idle time.
    Offsets {
        level: u8,
        stores: u32,
        offsets: Vec<i64>,
    },
}

impl Scenario {
    pub fn level(&self) -> u8 {
        match self {
            Scenario::Loop { level, .. } | Scenario::Offsets { level, .. } => *level,
        }
    }
    fn warps(&self) -> usize {
        match self {
            Scenario::Loop {
                fencers, storers, ..
            } => (fencers + storers) as usize,
            Scenario::Offsets { offsets, .. } => offsets.len(),
        }
    }
}

/// Warm-up iterations (per fencing warp) dropped from a [`Scenario::Loop`].
pub const LOOP_WARMUP: usize = 4;
/// Measured iterations per fencing warp of a [`Scenario::Loop`].
pub const LOOP_MEASURE: usize = 16;
/// Rounds of a [`Scenario::Offsets`] (the first is dropped).
pub const OFFSET_ROUNDS: usize = 4;

/// What one scenario run measured.
#[derive(Clone, Debug, Default)]
pub struct ScenarioResult {
    /// Per warp: measured fence latencies (clock read to continue), after warm-up.
    pub latencies: Vec<Vec<u64>>,
    /// Per warp (offsets only): completion minus warp 0's clock read, per measured round.
    pub done_vs_a: Vec<Vec<i64>>,
    /// Cycles simulated.
    pub cycles: u64,
    /// BARRIER commands sent downstream.
    pub barriers: u64,
    /// Property checks the scoreboard made.
    pub checks: u64,
}

/// Median of a list (the lower middle for even lengths; 0 when empty).
pub fn median(v: &[u64]) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    s[(s.len() - 1) / 2]
}

fn median_i(v: &[i64]) -> i64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    s[(s.len() - 1) / 2]
}

impl ScenarioResult {
    /// Median over every measured latency of every warp.
    pub fn median_all(&self) -> f64 {
        let all: Vec<u64> = self.latencies.iter().flatten().copied().collect();
        median(&all) as f64
    }
    /// Median latency of warp `w`.
    pub fn warp_median(&self, w: usize) -> f64 {
        self.latencies.get(w).map_or(0.0, |v| median(v) as f64)
    }
    /// Median completion of warp `w` relative to warp 0's clock read.
    pub fn done_vs_a_median(&self, w: usize) -> f64 {
        self.done_vs_a.get(w).map_or(0.0, |v| median_i(v) as f64)
    }
}

// ---------------------------------------------------------------------------
// The scripted SM upstream
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Waiting to start an iteration at `start` (its clock read).
    Wait,
    /// Issuing stores / the fence of the current iteration.
    Issue,
    /// Fence accepted, waiting for the release.
    Blocked,
    /// Stopped (enough iterations, or a storer after the run ended).
    Stopped,
}

#[derive(Clone, Copy, Debug)]
struct WarpSt {
    fencer: bool,
    phase: Phase,
    /// Clock read of the current iteration.
    t0: u64,
    /// Stores still to issue in this iteration, and when the next is ready.
    stores_left: u32,
    next_ready: u64,
    /// When this iteration's fence is ready (valid once stores_left == 0).
    fence_ready: u64,
    iterations: usize,
}

/// The SM side of a calibration scenario: warps issuing stores and fences on
/// the unit's request port, one request per cycle, round robin among the
/// warps whose next request is ready; fences additionally at least
/// [`SmSpec::fence_issue_gap`] cycles apart SM-wide.
pub struct SmUpstream {
    sm: SmSpec,
    level: u8,
    ivall: u8,
    stores: u32,
    store_pace: u32,
    offsets: Vec<u64>,
    loop_mode: bool,
    warps: Vec<WarpSt>,
    rr: usize,
    /// First cycle the shared memory-instruction issue is free again.
    mio_free: u64,
    presented: Option<(usize, bool)>,
    next_id: u16,
    /// Offsets mode: start cycle of the current round, completions this round.
    round_start: u64,
    round: usize,
    round_done: Vec<Option<u64>>,
    result: ScenarioResult,
    finished: bool,
}

impl SmUpstream {
    pub fn new(sm: &SmSpec, s: &Scenario) -> SmUpstream {
        let n = s.warps();
        let (lvl, iv) = fence_request(s.level());
        let mut up = SmUpstream {
            sm: sm.clone(),
            level: lvl,
            ivall: iv,
            stores: 0,
            store_pace: 0,
            offsets: Vec::new(),
            loop_mode: false,
            warps: vec![
                WarpSt {
                    fencer: true,
                    phase: Phase::Wait,
                    t0: 0,
                    stores_left: 0,
                    next_ready: 0,
                    fence_ready: 0,
                    iterations: 0
                };
                n
            ],
            rr: 0,
            mio_free: 0,
            presented: None,
            next_id: 0,
            round_start: 0,
            round: 0,
            round_done: vec![None; n],
            result: ScenarioResult {
                latencies: vec![Vec::new(); n],
                done_vs_a: vec![Vec::new(); n],
                ..Default::default()
            },
            finished: false,
        };
        match s {
            Scenario::Loop {
                stores,
                fencers,
                store_pace,
                ..
            } => {
                up.loop_mode = true;
                up.stores = *stores;
                up.store_pace = *store_pace;
                for (w, st) in up.warps.iter_mut().enumerate() {
                    st.fencer = w < *fencers as usize;
                }
            }
            Scenario::Offsets {
                stores, offsets, ..
            } => {
                up.stores = *stores;
                let min = offsets.iter().copied().min().unwrap_or(0);
                up.offsets = offsets.iter().map(|o| (o - min) as u64).collect();
            }
        }
        // Everything starts after the 2 reset cycles.
        for w in 0..n {
            let start = 2 + up.offsets.get(w).copied().unwrap_or(0);
            up.begin(w, start);
        }
        up
    }

    /// Start warp `w`'s next iteration with its clock read at `t0`.
    fn begin(&mut self, w: usize, t0: u64) {
        let st = &mut self.warps[w];
        st.phase = Phase::Issue;
        st.t0 = t0;
        if st.fencer {
            st.stores_left = self.stores;
            st.next_ready = t0;
            st.fence_ready = t0;
        } else {
            // A storer: stores forever.
            st.stores_left = u32::MAX;
            st.next_ready = t0;
        }
    }

    /// The run is over: every fencer measured enough (loop) or every round done.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The measurements.
    pub fn into_result(self) -> ScenarioResult {
        self.result
    }

    /// Warp `w`'s request if it is ready at `cycle`: `Some(is_fence)`.
    fn ready(&self, w: usize, cycle: u64) -> Option<bool> {
        let st = &self.warps[w];
        if st.phase != Phase::Issue {
            return None;
        }
        if cycle < self.mio_free {
            return None;
        }
        if st.stores_left > 0 {
            return (st.next_ready <= cycle).then_some(false);
        }
        (st.fence_ready <= cycle).then_some(true)
    }

    fn complete(&mut self, w: usize, release_cycle: u64) {
        let done = release_cycle + self.sm.overhead[self.level as usize] as u64;
        let st = self.warps[w];
        let lat = done - st.t0;
        self.warps[w].iterations += 1;
        if self.loop_mode {
            if self.warps[w].iterations > LOOP_WARMUP {
                self.result.latencies[w].push(lat);
            }
            if self.warps[w].iterations >= LOOP_WARMUP + LOOP_MEASURE {
                self.warps[w].phase = Phase::Stopped;
                if self
                    .warps
                    .iter()
                    .all(|x| !x.fencer || x.phase == Phase::Stopped)
                {
                    self.finished = true;
                    for x in self.warps.iter_mut() {
                        x.phase = Phase::Stopped;
                    }
                }
            } else {
                self.warps[w].phase = Phase::Wait;
                let next = done + self.sm.loop_cycles as u64;
                self.begin_later(w, next);
            }
        } else {
            self.warps[w].phase = Phase::Wait;
            self.round_done[w] = Some(done);
            if self.round > 0 {
                self.result.latencies[w].push(lat);
            }
            if self.round_done.iter().all(|d| d.is_some()) {
                let a0 = self.round_start + self.offsets[0];
                if self.round > 0 {
                    for (v, d) in self.round_done.iter().enumerate() {
                        self.result.done_vs_a[v].push(d.unwrap() as i64 - a0 as i64);
                    }
                }
                let last = self.round_done.iter().map(|d| d.unwrap()).max().unwrap();
                self.round += 1;
                if self.round >= OFFSET_ROUNDS {
                    self.finished = true;
                    return;
                }
                // Idle long enough for everything to drain, then the next round.
                self.round_start = last + 4000;
                self.round_done.iter_mut().for_each(|d| *d = None);
                for v in 0..self.warps.len() {
                    let t = self.round_start + self.offsets[v];
                    self.begin_later(v, t);
                }
            }
        }
    }

    fn begin_later(&mut self, w: usize, t0: u64) {
        // The iteration's first request becomes ready at t0; the phase turns
        // to Issue right away (requests are gated by their ready times).
        self.begin(w, t0);
    }
}

impl Upstream for SmUpstream {
    fn drive(&mut self, cycle: u64, i: &mut Inputs) {
        self.presented = None;
        i.req_valid = false;
        if self.finished {
            return;
        }
        let n = self.warps.len();
        // Round robin among ready warps; a ready fence goes before stores.
        let mut pick = None;
        for k in 0..n {
            let w = (self.rr + k) % n;
            match self.ready(w, cycle) {
                Some(true) => {
                    pick = Some((w, true));
                    break;
                }
                Some(false) if pick.is_none() => pick = Some((w, false)),
                _ => {}
            }
        }
        if let Some((w, is_fence)) = pick {
            {
                i.req_valid = true;
                i.req_warp = w as u8;
                i.req_id = self.next_id;
                if is_fence {
                    i.req_op = op::MEMBAR;
                    i.req_level = self.level;
                    i.req_ivall = self.ivall;
                } else {
                    i.req_op = op::ST;
                    i.req_level = 0;
                    i.req_ivall = 0;
                }
                self.presented = Some((w, is_fence));
            }
        }
    }

    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            return;
        }
        if let Some((w, is_fence)) = self.presented {
            if o.req_ready {
                self.rr = (w + 1) % self.warps.len();
                let st = &mut self.warps[w];
                if is_fence {
                    st.phase = Phase::Blocked;
                    self.mio_free = cycle + self.sm.fence_issue_gap as u64;
                } else {
                    self.mio_free = cycle + self.sm.store_issue_gap as u64;
                    self.next_id = self.next_id.wrapping_add(1);
                    if st.fencer {
                        st.stores_left -= 1;
                        let next = st.next_ready + self.sm.store_issue as u64;
                        st.next_ready = next.max(cycle + 1);
                        if st.stores_left == 0 {
                            // The fence follows the last store.
                            st.fence_ready = (cycle + 1).max(
                                st.t0
                                    + ((self.stores - 1) * self.sm.store_issue
                                        + self.sm.fence_after_stores)
                                        as u64,
                            );
                        }
                    } else {
                        let next = st.next_ready + (self.sm.store_issue + self.store_pace) as u64;
                        st.next_ready = next.max(cycle + 1);
                    }
                }
            }
        }
        if o.release_valid {
            let mut m = o.release_mask;
            while m != 0 {
                let w = m.trailing_zeros() as usize;
                m &= m - 1;
                if w < self.warps.len() && self.warps[w].phase == Phase::Blocked {
                    self.complete(w, cycle);
                }
            }
        }
    }
}

/// Simulate one scenario on a preset. `Err` on a scoreboard violation or a
/// run that does not finish (the text says which).
pub fn run_scenario(p: &Preset, s: &Scenario, seed: u64) -> Result<ScenarioResult, String> {
    let n = s.warps();
    if n == 0 || n > p.unit.warps as usize || n > MAX_WARPS {
        return Err(format!(
            "scenario {s:?} needs {n} warps; the preset's unit has {}",
            p.unit.warps
        ));
    }
    let cfg = &p.unit;
    let mut dut = membar_unit_env::model_for(cfg);
    let mut up = SmUpstream::new(&p.sm, s);
    let mut dn = Mmu::new(&p.mmu, cfg, seed);
    let mut sb = Scoreboard::new(cfg);
    let mut barriers = 0u64;
    let limit = 2_000_000u64;
    let mut cycle = 0u64;
    while cycle < limit {
        let mut i = Inputs {
            reset: cycle < 2,
            ..Inputs::default()
        };
        up.drive(cycle, &mut i);
        dn.drive(cycle, &mut i);
        let o = dut.step(&i);
        up.observe(cycle, &i, &o);
        dn.observe(cycle, &i, &o);
        sb.check(cycle, &i, &o)
            .map_err(|v| format!("scoreboard violation in {s:?}: {v}"))?;
        if o.dn_valid && i.dn_ready && o.dn_kind == membar_unit_env::ports::kind::BARRIER {
            barriers += 1;
        }
        cycle += 1;
        if up.finished() && dn.outstanding() == 0 && o.warp_blocked == 0 && !o.dn_valid {
            break;
        }
    }
    if !up.finished() {
        return Err(format!(
            "scenario {s:?} did not finish within {limit} cycles"
        ));
    }
    let checks = sb.checks();
    let mut r = up.into_result();
    r.cycles = cycle;
    r.barriers = barriers;
    r.checks = checks;
    Ok(r)
}

// ---------------------------------------------------------------------------
// Cells: the measurements
// ---------------------------------------------------------------------------

/// Which number of a scenario's result a cell compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Median over every fencing warp's latencies.
    MedianAll,
    /// Median latency of warp i.
    WarpLatency(usize),
}

/// One measured number and how to reproduce it.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Table section, e.g. `1 warp`, `k warps`, `pairs`.
    pub group: String,
    /// What was measured, e.g. `fence.sc.gpu, S=4 stores`.
    pub label: String,
    /// The measured median (cycles).
    pub measured: f64,
    pub scenario: Scenario,
    pub metric: Metric,
    /// `file:line` of the measurement.
    pub source: String,
    /// Part of the ±20 % goal (false: shown for information, e.g. effects the
    /// model does not represent, such as warp placement on sub-partitions).
    pub goal: bool,
    /// Pairs and groups: the measured completion of this warp minus warp 0's
    /// (used by [`fit`] to find the spacing of back-to-back completions).
    pub done_vs_a: Option<f64>,
}

/// A fence name (`fence.sc.gpu`, `st+fence.sc.sys`, ...) as (level, stores-before).
fn parse_fence(name: &str) -> Option<(u8, u32)> {
    let (st, base) = match name.strip_prefix("st+") {
        Some(b) => (1, b),
        None => (0, name),
    };
    let lvl = match base {
        "fence.sc.cta" => level::CTA,
        "fence.sc.gpu" => level::GL,
        "fence.sc.sys" => level::SYS,
        _ => return None,
    };
    Some((lvl, st))
}

/// A simple CSV table (the calibration files have no quoted fields).
struct Table {
    file: String,
    header: Vec<String>,
    rows: Vec<(usize, Vec<String>)>,
}

/// The measurement set the project ships (`data/calibration/`, copied from
/// the H100/H200 measurements), built into the binary so `membar calibrate`
/// works from any directory and needs nothing beside the repository.
pub const BUILTIN_DATA: &str = "data/calibration";

const BUILTIN_FILES: &[(&str, &str)] = &[
    (
        "h100_fence.csv",
        include_str!("../../../data/calibration/h100_fence.csv"),
    ),
    (
        "h100_pairs.csv",
        include_str!("../../../data/calibration/h100_pairs.csv"),
    ),
    (
        "h100_groups.csv",
        include_str!("../../../data/calibration/h100_groups.csv"),
    ),
    (
        "h200_fence.csv",
        include_str!("../../../data/calibration/h200_fence.csv"),
    ),
    (
        "h200_pairs.csv",
        include_str!("../../../data/calibration/h200_pairs.csv"),
    ),
    (
        "h200_groups.csv",
        include_str!("../../../data/calibration/h200_groups.csv"),
    ),
];

impl Table {
    /// Read `path`; a path under [`BUILTIN_DATA`] that is not on disk (run
    /// from outside the repository) is served from the built-in copy.
    fn load(path: &Path) -> Result<Table, InputError> {
        let src = path.display().to_string();
        let builtin = path
            .strip_prefix(BUILTIN_DATA)
            .ok()
            .and_then(|rest| rest.to_str())
            .and_then(|name| BUILTIN_FILES.iter().find(|(n, _)| *n == name))
            .map(|(_, text)| text.to_string());
        let text = match (path.exists(), builtin) {
            (false, Some(b)) => b,
            _ => read_input(path, "measurement")?,
        };
        let mut lines = text.lines().enumerate();
        let header: Vec<String> = match lines.next() {
            Some((_, h)) => h.split(',').map(|s| s.trim().to_string()).collect(),
            None => return Err(InputError::new(&src, "header", "", "a CSV header line")),
        };
        let mut rows = Vec::new();
        for (n, l) in lines {
            if l.trim().is_empty() {
                continue;
            }
            let f: Vec<String> = l.split(',').map(|s| s.trim().to_string()).collect();
            if f.len() != header.len() {
                return Err(InputError::new(
                    &src,
                    &format!("line {}", n + 1),
                    f.len(),
                    format!("{} comma-separated fields", header.len()),
                ));
            }
            rows.push((n + 1, f));
        }
        Ok(Table {
            file: src,
            header,
            rows,
        })
    }
    fn col(&self, name: &str) -> Result<usize, InputError> {
        self.header.iter().position(|h| h == name).ok_or_else(|| {
            InputError::new(
                &self.file,
                name,
                "",
                format!("missing column; the header has {}", self.header.join(", ")),
            )
        })
    }
    fn num(&self, line: usize, row: &[String], c: usize) -> Result<f64, InputError> {
        row[c].parse::<f64>().map_err(|_| {
            InputError::new(
                &self.file,
                &format!("line {line}, {}", self.header[c]),
                &row[c],
                "a number",
            )
        })
    }
}

/// The GPUs with measurement files: `h100`, `h200`.
pub const GPUS: &[&str] = &["h100", "h200"];

/// Read every cell of `gpu` (`h100`/`h200`) from `dir` (`shared/calibration`):
/// `<gpu>_fence.csv` (1 warp, S stores, k warps, mixed, warp masks),
/// `<gpu>_pairs.csv`, `<gpu>_groups.csv`. Rows the model does not represent
/// (chip-wide runs, shared-memory stores, `bar.sync`, proxy fences, the
/// release/acquire variants) are left out.
pub fn load_cells(dir: &Path, gpu: &str) -> Result<Vec<Cell>, InputError> {
    let mut cells = Vec::new();

    // ---- <gpu>_fence.csv ----
    let t = Table::load(&dir.join(format!("{gpu}_fence.csv")))?;
    let (c_sec, c_name, c_st, c_k, c_med, c_mask) = (
        t.col("section")?,
        t.col("name")?,
        t.col("stores")?,
        t.col("k_warps")?,
        t.col("med_cyc")?,
        t.col("warp_mask")?,
    );
    for (line, r) in &t.rows {
        let src = format!("{}:{line}", t.file);
        let sec = r[c_sec].as_str();
        let name = r[c_name].as_str();
        let med = t.num(*line, r, c_med)?;
        let stores = t.num(*line, r, c_st)? as u32;
        let k = t.num(*line, r, c_k)? as u32;
        let cell = |group: &str, label: String, scenario: Scenario, goal: bool| Cell {
            group: group.to_string(),
            label,
            measured: med,
            scenario,
            metric: Metric::MedianAll,
            source: src.clone(),
            goal,
            done_vs_a: None,
        };
        match sec {
            "t1" => {
                if let Some((lvl, 0)) = parse_fence(name) {
                    cells.push(cell(
                        "1 warp, no store",
                        name.to_string(),
                        Scenario::Loop {
                            level: lvl,
                            stores: 0,
                            fencers: 1,
                            storers: 0,
                            store_pace: 0,
                        },
                        true,
                    ));
                }
            }
            "t2dev" => {
                if let Some((lvl, 0)) = parse_fence(name) {
                    cells.push(cell(
                        "1 warp, S stores then the fence",
                        format!("S={stores:<2} {name}"),
                        Scenario::Loop {
                            level: lvl,
                            stores,
                            fencers: 1,
                            storers: 0,
                            store_pace: 0,
                        },
                        true,
                    ));
                }
            }
            "t3cta" => {
                if let Some((lvl, st)) = parse_fence(name) {
                    cells.push(cell(
                        "k warps of one CTA looping (stores +) fence",
                        format!("k={k:<2} {name}"),
                        Scenario::Loop {
                            level: lvl,
                            stores: st,
                            fencers: k,
                            storers: 0,
                            store_pace: 0,
                        },
                        true,
                    ));
                }
            }
            "t3mixed" => {
                // "w0:fence.sc.gpu|others:st pace0": warp 0 fences, k-1 warps store.
                let Some((w0, others)) = name.split_once('|') else {
                    continue;
                };
                let Some(f) = w0.strip_prefix("w0:") else {
                    continue;
                };
                let Some((lvl, 0)) = parse_fence(f) else {
                    continue;
                };
                let pace: u32 = others
                    .rsplit("pace")
                    .next()
                    .and_then(|p| p.parse().ok())
                    .unwrap_or(0);
                cells.push(cell(
                    "warp 0 fences while k-1 warps store",
                    format!("k={k:<2} {f}, stores pace {pace}"),
                    Scenario::Loop {
                        level: lvl,
                        stores: 0,
                        fencers: 1,
                        storers: k - 1,
                        store_pace: pace,
                    },
                    true,
                ));
            }
            "t5mask" => {
                let base = name.split(" [").next().unwrap_or(name);
                if let Some((lvl, st)) = parse_fence(base) {
                    let mask =
                        u64::from_str_radix(r[c_mask].trim_start_matches("0x"), 16).unwrap_or(1);
                    let n = mask.count_ones();
                    cells.push(cell(
                        "which warps fence (placement not modelled)",
                        name.to_string(),
                        Scenario::Loop {
                            level: lvl,
                            stores: st,
                            fencers: n.max(1),
                            storers: 0,
                            store_pace: 0,
                        },
                        false,
                    ));
                }
            }
            _ => {}
        }
    }

    // ---- <gpu>_pairs.csv: A fences, B fences Δ later (2-warp CTA rows) ----
    let t = Table::load(&dir.join(format!("{gpu}_pairs.csv")))?;
    let (c_f, c_cw, c_d, c_b, c_dd) = (
        t.col("fence")?,
        t.col("cta_warps")?,
        t.col("B_issue_minus_A_issue_med")?,
        t.col("B_lat_med")?,
        t.col("B_done_minus_A_done_med")?,
    );
    for (line, r) in &t.rows {
        let Some((lvl, st)) = parse_fence(&r[c_f]) else {
            continue;
        };
        if r[c_cw] != "2" {
            continue;
        }
        let d = t.num(*line, r, c_d)? as i64;
        cells.push(Cell {
            group: "pairs: B fences Δ cycles after A (B's latency)".into(),
            label: format!("{} Δ={d}", r[c_f]),
            measured: t.num(*line, r, c_b)?,
            scenario: Scenario::Offsets {
                level: lvl,
                stores: st,
                offsets: vec![0, d],
            },
            metric: Metric::WarpLatency(1),
            source: format!("{}:{line}", t.file),
            goal: true,
            done_vs_a: Some(t.num(*line, r, c_dd)?),
        });
    }

    // ---- <gpu>_groups.csv: 2-4 warps at chosen offsets ----
    let t = Table::load(&dir.join(format!("{gpu}_groups.csv")))?;
    let (c_f, c_cfg, c_w, c_iss, c_lat, c_dd) = (
        t.col("fence")?,
        t.col("config")?,
        t.col("warp")?,
        t.col("issue_minus_A_med")?,
        t.col("lat_med")?,
        t.col("done_minus_A_med")?,
    );
    let mut order: Vec<(String, String)> = Vec::new();
    // (line, warp, issue offset, latency, done minus A's) per (fence, config).
    type GroupRow = (usize, usize, i64, f64, f64);
    let mut groups: HashMap<(String, String), Vec<GroupRow>> = HashMap::new();
    for (line, r) in &t.rows {
        let key = (r[c_f].clone(), r[c_cfg].clone());
        if !groups.contains_key(&key) {
            order.push(key.clone());
        }
        let w = t.num(*line, r, c_w)? as usize;
        groups.entry(key).or_default().push((
            *line,
            w,
            t.num(*line, r, c_iss)? as i64,
            t.num(*line, r, c_lat)?,
            t.num(*line, r, c_dd)?,
        ));
    }
    for key in order {
        let Some((lvl, st)) = parse_fence(&key.0) else {
            continue;
        };
        let mut rows = groups.remove(&key).unwrap_or_default();
        rows.sort_by_key(|x| x.1);
        let offsets: Vec<i64> = rows.iter().map(|x| x.2).collect();
        for (line, w, iss, lat, dd) in rows {
            cells.push(Cell {
                group: "groups: warps fencing at chosen offsets (each warp's latency)".into(),
                label: format!(
                    "{} {} warp {} at {iss:+}",
                    key.0,
                    key.1,
                    (b'A' + w as u8) as char
                ),
                measured: lat,
                scenario: Scenario::Offsets {
                    level: lvl,
                    stores: st,
                    offsets: offsets.clone(),
                },
                metric: Metric::WarpLatency(w),
                source: format!("{}:{line}", t.file),
                goal: true,
                done_vs_a: Some(dd),
            });
        }
    }
    Ok(cells)
}

// ---------------------------------------------------------------------------
// Evaluation
// ---------------------------------------------------------------------------

/// Model vs measured for one cell.
#[derive(Clone, Debug)]
pub struct CellResult {
    pub model: f64,
    /// (model - measured) / measured.
    pub error: f64,
}

impl CellResult {
    pub fn within(&self, tol: f64) -> bool {
        self.error.abs() <= tol
    }
}

/// The model's number for a cell from its scenario's result.
pub fn cell_value(c: &Cell, r: &ScenarioResult) -> f64 {
    match c.metric {
        Metric::MedianAll => r.median_all(),
        Metric::WarpLatency(w) => r.warp_median(w),
    }
}

/// Distinct scenarios of `cells`, in first-use order.
pub fn distinct_scenarios(cells: &[Cell]) -> Vec<Scenario> {
    let mut v: Vec<Scenario> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for c in cells {
        if seen.insert(c.scenario.clone()) {
            v.push(c.scenario.clone());
        }
    }
    v
}

/// Evaluate every cell given each distinct scenario's result.
pub fn evaluate_with(
    cells: &[Cell],
    results: &HashMap<Scenario, ScenarioResult>,
) -> Vec<CellResult> {
    cells
        .iter()
        .map(|c| {
            let model = results.get(&c.scenario).map_or(0.0, |r| cell_value(c, r));
            CellResult {
                model,
                error: (model - c.measured) / c.measured.max(1.0),
            }
        })
        .collect()
}

/// Run every distinct scenario (sequentially) and evaluate every cell.
pub fn evaluate(p: &Preset, cells: &[Cell], seed: u64) -> Result<Vec<CellResult>, String> {
    let mut results = HashMap::new();
    for s in distinct_scenarios(cells) {
        let r = run_scenario(p, &s, seed)?;
        results.insert(s, r);
    }
    Ok(evaluate_with(cells, &results))
}

/// Summary of an evaluation: cells, cells within `tol`, goal cells and goal
/// cells within `tol`, largest absolute error of goal cells.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    pub cells: usize,
    pub within: usize,
    pub goal_cells: usize,
    pub goal_within: usize,
    pub max_goal_error: f64,
    pub mean_abs_error: f64,
    /// The tolerance the cells were judged against (fraction, 0.2 = ±20 %).
    pub tolerance: f64,
}

pub fn summarize(cells: &[Cell], res: &[CellResult], tol: f64) -> Summary {
    let mut s = Summary {
        cells: cells.len(),
        tolerance: tol,
        ..Summary::default()
    };
    let mut sum = 0.0;
    for (c, r) in cells.iter().zip(res) {
        sum += r.error.abs();
        if r.within(tol) {
            s.within += 1;
        }
        if c.goal {
            s.goal_cells += 1;
            if r.within(tol) {
                s.goal_within += 1;
            }
            s.max_goal_error = s.max_goal_error.max(r.error.abs());
        }
    }
    s.mean_abs_error = if cells.is_empty() {
        0.0
    } else {
        sum / cells.len() as f64
    };
    s
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} of {} goal cells within ±{} % (largest goal error {:+.1} %); {} of {} cells in all; mean |error| {:.1} %",
            self.goal_within,
            self.goal_cells,
            self.tolerance * 100.0,
            self.max_goal_error * 100.0,
            self.within,
            self.cells,
            self.mean_abs_error * 100.0
        )
    }
}

// ---------------------------------------------------------------------------
// Fitting
// ---------------------------------------------------------------------------

/// The measured lone latency of a level (the `1 warp, no store` cell).
pub fn lone_target(cells: &[Cell], lvl: u8) -> Option<f64> {
    cells
        .iter()
        .find(|c| c.group.starts_with("1 warp, no store") && c.scenario.level() == lvl)
        .map(|c| c.measured)
}

/// The measured spacing of back-to-back completions at a level: the median
/// of B's completion minus A's over the two-warp pairs and groups where B
/// (no stores) was issued at least 40 cycles after A, before A completed, and
/// was delayed by it (B took longer than a lone fence); and the smallest such
/// Δ (the probe [`fit`] simulates).
pub fn spacing_target(cells: &[Cell], lvl: u8, lone: f64) -> Option<(f64, i64)> {
    let mut v: Vec<u64> = Vec::new();
    let mut probe = i64::MAX;
    for c in cells {
        if let (
            Scenario::Offsets {
                level: l,
                stores: 0,
                offsets,
            },
            Metric::WarpLatency(1),
            Some(dd),
        ) = (&c.scenario, c.metric, c.done_vs_a)
        {
            if *l == lvl && offsets.len() == 2 {
                let d = (offsets[1] - offsets[0]) as f64;
                if d >= 40.0 && d < lone && c.measured > lone * 1.02 + 5.0 {
                    v.push(dd.max(0.0) as u64);
                    probe = probe.min(d as i64);
                }
            }
        }
    }
    (!v.is_empty()).then(|| (median(&v) as f64, probe))
}

/// Fit the per-level memory-system latencies and SM overheads of `p` to the
/// cells (the unit configuration and the SM issue parameters are kept):
///
/// 1. per GL/SYS: the barrier latency so that a barrier sent right after its
///    predecessor's release completes the measured spacing after it (the
///    unit's `max_outstanding: 1` serialises the rest), then the SM overhead
///    so that a lone fence takes the measured time;
/// 2. CTA: the SM overhead of a lone `fence.sc.cta`.
///
/// Returns the fitted preset and a log of what was derived.
pub fn fit(p: &Preset, cells: &[Cell], seed: u64) -> Result<(Preset, Vec<String>), String> {
    let mut q = p.clone();
    let mut log = Vec::new();
    let lone_model = |q: &Preset, lvl: u8| -> Result<f64, String> {
        Ok(run_scenario(
            q,
            &Scenario::Loop {
                level: lvl,
                stores: 0,
                fencers: 1,
                storers: 0,
                store_pace: 0,
            },
            seed,
        )?
        .median_all())
    };
    for lvl in [level::GL, level::SYS] {
        let Some(lone) = lone_target(cells, lvl) else {
            continue;
        };
        if let Some((sp, probe)) = spacing_target(cells, lvl, lone) {
            // Simulate the pair with the smallest delayed Δ: B waits behind A.
            for _ in 0..4 {
                let r = run_scenario(
                    &q,
                    &Scenario::Offsets {
                        level: lvl,
                        stores: 0,
                        offsets: vec![0, probe],
                    },
                    seed,
                )?;
                let got = r.done_vs_a_median(1) - r.done_vs_a_median(0);
                let cur = q.mmu.bar_latency(lvl).min as f64;
                let new = (cur + sp - got).round().max(0.0) as u32;
                let range = CycleRange::fixed(new);
                if lvl == level::GL {
                    q.mmu.gl_bar_latency = range;
                } else {
                    q.mmu.sys_bar_latency = range;
                }
            }
            log.push(format!(
                "{}: back-to-back completions {sp} cycles apart (pair probe Δ = {probe}) -> mmu.{}_bar_latency {}",
                level::NAMES[lvl as usize],
                level::NAMES[lvl as usize].to_lowercase(),
                q.mmu.bar_latency(lvl)
            ));
        }
        for _ in 0..2 {
            let got = lone_model(&q, lvl)?;
            let o = (q.sm.overhead[lvl as usize] as f64 + lone - got)
                .round()
                .max(0.0) as u32;
            q.sm.overhead[lvl as usize] = o;
        }
        log.push(format!(
            "{}: lone fence {lone} cycles -> sm.overhead.{} {}",
            level::NAMES[lvl as usize],
            LEVEL_KEYS[lvl as usize],
            q.sm.overhead[lvl as usize]
        ));
    }
    if let Some(lone) = lone_target(cells, level::CTA) {
        let got = lone_model(&q, level::CTA)?;
        let o = (q.sm.overhead[0] as f64 + lone - got).round().max(0.0) as u32;
        q.sm.overhead[0] = o;
        q.sm.overhead[1] = o;
        log.push(format!(
            "CTA: lone fence {lone} cycles -> sm.overhead.cta {o}"
        ));
    }
    Ok((q, log))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn preset() -> Preset {
        Preset {
            name: "t".into(),
            unit: Config {
                ways: 32,
                coalesce_window: 24,
                lone_window: 24,
                gl_bar_ack: true,
                ..Config::default()
            },
            mmu: MmuSpec {
                ready_prob: 1.0,
                txn_latency: CycleRange::fixed(40),
                inval_latency: CycleRange::fixed(4),
                gl_bar_latency: CycleRange::fixed(450),
                sys_bar_latency: CycleRange::fixed(800),
                vc_bar_latency: CycleRange::fixed(10),
                ..MmuSpec::default()
            },
            sm: SmSpec::default(),
        }
    }

    #[test]
    fn preset_yaml_roundtrip_and_errors() {
        let p = preset();
        let text = p.to_yaml();
        assert_eq!(Preset::from_yaml_str(&text, "p.yaml").unwrap(), p, "{text}");
        let e = Preset::from_yaml_str("name: x\nunit: {ways: 99}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("p.yaml") && e.contains("unit.ways") && e.contains("99"),
            "{e}"
        );
        let e = Preset::from_yaml_str("name: x\nsm: {overhead: {gpu: 3}}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("sm.overhead.gpu") && e.contains("cta, vc, gl, sys"),
            "{e}"
        );
        let e = Preset::from_yaml_str("name: x\nsm: {fence_issue_gap: 0}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("sm.fence_issue_gap") && e.contains("1..=1000"),
            "{e}"
        );
        let e = Preset::from_yaml_str("name: x\nmmu: {gl_bar_latncy: 3}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("mmu.gl_bar_latncy") && e.contains("unknown key"),
            "{e}"
        );
        let e = Preset::from_yaml_str("unit: {}\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("name"), "{e}");
        let e = Preset::from_yaml_str("name: x\nextra: 1\n", "p.yaml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("extra") && e.contains("name, unit, mmu, sm"),
            "{e}"
        );
    }

    /// A lone fence: unit latency + overhead; the model is deterministic here.
    #[test]
    fn lone_fence_latency_is_window_pipeline_barrier_overhead() {
        let p = preset();
        let r = run_scenario(
            &p,
            &Scenario::Loop {
                level: level::GL,
                stores: 0,
                fencers: 1,
                storers: 0,
                store_pace: 0,
            },
            1,
        )
        .unwrap();
        let lat = r.median_all() as u64;
        // window 24 + close/INVAL/BARRIER/release pipeline + 450 + overhead 180.
        assert!(
            (24 + 450 + 180..24 + 450 + 180 + 12).contains(&lat),
            "{lat}"
        );
        assert!(
            r.latencies[0].iter().all(|&x| x == lat),
            "deterministic: {:?}",
            r.latencies[0]
        );
    }

    /// Fences waiting behind an outstanding barrier all join the next one;
    /// fences within the window share one completion.
    #[test]
    fn combining_comes_from_the_unit() {
        let p = preset();
        // Within the window: one completion.
        let r = run_scenario(
            &p,
            &Scenario::Offsets {
                level: level::GL,
                stores: 0,
                offsets: vec![0, 10],
            },
            1,
        )
        .unwrap();
        assert_eq!(r.done_vs_a_median(0), r.done_vs_a_median(1));
        // Behind the outstanding barrier: 3 late fences share the next completion.
        let r = run_scenario(
            &p,
            &Scenario::Offsets {
                level: level::GL,
                stores: 0,
                offsets: vec![0, 153, 270, 426],
            },
            1,
        )
        .unwrap();
        let a = r.done_vs_a_median(0);
        let (b, c, d) = (
            r.done_vs_a_median(1),
            r.done_vs_a_median(2),
            r.done_vs_a_median(3),
        );
        assert!(b == c && c == d && b > a, "{a} {b} {c} {d}");
        // 2 BARRIERs per round (4 rounds).
        assert_eq!(r.barriers, 2 * OFFSET_ROUNDS as u64);
    }
}
