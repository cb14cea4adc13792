//! `generate`'s checkpoint files as `--resume` reads them (the file's `run`, else the whole
//! text, as a checkpoint), checked against the settings of a run (`--plies 3..9 --count 120
//! --seed 2`, tests/cli/resume.rs's): anything is taken up or refused with a reason, never
//! a panic or a count that wraps.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toritsume::generator::{Checkpoint, GenConfig};

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let run = value.get("run").cloned().unwrap_or(value);
    let Ok(checkpoint) = serde_json::from_value::<Checkpoint>(run) else {
        return;
    };
    let config = GenConfig::new(3, 9, 120, 2);
    let _ = checkpoint.check(&config);
});
