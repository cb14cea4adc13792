//! A deliberately simple reference for mate problems, independent of the solver: plain
//! full-width minimax over checks and evasions with a memo of proofs only, repetitions on the
//! path counting as "no mate", and the useless-interposition rule written out again: Q′ (the
//! capture on the interposition square with the piece returned to the defender) mated within
//! the remaining length the defender has without interposing (the longest of its other
//! replies: [`Rule::Settled`], docs/RULES.md "Useless interposition"), or, as the solver read
//! it before the rule was settled, within the same remaining length ([`Rule::SameLength`],
//! kept to show where the two differ).
#![allow(dead_code)]

/// Which useless-interposition rule the reference applies.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Rule {
    /// An interposition is useless when its Q′ is mated within the plies left.
    SameLength,
    /// An interposition is useless when its Q′ is mated within the length of the longest of
    /// the defender's other replies (none: when Q′ is mated at once, recursively so).
    #[default]
    Settled,
}

use std::collections::{HashMap, HashSet};
use toritsume::rules::attacks::between;
use toritsume::rules::{Color, Move, MoveList, Piece, PieceKind, Position, generate_legal};

pub struct Checker {
    /// Proven (position key, depth) pairs: proofs hold on any path.
    proven: HashSet<(u64, u16)>,
    /// Disproofs that did not depend on a repetition.
    refuted: HashMap<u64, u16>,
    pub attacker: Color,
    pub nodes: u64,
    /// The useless-interposition rule applied.
    pub rule: Rule,
}

impl Checker {
    pub fn new(attacker: Color) -> Checker {
        Checker::with_rule(attacker, Rule::Settled)
    }

    pub fn with_rule(attacker: Color, rule: Rule) -> Checker {
        Checker {
            proven: HashSet::new(),
            refuted: HashMap::new(),
            attacker,
            nodes: 0,
            rule,
        }
    }

    fn checks(pos: &Position) -> Vec<Move> {
        let mut l = MoveList::new();
        generate_legal(pos, &mut l);
        l.iter()
            .copied()
            .filter(|&m| {
                let mut p = pos.clone();
                p.do_move(m);
                p.in_check()
            })
            .collect()
    }

    /// Q′ of interposition `m` against the single ranging checker, written from the rule.
    pub fn q_prime(pos: &Position, m: Move) -> Option<Position> {
        let defender = pos.side_to_move();
        let attacker = defender.flip();
        let k = pos.phoenix(defender)?;
        let checkers = pos.checkers();
        if checkers.count() != 1 {
            return None;
        }
        let c = checkers.lsb();
        let cp = pos.piece_at(c)?;
        // Only a ranging checker (quail, eagle) can be interposed against.
        if !matches!(
            cp.kind,
            PieceKind::LeftQuail | PieceKind::RightQuail | PieceKind::Eagle
        ) || !between(k, c).has(m.to())
        {
            return None;
        }
        // The checker must be able to capture on the square, giving check.
        let mut after = pos.clone();
        after.do_move(m);
        let capture_legal = {
            let mut l = MoveList::new();
            generate_legal(&after, &mut l);
            l.iter()
                .any(|x| !x.is_drop() && x.from() == c && x.to() == m.to())
        };
        if !capture_legal {
            return None;
        }
        let mut s = pos.to_setup();
        s.board[c.index()] = None;
        s.board[m.to().index()] = Some(Piece::new(attacker, cp.kind));
        if !m.is_drop() {
            let p = pos.piece_at(m.from())?;
            s.board[m.from().index()] = None;
            s.hands[defender.index()][p.kind.unpromoted().index()] += 1;
        }
        let q = Position::from_setup_with_defender(&s, defender).ok()?;
        q.in_check().then_some(q)
    }

    /// Whether reply `m` of the defender (to move, in check) is a useless interposition
    /// when `d` plies are left: its Q′ is mated within `d` ([`Rule::SameLength`]), or within
    /// the length the defender has without interposing ([`Rule::Settled`]; `d` bounds the
    /// search for it).
    pub fn useless(&mut self, pos: &Position, m: Move, d: u16, path: &mut Vec<u64>) -> bool {
        let Some(q) = Self::q_prime(pos, m) else {
            return false;
        };
        let within = match self.rule {
            Rule::SameLength => d,
            // Another reply not mated within the plies left: the defender has more than `d`
            // without interposing, and a Q′ mated within `d` is mated within that (beyond
            // `d` the comparison cannot be made here).
            Rule::Settled => self.without_interposing(pos, d, path).unwrap_or(d),
        };
        self.and_mated(&q, within, path).0
    }

    /// The defender's interpositions (with their Q′, none of which repeats a position on
    /// `path`) and its other replies.
    fn split(pos: &Position, path: &[u64]) -> (Vec<(Move, Position)>, Vec<Move>) {
        let mut ev = MoveList::new();
        generate_legal(pos, &mut ev);
        let mut inter = Vec::new();
        let mut others = Vec::new();
        for &e in ev.iter() {
            match Self::q_prime(pos, e) {
                Some(q) if !path.contains(&q.key()) => inter.push((e, q)),
                _ => others.push(e),
            }
        }
        (inter, others)
    }

    /// The length the defender (to move, in check) has without interposing: the longest of
    /// its other replies, plies counted from `pos` (0 when it has none); `None` when one of
    /// them is not mated within `d − 1`.
    pub fn without_interposing(
        &mut self,
        pos: &Position,
        d: u16,
        path: &mut Vec<u64>,
    ) -> Option<u16> {
        let (_, others) = Self::split(pos, path);
        path.push(pos.key());
        let mut r = 0;
        for o in others {
            let mut child = pos.clone();
            child.do_move(o);
            let len = if d >= 1 && !path.contains(&child.key()) {
                self.or_length(&child, d - 1, path)
            } else {
                None
            };
            match len {
                Some(l) => r = r.max(l + 1),
                None => {
                    path.pop();
                    return None;
                }
            }
        }
        path.pop();
        Some(r)
    }

    /// Whether the attacker (to move) mates within `d` plies. `path` holds the keys of the
    /// positions before this one. Returns (result, depended on a repetition).
    pub fn or_mates(&mut self, pos: &Position, d: u16, path: &mut Vec<u64>) -> (bool, bool) {
        self.nodes += 1;
        if d < 1 {
            return (false, false);
        }
        let key = pos.key();
        if self.proven.contains(&(key, d)) {
            return (true, false);
        }
        if self.refuted.get(&key).is_some_and(|&r| r >= d) {
            return (false, false);
        }
        let mut rep = false;
        path.push(key);
        for m in Self::checks(pos) {
            let mut child = pos.clone();
            child.do_move(m);
            if path.contains(&child.key()) {
                rep = true;
                continue;
            }
            let (ok, r) = self.and_mated(&child, d - 1, path);
            rep |= r;
            if ok {
                path.pop();
                self.proven.insert((key, d));
                return (true, false);
            }
        }
        path.pop();
        if !rep {
            let e = self.refuted.entry(key).or_insert(0);
            *e = (*e).max(d);
        }
        (false, rep)
    }

    /// Whether the defender (to move, in check) is mated within `d` plies.
    pub fn and_mated(&mut self, pos: &Position, d: u16, path: &mut Vec<u64>) -> (bool, bool) {
        if self.rule == Rule::Settled {
            return self.and_mated_settled(pos, d, path);
        }
        self.nodes += 1;
        let mut ev = MoveList::new();
        generate_legal(pos, &mut ev);
        if ev.is_empty() {
            return (true, false);
        }
        let key = pos.key();
        if self.proven.contains(&(key, d)) {
            return (true, false);
        }
        path.push(key);
        let mut rep = false;
        for &e in ev.iter() {
            if let Some(q) = Self::q_prime(pos, e)
                && !path.contains(&q.key())
            {
                let (ok, r) = self.and_mated(&q, d, path);
                rep |= r;
                if ok {
                    continue;
                }
            }
            if d < 2 {
                path.pop();
                return (false, rep);
            }
            let mut child = pos.clone();
            child.do_move(e);
            if path.contains(&child.key()) {
                path.pop();
                return (false, true);
            }
            let (ok, r) = self.or_mates(&child, d - 1, path);
            if !ok {
                path.pop();
                return (false, rep | r);
            }
        }
        path.pop();
        self.proven.insert((key, d));
        (true, false)
    }

    /// [`Checker::and_mated`] under [`Rule::Settled`]: every other reply mated within
    /// `d − 1`, their longest setting the length R the defender has without interposing;
    /// then each interposition either useless (its Q′ mated within R) or mated within
    /// `d − 1` as an ordinary defence.
    fn and_mated_settled(&mut self, pos: &Position, d: u16, path: &mut Vec<u64>) -> (bool, bool) {
        self.nodes += 1;
        let mut ev = MoveList::new();
        generate_legal(pos, &mut ev);
        if ev.is_empty() {
            return (true, false);
        }
        let key = pos.key();
        if self.proven.contains(&(key, d)) {
            return (true, false);
        }
        let Some(r) = self.without_interposing(pos, d, path) else {
            // Repetitions are not told apart here: a proof is only memoised.
            return (false, true);
        };
        let (inter, _) = Self::split(pos, path);
        path.push(key);
        for (e, q) in inter {
            if self.and_mated(&q, r, path).0 {
                continue;
            }
            let mut child = pos.clone();
            child.do_move(e);
            if d < 2 || path.contains(&child.key()) || !self.or_mates(&child, d - 1, path).0 {
                path.pop();
                return (false, true);
            }
        }
        path.pop();
        self.proven.insert((key, d));
        (true, false)
    }

    /// Exact mate length of an OR node, if mated within `max`.
    pub fn or_length(&mut self, pos: &Position, max: u16, path: &mut Vec<u64>) -> Option<u16> {
        let mut d = 1;
        while d <= max {
            if self.or_mates(pos, d, path).0 {
                return Some(d);
            }
            d += 2;
        }
        None
    }

    /// Exact mate length of an AND node, if mated within `max`.
    pub fn and_length(&mut self, pos: &Position, max: u16, path: &mut Vec<u64>) -> Option<u16> {
        let mut d = 0;
        while d <= max {
            if self.and_mated(pos, d, path).0 {
                return Some(d);
            }
            d += 2;
        }
        None
    }
}

/// Gives the defender every piece not on the board nor in the attacker's hand.
pub fn rest_to_defender(pos: &Position) -> Position {
    let attacker = pos.side_to_move();
    let mut s = pos.to_setup();
    let mut counts = [0u32; 6];
    for p in s.board.iter().flatten() {
        if p.kind != PieceKind::Phoenix {
            counts[p.kind.unpromoted().index()] += 1;
        }
    }
    for k in PieceKind::HAND {
        let i = k.index();
        s.hands[attacker.flip().index()][i] =
            k.total() as u32 - counts[i] - s.hands[attacker.index()][i];
    }
    Position::from_setup(&s).expect("the rest fits")
}

/// Checks a claimed solution of `problem` (tsume convention): the length is the shortest
/// mate, every attacker move of the line mates in the remaining length, every defender move
/// is a longest non-useless defence, and the line ends in mate. Returns a description of
/// the first discrepancy.
pub fn check_solution(problem: &Position, plies: u16, moves: &[Move]) -> Result<(), String> {
    check_solution_as_given(&rest_to_defender(problem), plies, moves)
}

/// [`check_solution`] with the hands exactly as `pos` gives them (a problem stating the
/// defender's hand).
pub fn check_solution_as_given(pos: &Position, plies: u16, moves: &[Move]) -> Result<(), String> {
    let pos = pos.clone();
    let mut ck = Checker::new(pos.side_to_move());
    let mut path = Vec::new();
    if !ck.or_mates(&pos, plies, &mut path).0 {
        return Err(format!("no mate within {plies} plies"));
    }
    if plies >= 3 && ck.or_mates(&pos, plies - 2, &mut path).0 {
        return Err(format!("a mate within {} plies exists", plies - 2));
    }
    if moves.len() != plies as usize {
        return Err(format!("{} moves for a {plies}-ply solution", moves.len()));
    }
    let mut p = pos.clone();
    let mut remaining = plies;
    for (i, &m) in moves.iter().enumerate() {
        if remaining == 0 {
            return Err(format!("move {} ({m}) comes after the mate", i + 1));
        }
        let mut l = MoveList::new();
        generate_legal(&p, &mut l);
        if !l.contains(m) {
            return Err(format!("move {} ({m}) is not legal", i + 1));
        }
        let mut child = p.clone();
        child.do_move(m);
        if i % 2 == 0 {
            if !child.in_check() {
                return Err(format!("attacker move {} ({m}) does not check", i + 1));
            }
            if !ck.and_mated(&child, remaining - 1, &mut path).0 {
                return Err(format!(
                    "attacker move {} ({m}) does not mate in time",
                    i + 1
                ));
            }
        } else {
            if ck.useless(&p, m, remaining, &mut path) {
                return Err(format!(
                    "defender move {} ({m}) is a useless interposition",
                    i + 1
                ));
            }
            let len = ck.or_length(&child, remaining - 1, &mut path);
            if len != Some(remaining - 1) {
                return Err(format!(
                    "defender move {} ({m}) is not a longest defence: mated in {len:?}",
                    i + 1
                ));
            }
        }
        path.push(p.key());
        p = child;
        remaining -= 1;
    }
    if remaining != 0 {
        return Err(format!("the line ends with {remaining} plies to go"));
    }
    // The end: mate, or only useless interpositions left.
    let mut ev = MoveList::new();
    generate_legal(&p, &mut ev);
    for &e in ev.iter() {
        if !ck.useless(&p, e, 0, &mut path) {
            return Err(format!("the final position is not mate ({e} answers)"));
        }
    }
    Ok(())
}

/// Checks the useless interpositions a solver left out along the main line `moves` of a
/// `plies`-ply mate of `problem`: each `(ply, move)` is a legal defender move at that ply of
/// the line that the rule calls useless there (docs/RULES.md "Useless interposition").
pub fn check_left_out(
    problem: &Position,
    plies: u16,
    moves: &[Move],
    left_out: &[(usize, Move)],
) -> Result<(), String> {
    let pos = rest_to_defender(problem);
    let mut ck = Checker::new(pos.side_to_move());
    for &(ply, m) in left_out {
        if ply % 2 != 0 || ply == 0 || ply > moves.len() + 1 {
            return Err(format!(
                "{m} is left out at ply {ply}, not a defender ply of the line"
            ));
        }
        let mut p = pos.clone();
        let mut path = Vec::new();
        for &x in &moves[..ply - 1] {
            path.push(p.key());
            p.do_move(x);
        }
        let mut l = MoveList::new();
        generate_legal(&p, &mut l);
        if !l.contains(m) {
            return Err(format!("{m}, left out at ply {ply}, is not legal there"));
        }
        let remaining = plies - (ply as u16 - 1);
        if !ck.useless(&p, m, remaining, &mut path) {
            return Err(format!(
                "{m}, left out at ply {ply}, is not useless by the rule"
            ));
        }
    }
    Ok(())
}
