//! USI command lines as the engine reads them (src/cli/usi/parse.rs, included as it is):
//! any line is a command with its arguments checked, or refused with a reason, never a
//! panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/cli/usi/parse.rs"]
#[allow(dead_code)]
mod parse;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        if let Ok(parse::Command::SetOption { name, .. }) = parse::parse(line) {
            assert!(!name.is_empty());
        }
    }
});
