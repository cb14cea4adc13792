//! The USI command loop: standard input read on a thread of its own, each command handed to
//! the [`Engine`] in turn, a `go` that comes while a search runs held back (with the
//! commands after it) until that search has answered, and the end: `quit`, the end of
//! input once every search still to come has answered, or output that nothing reads.

use super::{Engine, StdoutError};
use std::io::BufRead;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// A line of standard input, as the reader thread passes it on.
enum Input {
    Line(String),
    /// A line that is not valid UTF-8.
    Bad,
    /// Standard input cannot be read (it is a directory, say): the end of input.
    Failed(std::io::Error),
    /// The end of input.
    End,
}

/// Reads standard input on a thread of its own, so that the command loop can wait for a
/// search and for the next command at once.
fn read_input() -> std::sync::mpsc::Receiver<Input> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let input = match line {
                Ok(line) => Input::Line(line),
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => Input::Bad,
                Err(e) => {
                    let _ = tx.send(Input::Failed(e));
                    return;
                }
            };
            if tx.send(input).is_err() {
                return;
            }
        }
        let _ = tx.send(Input::End);
    });
    rx
}

/// How often the command loop looks at a running search while it holds commands back or
/// waits for the last answer.
const POLL: Duration = Duration::from_millis(20);

/// Runs the USI loop until `quit` or the end of input.
///
/// A `go` that comes while a search runs waits for that search's answer, and the commands
/// after it wait their turn behind it (all but `stop`, which stops the running search, and
/// `quit`), so a script may send several positions and searches at once. At the end of
/// input every search still to come is run and answered under its own limit, unless
/// nothing reads the answers any more (standard output fails): then the search stops and
/// the engine exits.
pub fn run() -> anyhow::Result<i32> {
    let mut engine = Engine::new();
    let input = read_input();
    let mut waiting = std::collections::VecDeque::<String>::new();
    let mut ended = false;
    // Why standard input could not be read, if it could not: the exit status then says so.
    let mut unreadable = None;
    loop {
        // The commands held back behind a search, once it has answered.
        while !engine.searching() {
            let Some(line) = waiting.pop_front() else {
                break;
            };
            if !engine.command(&line) {
                return Ok(0);
            }
            if let Some(e) = engine.out.failure() {
                engine.finish_search();
                return Err(StdoutError(e).into());
            }
        }
        let searching = engine.searching();
        if ended && !searching && waiting.is_empty() {
            return match unreadable {
                Some(e) => Err(anyhow::anyhow!("cannot read standard input: {e}")),
                None => Ok(0),
            };
        }
        let next = if ended {
            std::thread::sleep(POLL);
            None
        } else if searching {
            match input.recv_timeout(POLL) {
                Ok(i) => Some(i),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Input::End),
            }
        } else {
            Some(input.recv().unwrap_or(Input::End))
        };
        match next {
            None => {}
            Some(Input::End) => ended = true,
            Some(Input::Failed(e)) => {
                engine.info(&format!("cannot read standard input: {e}"));
                unreadable = Some(e);
                ended = true;
            }
            Some(Input::Bad) => engine.info("input is not valid UTF-8; line ignored"),
            Some(Input::Line(line)) => {
                let line = line.trim();
                let first = line.split_whitespace().next();
                let held = !waiting.is_empty() || (first == Some("go") && engine.searching());
                if held && !matches!(first, Some("stop" | "quit")) {
                    waiting.push_back(line.to_string());
                } else if !engine.command(line) {
                    return Ok(0);
                }
            }
        }
        // Output that cannot be delivered ends the engine: nothing reads it any more.
        if let Some(e) = engine.out.failure() {
            engine.finish_search();
            return Err(StdoutError(e).into());
        }
    }
}
