//! Problem records as every command reads them: a JSON record (also pychess-variants'), an
//! EPD line, a CSV file of puzzles, each line's claims checked; anything is read or refused
//! with a reason, never a panic, and a record read is written as JSON and read back the
//! same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toritsume::problem::Problem;
use toritsume::problem::foreign::csv_rows;

fuzz_target!(|data: &[u8]| {
    for (_, row) in csv_rows(data) {
        if let Ok(p) = row {
            let _ = p.check();
        }
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for line in text.lines() {
        for read in [Problem::from_json(line), Problem::from_epd(line)] {
            let Ok(p) = read else { continue };
            let _ = p.check();
            let json = p.to_json();
            let again = Problem::from_json(&json).expect("a record the program wrote reads back");
            assert_eq!(again.to_json(), json);
        }
    }
});
