//! The one encoding of lowered operations on `sm_sync`'s decoded-instruction
//! port (`spec/sm_sync.md` §Decode): [`encode`] maps one lowered op of the
//! PTX front end (`ptx_front::lower::Lowered`, the sm_90 lowering table) to
//! the port's fields, using the units' own op-code constants. Everything
//! that puts a PTX operation on the port uses it: the PTX executor
//! (`sm_exec`), the random instruction streams (`stream.rs`) and, through
//! the same constants (`ports::unit`), the RTL decoder.

use crate::ports::{unit, Inputs};
use bar_unit_model::ports::op as bop;
use mbarrier_unit_model::ports::async_groups::op as agop;
use mbarrier_unit_model::ports::mbarrier::op as mbop;
use membar_unit_model::ports::{level as mlevel, op as mop};
use ptx_front::lower::{Arg, BarOp, GroupOp, Ivall, Level, Lowered, MbOp, TxnOp};

/// The decoded-instruction fields of one instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Instr {
    pub unit: u8,
    pub op: u8,
    pub id: u16,
    pub level: u8,
    pub ivall: u8,
    pub all: bool,
    pub count: u32,
    pub tx: u32,
    pub parity: bool,
    pub pred: u32,
}

impl Instr {
    /// The warp and the instruction `i` presents (whatever `in_valid`).
    pub fn on_port(i: &Inputs) -> (u8, Instr) {
        (
            i.in_warp,
            Instr {
                unit: i.in_unit,
                op: i.in_op,
                id: i.in_id,
                level: i.in_level,
                ivall: i.in_ivall,
                all: i.in_all,
                count: i.in_count,
                tx: i.in_tx,
                parity: i.in_parity,
                pred: i.in_pred,
            },
        )
    }

    /// Put the instruction on the port for warp `w`.
    pub fn drive(&self, w: u8, i: &mut Inputs) {
        i.in_valid = true;
        i.in_warp = w;
        i.in_unit = self.unit;
        i.in_op = self.op;
        i.in_id = self.id;
        i.in_level = self.level;
        i.in_ivall = self.ivall;
        i.in_all = self.all;
        i.in_count = self.count;
        i.in_tx = self.tx;
        i.in_parity = self.parity;
        i.in_pred = self.pred;
    }
}

/// The value of an immediate operand.
pub fn imm(a: &Arg) -> Option<i64> {
    match a {
        Arg::Imm(v) => Some(*v),
        _ => None,
    }
}

/// The instruction a lowered op puts on the port (operands must be
/// immediates; `entry` is the mbarrier entry the address maps to), or
/// `None` for ops no unit of `sm_sync` executes on this port (cluster
/// barrier, proxy fences, ALU, exit, bulk copies, a lone invalidate, a
/// remote mbarrier arrive — that one arrives on `rarv_*`, as in `sm_exec`).
pub fn encode(op: &Lowered, entry: u8) -> Option<Instr> {
    Some(match op {
        Lowered::Membar { level, ivall } => Instr {
            unit: unit::MEMBAR,
            op: mop::MEMBAR,
            level: level_code(*level),
            ivall: ivall_code(*ivall),
            ..Default::default()
        },
        Lowered::Txn { op, space } => Instr {
            unit: unit::MEMBAR,
            op: match op {
                TxnOp::Ld => mop::LD,
                TxnOp::St => mop::ST,
                TxnOp::Atom => mop::ATOM,
                TxnOp::Red => mop::RED,
            },
            id: imm(space).unwrap_or(0) as u16,
            ..Default::default()
        },
        Lowered::Bar { op, id, count } => {
            let (all, c) = match count {
                Arg::All | Arg::Absent => (true, 0),
                a => (false, (imm(a).unwrap_or(0) / 32) as u32),
            };
            Instr {
                unit: unit::BAR,
                op: match op {
                    BarOp::Sync => bop::SYNC,
                    BarOp::Arrive => bop::ARRIVE,
                    BarOp::RedPopc => bop::RED_POPC,
                    BarOp::RedAnd => bop::RED_AND,
                    BarOp::RedOr => bop::RED_OR,
                },
                id: imm(id).unwrap_or(0) as u16,
                all,
                count: c,
                ..Default::default()
            }
        }
        Lowered::Mbarrier {
            op: MbOp::Arrive | MbOp::ArriveDrop,
            remote: true,
            ..
        } => return None,
        Lowered::Mbarrier { op, arg, .. } => {
            let v = imm(arg);
            let mut x = Instr {
                unit: unit::MBARRIER,
                op: mb_code(*op),
                id: entry as u16,
                count: 1,
                ..Default::default()
            };
            match op {
                MbOp::Init | MbOp::Arrive | MbOp::ArriveDrop => x.count = v.unwrap_or(1) as u32,
                MbOp::ArriveExpectTx | MbOp::ExpectTx | MbOp::CompleteTx => {
                    x.tx = v.unwrap_or(0) as u32
                }
                MbOp::TestWait | MbOp::TryWait => x.parity = v.unwrap_or(0) & 1 != 0,
                MbOp::Inval => {}
            }
            x
        }
        Lowered::AsyncGroup { op, arg } => Instr {
            unit: unit::ASYNC,
            op: match op {
                GroupOp::Issue => agop::BULK,
                GroupOp::Commit => agop::COMMIT,
                GroupOp::Wait => agop::WAIT,
                GroupOp::WaitRead => agop::WAIT_READ,
            },
            count: imm(arg).unwrap_or(0) as u32,
            ..Default::default()
        },
        _ => return None,
    })
}

/// membar `req_level` of a PTX level.
pub fn level_code(l: Level) -> u8 {
    match l {
        Level::Cta => mlevel::CTA,
        Level::Vc => mlevel::VC,
        Level::Gl => mlevel::GL,
        Level::Sys => mlevel::SYS,
    }
}

/// membar `req_ivall` of fused invalidates (bit 0 IVALLD, bit 1 IVALLT).
pub fn ivall_code(i: Ivall) -> u8 {
    match i {
        Ivall::None => 0,
        Ivall::D => 1,
        Ivall::T => 2,
        Ivall::TD => 3,
    }
}

/// mbarrier `op_code` of an mbarrier op.
pub fn mb_code(op: MbOp) -> u8 {
    match op {
        MbOp::Init => mbop::INIT,
        MbOp::Inval => mbop::INVAL,
        MbOp::Arrive => mbop::ARRIVE,
        MbOp::ArriveDrop => mbop::ARRIVE_DROP,
        MbOp::ArriveExpectTx => mbop::ARRIVE_EXPECT_TX,
        MbOp::ExpectTx => mbop::EXPECT_TX,
        MbOp::CompleteTx => mbop::COMPLETE_TX,
        MbOp::TestWait => mbop::TEST_WAIT,
        MbOp::TryWait => mbop::TRY_WAIT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mbarrier_op_has_its_units_code() {
        // The codes are the unit's own constants, in the unit's order.
        for (k, name) in mbarrier_unit_model::ports::mbarrier::op::NAMES
            .iter()
            .enumerate()
        {
            let op = [
                MbOp::Init,
                MbOp::Inval,
                MbOp::Arrive,
                MbOp::ArriveDrop,
                MbOp::ArriveExpectTx,
                MbOp::ExpectTx,
                MbOp::CompleteTx,
                MbOp::TestWait,
                MbOp::TryWait,
            ][k];
            assert_eq!(mb_code(op) as usize, k, "{name}");
        }
    }

    #[test]
    fn ops_of_each_unit_stay_below_the_decoders_limit() {
        let l = Lowered::Membar {
            level: Level::Sys,
            ivall: Ivall::TD,
        };
        let i = encode(&l, 0).unwrap();
        assert!(i.op < unit::OPS[unit::MEMBAR as usize] && !unit::refused(i.unit, i.op));
        assert_eq!((i.level, i.ivall), (mlevel::SYS, 3));
        let b = encode(
            &Lowered::Bar {
                op: BarOp::RedOr,
                id: Arg::Imm(3),
                count: Arg::Imm(64),
            },
            0,
        )
        .unwrap();
        assert_eq!(
            (b.unit, b.op, b.id, b.all, b.count),
            (unit::BAR, bop::RED_OR, 3, false, 2)
        );
        assert!(!unit::refused(b.unit, b.op));
    }
}
