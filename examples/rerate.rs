//! Recomputes the `rating` of every record of a problem file with the current formula
//! (`generator::themes::rating`), from the record's main line and `quality.proof_nodes`;
//! everything else is copied as it is. Used when the formula changes:
//!
//! ```sh
//! cargo run --release --example rerate -- problems/generated.jsonl rerated.jsonl
//! ```

use std::io::Write;
use toritsume::generator::themes::{rating, record_features};
use toritsume::problem::Problem;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output] = args.as_slice() else {
        eprintln!("usage: rerate IN.jsonl OUT.jsonl");
        std::process::exit(2);
    };
    if std::path::Path::new(output).exists() {
        eprintln!("{output} exists; not overwritten");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(input).unwrap_or_else(|e| {
        eprintln!("cannot read {input}: {e}");
        std::process::exit(1);
    });
    let mut out = String::new();
    for (n, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let rerated = Problem::from_json(line).and_then(|mut p| {
            let f = record_features(&p)?;
            p.extra.insert("rating".into(), rating(&f).into());
            Ok(p)
        });
        match rerated {
            Ok(p) => {
                out.push_str(&p.to_json());
                out.push('\n');
            }
            Err(e) => {
                eprintln!("line {} of {input}: {e}", n + 1);
                std::process::exit(1);
            }
        }
    }
    let written = std::fs::File::create(output).and_then(|mut f| f.write_all(out.as_bytes()));
    if let Err(e) = written {
        eprintln!("cannot write {output}: {e}");
        std::process::exit(1);
    }
}
