//! The RTL decoder takes the one encoding of `sm_sync_model::ports::unit`
//! (unit codes and each unit's op count, the constants `encode` and the
//! model's `route` use): for every `in_unit` × `in_op` the rust-hdl
//! `Decoder` selects the unit and refuses exactly as `unit::refused` says.

use rust_hdl::prelude::*;
use sm_sync_model::ports::unit;
use sm_sync_rtl::decoder::Decoder;

#[test]
fn rtl_decoder_matches_the_encoding_for_every_unit_and_op() {
    let mut d = Decoder::default();
    d.connect_all();
    let mut checked = 0;
    for u in 0u8..8 {
        for op in 0u8..16 {
            d.reset.next = false;
            d.in_valid.next = true;
            d.in_unit.next = (u as u64).into();
            d.in_op.next = (op as u64).into();
            assert!(simulate(&mut d, 100), "decoder settles");
            let refused = unit::refused(u, op);
            assert_eq!(d.refused.val(), refused, "unit {u} op {op}");
            assert_eq!(d.flag.val(), refused, "unit {u} op {op}");
            let sel = [
                d.to_membar.val(),
                d.to_bar.val(),
                d.to_mb.val(),
                d.to_ag.val(),
            ];
            for (k, s) in sel.iter().enumerate() {
                assert_eq!(
                    *s,
                    !refused && u as usize == k,
                    "unit {u} op {op} select {k}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 128);
    assert_eq!(unit::NAMES.len(), unit::OPS.len());
}
