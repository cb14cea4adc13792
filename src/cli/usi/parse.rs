//! A USI command line read into what it asks, every argument checked, or why it cannot be
//! taken and what the engine answers then. It depends on the library alone, so that the
//! fuzz target `usi` (fuzz/fuzz_targets/usi.rs) reads commands exactly as the engine does.

use std::time::Duration;
use toritsume::notation::{parse_position, quoted};
use toritsume::rules::Position;

/// The deepest `go perft` counts (as `toritsume perft --depth`).
pub const MAX_PERFT_DEPTH: u32 = 30;

/// A command the engine takes.
#[derive(Debug)]
pub enum Command {
    /// A blank line.
    Empty,
    /// `usi`: the engine's name and options.
    Usi,
    /// `isready`.
    IsReady,
    /// `setoption name NAME value VALUE` (the name and value as sent, words joined by one
    /// space; the engine judges them).
    SetOption {
        /// The option's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// `usinewgame`.
    UsiNewGame,
    /// `position ...`: the position read.
    Position(Box<Position>),
    /// `go mate MS|infinite` (`true`) or a plain `go ...` (`false`), with its time limit
    /// (none: until stopped).
    Go {
        /// `go mate` rather than a plain `go`.
        mate: bool,
        /// The time limit.
        limit: Option<Duration>,
    },
    /// `go perft N`.
    GoPerft(u32),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `gameover ...` or `ponderhit`: nothing to do.
    Ignored,
}

/// Why a command line cannot be taken, and so what the engine answers besides an `info
/// string` saying why.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Only the `info string`.
    Info(String),
    /// A `position` that cannot be read: the earlier position is dropped too, so that a
    /// `go` cannot answer for it.
    Position(String),
    /// A `go` that cannot be taken: answered as a search that found nothing (`checkmate
    /// timeout` to `go mate`, `bestmove resign` to a plain `go`).
    Go {
        /// `go mate` rather than a plain `go`.
        mate: bool,
        /// Why.
        why: String,
    },
}

/// Reads one command line.
pub fn parse(line: &str) -> Result<Command, Refusal> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&cmd) = tokens.first() else {
        return Ok(Command::Empty);
    };
    match cmd {
        "usi" => Ok(Command::Usi),
        "isready" => Ok(Command::IsReady),
        "setoption" => setoption(&tokens),
        "usinewgame" => Ok(Command::UsiNewGame),
        "position" => parse_position(line)
            .map(|p| Command::Position(Box::new(p)))
            .map_err(|e| {
                Refusal::Position(format!("position ignored, and no position is set now: {e}"))
            }),
        "go" if tokens.get(1) == Some(&"perft") => go_perft(tokens.get(2).copied()),
        "go" => go(&tokens),
        "stop" => Ok(Command::Stop),
        "quit" => Ok(Command::Quit),
        "gameover" | "ponderhit" => Ok(Command::Ignored),
        other => Err(Refusal::Info(format!(
            "unknown command `{}`",
            quoted(other)
        ))),
    }
}

/// `setoption name <id> value <x>`: `name` first, then the id, then `value` (a `value`
/// before `name` is no option of ours).
fn setoption(tokens: &[&str]) -> Result<Command, Refusal> {
    let needs = |what: &str| {
        Refusal::Info(format!(
            "setoption needs `name <option> value <value>`{what}"
        ))
    };
    let name_at = tokens.iter().position(|&t| t == "name");
    let value_at = name_at.and_then(|n| {
        tokens[n + 1..]
            .iter()
            .position(|&t| t == "value")
            .map(|v| n + 1 + v)
    });
    let (Some(n), Some(v)) = (name_at, value_at) else {
        return Err(needs(", in that order"));
    };
    if v == n + 1 {
        return Err(needs(": no option is named"));
    }
    Ok(Command::SetOption {
        name: tokens[n + 1..v].join(" "),
        value: tokens[v + 1..].join(" "),
    })
}

/// `go perft N`, N from 1 to [`MAX_PERFT_DEPTH`].
fn go_perft(depth: Option<&str>) -> Result<Command, Refusal> {
    depth
        .and_then(|d| d.parse::<u32>().ok())
        .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
        .map(Command::GoPerft)
        .ok_or_else(|| {
            Refusal::Info(format!(
                "go perft: the depth is a number from 1 to {MAX_PERFT_DEPTH}"
            ))
        })
}

/// `go mate MS|infinite`, or a plain `go` with its limits.
fn go(tokens: &[&str]) -> Result<Command, Refusal> {
    let mate = tokens.get(1) == Some(&"mate");
    let limit = if mate {
        match tokens.get(2) {
            Some(&"infinite") | None => None,
            Some(t) => match t.parse::<u64>() {
                Ok(ms) => Some(Duration::from_millis(ms)),
                Err(_) => {
                    return Err(Refusal::Go {
                        mate,
                        why: format!(
                            "go mate: `{}` is neither a time in ms nor infinite",
                            quoted(t)
                        ),
                    });
                }
            },
        }
    } else {
        plain_go_limit(&tokens[1..]).map_err(|why| Refusal::Go { mate, why })?
    };
    Ok(Command::Go { mate, limit })
}

/// The time limit of a plain `go`: none for `go` and `go infinite`, else `movetime`, or
/// the `byoyomi` with what is left of the side to move's clock (`btime`/`wtime`).
fn plain_go_limit(args: &[&str]) -> Result<Option<Duration>, String> {
    let mut movetime = None;
    let mut byoyomi = None;
    let mut infinite = args.is_empty();
    let mut it = args.iter();
    while let Some(&k) = it.next() {
        match k {
            "infinite" => infinite = true,
            "movetime" | "byoyomi" | "btime" | "wtime" | "binc" | "winc" => {
                let v = it.next().ok_or(format!("go: `{k}` needs a number of ms"))?;
                let ms: u64 = v
                    .parse()
                    .map_err(|_| format!("go: `{k} {}` is not a number of ms", quoted(v)))?;
                match k {
                    "movetime" => movetime = Some(ms),
                    "byoyomi" => byoyomi = Some(ms),
                    _ => {}
                }
            }
            "ponder" => {}
            other => return Err(format!("go: unknown argument `{}`", quoted(other))),
        }
    }
    Ok(if infinite {
        None
    } else {
        movetime.or(byoyomi).map(Duration::from_millis)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_with_their_arguments_checked() {
        assert!(matches!(parse("  "), Ok(Command::Empty)));
        assert!(matches!(
            parse("setoption name USI_Hash value 32"),
            Ok(Command::SetOption { name, value }) if name == "USI_Hash" && value == "32"
        ));
        for bad in [
            "setoption value 3 name USI_Hash",
            "setoption name value 3",
            "setoption",
        ] {
            assert!(
                matches!(parse(bad), Err(Refusal::Info(why)) if why.starts_with("setoption needs")),
                "{bad}"
            );
        }
        assert!(matches!(parse("go perft 30"), Ok(Command::GoPerft(30))));
        assert!(matches!(parse("go perft 31"), Err(Refusal::Info(_))));
        assert!(matches!(
            parse("go mate 500"),
            Ok(Command::Go { mate: true, limit: Some(d) }) if d == Duration::from_millis(500)
        ));
        assert!(matches!(
            parse("go btime 0 wtime 0 byoyomi 1000"),
            Ok(Command::Go { mate: false, limit: Some(d) }) if d == Duration::from_secs(1)
        ));
        assert!(matches!(
            parse("go mate soon"),
            Err(Refusal::Go { mate: true, .. })
        ));
        assert!(matches!(
            parse("go movetime"),
            Err(Refusal::Go { mate: false, .. })
        ));
        assert!(matches!(
            parse("position sfen 7/7 b - 1"),
            Err(Refusal::Position(_))
        ));
        assert!(matches!(
            parse("position startpos moves 3d3c"),
            Ok(Command::Position(_))
        ));
        assert!(matches!(parse("frobnicate"), Err(Refusal::Info(_))));
    }
}
