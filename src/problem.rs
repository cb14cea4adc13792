//! The problem record: one JSON object per line in `problems/*.jsonl`, as the generator
//! writes it and the solver, verifier and book read it. Only `sfen` is required on input;
//! unknown fields are kept, each with the exact text it was read as, so that a record passes
//! through tools unchanged: `123456789012345678901234567890`, `1E2` or `-0` come out as they
//! went in.

use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

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
    /// Every other field, preserved.
    pub extra: Map<String, Value>,
    /// The text each field of `extra` was read as; written back as it was while the value
    /// is unchanged.
    pub extra_text: BTreeMap<String, String>,
}

/// Reads an optional field of a known type.
fn field<T: serde::de::DeserializeOwned>(
    map: &mut Map<String, Value>,
    name: &str,
) -> Result<Option<T>, String> {
    match map.remove(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v)
            .map(Some)
            .map_err(|e| format!("field `{name}`: {e}")),
    }
}

impl Problem {
    /// Reads a record from one JSON line; the error says what is missing or malformed.
    pub fn from_json(line: &str) -> Result<Problem, String> {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("not valid JSON: {e}"))?;
        let Value::Object(mut map) = v else {
            return Err("a problem record must be a JSON object".into());
        };
        let mut text: BTreeMap<String, Box<RawValue>> =
            serde_json::from_str(line).map_err(|e| format!("not valid JSON: {e}"))?;
        // Accept `position` or `fen` in place of `sfen`.
        if !map.contains_key("sfen") {
            for alt in ["position", "fen"] {
                if let Some(x) = map.remove(alt) {
                    text.remove(alt);
                    map.insert("sfen".into(), x);
                    break;
                }
            }
        }
        let sfen = match map.remove("sfen") {
            Some(Value::String(s)) => s,
            Some(_) => return Err("field `sfen` must be a string".into()),
            None => return Err("the record has no `sfen` field".into()),
        };
        let p = Problem {
            sfen,
            plies: field(&mut map, "plies")?,
            moves: field(&mut map, "moves")?.unwrap_or_default(),
            hodges: field(&mut map, "hodges")?.unwrap_or_default(),
            verdict: field(&mut map, "verdict")?,
            source: field(&mut map, "source")?,
            note: field(&mut map, "note")?,
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
        assert!(
            Problem::from_json(r#"{"sfen":"x","plies":"three"}"#)
                .unwrap_err()
                .contains("field `plies`")
        );
        assert!(
            Problem::from_json(r#"{"plies":3}"#)
                .unwrap_err()
                .contains("no `sfen`")
        );
    }
}
