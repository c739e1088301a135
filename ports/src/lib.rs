//! unit-ports: a unit's ports are declared once, here-shaped, and everything
//! that needs the port list is generated from that declaration.
//!
//! A unit's model crate holds one declaration, written as a macro that hands
//! its tokens to a callback (so other crates can expand the same list their
//! own way):
//!
//! ```text
//! #[macro_export]
//! macro_rules! my_unit_ports {
//!     ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
//!         unit MyUnit, module "my_unit", config Config, inputs Inputs, outputs Outputs;
//!         |cfg| [
//!             clock: clock bool = 1,
//!             /// Synchronous reset.
//!             reset: input bool = 1,
//!             /// Which warp.
//!             req_warp: input u8 = cfg.warp_bits(),
//!             req_ready: output bool = 1,
//!         ]
//!     } };
//! }
//! my_unit_ports!(unit_ports::declare_ports);
//! ```
//!
//! [`declare_ports!`] turns it into the `Inputs`/`Outputs` structs (one field
//! per port, the port's name), their [`PortBundle`] impls (values by index,
//! `describe`, `first_difference`, masking to the configured widths), and a
//! marker type implementing [`Unit`] whose [`Unit::ports`] is the port table
//! (name, direction, width as a function of the configuration) in declaration
//! order. From that table: [`verilog_wrapper`] (the ANSI top with the contract's
//! names), [`verilator_shim`] (the C ABI around the Verilated model, ports
//! packed into 32-bit words by [`pack`]/[`unpack`]), VCD variable names, and
//! the port check of a Verilog file. The RTL crate expands the same list
//! with its own callback to drive and read its rust-hdl top.

pub mod lockstep;
pub mod packing;
pub mod shim;
pub mod wrapper;

pub use packing::{pack, unpack, words_for};
pub use shim::verilator_shim;
pub use wrapper::verilog_wrapper;

/// Port direction, as seen from the unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// The clock (an input that no bundle carries: the runner toggles it).
    Clock,
    In,
    Out,
}

/// One port of a unit: its contract name, direction and width for a given
/// configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Port {
    pub name: &'static str,
    pub dir: Dir,
    pub width: u32,
}

/// A port value as a plain integer (ports are at most 64 bits wide here;
/// [`packing`] handles the bit layout of whole bundles).
pub trait PortValue: Copy {
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
}

impl PortValue for bool {
    fn to_u64(self) -> u64 {
        self as u64
    }
    fn from_u64(v: u64) -> Self {
        v & 1 != 0
    }
}

macro_rules! port_value_int {
    ($($t:ty),*) => {$(
        impl PortValue for $t {
            fn to_u64(self) -> u64 {
                self as u64
            }
            fn from_u64(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}
port_value_int!(u8, u16, u32, u64);

/// The inputs or the outputs of one cycle: a struct with one field per port.
pub trait PortBundle: Copy + Default + PartialEq + std::fmt::Debug {
    /// Field (= port) names, in declaration order.
    const NAMES: &'static [&'static str];
    /// Value of the `idx`-th port.
    fn get(&self, idx: usize) -> u64;
    /// Set the `idx`-th port (truncated to the field's Rust type).
    fn set(&mut self, idx: usize, v: u64);

    /// All port values in declaration order.
    fn values(&self) -> Vec<u64> {
        (0..Self::NAMES.len()).map(|k| self.get(k)).collect()
    }
    /// `name=value` for every port, for reports.
    fn describe(&self) -> String {
        Self::NAMES
            .iter()
            .enumerate()
            .map(|(k, n)| format!("{n}={:#x}", self.get(k)))
            .collect::<Vec<_>>()
            .join(" ")
    }
    /// The first port (in declaration order) whose value differs:
    /// `(port, self's value, other's value)`.
    fn first_difference(&self, other: &Self) -> Option<(&'static str, u64, u64)> {
        (0..Self::NAMES.len())
            .map(|k| (k, self.get(k), other.get(k)))
            .find(|&(_, a, b)| a != b)
            .map(|(k, a, b)| (Self::NAMES[k], a, b))
    }
    /// Every port truncated to its width (`widths` in declaration order):
    /// what the hardware sees of this value.
    fn masked(&self, widths: &[u32]) -> Self {
        let mut m = *self;
        for (k, &w) in widths.iter().enumerate() {
            m.set(k, self.get(k) & mask(w));
        }
        m
    }
}

/// All-ones in the low `width` bits.
pub fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// What every unit's configuration tells reports and file names.
pub trait UnitConfig: Clone + std::fmt::Debug {
    /// Short name of the configuration (`w32_k4_n8_c8`), for messages.
    fn short_name(&self) -> String;
}

/// A unit: its configuration type, its port bundles and its port table.
pub trait Unit {
    type Config: UnitConfig;
    type Inputs: PortBundle;
    type Outputs: PortBundle;
    /// The contract's module name (`membar_unit`).
    const MODULE: &'static str;
    /// Every port, clock included, in contract order, for `cfg`.
    fn ports(cfg: &Self::Config) -> Vec<Port>;

    /// Widths of the input ports, in [`Unit::Inputs`] field order.
    fn input_widths(cfg: &Self::Config) -> Vec<u32> {
        widths_of(&Self::ports(cfg), Dir::In)
    }
    /// Widths of the output ports, in [`Unit::Outputs`] field order.
    fn output_widths(cfg: &Self::Config) -> Vec<u32> {
        widths_of(&Self::ports(cfg), Dir::Out)
    }
}

/// A back end of unit `U` that can be stepped one clock at a time: the
/// reference model, the rust-hdl simulation, the Verilated Verilog.
pub trait Dut<U: Unit> {
    /// Apply this cycle's inputs, return this cycle's outputs (they may
    /// depend combinationally on the inputs), take the rising clock edge.
    fn step(&mut self, i: &U::Inputs) -> U::Outputs;
    /// Short name for reports (`model`, `rust-hdl`, `verilator`).
    fn name(&self) -> &str;
}

impl<U: Unit, D: Dut<U> + ?Sized> Dut<U> for Box<D> {
    fn step(&mut self, i: &U::Inputs) -> U::Outputs {
        (**self).step(i)
    }
    fn name(&self) -> &str {
        (**self).name()
    }
}

/// Widths of the ports of direction `dir`, in table order (= field order).
pub fn widths_of(ports: &[Port], dir: Dir) -> Vec<u32> {
    ports
        .iter()
        .filter(|p| p.dir == dir)
        .map(|p| p.width)
        .collect()
}

/// Expand a unit's port declaration (see the crate docs) into its
/// `Inputs`/`Outputs` structs, their [`PortBundle`] impls and the [`Unit`]
/// marker type with the port table.
#[macro_export]
macro_rules! declare_ports {
    (
        ($($arg:tt)*)
        unit $unit:ident, module $module:literal, config $cfg:ty, inputs $inputs:ident, outputs $outputs:ident;
        |$c:ident| [ $( $(#[$m:meta])* $name:ident : $dir:ident $ty:ty = $width:expr ),* $(,)? ]
    ) => {
        $crate::__split_ports! { [$inputs $outputs $c $cfg] [] [] $( [ $(#[$m])* $name $dir $ty = $width ] )* }

        #[doc = concat!("The port table of `", $module, "` (see [`", stringify!($inputs), "`], [`", stringify!($outputs), "`]).")]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $unit;

        impl $crate::Unit for $unit {
            type Config = $cfg;
            type Inputs = $inputs;
            type Outputs = $outputs;
            const MODULE: &'static str = $module;
            fn ports($c: &$cfg) -> Vec<$crate::Port> {
                vec![ $( $crate::Port {
                    name: stringify!($name),
                    dir: $crate::__port_dir!($dir),
                    width: ($width) as u32,
                } ),* ]
            }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __port_dir {
    (clock) => {
        $crate::Dir::Clock
    };
    (input) => {
        $crate::Dir::In
    };
    (output) => {
        $crate::Dir::Out
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __split_ports {
    ([$($h:tt)*] [$($ins:tt)*] [$($outs:tt)*] [ $(#[$m:meta])* $name:ident input $ty:ty = $w:expr ] $($rest:tt)*) => {
        $crate::__split_ports! { [$($h)*] [$($ins)* [ $(#[$m])* $name $ty = $w ]] [$($outs)*] $($rest)* }
    };
    ([$($h:tt)*] [$($ins:tt)*] [$($outs:tt)*] [ $(#[$m:meta])* $name:ident output $ty:ty = $w:expr ] $($rest:tt)*) => {
        $crate::__split_ports! { [$($h)*] [$($ins)*] [$($outs)* [ $(#[$m])* $name $ty = $w ]] $($rest)* }
    };
    ([$($h:tt)*] [$($ins:tt)*] [$($outs:tt)*] [ $(#[$m:meta])* $name:ident clock $ty:ty = $w:expr ] $($rest:tt)*) => {
        $crate::__split_ports! { [$($h)*] [$($ins)*] [$($outs)*] $($rest)* }
    };
    ([$i:ident $o:ident $c:ident $cfg:ty] [$($ins:tt)*] [$($outs:tt)*]) => {
        $crate::__bundle! { #[doc = "One cycle of inputs: one field per input port, named as in the contract."] $i [$c $cfg] $($ins)* }
        $crate::__bundle! { #[doc = "One cycle of outputs: one field per output port, named as in the contract."] $o [$c $cfg] $($outs)* }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bundle {
    (#[$sm:meta] $s:ident [$c:ident $cfg:ty] $( [ $(#[$m:meta])* $name:ident $ty:ty = $w:expr ] )*) => {
        #[$sm]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $s { $( $(#[$m])* pub $name: $ty, )* }

        impl $s {
            /// Every port truncated to its width in configuration `cfg`:
            /// what the hardware sees of these values.
            #[allow(unused_variables, dead_code)]
            pub fn masked_for(&self, $c: &$cfg) -> Self {
                Self { $( $name: $crate::PortValue::from_u64(
                    $crate::PortValue::to_u64(self.$name) & $crate::mask(($w) as u32)
                ), )* }
            }
        }

        impl $crate::PortBundle for $s {
            const NAMES: &'static [&'static str] = &[ $( stringify!($name) ),* ];
            #[allow(unused_assignments)]
            fn get(&self, idx: usize) -> u64 {
                let mut k = 0usize;
                $( if idx == k { return $crate::PortValue::to_u64(self.$name); } k += 1; )*
                panic!("{}: no port #{idx} (it has {k})", stringify!($s))
            }
            #[allow(unused_assignments)]
            fn set(&mut self, idx: usize, v: u64) {
                let mut k = 0usize;
                $( if idx == k { self.$name = $crate::PortValue::from_u64(v); return; } k += 1; )*
                panic!("{}: no port #{idx} (it has {k})", stringify!($s))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug)]
    pub struct Cfg {
        pub w: u32,
    }
    impl UnitConfig for Cfg {
        fn short_name(&self) -> String {
            format!("w{}", self.w)
        }
    }

    macro_rules! toy_ports {
        ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
            unit Toy, module "toy", config Cfg, inputs ToyIn, outputs ToyOut;
            |cfg| [
                clock: clock bool = 1,
                /// reset
                reset: input bool = 1,
                a: input u8 = cfg.w,
                y: output u64 = 2 * cfg.w,
                b: input u16 = 16,
                z: output bool = 1,
            ]
        } };
    }
    toy_ports!(crate::declare_ports);

    #[test]
    fn table_and_bundles_follow_the_declaration() {
        let p = Toy::ports(&Cfg { w: 5 });
        let names: Vec<_> = p.iter().map(|p| p.name).collect();
        assert_eq!(names, ["clock", "reset", "a", "y", "b", "z"]);
        assert_eq!(p[3].width, 10);
        assert_eq!(p[0].dir, Dir::Clock);
        assert_eq!(ToyIn::NAMES, ["reset", "a", "b"]);
        assert_eq!(ToyOut::NAMES, ["y", "z"]);
        assert_eq!(Toy::input_widths(&Cfg { w: 5 }), [1, 5, 16]);
        let mut i = ToyIn::default();
        i.set(1, 0x1ff);
        assert_eq!(i.a, 0xff);
        assert_eq!(i.masked(&[1, 5, 16]).a, 0x1f);
        assert_eq!(i.masked_for(&Cfg { w: 5 }).a, 0x1f);
        let o1 = ToyOut { y: 3, z: false };
        let o2 = ToyOut { y: 3, z: true };
        assert_eq!(o1.first_difference(&o2), Some(("z", 0, 1)));
        assert_eq!(o1.first_difference(&o1), None);
        assert_eq!(i.describe(), "reset=0x0 a=0xff b=0x0");
    }
}
