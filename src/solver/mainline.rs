//! Reading the main line back once the mate length is known: at each attacker node a check
//! that mates within the remaining length; at each defender node the defence with the
//! longest exact mate, useless interpositions left out, and among equally long defences one
//! after which the attacker ends with an empty hand (docs/RULES.md "Mate problems").

use super::UselessInterposition;
use super::dfpn::Searcher;
use super::estimate::evasion_estimate;
use super::useless::useless_reply_position;
use super::value::Depth;
use crate::rules::movegen::interposition;
use crate::rules::{Hand, Move, MoveList, Position, generate_checks, generate_evasions};

/// A main line and what it ends with.
#[derive(Clone, Debug)]
pub(crate) struct Line {
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
pub(crate) fn exact_len(
    s: &mut Searcher,
    pos: &Position,
    upper: u16,
    ancestors: &[u64],
) -> Option<u16> {
    s.set_node(pos.clone());
    let v = s.search(Depth::plies(upper), ancestors);
    if !v.is_proven() {
        return None;
    }
    Some(
        s.shortest(pos, v.len.plies_of_finite(), ancestors, None, false)
            .len,
    )
}

/// Whether `pos` is mated within `depth` plies.
pub(crate) fn mates_within(
    s: &mut Searcher,
    pos: &Position,
    depth: u16,
    ancestors: &[u64],
) -> bool {
    s.set_node(pos.clone());
    s.search(Depth::plies(depth), ancestors).is_proven()
}

/// Attacker moves from OR node `pos` that mate within `r` plies (each leads to a position
/// mated within `r − 1`), in generation order.
pub(crate) fn mating_moves(
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
pub(crate) fn defences(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> (Vec<(Move, u16)>, Vec<Move>) {
    let (real, useless) = split_useless(s, pos, r, ancestors);
    ancestors.push(pos.key());
    let mut out = Vec::new();
    for e in real {
        let mut child = pos.clone();
        child.do_move(e);
        // Not mated within the remaining length only when a limit cut a search short:
        // then count it as the longest.
        let len =
            exact_len(s, &child, r.saturating_sub(1), ancestors).unwrap_or(r.saturating_sub(1));
        out.push((e, len));
    }
    ancestors.pop();
    (out, useless)
}

/// The evasions of AND node `pos` (mated within `r`) split into real defences and the
/// interpositions the useless-interposition rule sets aside: those whose Q′ is mated within
/// R, the length the node has without interposing (the longest of its other replies, exact,
/// plies counted from `pos`; 0 without them).
pub(crate) fn split_useless(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> (Vec<Move>, Vec<Move>) {
    let mut evasions = MoveList::new();
    generate_evasions(pos, &mut evasions);
    let block = if s.useless_rule() {
        interposition(pos)
    } else {
        None
    };
    // The interpositions with their Q′, and the other replies.
    let mut candidates: Vec<(Move, Position)> = Vec::new();
    let mut others: Vec<Move> = Vec::new();
    for &e in evasions.iter() {
        match block {
            Some((b, c)) if b.has(e.to()) => match useless_reply_position(pos, e, c) {
                Some(q) => candidates.push((e, q)),
                None => others.push(e),
            },
            _ => others.push(e),
        }
    }
    if candidates.is_empty() {
        return (others, Vec::new());
    }
    ancestors.push(pos.key());
    let mut without = 0;
    for &o in &others {
        let mut child = pos.clone();
        child.do_move(o);
        // Not mated within the plies left only when a limit cut a search short: then taken
        // as the longest.
        let len =
            exact_len(s, &child, r.saturating_sub(1), ancestors).unwrap_or(r.saturating_sub(1));
        without = without.max(len + 1);
    }
    let mut real = others;
    let mut useless = Vec::new();
    for (e, q) in candidates {
        if mates_within(s, &q, without, ancestors) {
            useless.push(e);
        } else {
            real.push(e);
        }
    }
    ancestors.pop();
    // Generation order, as the callers read it.
    real.sort_by_key(|m| evasions.iter().position(|e| e == m));
    (real, useless)
}

/// The longest defences of AND node `pos` (exact length `r`), their length, and the
/// useless interpositions. A defence holds out longest when it is not mated within `r − 3`
/// (it is mated within `r − 1`, the node being mated in `r`): one search each, where exact
/// lengths would need several. Only when no real defence lasts that long (the length was set
/// by a useless interposition) are exact lengths computed.
pub(crate) fn longest_defences(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> (Vec<Move>, u16, Vec<Move>) {
    first_longest_defences(s, pos, r, ancestors, usize::MAX)
}

/// The first `want` (in generation order) of the longest defences of AND node `pos`, with
/// their length and the useless interpositions, as [`longest_defences`] gives them all: the
/// main line follows only the first few, and showing that a defence holds out longest is a
/// disproof, often a costly one.
fn first_longest_defences(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
    want: usize,
) -> (Vec<Move>, u16, Vec<Move>) {
    let (real, useless) = split_useless(s, pos, r, ancestors);
    if real.is_empty() {
        return (real, 0, useless);
    }
    ancestors.push(pos.key());
    let mut longest = Vec::new();
    for &e in &real {
        if longest.len() >= want {
            break;
        }
        let mut child = pos.clone();
        child.do_move(e);
        if r < 3 || !mates_within(s, &child, r - 3, ancestors) {
            longest.push(e);
        }
    }
    ancestors.pop();
    if !longest.is_empty() {
        return (longest, r - 1, useless);
    }
    let (all, useless) = defences(s, pos, r, ancestors);
    let max = all.iter().map(|&(_, l)| l).max().unwrap_or(0);
    let longest = all
        .into_iter()
        .filter(|&(_, l)| l == max)
        .map(|(m, _)| m)
        .collect();
    (longest, max, useless)
}

/// The first attacker move from OR node `pos` that mates within `r` plies, in a canonical
/// order: fewest replies first (the defender's evasions, interpositions on one square
/// counted once, as df-pn+ estimates them), then generation order. The choice is made by
/// searches alone, never by what the table happens to hold, so that the main line is the
/// same whatever the table size; the order puts the move the search itself favours first,
/// so that few other moves need to be refuted before it.
///
/// A mate whose reply has no real defence although plies remain (every evasion is an
/// interposition that the useless-interposition rule sets aside, each capture still
/// needing moves) has no main line to show; another mating move is taken when there is
/// one.
pub(crate) fn first_mating_move(
    s: &mut Searcher,
    pos: &Position,
    r: u16,
    ancestors: &mut Vec<u64>,
) -> Option<Move> {
    let mut checks = MoveList::new();
    generate_checks(pos, &mut checks);
    let mut order: Vec<(u32, usize, Move)> = checks
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let mut child = pos.clone();
            child.do_move(m);
            let mut ev = MoveList::new();
            generate_evasions(&child, &mut ev);
            (evasion_estimate(&ev), i, m)
        })
        .collect();
    order.sort_unstable();
    ancestors.push(pos.key());
    let mut found = None;
    let mut unreadable = None;
    for &(_, _, m) in &order {
        let mut child = pos.clone();
        child.do_move(m);
        if mates_within(s, &child, r - 1, ancestors) {
            if r >= 3 && split_useless(s, &child, r - 1, ancestors).0.is_empty() {
                unreadable.get_or_insert(m);
                continue;
            }
            found = Some(m);
            break;
        }
        if s.stopped() {
            break;
        }
    }
    ancestors.pop();
    found.or(unreadable)
}

struct Explorer<'a> {
    s: &'a mut Searcher,
    budget: usize,
}

impl Explorer<'_> {
    fn explore(&mut self, pos: &Position, r: u16, ancestors: &mut Vec<u64>, ply: usize) -> Line {
        self.budget = self.budget.saturating_sub(1);
        let attacker = self.s.attacker();
        if pos.side_to_move() == attacker {
            if r == 0 {
                return Line::end(pos.hand(attacker));
            }
            let m = if r == 1 {
                // The last move: of several mates (final duals) take one that leaves the
                // attacker's hand emptiest, so that the line ends without spare pieces when
                // it can.
                mating_moves(self.s, pos, 1, ancestors)
                    .into_iter()
                    .min_by_key(|&m| pos.hand_after(m).total())
            } else {
                first_mating_move(self.s, pos, r, ancestors)
            };
            let Some(m) = m else {
                return Line::cut();
            };
            if self.s.stopped() {
                return Line::cut();
            }
            self.choose(pos, r - 1, &[m], ancestors, ply)
        } else {
            // The line follows at most this many of the longest defences (a fallback to
            // shorter ones, below, computes them all).
            let want = self.alternatives(pos, r.saturating_sub(1));
            let (longest, len, useless) = first_longest_defences(self.s, pos, r, ancestors, want);
            if self.s.stopped() {
                return Line::cut();
            }
            let mut line = if longest.is_empty() {
                Line::end(pos.hand(attacker))
            } else {
                self.choose(pos, len, &longest, ancestors, ply)
            };
            // Under the settled rule a defender position of exact length r always has a
            // kept reply lasting r − 1 (an interposition outlasting the others is no
            // longer useless), so the line reaches the length.
            debug_assert!(r == 0 || (!longest.is_empty() && len + 1 == r));
            {
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

    /// How many of the moves from `pos` leading to positions of exact length `child_r` are
    /// tried for a line without spare pieces. Each attacker move drops one piece at most:
    /// with more pieces in hand than moves left, every line ends with spare pieces, and the
    /// first is taken without trying the others; so too once the exploration budget is
    /// spent.
    fn alternatives(&self, pos: &Position, child_r: u16) -> usize {
        let attacker_moves = (child_r as u32).div_ceil(2);
        if pos.hand(self.s.attacker()).total() > attacker_moves || self.budget == 0 {
            1
        } else {
            TIE_ALTERNATIVES
        }
    }

    /// Follows one of `candidates` (each leading to a position of exact length `child_r`),
    /// preferring a line that ends with the attacker's hand empty. A line that a limit cut
    /// short is kept only when it is the one candidate that could be taken: otherwise which
    /// move this ply plays is undecided (another candidate's line, or an earlier one's
    /// ending with spare pieces), and the line stops before it, so that a cut line is always
    /// a start of the line a search without limits reads.
    fn choose(
        &mut self,
        pos: &Position,
        child_r: u16,
        candidates: &[Move],
        ancestors: &mut Vec<u64>,
        ply: usize,
    ) -> Line {
        let mut first: Option<Line> = None;
        let alternatives = self.alternatives(pos, child_r);
        ancestors.push(pos.key());
        for (i, &m) in candidates.iter().enumerate() {
            if i >= alternatives || (i > 0 && self.budget == 0) {
                break;
            }
            let mut child = pos.clone();
            child.do_move(m);
            let mut line = self.explore(&child, child_r, ancestors, ply + 1);
            if !line.complete && candidates.len().min(alternatives) > 1 {
                ancestors.pop();
                return Line::cut();
            }
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
pub(crate) fn main_line(s: &mut Searcher, root: &Position, n: u16) -> Line {
    line_from(s, root, n, &mut Vec::new(), 0)
}

/// The main line from `pos` (an OR or AND node of exact length `r`) reached after the
/// positions `ancestors`, the first move being ply `ply + 1`.
pub(crate) fn line_from(
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::solver::limits::Limits;
    use crate::solver::{Solver, SolverConfig, prepare};

    /// The first few longest defences are the start of them all, at every defender node of
    /// the main lines of the classic problems: the line reads the same when only as many
    /// as it may follow are shown to hold out longest.
    #[test]
    fn first_longest_defences_are_the_first_of_all() {
        let mut several = 0;
        let mut cut_short = 0;
        for line in include_str!("../../problems/classic.jsonl").lines() {
            let rec: serde_json::Value = serde_json::from_str(line).expect("a JSON record");
            let Some(plies) = rec["plies"].as_u64() else {
                continue;
            };
            let config = SolverConfig::default();
            let root = prepare(
                &parse_position(rec["sfen"].as_str().expect("an SFEN")).expect("a position"),
                config.defender_hand,
            );
            let mut solver = Solver::new(config).expect("a table");
            let sol = solver.solve(&root);
            assert_eq!(sol.plies, Some(plies as u16), "{}", rec["sfen"]);
            let s = solver.begin(Limits::default());
            let mut pos = root.clone();
            let mut ancestors = Vec::new();
            for (ply, &m) in sol.moves.iter().enumerate() {
                if ply % 2 == 1 {
                    let r = plies as u16 - ply as u16;
                    let (all, len, useless) = longest_defences(s, &pos, r, &mut ancestors);
                    if all.len() > 1 {
                        several += 1;
                    }
                    for want in 1..=all.len() + 1 {
                        let (first, l, u) =
                            first_longest_defences(s, &pos, r, &mut ancestors, want);
                        assert_eq!(first[..], all[..want.min(all.len())], "ply {ply}");
                        assert_eq!((l, &u), (len, &useless));
                        if first.len() < all.len() {
                            cut_short += 1;
                        }
                    }
                    assert!(all.contains(&m), "the line's defence is a longest one");
                }
                ancestors.push(pos.key());
                pos.do_move(m);
            }
        }
        assert!(several > 0 && cut_short > 0, "{several} {cut_short}");
    }
}
