//! The USI engine driven through its standard input and output, as a GUI would: the
//! handshake, options, a mate found, no mate, a time-out, `stop` in the middle of an
//! endless search, and malformed commands answered without a crash; a script writing many
//! commands at once and closing the input, and a reader gone away.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    /// None once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
            .arg("usi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines: rx,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("the input is open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Ends the engine's input, as a script's does.
    fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(_) => panic!("no `{prefix}` within {timeout:?}; got {seen:?}"),
            }
        }
    }

    /// An engine searching, endlessly, an open phoenix facing a full hand, once it has
    /// said so with its first progress line (returned).
    fn searching_endlessly() -> (Engine, String) {
        let mut e = Engine::start();
        e.send("isready");
        e.until("readyok", 10 * SECOND);
        e.send(&format!("position sfen {ENDLESS}"));
        e.send("go mate infinite");
        let info = e.until("info time", 5 * SECOND).pop().unwrap();
        (e, info)
    }

    /// Solves a mate in 1 (worked out by hand: the crane dropped on 7b) and quits cleanly:
    /// the engine still works after what came before.
    fn still_mates_then_quits(self) {
        self.mates_then_quits("kp5/1s5/1C5/7/7/7/7 b C 1", "5000", "C*7b", 10 * SECOND);
    }

    /// Solves `sfen` with `go mate {millis}`, expects `checkmate {mate}` within `timeout`,
    /// and quits cleanly.
    fn mates_then_quits(mut self, sfen: &str, millis: &str, mate: &str, timeout: Duration) {
        self.send(&format!("position sfen {sfen}"));
        self.send(&format!("go mate {millis}"));
        assert_eq!(
            self.until("checkmate", timeout).last().unwrap().as_str(),
            format!("checkmate {mate}").as_str()
        );
        self.send("quit");
        assert!(self.child.wait().unwrap().success());
    }
}

const SECOND: Duration = Duration::from_secs(1);

/// An open phoenix and a full hand: far too long a search for any test to finish.
const ENDLESS: &str = "7/7/7/3k3/7/7/7 b 2F2C2P2L2R8S8s 1";

/// Waits for `child` to exit, at most `limit`; kills it and fails otherwise.
fn exits_within(child: &mut Child, limit: Duration, what: &str) {
    let t = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t.elapsed() > limit {
            let _ = child.kill();
            panic!("the engine still runs {what}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn handshake_mate_nomate_and_timeout() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.until("usiok", 5 * SECOND);
    assert!(hello.iter().any(|l| l.starts_with("id name toritsume")));
    assert!(hello.iter().any(|l| l.starts_with("id author")));
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin"))
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Threads type spin"))
    );
    e.send("setoption name USI_Hash value 32");
    e.send("isready");
    e.until("readyok", 10 * SECOND);
    e.send("usinewgame");
    // A mate in 7 with the defender's hand as given (the full rest, written out).
    e.send("position sfen R2L3/2Pk3/7/7/7/7/7 b FCLf3c3pr16s 1");
    e.send("go mate 10000");
    let out = e.until("checkmate", 20 * SECOND);
    assert_eq!(
        out.last().unwrap(),
        "checkmate L*4c 4b3c F*3d 3c2b 3d2c 2b3a C*3b"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("info") && l.contains(" nodes "))
    );
    // A position given with moves: after 3d3c 4b3c Black is to move and has no mate.
    e.send("position startpos moves 3d3c 4b3c");
    e.send("go mate 2000");
    assert_eq!(
        e.until("checkmate", 10 * SECOND).last().unwrap(),
        "checkmate nomate"
    );
    // The same mate in 7, sent as a UCI program such as a pychess-variants tool would: `fen`
    // (a phoenix for Black on 1g, `w` for Black) and Fairy-Stockfish moves, two of them
    // played. The answer stays in USI.
    e.send(
        "position fen R2L3/2Pk3/7/7/7/7/6K[FCLfcccppprssssssssssssssss] w - - 0 1 moves L@d5 d6e5",
    );
    e.send("go mate 10000");
    assert_eq!(
        e.until("checkmate", 20 * SECOND).last().unwrap(),
        "checkmate F*3d 3c2b 3d2c 2b3a C*3b"
    );
    // Far too long for 300 ms.
    e.send(&format!("position sfen {ENDLESS}"));
    let t = Instant::now();
    e.send("go mate 300");
    assert_eq!(
        e.until("checkmate", 10 * SECOND).last().unwrap(),
        "checkmate timeout"
    );
    assert!(t.elapsed() < 5 * SECOND);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn stop_interrupts_an_endless_search_and_quit_is_immediate() {
    // Progress is reported while it runs.
    let (mut e, last) = Engine::searching_endlessly();
    for field in ["nodes", "nps", "hashfull", "time"] {
        assert!(last.contains(field), "{last}");
    }
    // The engine still answers while searching.
    e.send("isready");
    e.until("readyok", 2 * SECOND);
    let t = Instant::now();
    e.send("stop");
    assert_eq!(
        e.until("checkmate", 5 * SECOND).last().unwrap(),
        "checkmate timeout"
    );
    assert!(t.elapsed() < 2 * SECOND, "stop took {:?}", t.elapsed());
    // Quit during another endless search ends the process at once.
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
    assert!(t.elapsed() < 3 * SECOND);
}

#[test]
fn go_perft_divides_as_uci_engines_do() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok", 5 * SECOND);
    // The start position: 17 moves, 288 paths of two plies (Fairy-Stockfish's counts,
    // tests/data/perft.tsv), each move in USI with its share, and the shares add up.
    e.send("position startpos");
    e.send("go perft 2");
    let out = e.until("Nodes searched", 10 * SECOND);
    assert_eq!(out.last().unwrap(), "Nodes searched: 288");
    assert_eq!(out[out.len() - 2], "");
    let shares: Vec<(&str, u64)> = out[..out.len() - 2]
        .iter()
        .filter_map(|l| l.split_once(": "))
        .map(|(m, n)| (m, n.parse().unwrap()))
        .collect();
    assert_eq!(shares.len(), 17, "{out:?}");
    assert_eq!(shares.iter().map(|&(_, n)| n).sum::<u64>(), 288);
    assert!(shares.iter().any(|&(m, _)| m == "3d3c"), "{out:?}");
    // A depth that is none is named, and the engine goes on.
    e.send("go perft x");
    e.send("go perft 1");
    let out = e.until("Nodes searched", 10 * SECOND);
    assert!(
        out.iter()
            .any(|l| l == "info string go perft: the depth is a number from 1 to 30"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "Nodes searched: 17");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_count_too_deep_to_finish_answers_isready_and_stops_on_stop_and_quit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go perft 30");
    // The count runs on its own thread: the engine still answers.
    e.send("isready");
    e.until("readyok", 5 * SECOND);
    e.send("stop");
    let out = e.until("info string go perft 30", 5 * SECOND);
    assert!(out.last().unwrap().contains("stopped"), "{out:?}");
    // And the engine goes on: a count that ends, then a mate.
    e.send("go perft 1");
    assert_eq!(
        e.until("Nodes searched", 10 * SECOND).last().unwrap(),
        "Nodes searched: 17"
    );
    e.send("go perft 30");
    e.send("quit");
    exits_within(&mut e.child, 5 * SECOND, "after quit during a count");
}

#[test]
fn a_line_too_long_to_keep_is_passed_over() {
    let mut e = Engine::start();
    // 3 MB of a `position` line, over the 1 MB the engine keeps of a line.
    let long = format!("position startpos moves {}", "3d3c 5b5c ".repeat(300_000));
    e.send(&long);
    let l = e.until("info string", 10 * SECOND);
    assert!(
        l.last()
            .unwrap()
            .contains("position ignored, and no position is set now: a line of over 1048576 bytes"),
        "{l:?}"
    );
    // The earlier position went with it: a `go` answers for none.
    e.send("go mate 1000");
    let l = e.until("checkmate", 10 * SECOND);
    assert!(l.iter().any(|x| x.contains("no position")), "{l:?}");
    assert_eq!(l.last().unwrap(), "checkmate nomate");
    // Any other line too long is passed over with a word.
    e.send(&"x".repeat(2 << 20));
    let l = e.until("info string", 10 * SECOND);
    assert!(
        l.last()
            .unwrap()
            .contains("a line of over 1048576 bytes; ignored"),
        "{l:?}"
    );
    e.still_mates_then_quits();
}

#[test]
fn malformed_commands_get_an_info_string() {
    let mut e = Engine::start();
    for (cmd, why) in [
        ("frobnicate", "unknown command"),
        ("position sfen k6/7/7/7/7/7 b - 1", "position ignored"),
        (
            "position sfen k6/7/7/7/7/7/6K b - 1 moves 9z9z",
            "position ignored",
        ),
        ("setoption name USI_Hash value lots", "not an allowed value"),
        ("setoption name Colour value blue", "unknown option"),
        ("setoption USI_Hash", "setoption needs"),
        // `value` before `name`: no option, and no crash.
        ("setoption value 3 name USI_Hash", "setoption needs"),
        ("setoption name value", "setoption needs"),
        ("go mate soon", "neither a time"),
        ("go sideways", "unknown argument"),
        ("go movetime soon", "not a number"),
    ] {
        e.send(cmd);
        let l = e.until("info string", 5 * SECOND);
        assert!(l.last().unwrap().contains(why), "{cmd}: {l:?}");
    }
    // After all that it still works.
    e.still_mates_then_quits();
}

#[test]
fn threads_advertises_this_machines_maximum_and_takes_a_larger_value_down_to_it() {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let max = 4 * cores;
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.until("usiok", 5 * SECOND);
    assert!(
        hello.contains(&format!(
            "option name Threads type spin default 1 min 1 max {max}"
        )),
        "{hello:?}"
    );
    e.send(&format!("setoption name Threads value {}", max + 1));
    let l = e.until("info string", 5 * SECOND);
    assert!(
        l.last()
            .unwrap()
            .contains(&format!("Threads {}: at most {max}", max + 1)),
        "{l:?}"
    );
    e.send("setoption name Threads value 0");
    let l = e.until("info string", 5 * SECOND);
    assert!(l.last().unwrap().contains("not an allowed value"), "{l:?}");
    // Still searching, with the threads it has.
    e.still_mates_then_quits();
}

/// Whether this machine refuses a single allocation of `mb` megabytes (Linux's default
/// heuristic overcommit refuses one larger than memory and swap together).
fn refuses_allocation_of(mb: u64) -> bool {
    let overcommit = std::fs::read_to_string("/proc/sys/vm/overcommit_memory").unwrap_or_default();
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kb = |field: &str| -> u64 {
        meminfo
            .lines()
            .find(|l| l.starts_with(field))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let total_mb = (kb("MemTotal:") + kb("SwapTotal:")) / 1024;
    overcommit.trim() == "0" && total_mb > 0 && total_mb < mb
}

/// An engine given `options` (`setoption` lines) after `usi`, and what it answered up to
/// `readyok`.
fn ready_after(options: &[&str]) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok", 5 * SECOND);
    for o in options {
        e.send(o);
    }
    e.send("isready");
    let ready = e.until("readyok", 20 * SECOND);
    (e, ready)
}

/// The engine still searches: a mate in one is found.
fn still_mates(e: Engine) {
    e.mates_then_quits(
        "4pk1/5l1/3C2F/7/7/7/7 b Cf2c3pl2r16s 1",
        "10000",
        "C*1b",
        20 * SECOND,
    );
}

#[test]
fn a_table_too_large_is_reported_and_the_engine_keeps_running() {
    // The largest size the engine advertises.
    let (e, ready) = ready_after(&["setoption name USI_Hash value 65536"]);
    if refuses_allocation_of(65536) {
        assert!(
            ready
                .iter()
                .any(|l| l.starts_with("info string USI_Hash 65536: cannot allocate")),
            "{ready:?}"
        );
    }
    still_mates(e);
}

#[test]
fn a_hash_above_the_maximum_is_lowered_to_it() {
    // Lowered, as a Threads value above its maximum is, with a word saying so; a later
    // smaller value is taken as it is, so the engine still searches on a table it can have.
    let (e, ready) = ready_after(&[
        "setoption name USI_Hash value 70000",
        "setoption name USI_Hash value 16",
    ]);
    assert!(
        ready
            .iter()
            .any(|l| l == "info string USI_Hash 70000: at most 65536 MB; using 65536"),
        "{ready:?}"
    );
    assert!(
        !ready.iter().any(|l| l.contains("not an allowed value")),
        "{ready:?}"
    );
    still_mates(e);
}

#[test]
fn hash_is_taken_as_usi_hash() {
    let (e, ready) = ready_after(&["setoption name Hash value 0", "setoption name Hash value 8"]);
    assert!(
        ready
            .iter()
            .any(|l| l.starts_with("info string Hash: `0` is not an allowed value")),
        "{ready:?}"
    );
    assert!(
        !ready.iter().any(|l| l.contains("unknown option")),
        "{ready:?}"
    );
    still_mates(e);
}

#[test]
fn a_rejected_position_is_not_replaced_by_the_previous_one() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok", 5 * SECOND);
    // A mate in 1, then an impossible position (two phoenixes of one side).
    e.send("position sfen 4pk1/5l1/3C2F/7/7/7/7 b Cf2c3pl2r16s 1");
    e.send("position sfen kk5/7/7/7/7/7/6K b - 1");
    e.send("go mate 1000");
    let out = e.until("checkmate", 10 * SECOND);
    assert!(
        out.iter().any(|l| l.starts_with("info string no position")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "checkmate nomate");
    // A good position afterwards is searched as usual.
    e.send("position sfen 4pk1/5l1/3C2F/7/7/7/7 b Cf2c3pl2r16s 1");
    e.send("go mate 1000");
    assert_eq!(
        e.until("checkmate", 10 * SECOND).last().unwrap(),
        "checkmate C*1b"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn mates_are_announced_with_score_and_pv_as_other_tsume_engines_do() {
    let mut e = Engine::start();
    e.send("usi");
    e.until("usiok", 5 * SECOND);
    // The mate in 7 of the README (worked out in problems/classic.jsonl).
    let line = "F*6b 6a6b 7d6c 6b7a S*7b 7a6a R*6b";
    e.send("position sfen 1k5/2S4/7/FC5/7/7/7 b FRS3c4p2lr14s 1");
    e.send("go mate 10000");
    let out = e.until("checkmate", 10 * SECOND);
    let before = &out[out.len() - 2];
    assert!(
        before.starts_with("info ") && before.ends_with(&format!("score mate 7 pv {line}")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), &format!("checkmate {line}"));
    // A plain `go` on the same position: the same announcement, then the first move.
    e.send("go");
    let out = e.until("bestmove", 10 * SECOND);
    assert!(
        out[out.len() - 2].ends_with(&format!("score mate 7 pv {line}")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove F*6b");
    // No mate: said so, and `bestmove resign` to a plain `go`, `checkmate nomate` to
    // `go mate`.
    e.send("position sfen 3k3/7/7/7/7/7/7 b S15s4c4p2l2r2f 1");
    e.send("go infinite");
    let out = e.until("bestmove", 10 * SECOND);
    assert!(
        out.iter().any(|l| l == "info string no mate: proven"),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove resign");
    e.send("go mate infinite");
    assert_eq!(
        e.until("checkmate", 10 * SECOND).last().unwrap(),
        "checkmate nomate"
    );
    // After a rejected position neither kind of `go` answers for the one before.
    e.send("position sfen 1k5/2S4/7/FC5/7/7/7 b FRS3c4p2lr14s 1");
    e.send("position sfen kk5/7/7/7/7/7/6K b - 1");
    e.send("go movetime 1000");
    let out = e.until("bestmove", 10 * SECOND);
    assert!(
        out.iter().any(|l| l.starts_with("info string no position")),
        "{out:?}"
    );
    assert_eq!(out.last().unwrap(), "bestmove resign");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_mate_is_announced_while_the_search_goes_on() {
    // A mate in 11 of the hard set whose first search ends in a few hundred thousand nodes
    // and whose main line takes millions more: the mate found first is announced as soon
    // as it is known, long before the answer.
    let mut e = Engine::start();
    e.send("position sfen 6p/5rk/7/4S2/7/7/7 b 2F4C2LR3p15s 1");
    e.send("go mate infinite");
    let out = e.until("checkmate", 60 * SECOND);
    let announced = out
        .iter()
        .position(|l| l.starts_with("info time") && l.contains(" score mate "));
    assert!(announced.is_some_and(|i| i + 2 < out.len()), "{out:?}");
    assert_eq!(
        out.last().unwrap(),
        "checkmate L*1d 1a1c C*2a 1b2a C*3b 2a3b F*3c 3b2a C*3b 2a1a F*2a"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_huge_line_is_not_echoed_back_whole() {
    let mut e = Engine::start();
    let huge = "q".repeat(100_000);
    e.send(&huge);
    let l = e.until("info string", 5 * SECOND);
    let last = l.last().unwrap();
    assert!(last.len() < 200, "{} bytes echoed", last.len());
    assert!(last.contains("..."));
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn a_checkmate_answer_is_always_a_whole_mating_line() {
    // A mate in 15 (classic problem 34) given times from far too short to enough: a search
    // the time stops is answered `checkmate timeout`, however far it got, and any line given
    // is played out by the rules to mate, the length proven.
    use toritsume::rules::{MoveList, generate_legal};
    let sfen = "7/7/7/7/2F4/kflC3/1Pr4 b 2CRSc3pl15s 1";
    let mut e = Engine::start();
    e.send("setoption name Threads value 1");
    e.send("setoption name USI_Hash value 1");
    e.send("isready");
    e.until("readyok", 10 * SECOND);
    let mut answers = Vec::new();
    for ms in [5, 20, 40, 80, 160, 5000] {
        e.send(&format!("position sfen {sfen}"));
        e.send(&format!("go mate {ms}"));
        let last = e.until("checkmate", 20 * SECOND).last().unwrap().clone();
        let moves = last.strip_prefix("checkmate ").expect("a checkmate answer");
        if moves != "timeout" {
            let start = toritsume::notation::parse_position(sfen).unwrap();
            let line = toritsume::notation::parse_move_list(&start, moves)
                .unwrap_or_else(|err| panic!("{ms} ms: {moves}: {err}"));
            assert_eq!(line.len(), 15, "{ms} ms: {moves}");
            let mut pos = start;
            for m in line {
                pos.do_move(m);
            }
            let mut replies = MoveList::new();
            generate_legal(&pos, &mut replies);
            assert!(pos.in_check() && replies.is_empty(), "{ms} ms: {moves}");
        }
        answers.push(last);
    }
    // Given five seconds, it is found.
    assert_ne!(answers.last().unwrap(), "checkmate timeout");
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// README.md's USI session (lines `> ` are sent, the others answered), replayed: each
/// answer is what the README shows, times aside.
#[test]
fn the_readme_session_is_what_the_engine_says() {
    let shown = crate::readme::block_after("A session (`>` what is sent");
    let mut e = Engine::start();
    let mut said = Vec::new();
    for l in &shown {
        let Some(cmd) = l.strip_prefix("> ") else {
            continue;
        };
        e.send(cmd);
        let last = match cmd.split_whitespace().next() {
            Some("usi") => "usiok",
            Some("isready") => "readyok",
            Some("go") if cmd.starts_with("go mate") => "checkmate",
            Some("go") => "bestmove",
            _ => continue,
        };
        said.extend(e.until(last, 10 * SECOND));
    }
    // The session ends with `quit`.
    assert_eq!(shown.last().map(String::as_str), Some("> quit"));
    assert!(e.child.wait().unwrap().success());
    let expected: Vec<&String> = shown.iter().filter(|l| !l.starts_with("> ")).collect();
    assert_eq!(said.len(), expected.len(), "{said:#?}");
    for (have, want) in said.iter().zip(expected) {
        assert_eq!(
            crate::readme::steady(have),
            crate::readme::steady(want),
            "README.md's USI session"
        );
    }
}

/// Classic problem 34 with the defender's hand as given, a mate in 15 worked out in the
/// bundled set: long enough a search that the end of input arrives while it runs.
const MATE_IN_15: (&str, &str) = (
    "7/7/7/7/2F4/kflC3/1Pr4 b 2CRSc3pl15s 1",
    "checkmate C*6e 7f6g 6e6f 5g6f R*7f 6g7f 5e6f 7f6f F*5e 6f7f S*7g 7f7g C*6f 7g7f R*7g",
);

/// A script may write every command at once and close the engine's input: each `go`
/// waits for the search before it, the commands after it wait their turn, and the end of
/// input lets the searches still to come run under their own limits before the engine
/// exits, rather than stopping them.
#[test]
fn a_script_piping_several_searches_gets_every_answer() {
    let mut e = Engine::start();
    let (sfen, mate) = MATE_IN_15;
    for cmd in [
        "usi",
        &format!("position sfen {sfen}"),
        "go mate 60000",
        // Held back until the mate in 15 is answered, so this is the position searched
        // next, and only then: the search under way keeps its own.
        "position sfen kp5/1s5/1C5/7/7/7/7 b C 1",
        "go mate 60000",
        "isready",
        "position startpos moves 3d3c 4b3c",
        "go",
    ] {
        e.send(cmd);
    }
    e.close_input();
    let said = e.until("bestmove", 120 * SECOND);
    let answers: Vec<&str> = said
        .iter()
        .map(String::as_str)
        .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove") || *l == "readyok")
        .collect();
    assert_eq!(
        answers,
        [mate, "checkmate C*7b", "readyok", "bestmove resign"],
        "{said:#?}"
    );
    assert!(e.child.wait().unwrap().success());
}

/// `stop` reaches the running search even while a `go` waits behind it, and the waiting
/// search then runs.
#[test]
fn stop_while_a_search_waits_stops_the_running_one() {
    let (mut e, _) = Engine::searching_endlessly();
    e.send("position sfen kp5/1s5/1C5/7/7/7/7 b C 1");
    e.send("go mate 5000");
    e.send("stop");
    let said = e.until("checkmate C*7b", 10 * SECOND);
    let answers: Vec<&String> = said.iter().filter(|l| l.starts_with("checkmate")).collect();
    assert_eq!(
        answers,
        ["checkmate timeout", "checkmate C*7b"],
        "{said:#?}"
    );
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// Once nothing reads the engine's answers (the GUI went away, its pipes closed), an
/// endless search stops and the engine exits, within a report or two.
#[test]
fn an_endless_search_ends_when_nothing_reads_the_answers() {
    let (mut e, _) = Engine::searching_endlessly();
    e.close_input();
    // The reader stops at the next line the engine writes, closing its end of the pipe.
    let Engine {
        mut child, lines, ..
    } = e;
    drop(lines);
    exits_within(&mut child, 20 * SECOND, "with nobody reading it");
}

/// Standard input that cannot be read (a directory) is said once, on both outputs, and
/// the engine exits with status 2 rather than reading it again for ever.
#[test]
fn unreadable_input_is_named_and_ends_the_engine() {
    let dir = std::fs::File::open("/").expect("the root directory opens");
    let mut child = Command::new(env!("CARGO_BIN_EXE_toritsume"))
        .arg("usi")
        .stdin(Stdio::from(dir))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    exits_within(&mut child, 20 * SECOND, "on unreadable input");
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        ["info string cannot read standard input: Is a directory (os error 21)"]
    );
    assert!(err.contains("error: cannot read standard input"), "{err}");
}
