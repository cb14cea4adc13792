//! The variations of a solution: at each defender ply of the main line, every other real
//! defence (useless interpositions set aside, as everywhere), its exact length and the mate
//! that answers it, read as the main line is read (shortest attack, longest defence, the
//! same whatever the table size).

use super::limits::StopReason;
use super::mainline::{defences, line_from};
use super::{Solution, Solver, UselessInterposition};
use crate::rules::{Hand, Move};
use std::time::{Duration, Instant};

/// A defence other than the main line's, and the mate that answers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// The defender ply of the main line it replaces (1-based, even).
    pub ply: usize,
    /// The defence.
    pub mv: Move,
    /// Plies from the defence to the mate, the defence not counted (exact).
    pub plies: u16,
    /// The line after the defence, the attacker's move first: its own main line.
    pub moves: Vec<Move>,
    /// Whether the line was read to the mate (a limit can cut it short).
    pub complete: bool,
    /// The attacker's hand at the end of the line (a variation may end with pieces to
    /// spare: only the main line's spare pieces are a flaw).
    pub end_hand: Hand,
    /// Useless interpositions the line leaves out, numbered by the plies of the whole
    /// solution (the defence is ply [`Variation::ply`]).
    pub useless: Vec<UselessInterposition>,
}

/// The variations of a main line and what reading them took.
#[derive(Clone, Debug, Default)]
pub struct Variations {
    /// The variations, by ply; at one ply the longest first, then in move-generation order.
    pub list: Vec<Variation>,
    /// Whether every defender ply was gone through (a limit can stop the reading: the list
    /// is then the variations of the plies before it, in full).
    pub complete: bool,
    /// The defender ply at which a limit stopped the reading.
    pub stopped_at: Option<usize>,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// The limit that stopped the reading, if one did.
    pub stopped_by: Option<StopReason>,
}

impl Solver {
    /// The variations of `sol`, a solution this solver found (its position is the one
    /// searched): at each defender ply of the main line, the other real defences with their
    /// exact lengths and lines. The solver's limits apply afresh. Nothing for a solution
    /// that is not a mate proven shortest with its main line read to the end.
    pub fn variations(&mut self, sol: &Solution) -> Variations {
        let start = Instant::now();
        let mut out = Variations::default();
        let Some(length) = sol.plies.filter(|_| sol.is_whole_mate()) else {
            return out;
        };
        let limits = self.limits();
        let s = &mut self.searcher;
        s.set_position(sol.position.clone());
        s.begin(limits);
        let mut pos = sol.position.clone();
        let mut ancestors = Vec::new();
        out.complete = true;
        for (i, &m) in sol.moves.iter().enumerate() {
            let ply = i + 1;
            if ply % 2 == 0 {
                let r = length - i as u16;
                let (mut found, _) = defences(s, &pos, r, &mut ancestors);
                if s.stopped() {
                    out.complete = false;
                    out.stopped_at = Some(ply);
                    break;
                }
                // Stable: equally long defences keep their generation order.
                found.sort_by_key(|&(_, len)| std::cmp::Reverse(len));
                ancestors.push(pos.key());
                let before = out.list.len();
                for (e, len) in found.into_iter().filter(|&(e, _)| e != m) {
                    let mut child = pos.clone();
                    child.do_move(e);
                    let line = line_from(s, &child, len, &mut ancestors, ply);
                    if s.stopped() {
                        break;
                    }
                    out.list.push(Variation {
                        ply,
                        mv: e,
                        plies: len,
                        complete: line.complete && line.moves.len() == len as usize,
                        moves: line.moves,
                        end_hand: line.end_hand,
                        useless: line.useless,
                    });
                }
                ancestors.pop();
                if s.stopped() {
                    // A ply's variations are given in full or not at all.
                    out.list.truncate(before);
                    out.complete = false;
                    out.stopped_at = Some(ply);
                    break;
                }
            }
            ancestors.push(pos.key());
            pos.do_move(m);
        }
        out.nodes = s.nodes();
        out.stopped_by = s.stopped_by();
        out.time = start.elapsed();
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::parse_position;
    use crate::solver::{Solver, SolverConfig, Status};

    use crate::notation::usi::line_to_usi as usi;

    /// The mate in 7 worked out by hand (README "solve"): after F*6b 6a6b 7d6c the
    /// phoenix on 6b can go to 7a (the main line) or 6a, every other square being guarded
    /// (5a and 5c by the swallow and the falcon, 7b by the falcon, 6c by the crane behind
    /// it); from 6a, S*6b drives it back to 7a and a right quail dropped on file 7 mates
    /// (on 7b the falcon guards it; from further down the file an interposition on 7b is
    /// useless, the falcon or the quail taking it).
    /// At plies 2 and 6 the phoenix has one move only.
    #[test]
    fn the_other_defence_of_the_mate_in_seven_and_its_mate() {
        let pos = parse_position("1k5/2S4/7/FC5/7/7/7 b FRS 1").unwrap();
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let sol = solver.solve(&pos);
        assert_eq!((sol.status, sol.plies), (Status::Mate, Some(7)));
        let v = solver.variations(&sol);
        assert!(v.complete && v.stopped_by.is_none());
        assert_eq!(v.list.len(), 1, "{:?}", v.list);
        let var = &v.list[0];
        assert_eq!(
            (var.ply, var.mv.usi(), var.plies),
            (4, "6b6a".to_string(), 3)
        );
        let line = usi(&var.moves);
        assert_eq!(line[..2], ["S*6b", "6a7a"]);
        assert!(
            ["R*7b", "R*7c", "R*7d", "R*7e", "R*7f", "R*7g"].contains(&line[2].as_str()),
            "{line:?}"
        );
        assert!(var.complete && var.end_hand.is_empty());
    }

    /// No variations where there is nothing to vary: a mate in one, a position without a
    /// mate, and a solution whose length a limit left unproven.
    #[test]
    fn nothing_to_vary() {
        let mut solver = Solver::new(SolverConfig::default()).unwrap();
        let one = parse_position("3k3/7/3C3/7/7/7/7 b C 1").unwrap();
        let sol = solver.solve(&one);
        let v = solver.variations(&sol);
        assert!(v.list.is_empty() && v.complete);
        let none = parse_position("7/7/7/3k3/7/7/7 b S 1").unwrap();
        let sol = solver.solve(&none);
        assert_eq!(sol.status, Status::NoMate);
        let v = solver.variations(&sol);
        assert!(v.list.is_empty() && !v.complete);
    }
}
