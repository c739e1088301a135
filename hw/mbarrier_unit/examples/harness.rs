//! Print the synthesis harness (`synth_harness`) of the default configuration.
fn main() {
    print!(
        "{}",
        mbarrier_unit_rtl::synth_harness(&mbarrier_unit_model::config::Config::default())
    );
}
