//! The problem record: one JSON object per line in `problems/*.jsonl`, as the generator
//! writes it and the solver, verifier and book read it. Only `sfen` is required on input;
//! unknown fields are kept so that a record passes through tools unchanged.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A mate problem and what is known about it.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Problem {
    /// The position, attacker to move (SFEN; FEN is accepted on input too).
    pub sfen: String,
    /// Solution length in plies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<u16>,
    /// Main line in USI.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// Main line in Hodges notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hodges: Vec<String>,
    /// Soundness verdict (`sound`, `cooked`, `flawed`, `nomate`, `unknown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    /// Where the problem comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// A remark (what the problem shows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Every other field, preserved.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Problem {
    /// Reads a record from one JSON line; the error says what is missing or malformed.
    pub fn from_json(line: &str) -> Result<Problem, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not valid JSON: {e}"))?;
        let Value::Object(mut map) = v else {
            return Err("a problem record must be a JSON object".into());
        };
        // Accept `position` or `fen` in place of `sfen`.
        if !map.contains_key("sfen") {
            for alt in ["position", "fen"] {
                if let Some(x) = map.remove(alt) {
                    map.insert("sfen".into(), x);
                    break;
                }
            }
        }
        match map.get("sfen") {
            Some(Value::String(_)) => {}
            Some(_) => return Err("field `sfen` must be a string".into()),
            None => return Err("the record has no `sfen` field".into()),
        }
        serde_json::from_value(Value::Object(map)).map_err(|e| format!("bad problem record: {e}"))
    }

    /// The record as one JSON line.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a problem record serialises")
    }
}
