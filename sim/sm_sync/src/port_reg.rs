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

use crate::encode::Instr;
use crate::ports::Inputs;

/// The register: the warp and instruction presented in the previous cycle,
/// if any (the fields of [`Instr`], the one encoding of the port).
pub type PortReg = Option<(u8, Instr)>;

/// The register after the edge: the port's instruction when `in_valid`,
/// nothing in reset.
pub fn next(reset: bool, i: &Inputs) -> PortReg {
    (!reset && i.in_valid).then(|| Instr::on_port(i))
}

/// `i` with the decoder's instruction in place of the port's: `r`'s, or
/// none (`in_valid` low, the other fields kept).
pub fn at_decoder(r: Option<&(u8, Instr)>, i: &Inputs) -> Inputs {
    let mut d = *i;
    d.in_valid = false;
    if let Some((w, x)) = r {
        x.drive(*w, &mut d);
    }
    d
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
        assert_eq!(r, Some(Instr::on_port(&i)));
        let seen = at_decoder(r.as_ref(), &Inputs::default());
        assert!(seen.in_valid && seen.in_warp == 3 && seen.in_unit == 2 && seen.in_op == 7);
        assert_eq!(seen.in_count, 9);
        assert_eq!(next(true, &i), None);
        i.in_valid = false;
        assert_eq!(next(false, &i), None);
        assert!(!at_decoder(None, &i).in_valid);
    }
}
