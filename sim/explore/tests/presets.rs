//! A calibrated preset given where a unit configuration is expected
//! (`membar_explore::load_config`): its `unit:` section is the configuration, and
//! its environment sections are validated too.

use membar_explore::calibration::Preset;
use std::path::Path;

#[test]
fn shipped_presets_load_as_their_unit_section() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs");
    for name in ["h100", "h200"] {
        let path = dir.join(format!("{name}.yaml"));
        let cfg = membar_explore::load_config(&path).unwrap_or_else(|e| panic!("{e}"));
        let preset = Preset::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(cfg, preset.unit, "{name}");
        // The model crate alone reads the same unit section.
        assert_eq!(membar_unit_env::Config::load(&path).unwrap(), cfg, "{name}");
    }
}

#[test]
fn a_bad_environment_key_in_a_preset_is_an_error_naming_it() {
    let dir = std::env::temp_dir().join(format!("membar-presets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.yaml");
    std::fs::write(&path, "name: x\nunit: {warps: 8}\nmmu: {no_such_key: 1}\n").unwrap();
    let e = membar_explore::load_config(&path).unwrap_err().to_string();
    assert!(e.contains("p.yaml") && e.contains("mmu.no_such_key"), "{e}");
    // A plain config still loads as one.
    std::fs::write(&path, "warps: 16\n").unwrap();
    assert_eq!(membar_explore::load_config(&path).unwrap().warps, 16);
    let _ = std::fs::remove_dir_all(&dir);
}
