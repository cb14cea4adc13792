//! Standard output for every command: a write that fails (a full disk, a closed pipe) is an
//! error that names standard output and ends the program with exit status 2, never a panic
//! or silence. A pipe closed by its reader (`toritsume show startpos | head -1`) ends the
//! program quietly instead: the reader asked for no more.

use std::io::Write;

/// A failed write to standard output.
#[derive(Debug)]
pub struct StdoutError(pub std::io::Error);

impl std::fmt::Display for StdoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write to standard output: {}", io_reason(&self.0))
    }
}

impl std::error::Error for StdoutError {}

impl StdoutError {
    /// Whether the reader closed the pipe (then the program ends quietly).
    pub fn is_closed_pipe(&self) -> bool {
        self.0.kind() == std::io::ErrorKind::BrokenPipe
    }
}

/// Writes `text` to standard output and flushes it.
pub fn emit(text: &str) -> Result<(), StdoutError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(StdoutError)
}

/// An I/O error's reason without the `(os error N)` the standard library appends.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}
