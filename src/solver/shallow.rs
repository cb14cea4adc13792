//! Quick refutations near a depth limit. A defender node with two plies left is refuted by
//! one reply after which the attacker has no mate in one, and most such nodes have one
//! among their first replies; an attacker node with three plies left is refuted when every
//! check is refuted so. Trying the replies one at a time with a plain mate-in-one test finds
//! the refutation without giving every reply a table entry, a check count and a node of its
//! own, and without the re-expansions that df-pn's thresholds cause, as the df-pn expansion
//! would (in a depth-limited disproof, two thirds of the nodes are within three plies of the
//! limit). Two and three plies are where it pays; going on to five plies costs more than
//! df-pn's own choice there (docs/LOG.md).
//!
//! Only what the test settles outright is claimed: a reply that repeats a position of the
//! path, one that interposes against a ranging check (the useless-interposition rule may
//! still leave it mated), and a check after which the defender can only interpose are left
//! to the full expansion, which runs whenever no refutation is found this way. The values
//! stored are the ones the expansion would give the same nodes, or ones that claim less
//! (an exact hand, a length of one), so answers never change, only the work.

use super::dfpn::Searcher;
use super::hands::{disproof_and_adjust, disproof_or_adjust, full_hand, hand_before};
use super::path::child_path_key;
use super::value::{Depth, Val};
use crate::rules::movegen::{CheckAnswer, Flights, check_answer, interposition};
use crate::rules::{Bitboard, MoveList, generate_checks, generate_evasions};

/// Replies whose buckets are loaded ahead of the one tried ([`Searcher::refute_at_two`]).
const AHEAD: usize = 2;

/// What a check does to the defender when the attacker has no ply after it.
enum AfterCheck {
    /// No reply: mate.
    Mate,
    /// A reply that is not an interposition: the defender escapes.
    Escapes,
    /// Only the full expansion can tell (an interposition the useless-interposition rule may
    /// set aside, or a repetition).
    Unclear,
}

impl Searcher {
    /// At an attacker node with three plies left (its checks `checks`, the board keys after
    /// them `boards`, their table buckets already prefetched): its value when every check is
    /// refuted by a quick refutation ([`Searcher::refute_at_two`]) or the table, the
    /// defender nodes' values stored on the way; `None` as soon as one is not (the node is
    /// then expanded in full, finding those values in the table).
    pub(super) fn refute_all_at_three(
        &mut self,
        checks: &MoveList,
        boards: &[u64],
        path_key: u64,
    ) -> Option<Val> {
        let exact = self.pos.hand(self.attacker);
        let cdepth = Depth::plies(2);
        let mut len = Depth::UNLIMITED;
        let mut hand = full_hand();
        let mut evasions = MoveList::new();
        for (i, &c) in checks.iter().enumerate() {
            let child_key = boards[i] ^ self.pos.hand_key_after(c);
            if self.path.contains(child_key) {
                return None;
            }
            let chand = self.pos.hand_after(c);
            let cpath = child_path_key(path_key, child_key);
            let board = self.tt_key(boards[i]);
            let v = match Val::from_found(self.table.lookup(board, chand, cdepth, cpath), chand) {
                Some(v) if v.is_disproven() && !v.rep => v,
                Some(v) if v.is_proven() || v.is_disproven() => return None,
                _ => {
                    self.nodes += 1;
                    let captured = self.pos.do_move(c);
                    evasions.clear();
                    generate_evasions(&self.pos, &mut evasions);
                    let r = if evasions.is_empty() {
                        None
                    } else {
                        let block = match interposition(&self.pos) {
                            Some((b, _)) if self.useless_rule => b,
                            _ => Bitboard::EMPTY,
                        };
                        self.path.insert(child_key);
                        let r = self.refute_at_two(&evasions, block, cpath);
                        self.path.remove(child_key);
                        r
                    };
                    if let Some(v) = &r {
                        self.store(v, cdepth, cpath, 1);
                    }
                    self.pos.undo_move(c, captured);
                    r?
                }
            };
            len = len.min(v.len.plus_one());
            hand = hand.min(hand_before(&self.pos, c, v.hand));
        }
        Some(Val::disproven(
            len,
            disproof_or_adjust(&self.pos, hand).max(exact),
            false,
        ))
    }

    /// At a defender node with two plies left (its evasions `moves`; `q_squares` the
    /// interposition squares where the useless-interposition rule applies): the value of
    /// the node when one of its replies leaves the attacker no mate in one, found by trying
    /// them in order; `None` when none does (the node is then expanded in full).
    pub(super) fn refute_at_two(
        &mut self,
        moves: &MoveList,
        q_squares: Bitboard,
        path_key: u64,
    ) -> Option<Val> {
        let exact = self.pos.hand(self.attacker);
        let one = Depth::plies(1);
        // The buckets of the next few replies are loaded while one is tried: most nodes are
        // refuted by one of their first replies, so not all of them. Each reply's board key,
        // computed for its prefetch, waits in `ahead` until the reply is tried.
        let mut ahead = [0u64; AHEAD];
        for (slot, &m) in ahead.iter_mut().zip(moves.iter()) {
            *slot = self.pos.board_key_after(m);
            self.table.prefetch(self.tt_key(*slot));
        }
        for (i, &m) in moves.iter().enumerate() {
            let b = ahead[i % AHEAD];
            if let Some(&next) = moves.as_slice().get(i + AHEAD) {
                ahead[i % AHEAD] = self.pos.board_key_after(next);
                self.table.prefetch(self.tt_key(ahead[i % AHEAD]));
            }
            if q_squares.has(m.to()) {
                continue;
            }
            let child_key = b ^ self.pos.hand_key_after(m);
            if self.path.contains(child_key) {
                continue;
            }
            let cpath = child_path_key(path_key, child_key);
            let board = self.tt_key(b);
            let found = Val::from_found(self.table.lookup(board, exact, one, cpath), exact);
            let v = match found {
                Some(v) if v.is_disproven() && !v.rep => v,
                Some(v) if v.is_proven() || v.is_disproven() => continue,
                _ => {
                    let captured = self.pos.do_move(m);
                    let r = self.mate_in_one(cpath);
                    self.pos.undo_move(m, captured);
                    match r {
                        Some(v) if v.is_disproven() => v,
                        _ => continue,
                    }
                }
            };
            let mut d = Val::disproven(
                v.len.plus_one(),
                disproof_and_adjust(&self.pos, m, v.hand),
                false,
            );
            d.hand = d.hand.max(exact);
            return Some(d);
        }
        None
    }

    /// The current position (the attacker to move, one ply left) solved by a plain
    /// mate-in-one test and stored as its expansion would store it: proven by the first
    /// mating check, or disproven when every check is escaped; `None` when some check
    /// before a mate is [`AfterCheck::Unclear`]. A check the phoenix's flights, read once
    /// before any check is made ([`Flights`]), show it stepping out of is escaped without
    /// being made: three checks in four or more on hard mate #29, where making them was
    /// most of a depth-limited search's time.
    fn mate_in_one(&mut self, path_key: u64) -> Option<Val> {
        self.nodes += 1;
        let exact = self.pos.hand(self.attacker);
        let mut checks = MoveList::new();
        generate_checks(&self.pos, &mut checks);
        let v = if checks.is_empty() {
            self.terminal_disproof(exact)
        } else {
            let mut mate = None;
            let flights = Flights::new(&self.pos);
            let escaped_first = self.techniques.escaped_before_repetition;
            for &c in checks.iter() {
                if !escaped_first && self.path.contains(self.pos.key_after(c)) {
                    return None;
                }
                self.nodes += 1;
                // Escaped, the check mates within no ply on any path, whether or not it
                // repeats a position of this one: no need to look.
                if flights.as_ref().is_some_and(|f| f.escapes(&self.pos, c)) {
                    continue;
                }
                if escaped_first && self.path.contains(self.pos.key_after(c)) {
                    return None;
                }
                let chand = self.pos.hand_after(c);
                let captured = self.pos.do_move_unkeyed(c);
                let after = match check_answer(&self.pos) {
                    CheckAnswer::Nothing => AfterCheck::Mate,
                    CheckAnswer::OnlyInterpositions => AfterCheck::Unclear,
                    CheckAnswer::Other => AfterCheck::Escapes,
                };
                let proof = match after {
                    AfterCheck::Mate => self.terminal_proof(chand).hand,
                    _ => chand,
                };
                self.pos.undo_move_unkeyed(c, captured);
                match after {
                    AfterCheck::Mate => {
                        mate = Some((c, proof));
                        break;
                    }
                    AfterCheck::Unclear => return None,
                    AfterCheck::Escapes => {}
                }
            }
            match mate {
                Some((c, proof)) => {
                    let mut v =
                        Val::proven(Depth::plies(1), hand_before(&self.pos, c, proof).min(exact));
                    v.best = c.raw();
                    v
                }
                None => Val::disproven(
                    Depth::plies(1),
                    disproof_or_adjust(&self.pos, exact).max(exact),
                    false,
                ),
            }
        };
        self.store(&v, Depth::plies(1), path_key, 1 + checks.len() as u64);
        Some(v)
    }
}
