//! Reading the main line back once the mate length is known: at each attacker node a check
//! that mates within the remaining length; at each defender node the defence with the
//! longest exact mate, useless interpositions left out, and among equally long defences one
//! after which the attacker ends with an empty hand (RULES.md "Mate problems").

use super::UselessInterposition;
use super::dfpn::{Searcher, useless_reply_position};
use crate::rules::movegen::interposition;
use crate::rules::{Hand, Move, MoveList, Position, generate_checks, generate_evasions};

/// A main line and what it ends with.
#[derive(Clone, Debug)]
pub struct Line {
    /// The moves.
    pub moves: Vec<Move>,
    /// The attacker's hand in the final position.
    pub end_hand: Hand,
    /// Useless interpositions passed over along the line.
    pub useless: Vec<UselessInterposition>,
    /// False when a search limit cut the reading short (the line is then a prefix).
    pub complete: bool,
}

impl Line {
    fn end(hand: Hand) -> Line {
        Line {
            moves: Vec::new(),
            end_hand: hand,
            useless: Vec::new(),
            complete: true,
        }
    }

    fn cut() -> Line {
        Line {
            complete: false,
            ..Line::end(Hand::EMPTY)
        }
    }
}

/// Alternatives explored at one node to break ties against spare pieces.
const TIE_ALTERNATIVES: usize = 3;
/// Total line explorations allowed for tie breaking (keeps the worst case bounded).
const EXPLORATION_BUDGET: usize = 400;

/// The exact mate length of `pos` (searched within `upper` plies), or `None` when it is
/// not mated within `upper` or a limit stopped the search.
pub fn exact_len(s: &mut Searcher, pos: &Position, upper: u16, ancestors: &[u64]) -> Option<u16> {
    s.set_node(pos.clone());
    let v = s.search(upper, ancestors);
    if !v.is_proven() {
        return None;
    }
    let mut len = v.len;
    while len >= 2 {
        s.set_node(pos.clone());
        let w = s.search(len - 2, ancestors);
        if w.is_proven() {
            len = w.len;
        } else {
            break;
        }
    }
    Some(len)
}

/// Whether `pos` is mated within `depth` plies.
pub fn mates_within(s: &mut Searcher, pos: &Position, depth: u16, ancestors: &[u64]) -> bool {
    s.set_node(pos.clone());
    s.search(depth, ancestors).is_proven()
}

/// Attacker moves from OR node `pos` that mate within `r` plies (each leads to a position
/// mated within `r − 1`), in generation order.
pub fn mating_moves(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> Vec<Move> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    ancestors.push(pos.key());
    let mut out = Vec::new();
    for &m in checks.iter() {
        let mut child = pos.clone();
        child.do_move(m);
        if mates_within(s, &child, r - 1, ancestors) {
            out.push(m);
        }
    }
    ancestors.pop();
    out
}

/// The defences of AND node `pos` (exact length `r`) with their exact lengths, and the
/// interpositions that are useless at this length.
pub fn defences(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> (Vec<(Move, u16)>, Vec<Move>) {
    let mut evasions = MoveList::new();
    generate_evasions(pos, &mut evasions);
    ancestors.push(pos.key());
    let block = interposition(pos);
    let mut real = Vec::new();
    let mut useless = Vec::new();
    for &e in evasions.iter() {
        if let Some((b, c)) = block
            && b.has(e.to())
            && let Some(q) = useless_reply_position(pos, e, c)
            && mates_within(s, &q, r, ancestors)
        {
            useless.push(e);
            continue;
        }
        let mut child = pos.clone();
        child.do_move(e);
        if let Some(len) = exact_len(s, &child, r.saturating_sub(1), ancestors) {
            real.push((e, len));
        } else {
            // Not mated within the remaining length (only when a limit cut a search short):
            // treat it as the longest.
            real.push((e, r.saturating_sub(1)));
        }
    }
    ancestors.pop();
    (real, useless)
}

struct Explorer<'a> {
    s: &'a mut Searcher,
    budget: usize,
}

impl Explorer<'_> {
    fn explore(&mut self, pos: &Position, r: u16, ancestors: &mut Vec<u64>, ply: usize) -> Line {
        self.budget = self.budget.saturating_sub(1);
        let attacker = self.s.attacker;
        if pos.side_to_move() == attacker {
            if r == 0 {
                return Line::end(pos.hand(attacker));
            }
            let candidates = mating_moves(self.s, pos, r, ancestors);
            if self.s.aborted || candidates.is_empty() {
                return Line::cut();
            }
            self.choose(pos, r - 1, &candidates, ancestors, ply)
        } else {
            let (real, useless) = defences(self.s, pos, r, ancestors);
            if self.s.aborted {
                return Line::cut();
            }
            let mut line = if real.is_empty() {
                Line::end(pos.hand(attacker))
            } else {
                let longest = real.iter().map(|&(_, l)| l).max().unwrap_or(0);
                let candidates: Vec<Move> = real
                    .iter()
                    .filter(|&&(_, l)| l == longest)
                    .map(|&(m, _)| m)
                    .collect();
                self.choose(pos, longest, &candidates, ancestors, ply)
            };
            if !real.is_empty() || !useless.is_empty() {
                let mut u: Vec<UselessInterposition> = useless
                    .into_iter()
                    .map(|mv| UselessInterposition { ply: ply + 1, mv })
                    .collect();
                u.append(&mut line.useless);
                line.useless = u;
            }
            line
        }
    }

    /// Follows one of `candidates` (each leading to a position of exact length `child_r`),
    /// preferring a line that ends with the attacker's hand empty.
    fn choose(
        &mut self,
        pos: &Position,
        child_r: u16,
        candidates: &[Move],
        ancestors: &mut Vec<u64>,
        ply: usize,
    ) -> Line {
        let mut first: Option<Line> = None;
        ancestors.push(pos.key());
        for (i, &m) in candidates.iter().enumerate() {
            if i >= TIE_ALTERNATIVES || (i > 0 && self.budget == 0) {
                break;
            }
            let mut child = pos.clone();
            child.do_move(m);
            let mut line = self.explore(&child, child_r, ancestors, ply + 1);
            line.moves.insert(0, m);
            if line.end_hand.is_empty() || !line.complete {
                ancestors.pop();
                return line;
            }
            if first.is_none() {
                first = Some(line);
            }
        }
        ancestors.pop();
        first.unwrap_or_else(Line::cut)
    }
}

/// The main line of `root` (an OR node proven mated in exactly `n` plies).
pub fn main_line(s: &mut Searcher, root: &Position, n: u16) -> Line {
    line_from(s, root, n, &mut Vec::new(), 0)
}

/// The main line from `pos` (an OR or AND node of exact length `r`) reached after the
/// positions `ancestors`, the first move being ply `ply + 1`.
pub fn line_from(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
    ply: usize,
) -> Line {
    let mut e = Explorer {
        s,
        budget: EXPLORATION_BUDGET,
    };
    e.explore(pos, r, ancestors, ply)
}
