//! A choice of some of a file's lines (`3,10-12,40-`), as `--lines` gives it, and the items
//! of an input on those lines.

use super::{InputError, Item};

/// A choice of lines of an input file (`--lines 3,10-12,40-`): line numbers counted from 1
/// as in the reports' `line N of FILE`, and ranges of them, both ends included (an open
/// end, `40-`, is kept as `usize::MAX`: to the end of the file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineChoice(pub(crate) Vec<(usize, usize)>);

impl std::fmt::Display for LineChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|&(a, b)| range_text(a, b)).collect();
        f.write_str(&parts.join(","))
    }
}

/// A range as `--lines` writes it: `7`, `3-5`, or `40-` to the end.
fn range_text(a: usize, b: usize) -> String {
    if b == usize::MAX {
        format!("{a}-")
    } else if a == b {
        a.to_string()
    } else {
        format!("{a}-{b}")
    }
}

impl LineChoice {
    /// Whether line `n` is chosen.
    pub fn contains(&self, n: usize) -> bool {
        self.0.iter().any(|&(a, b)| (a..=b).contains(&n))
    }

    /// What this choice leaves from line `n` on (`3,10-12` from 11: `11-12`); with no
    /// choice (`None`: every line), line `n` to the end.
    pub fn from_line(choice: Option<&LineChoice>, n: usize) -> LineChoice {
        match choice {
            Some(c) => LineChoice(
                c.0.iter()
                    .filter(|&&(_, b)| b >= n)
                    .map(|&(a, b)| (a.max(n), b))
                    .collect(),
            ),
            None => LineChoice(vec![(n, usize::MAX)]),
        }
    }
}

impl std::str::FromStr for LineChoice {
    type Err = String;

    fn from_str(text: &str) -> Result<LineChoice, String> {
        line_choice(text)
    }
}

/// Parses a choice of lines: comma-separated line numbers (from 1), ranges `A-B` with A ≤ B,
/// and ranges `A-` to the end of the file.
pub fn line_choice(text: &str) -> Result<LineChoice, String> {
    let number = |w: &str| -> Result<usize, String> {
        match w.trim().parse::<usize>() {
            Ok(0) => Err("lines are numbered from 1".to_string()),
            Ok(n) => Ok(n),
            Err(_) => Err(format!(
                "`{}` is not a line number (give numbers and ranges such as 3,10-12)",
                crate::notation::quoted(w.trim())
            )),
        }
    };
    let mut ranges = Vec::new();
    for part in text.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, "")) if !a.trim().is_empty() => (number(a)?, usize::MAX),
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(part)?;
                (n, n)
            }
        };
        if a > b {
            return Err(format!("the range {a}-{b} runs backwards"));
        }
        ranges.push((a, b));
    }
    Ok(LineChoice(ranges))
}

/// The items on the lines `choice` names (all of them without a choice), in file order. An
/// error when the input is not a file or standard input, or when a chosen line holds no
/// position (past the end, blank or a comment): a choice that silently shrank would
/// measure or check less than asked.
pub fn choose_lines(
    items: Vec<Item>,
    choice: Option<&LineChoice>,
) -> Result<Vec<Item>, InputError> {
    let Some(choice) = choice else {
        return Ok(items);
    };
    if items.iter().any(|i| i.line.is_none()) {
        return Err(InputError(
            "--lines chooses lines of a file, but the input is a position".to_string(),
        ));
    }
    let source = items
        .first()
        .and_then(|i| i.origin.split_once(" of ").map(|(_, f)| f.to_string()))
        .unwrap_or_else(|| "the input".to_string());
    // The items are in file order, each on a line of its own.
    let present: Vec<usize> = items.iter().filter_map(|i| i.line).collect();
    let last = present.last().copied().unwrap_or(0);
    // A range need not be full (the blank lines and comments in it are passed over), but it
    // must hold a position and end within the file; a single line must hold one itself.
    let missing: Vec<(usize, usize)> = choice
        .0
        .iter()
        .copied()
        .filter(|&(a, b)| {
            (b > last && b != usize::MAX) || !present.iter().any(|n| (a..=b).contains(n))
        })
        .collect();
    if !missing.is_empty() {
        let named: Vec<String> = missing
            .iter()
            .map(|&(a, b)| {
                let s = if a == b { "" } else { "s" };
                format!("line{s} {}", range_text(a, b))
            })
            .collect();
        let one_line = matches!(missing[..], [(a, b)] if a == b);
        return Err(InputError(format!(
            "--lines: {} of {source} hold{} no position (past the end, blank or a comment)",
            named.join(", "),
            if one_line { "s" } else { "" }
        )));
    }
    Ok(items
        .into_iter()
        .filter(|i| i.line.is_some_and(|n| choice.contains(n)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{read_one, read_text};

    #[test]
    fn line_choices_read_numbers_and_ranges() {
        let c = line_choice("3,10-12, 20").unwrap();
        let chosen: Vec<usize> = (1..=25).filter(|&n| c.contains(n)).collect();
        assert_eq!(chosen, vec![3, 10, 11, 12, 20]);
        assert_eq!(line_choice("7-7").unwrap(), LineChoice(vec![(7, 7)]));
        assert_eq!(
            line_choice("2,9-").unwrap(),
            LineChoice(vec![(2, 2), (9, usize::MAX)])
        );
        assert_eq!(
            line_choice("2, 9-11,40-").unwrap().to_string(),
            "2,9-11,40-"
        );
        for bad in ["", "0", "2-0", "5-3", "x", "1,,2", "-", "0-", "-4", "3.5"] {
            assert!(line_choice(bad).is_err(), "{bad:?} accepted");
        }
        assert!(line_choice("5-3").unwrap_err().contains("backwards"));
        assert!(line_choice("0").unwrap_err().contains("from 1"));
    }

    #[test]
    fn chosen_lines_are_those_of_the_file_and_must_hold_positions() {
        let file = b"# a comment\n4pk1/5l1/3C2F/7/7/7/7 b C 1\n\n5k1/7/3C2F/7/7/7/7 b C 1\nbad\n";
        let lines = |items: &[Item]| items.iter().map(|i| i.line.unwrap()).collect::<Vec<_>>();
        let all = read_text(file, "set.txt");
        assert_eq!(lines(&all), vec![2, 4, 5]);
        let pick = |text: &str| {
            choose_lines(
                read_text(file, "set.txt"),
                Some(&line_choice(text).unwrap()),
            )
        };
        let refusal = |text: &str| pick(text).err().expect("refused").to_string();
        assert_eq!(lines(&pick("4").unwrap()), vec![4]);
        assert_eq!(lines(&pick("1-3,5").unwrap()), vec![2, 5]);
        let e = refusal("2,3,9-12");
        assert!(
            e.contains("line 3, lines 9-12 of set.txt hold no position"),
            "{e}"
        );
        let e = refusal("4-6");
        assert!(e.contains("lines 4-6 of set.txt hold no position"), "{e}");
        // Told from the positions present, not by walking the range.
        let e = refusal("1000000000-18446744073709551615");
        assert!(e.contains("hold no position"), "{e}");
        let e = refusal("6");
        assert!(e.contains("line 6 of set.txt holds no position"), "{e}");
        // To the end of the file.
        assert_eq!(lines(&pick("3-").unwrap()), vec![4, 5]);
        assert_eq!(lines(&pick("2,5-").unwrap()), vec![2, 5]);
        let e = refusal("6-");
        assert!(e.contains("lines 6- of set.txt hold no position"), "{e}");
        let one = vec![read_one("4pk1/5l1/3C2F/7/7/7/7 b C 1", "argument".into())];
        let e = choose_lines(one, Some(&line_choice("1").unwrap()))
            .err()
            .expect("refused");
        assert!(e.to_string().contains("the input is a position"), "{e}");
    }
}
