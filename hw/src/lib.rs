use rust_hdl::prelude::*; pub fn _p() -> Bits<4> { 0.into() }
