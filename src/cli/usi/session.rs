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
    /// A line longer than [`MAX_LINE`] bytes, passed over without being kept but for its
    /// first word (a `position` refused so drops the earlier one, as any refused
    /// `position` does).
    TooLong(Option<String>),
    /// Standard input cannot be read (it is a directory, say): the end of input.
    Failed(std::io::Error),
    /// The end of input.
    End,
}

/// The longest command line taken, in bytes: a `position` with thousands of moves fits,
/// and a runaway line (a file sent by mistake) is passed over as it streams by rather
/// than held in memory.
pub const MAX_LINE: usize = 1 << 20;

/// How much of a line over [`MAX_LINE`] is kept: enough for its first word.
const KEPT_OF_A_LONG_LINE: usize = 64;

/// One line of `input` (without its end of line) into `line`, at most `max` bytes of it
/// kept: `Ok(None)` at the end of input, `Ok(Some(false))` for a line over `max` bytes
/// (read to its end, `line` left with no more than its first [`KEPT_OF_A_LONG_LINE`]
/// bytes).
fn read_line_within(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Option<bool>> {
    line.clear();
    let mut over = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some(!over));
        }
        any = true;
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if !over {
            if line.len() + chunk.len() > max {
                over = true;
                let room = KEPT_OF_A_LONG_LINE.saturating_sub(line.len());
                line.extend_from_slice(&chunk[..room.min(chunk.len())]);
                line.truncate(KEPT_OF_A_LONG_LINE);
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = end.unwrap_or(buf.len());
        input.consume(used);
        if end.is_some() {
            return Ok(Some(!over));
        }
    }
}

/// Reads standard input on a thread of its own, so that the command loop can wait for a
/// search and for the next command at once.
fn read_input() -> std::sync::mpsc::Receiver<Input> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut bytes = Vec::new();
        loop {
            let line = match read_line_within(&mut input, &mut bytes, MAX_LINE) {
                Ok(None) => break,
                Ok(Some(false)) => Input::TooLong(
                    String::from_utf8_lossy(&bytes)
                        .split_whitespace()
                        .next()
                        .map(str::to_string),
                ),
                Ok(Some(true)) => {
                    if bytes.last() == Some(&b'\r') {
                        bytes.pop();
                    }
                    match String::from_utf8(std::mem::take(&mut bytes)) {
                        Ok(l) => Input::Line(l),
                        Err(_) => Input::Bad,
                    }
                }
                Err(e) => {
                    let _ = tx.send(Input::Failed(e));
                    return;
                }
            };
            if tx.send(line).is_err() {
                return;
            }
        }
        let _ = tx.send(Input::End);
    });
    rx
}

/// A command held back behind a running search: a line, or a line too long to keep (its
/// first word).
enum Held {
    Line(String),
    TooLong(Option<String>),
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
    let mut waiting = std::collections::VecDeque::<Held>::new();
    let mut ended = false;
    // Why standard input could not be read, if it could not: the exit status then says so.
    let mut unreadable = None;
    loop {
        // The commands held back behind a search, once it has answered.
        while !engine.searching() {
            let Some(held) = waiting.pop_front() else {
                break;
            };
            match held {
                Held::Line(line) => {
                    if !engine.command(&line) {
                        return Ok(0);
                    }
                }
                Held::TooLong(first) => engine.too_long(first.as_deref()),
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
            // Taken in its turn, as the line it was would have been.
            Some(Input::TooLong(first)) => {
                if waiting.is_empty() && !(first.as_deref() == Some("go") && engine.searching()) {
                    engine.too_long(first.as_deref());
                } else {
                    waiting.push_back(Held::TooLong(first));
                }
            }
            Some(Input::Line(line)) => {
                let line = line.trim();
                let first = line.split_whitespace().next();
                let held = !waiting.is_empty() || (first == Some("go") && engine.searching());
                if held && !matches!(first, Some("stop" | "quit")) {
                    waiting.push_back(Held::Line(line.to_string()));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_limit_is_passed_over_without_being_kept() {
        let long = "position ".repeat(30);
        let text = format!("isready\n{long}\nusi\r\nlast");
        // A reader that hands out three bytes at a time, as a pipe may.
        let mut input = std::io::BufReader::with_capacity(3, text.as_bytes());
        let mut line = Vec::new();
        let mut got = Vec::new();
        while let Some(whole) = read_line_within(&mut input, &mut line, 100).unwrap() {
            got.push((whole, String::from_utf8(line.clone()).unwrap()));
            assert!(line.capacity() <= 2 * 100, "the long line was not held");
        }
        assert_eq!(got.len(), 4);
        assert_eq!(got[0], (true, "isready".to_string()));
        // Of the 270-byte line, its start alone, enough to tell what it was.
        assert!(!got[1].0);
        assert!(got[1].1.starts_with("position position"), "{:?}", got[1].1);
        assert!(got[1].1.len() <= KEPT_OF_A_LONG_LINE);
        assert_eq!(got[2], (true, "usi\r".to_string()));
        assert_eq!(got[3], (true, "last".to_string()));
    }
}
