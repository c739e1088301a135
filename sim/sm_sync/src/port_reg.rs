//! The registered instruction port (`spec/sm_sync.md`, "Registered
//! instruction port"), the model twin of `hw/sm_sync/src/port_reg.rs`.
//!
//! The instruction presented in a cycle is registered at its edge and
//! reaches the decoder in the next cycle, where its unit takes it or
//! refuses it as without the register; `in_ready` in that next cycle says
//! which. A refused instruction is not kept: warp issue presents it again
//! (or withdraws it), as it does without the register. So the register
//! never holds an instruction that waits (a blocked warp's, which its unit
//! refuses until the warp is released, would otherwise hold the port
//! against the arrivals that release it), every instruction leaves it in
//! one cycle, and no input of the port reaches a unit, nor `in_ready`, in
//! the cycle it is presented. Reset empties it.

use crate::ports::Inputs;

/// The instruction fields of the port (everything `in_*` but the handshake).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Instr {
    pub warp: u8,
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
    /// The fields `i` presents.
    pub fn of(i: &Inputs) -> Instr {
        Instr {
            warp: i.in_warp,
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
        }
    }

    /// `i` presenting `x` (or nothing: `in_valid` low, the fields kept).
    pub fn present(x: Option<&Instr>, i: &Inputs) -> Inputs {
        let mut i = *i;
        i.in_valid = x.is_some();
        if let Some(x) = x {
            i.in_warp = x.warp;
            i.in_unit = x.unit;
            i.in_op = x.op;
            i.in_id = x.id;
            i.in_level = x.level;
            i.in_ivall = x.ivall;
            i.in_all = x.all;
            i.in_count = x.count;
            i.in_tx = x.tx;
            i.in_parity = x.parity;
            i.in_pred = x.pred;
        }
        i
    }
}

/// The register: the instruction presented in the previous cycle, if any.
pub type PortReg = Option<Instr>;

/// The register after the edge: the port's instruction when `in_valid`,
/// nothing in reset.
pub fn next(reset: bool, i: &Inputs) -> PortReg {
    (!reset && i.in_valid).then(|| Instr::of(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The register takes what is presented, drops nothing into a later
    /// cycle, and is empty after reset or an idle cycle.
    #[test]
    fn registers_the_presented_instruction_for_one_cycle() {
        let mut i = Inputs {
            in_valid: true,
            in_warp: 3,
            in_unit: 2,
            in_op: 7,
            in_count: 9,
            ..Default::default()
        };
        let r = next(false, &i);
        assert_eq!(r, Some(Instr::of(&i)));
        let seen = Instr::present(r.as_ref(), &Inputs::default());
        assert!(seen.in_valid && seen.in_warp == 3 && seen.in_unit == 2 && seen.in_op == 7);
        assert_eq!(seen.in_count, 9);
        assert_eq!(next(true, &i), None);
        i.in_valid = false;
        assert_eq!(next(false, &i), None);
        assert!(!Instr::present(None, &i).in_valid);
    }
}
