//! The problem record: one JSON object per line in `problems/*.jsonl`, as the generator
//! writes it and the solver, verifier and book read it (and the forms other programs keep
//! puzzles in, read into records by [`foreign`]). Only `sfen` is required on input;
//! unknown fields are kept, each with the exact text it was read as, so that a record passes
//! through tools unchanged: `123456789012345678901234567890`, `1E2` or `-0` come out as they
//! went in.

use crate::notation::{ParseError, parse_any_move, parse_position, quoted};
use crate::rules::{Move, Position};
use crate::solver::{DefenderHand, prepare};
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

pub mod answer;
pub mod claims;
pub mod foreign;

/// A mate problem and what is known about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problem {
    /// The position, attacker to move (SFEN; FEN is accepted on input too).
    pub sfen: String,
    /// Solution length in plies.
    pub plies: Option<u16>,
    /// Main line in USI.
    pub moves: Vec<String>,
    /// Main line in Hodges notation.
    pub hodges: Vec<String>,
    /// Soundness verdict (`sound`, `cooked`, `flawed`, `nomate`, `unknown`).
    pub verdict: Option<String>,
    /// Where the problem comes from.
    pub source: Option<String>,
    /// A remark (what the problem shows).
    pub note: Option<String>,
    /// Whose pieces the defender holds, when the record says (`rest`, the tsume convention,
    /// or `given`: the problem states the defender's hand, the SFEN's); `None` leaves it to
    /// the command (`--defender-hand`, by default `rest`).
    pub defender_hand: Option<DefenderHand>,
    /// Every other field, preserved.
    pub extra: Map<String, Value>,
    /// The text each field of `extra` was read as; written back as it was while the value
    /// is unchanged.
    pub extra_text: BTreeMap<String, String>,
}

/// What is wrong with a problem record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// The line is not JSON.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// The line is a position (SFEN or FEN), not a record: the commands that read records
    /// want its solution too.
    #[error(
        "a position, not a problem record (a JSON object with its solution): `toritsume \
         verify --json FILE` or `toritsume solve --json FILE` makes records of a file of \
         positions"
    )]
    PositionOnly,
    /// The line is JSON, but not an object.
    #[error("a problem record must be a JSON object")]
    NotAnObject,
    /// No `sfen` (nor `position`, `fen` or `f`) field.
    #[error("the record has no `sfen` field (nor `position`, `fen` or pychess-variants' `f`)")]
    NoPosition,
    /// A puzzle of another variant (a pychess-variants record's `v`, an EPD line's
    /// `variant`).
    #[error("a puzzle of `{0}`, not of Tori Shogi (`torishogi`)")]
    Variant(String),
    /// A CSV row with no position in it.
    #[error("the row has no position: its `FEN` and `SFEN` columns are empty or missing")]
    NoCsvPosition,
    /// The position field (`sfen`, or `position` or `fen` in its place, named here) is not
    /// a string.
    #[error("field `{0}` must be a string (an SFEN or FEN)")]
    PositionNotAString(&'static str),
    /// A known field of the wrong type.
    #[error("field `{name}`: {reason}")]
    Field {
        /// The field.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The position cannot be read or breaks a rule.
    #[error("{0}")]
    Position(ParseError),
    /// A move of the main line cannot be read or is not legal.
    #[error("moves: {0}")]
    MainLine(ParseError),
    /// A search of the record's problem was stopped by a limit before it decided what the
    /// record is to be checked against (the limit named).
    #[error("undecided: {0}")]
    Undecided(String),
    /// A claim of the record (its length, line, status, verdict, themes or rating) that the
    /// record itself, or a search of its position, contradicts ([`claims`]).
    #[error("{field}: {reason}")]
    Claim {
        /// The field that makes the claim.
        field: &'static str,
        /// What contradicts it.
        reason: String,
    },
}

/// Reads an optional field of a known type.
fn field<T: serde::de::DeserializeOwned>(
    map: &mut Map<String, Value>,
    name: &str,
) -> Result<Option<T>, ProblemError> {
    match map.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v)
            .map(Some)
            .map_err(|e| ProblemError::Field {
                name: name.to_string(),
                reason: e.to_string(),
            }),
    }
}

impl Problem {
    /// The problem position as written (attacker to move; the defender's hand as given).
    pub fn position(&self) -> Result<Position, ProblemError> {
        parse_position(&self.sfen).map_err(ProblemError::Position)
    }

    /// The convention the record's problem is posed in: its own `defender_hand`, else the
    /// tsume convention (`rest`).
    pub fn convention(&self) -> DefenderHand {
        self.defender_hand.unwrap_or_default()
    }

    /// The position the main line is played from: the defender holding every piece not on
    /// the board nor in the attacker's hand (the tsume convention), or, in a record whose
    /// `defender_hand` is `given`, the hand its SFEN gives.
    pub fn start(&self) -> Result<Position, ProblemError> {
        Ok(prepare(&self.position()?, self.convention()))
    }

    /// The position the main line is played from ([`Problem::start`]) and the main line
    /// read from it, each move checked legal in turn.
    pub fn main_line(&self) -> Result<(Position, Vec<Move>), ProblemError> {
        let start = self.start()?;
        let mut pos = start.clone();
        let mut moves = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let m = parse_any_move(&pos, text).map_err(|reason| {
                ProblemError::MainLine(ParseError::Move {
                    index: i + 1,
                    text: quoted(text),
                    reason,
                })
            })?;
            pos.do_move(m);
            moves.push(m);
        }
        Ok((start, moves))
    }

    /// Reads a record from one JSON line; the error says what is missing or malformed.
    pub fn from_json(line: &str) -> Result<Problem, ProblemError> {
        let json = |e: serde_json::Error| ProblemError::Json(e.to_string());
        let v: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            // A line that reads as a position is one, given where a record is wanted.
            Err(_) if crate::notation::parse_position(line).is_ok() => {
                return Err(ProblemError::PositionOnly);
            }
            Err(e) => return Err(json(e)),
        };
        let Value::Object(mut map) = v else {
            return Err(ProblemError::NotAnObject);
        };
        let mut text: BTreeMap<String, Box<RawValue>> = serde_json::from_str(line).map_err(json)?;
        // Accept `position` or `fen` in place of `sfen`, or a pychess-variants record's `f`.
        let mut name = "sfen";
        if !map.contains_key("sfen") {
            for alt in ["position", "fen", "f"] {
                if let Some(x) = map.remove(alt) {
                    text.remove(alt);
                    map.insert("sfen".into(), x);
                    name = alt;
                    break;
                }
            }
        }
        let sfen = match map.remove("sfen") {
            Some(Value::String(s)) => s,
            Some(_) => return Err(ProblemError::PositionNotAString(name)),
            None => return Err(ProblemError::NoPosition),
        };
        if name == "f" {
            foreign::check_pychess(&mut map, &sfen)?;
        }
        let p = Problem {
            sfen,
            plies: field(&mut map, "plies")?,
            moves: field(&mut map, "moves")?.unwrap_or_default(),
            hodges: field(&mut map, "hodges")?.unwrap_or_default(),
            verdict: field(&mut map, "verdict")?,
            source: field(&mut map, "source")?,
            note: field(&mut map, "note")?,
            defender_hand: field(&mut map, "defender_hand")?,
            extra_text: map
                .keys()
                .filter_map(|k| text.get(k).map(|t| (k.clone(), t.get().to_string())))
                .collect(),
            extra: map,
        };
        Ok(p)
    }

    /// The text of unknown field `key` as it should be written: as it was read while its
    /// value is unchanged, else the value written anew.
    pub fn extra_field_text(&self, key: &str) -> Option<String> {
        let v = self.extra.get(key)?;
        Some(match self.extra_text.get(key) {
            Some(t) if serde_json::from_str::<Value>(t).ok().as_ref() == Some(v) => t.clone(),
            _ => v.to_string(),
        })
    }

    /// The record as one JSON line: the known fields, then the others in name order.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        let mut push = |key: &str, value: String| {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&Value::from(key).to_string());
            out.push(':');
            out.push_str(&value);
        };
        let json = |v: Value| v.to_string();
        push("sfen", json(Value::from(self.sfen.as_str())));
        if let Some(d) = self.defender_hand {
            push("defender_hand", json(Value::from(d.to_string())));
        }
        if let Some(p) = self.plies {
            push("plies", p.to_string());
        }
        if !self.moves.is_empty() {
            push("moves", json(Value::from(self.moves.clone())));
        }
        if !self.hodges.is_empty() {
            push("hodges", json(Value::from(self.hodges.clone())));
        }
        for (key, v) in [
            ("verdict", &self.verdict),
            ("source", &self.source),
            ("note", &self.note),
        ] {
            if let Some(s) = v {
                push(key, json(Value::from(s.as_str())));
            }
        }
        for key in self.extra.keys() {
            if let Some(t) = self.extra_field_text(key) {
                push(key, t);
            }
        }
        out.push('}');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_fields_come_out_as_they_went_in() {
        let line = r#"{"sfen":"4pk1/5l1/3C2F/7/7/7/7 b C 1","a":123456789012345678901234567890,"b":18446744073709551616,"c":-9223372036854775809,"d":1E2,"e":-0,"f":1e400,"g":{"x": [1.50, "s"]},"index":7}"#;
        let p = Problem::from_json(line).unwrap();
        let out = p.to_json();
        for field in [
            r#""a":123456789012345678901234567890"#,
            r#""b":18446744073709551616"#,
            r#""c":-9223372036854775809"#,
            r#""d":1E2"#,
            r#""e":-0"#,
            r#""f":1e400"#,
            r#""g":{"x": [1.50, "s"]}"#,
            r#""index":7"#,
        ] {
            assert!(out.contains(field), "{field} not in {out}");
        }
        // Read again, the same.
        assert_eq!(Problem::from_json(&out).unwrap().to_json(), out);
    }

    #[test]
    fn a_position_given_for_a_record_is_named_as_one() {
        for line in [
            "4pk1/5l1/3C2F/7/7/7/7 b C 1",
            "startpos moves 3d3c",
            "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1",
        ] {
            assert_eq!(
                Problem::from_json(line),
                Err(ProblemError::PositionOnly),
                "{line}"
            );
        }
        // Neither JSON nor a position: the JSON error.
        assert!(matches!(
            Problem::from_json("4pk1/5l1 b C 1"),
            Err(ProblemError::Json(_))
        ));
    }

    #[test]
    fn a_changed_field_is_written_anew_and_known_fields_are_typed() {
        let mut p =
            Problem::from_json(r#"{"position":"k6/7/7/7/7/7/6K b S 1","plies":3,"seed":1E0}"#)
                .unwrap();
        assert_eq!(p.sfen, "k6/7/7/7/7/7/6K b S 1");
        assert_eq!(p.plies, Some(3));
        assert!(!p.extra.contains_key("position"));
        p.extra.insert("seed".into(), Value::from(2));
        assert_eq!(
            p.to_json(),
            r#"{"sfen":"k6/7/7/7/7/7/6K b S 1","plies":3,"seed":2}"#
        );
        assert!(matches!(
            Problem::from_json(r#"{"sfen":"x","plies":"three"}"#),
            Err(ProblemError::Field { name, .. }) if name == "plies"
        ));
        assert_eq!(
            Problem::from_json(r#"{"plies":3}"#),
            Err(ProblemError::NoPosition)
        );
        assert_eq!(Problem::from_json("[1]"), Err(ProblemError::NotAnObject));
        // A position that is not a string is named by the field the record gave it in.
        for (line, name) in [
            (r#"{"sfen":5}"#, "sfen"),
            (r#"{"position":["k6"]}"#, "position"),
            (r#"{"fen":null,"plies":3}"#, "fen"),
        ] {
            let e = Problem::from_json(line).unwrap_err();
            assert_eq!(e, ProblemError::PositionNotAString(name), "{line}");
            assert!(e.to_string().contains(&format!("`{name}`")), "{e}");
        }
        assert!(matches!(
            Problem::from_json("{"),
            Err(ProblemError::Json(_))
        ));
    }

    #[test]
    fn a_record_may_state_the_defenders_hand() {
        // White's hand as the SFEN gives it: one pheasant, not the rest.
        let line =
            r#"{"sfen":"3k3/7/3C3/7/7/7/6K b Cp 1","defender_hand":"given","moves":["C*4b"]}"#;
        let p = Problem::from_json(line).unwrap();
        assert_eq!(p.defender_hand, Some(DefenderHand::Given));
        let (start, _) = p.main_line().unwrap();
        assert_eq!(start.hand(crate::rules::Color::White).total(), 1);
        // Written back where it was read (after the position), read again the same.
        assert_eq!(
            p.to_json(),
            r#"{"sfen":"3k3/7/3C3/7/7/7/6K b Cp 1","defender_hand":"given","moves":["C*4b"]}"#
        );
        assert_eq!(Problem::from_json(&p.to_json()).unwrap(), p);
        // Stated as the convention, or not at all: the rest (30 pieces less the crane on the
        // board and the one in hand).
        for line in [
            r#"{"sfen":"3k3/7/3C3/7/7/7/6K b Cp 1","defender_hand":"rest"}"#,
            r#"{"sfen":"3k3/7/3C3/7/7/7/6K b Cp 1"}"#,
        ] {
            let p = Problem::from_json(line).unwrap();
            assert_eq!(p.convention(), DefenderHand::Rest);
            assert_eq!(
                p.start().unwrap().hand(crate::rules::Color::White).total(),
                28
            );
        }
        assert!(matches!(
            Problem::from_json(r#"{"sfen":"3k3/7/3C3/7/7/7/6K b C 1","defender_hand":"all"}"#),
            Err(ProblemError::Field { name, .. }) if name == "defender_hand"
        ));
    }

    #[test]
    fn position_and_main_line_are_read_with_the_defender_holding_the_rest() {
        // Black: crane in hand; White: phoenix on 4a. The rest (every other piece but the
        // phoenixes) is White's in the problem convention.
        let p =
            Problem::from_json(r#"{"sfen":"3k3/7/3C3/7/7/7/6K b C 1","moves":["C*4b"]}"#).unwrap();
        let pos = p.position().unwrap();
        assert!(pos.hand(crate::rules::Color::White).is_empty());
        let (start, line) = p.main_line().unwrap();
        assert_eq!(start.hand(crate::rules::Color::White).total(), 30 - 2);
        assert_eq!(line.len(), 1);
        assert_eq!(line[0].usi(), "C*4b");
        let bad =
            Problem::from_json(r#"{"sfen":"3k3/7/3C3/7/7/7/6K b C 1","moves":["C*4b","4a4b"]}"#)
                .unwrap();
        assert!(matches!(
            bad.main_line(),
            Err(ProblemError::MainLine(ParseError::Move { index: 2, .. }))
        ));
        let unreadable = Problem::from_json(r#"{"sfen":"3k3/7 b - 1"}"#).unwrap();
        assert!(matches!(
            unreadable.position(),
            Err(ProblemError::Position(ParseError::Board(_)))
        ));
    }
}
