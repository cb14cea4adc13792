//! The shape of the source tree, kept as docs/ARCHITECTURE.md describes it: no
//! file over 600 lines, every file opening with what it owns, the rules knowing no notation,
//! and the library knowing nothing of the command line.

use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn all_sources(under: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(under),
        &mut files,
    );
    assert!(!files.is_empty(), "no sources under {under}");
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect()
}

/// The code of a file, its comments left out (they may name anything).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

#[test]
fn no_source_file_is_over_600_lines() {
    for (path, text) in all_sources("src") {
        let n = text.lines().count();
        assert!(n <= 600, "{} has {n} lines", path.display());
    }
}

#[test]
fn every_source_file_says_what_it_owns() {
    for (path, text) in all_sources("src") {
        assert!(
            text.starts_with("//!"),
            "{} does not open with a module comment",
            path.display()
        );
    }
}

#[test]
fn the_rules_know_no_notation_and_the_library_no_command_line() {
    for (path, text) in all_sources("src/rules") {
        for line in code_lines(&text) {
            assert!(
                !line.contains("notation") && !line.contains("render"),
                "{}: {line}",
                path.display()
            );
        }
    }
    for (path, text) in all_sources("src") {
        if path.components().any(|c| c.as_os_str() == "cli") || path.ends_with("main.rs") {
            continue;
        }
        for line in code_lines(&text) {
            for name in ["clap::", "indicatif::", "signal_hook::", "anyhow::"] {
                assert!(!line.contains(name), "{}: {line}", path.display());
            }
        }
    }
}
