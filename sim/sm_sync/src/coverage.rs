//! Functional coverage of `sm_sync`, from the ports only. Bins:
//! - `op.<unit>.<op>`: each op of each unit accepted (23 bins);
//! - `refused.unit`, `refused.op.<unit>`: reserved unit codes and each
//!   unit's reserved op codes refused;
//! - `backpressure.<unit>`: an instruction held (`in_valid && !in_ready`)
//!   for membar and async groups (the units that can hold one);
//! - `blocked.<unit>`: some warp blocked in that unit (attributed to the
//!   unit of the warp's last accepted instruction); `blocked.2_units`,
//!   `blocked.3_units`: warps blocked in that many units at once;
//! - `release.<unit>`, `release.2_units_same_cycle`;
//! - `err.<source>` for each `err_src` bit;
//! - `dn.txn`, `dn.barrier`, `reset.mid_run`, `ctl.exit`, `ctx`, `rarv`;
//! - with a registered instruction port, `port.refused_again`: an
//!   instruction refused by its unit presented again and taken.
//!
//! With a registered port, the instruction a cycle's `in_ready` answers
//! for is the one presented in the previous cycle: the bins above read it.

use crate::config::Config;
use crate::encode::Instr;
use crate::port_reg::{self, at_decoder};
use crate::ports::{unit, Inputs, Outputs, SmSyncPorts};
use std::collections::BTreeMap;
use unit_ports::lockstep::Observer;

pub struct Coverage {
    warps: u32,
    hits: BTreeMap<String, u64>,
    /// Unit of each warp's last accepted instruction.
    last_unit: Vec<Option<u8>>,
    prev_blocked: u64,
    seen_run: bool,
    registered_port: bool,
    /// Registered port: the instruction presented in the previous cycle,
    /// and the last one refused.
    prev: Option<(u8, Instr)>,
    refused_last: Option<(u8, Instr)>,
}

impl Coverage {
    pub fn new(cfg: &Config) -> Coverage {
        let warps = cfg.warps();
        let mut hits = BTreeMap::new();
        for (u, n) in unit::NAMES.iter().zip(unit::OPS) {
            for op in 0..n {
                hits.insert(format!("op.{u}.{op}"), 0);
            }
            hits.insert(format!("refused.op.{u}"), 0);
            hits.insert(format!("blocked.{u}"), 0);
            hits.insert(format!("release.{u}"), 0);
            hits.insert(format!("err.{u}"), 0);
        }
        for b in [
            "refused.unit",
            "backpressure.membar",
            "backpressure.async_groups",
            "blocked.2_units",
            "blocked.3_units",
            "release.2_units_same_cycle",
            "err.decoder",
            "dn.txn",
            "dn.barrier",
            "reset.mid_run",
            "ctl.exit",
            "ctx",
            "rarv",
        ] {
            hits.insert(b.to_string(), 0);
        }
        if cfg.registered_port {
            hits.insert("port.refused_again".to_string(), 0);
        }
        Coverage {
            warps,
            hits,
            last_unit: vec![None; warps as usize],
            prev_blocked: 0,
            seen_run: false,
            registered_port: cfg.registered_port,
            prev: None,
            refused_last: None,
        }
    }

    fn hit(&mut self, bin: &str) {
        *self
            .hits
            .get_mut(bin)
            .unwrap_or_else(|| panic!("no bin {bin}")) += 1;
    }

    /// Bins never hit.
    pub fn missing(&self) -> Vec<&str> {
        self.hits
            .iter()
            .filter(|(_, &n)| n == 0)
            .map(|(b, _)| b.as_str())
            .collect()
    }

    /// `bin hits` lines.
    pub fn report(&self) -> String {
        self.hits
            .iter()
            .map(|(b, n)| format!("{b:<32} {n}"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn bins(&self) -> usize {
        self.hits.len()
    }

    fn units_of(&self, mask: u64) -> [bool; 4] {
        let mut u = [false; 4];
        for w in 0..self.warps as usize {
            if mask >> w & 1 == 1 {
                if let Some(k) = self.last_unit[w] {
                    u[k as usize] = true;
                }
            }
        }
        u
    }
}

impl Observer<SmSyncPorts> for Coverage {
    fn observe(&mut self, _cycle: u64, port: &Inputs, o: &Outputs) -> Result<(), String> {
        let i = if self.registered_port {
            let prev = std::mem::replace(&mut self.prev, port_reg::next(port.reset, port));
            at_decoder(prev.as_ref(), port)
        } else {
            *port
        };
        if i.reset {
            if self.seen_run {
                self.hit("reset.mid_run");
            }
            self.last_unit.iter_mut().for_each(|u| *u = None);
            self.prev_blocked = 0;
            self.refused_last = None;
            return Ok(());
        }
        self.seen_run = true;
        if self.registered_port && i.in_valid {
            let x = Instr::on_port(&i);
            if !o.in_ready {
                self.refused_last = Some(x);
            } else if self.refused_last == Some(x) {
                self.hit("port.refused_again");
                self.refused_last = None;
            }
        }
        if i.in_valid {
            let refused = unit::refused(i.in_unit, i.in_op);
            if o.in_ready {
                if i.in_unit > unit::ASYNC {
                    self.hit("refused.unit");
                } else {
                    let name = unit::NAMES[i.in_unit as usize];
                    if refused {
                        self.hit(&format!("refused.op.{name}"));
                    } else {
                        self.hit(&format!("op.{name}.{}", i.in_op));
                        self.last_unit[i.in_warp as usize] = Some(i.in_unit);
                    }
                }
            } else if i.in_unit == unit::MEMBAR {
                self.hit("backpressure.membar");
            } else if i.in_unit == unit::ASYNC {
                self.hit("backpressure.async_groups");
            }
        }
        let b = self.units_of(o.warp_blocked);
        for (k, name) in unit::NAMES.iter().enumerate() {
            if b[k] {
                self.hit(&format!("blocked.{name}"));
            }
        }
        let nb = b.iter().filter(|&&x| x).count();
        if nb >= 2 {
            self.hit("blocked.2_units");
        }
        if nb >= 3 {
            self.hit("blocked.3_units");
        }
        let r = self.units_of(o.release_mask);
        for (k, name) in unit::NAMES.iter().enumerate() {
            if r[k] {
                self.hit(&format!("release.{name}"));
            }
        }
        if r.iter().filter(|&&x| x).count() >= 2 {
            self.hit("release.2_units_same_cycle");
        }
        for (bit, name) in ["membar", "bar", "mbarrier", "async_groups", "decoder"]
            .iter()
            .enumerate()
        {
            if o.err_src >> bit & 1 == 1 {
                self.hit(&format!("err.{name}"));
            }
        }
        if o.dn_valid && i.dn_ready {
            match o.dn_kind {
                0 => self.hit("dn.txn"),
                2 => self.hit("dn.barrier"),
                _ => {}
            }
        }
        if i.ctl_valid && i.ctl_op == 1 {
            self.hit("ctl.exit");
        }
        if i.ctx_valid {
            self.hit("ctx");
        }
        if i.rarv_valid {
            self.hit("rarv");
        }
        self.prev_blocked = o.warp_blocked;
        Ok(())
    }
}
