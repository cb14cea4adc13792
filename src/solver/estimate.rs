//! The value a child starts with before it is searched: looked up in the table, or, for a
//! position the table does not know, the df-pn+ initial estimate (a new AND child starts at
//! a proof number from its evasions, captures weighing more, a new OR child at a disproof
//! number from its checks),
//! with the 1-ply checks that solve some children at once (a check with no evasion is mate;
//! a defender position with no check is not).

use super::dfpn::Searcher;
use super::hands::{disproof_terminal, full_hand, proof_terminal};
use super::path::child_path_key;
use super::value::{Depth, Val};
use crate::rules::movegen::{EvasionSummary, count_checks, evasion_summary, interposition};
use crate::rules::{Bitboard, Hand, Move, MoveList, Position};

impl Searcher {
    /// The value of the current position, the defender to move and mated, with the
    /// attacker holding `hand`: proven at once, by its proof pieces (`hand` itself when
    /// proof pieces are off).
    pub(crate) fn terminal_proof(&self, hand: Hand) -> Val {
        let p = if self.techniques.proof_pieces {
            proof_terminal(&self.pos).min(hand)
        } else {
            hand
        };
        Val::proven(Depth::ZERO, p)
    }

    /// The value of the current position, the attacker to move with no check, holding
    /// `hand`: disproven for any length, by its disproof pieces (`hand` itself when proof
    /// pieces are off).
    pub(crate) fn terminal_disproof(&self, hand: Hand) -> Val {
        let d = if self.techniques.proof_pieces {
            disproof_terminal(&self.pos).max(hand)
        } else {
            hand
        };
        Val::disproven(Depth::UNLIMITED, d, false)
    }

    /// A new AND child (after check `m`): mated at once (1-ply mate check), refuted by the
    /// depth limit, or an estimate from its evasions (df-pn+): one per reply idea, and
    /// [`Techniques::capture_weight`](super::Techniques) more for each reply that takes the
    /// piece that moved.
    pub(crate) fn estimate_and_child(&mut self, m: Move, cdepth: Depth) -> Val {
        let chand = self.pos.hand_after(m);
        let t = self.techniques;
        if !t.one_ply && !t.initial_estimates {
            return Val::unknown(1, 1, chand);
        }
        self.nodes += 1;
        let captured = self.pos.do_move_unkeyed(m);
        let ev = evasion_summary(&self.pos, Bitboard::from_square(m.to()));
        let v = if t.one_ply && ev.is_empty() {
            self.terminal_proof(chand)
        } else if t.one_ply
            && cdepth < Depth::plies(2)
            && !ev.is_empty()
            && !may_interpose(&self.pos, &ev)
        {
            Val::disproven(cdepth, chand, false)
        } else if t.initial_estimates {
            Val::unknown(
                (ev.ideas() + t.capture_weight * ev.onto_watched).max(1),
                1,
                chand,
            )
        } else {
            Val::unknown(1, 1, chand)
        };
        self.pos.undo_move_unkeyed(m, captured);
        v
    }

    /// Value of an OR child (after evasion `m` from an AND node searched within `depth`):
    /// a repetition, looked up, refuted at once when no check exists, or an estimate from
    /// its checks (df-pn+): its count of checks, at most 16 (half that, at most 8, as it
    /// was, made the search a fifth longer on hard no-mates); half of it, rounded up, after
    /// a reply that captures ([`Techniques::capture_replies`](super::Techniques)); the whole
    /// times [`Techniques::disproof_per_check`](super::Techniques), so that it stands on
    /// the scale the node's disproof number reaches once it and its checks are expanded
    /// (expanded alone, it is one a check: every new AND child starts at 1).
    pub(crate) fn evaluate_or_child(&mut self, m: Move, depth: Depth, path_key: u64) -> Val {
        let board_after = self.pos.board_key_after(m);
        self.evaluate_or_child_on(m, board_after, depth, path_key)
    }

    /// [`Searcher::evaluate_or_child`] given the board key after `m`
    /// ([`crate::rules::Position::board_key_after`]), already computed.
    pub(crate) fn evaluate_or_child_on(
        &mut self,
        m: Move,
        board_after: u64,
        depth: Depth,
        path_key: u64,
    ) -> Val {
        let hand = self.pos.hand(self.attacker);
        let child_key = board_after ^ self.pos.hand_key_after(m);
        if self.path.contains(child_key) {
            return Val::disproven(Depth::UNLIMITED, hand, true);
        }
        let cdepth = depth.child();
        let board = self.tt_key(board_after);
        let found = self
            .table
            .lookup(board, hand, cdepth, child_path_key(path_key, child_key));
        if let Some(v) = Val::from_found(found, hand) {
            return v;
        }
        if cdepth == Depth::ZERO {
            return Val::disproven(Depth::ZERO, full_hand(), false);
        }
        let t = self.techniques;
        if !t.one_ply && !t.initial_estimates {
            return Val::unknown(1, 1, hand);
        }
        self.nodes += 1;
        let captured = self.pos.do_move_unkeyed(m);
        let checks = count_checks(&self.pos);
        let v = if t.one_ply && checks == 0 {
            self.terminal_disproof(hand)
        } else if t.initial_estimates {
            let dn = if t.capture_replies && captured.is_some() {
                checks.div_ceil(2)
            } else {
                checks
            };
            Val::unknown(1, dn.clamp(1, 16) * t.disproof_per_check.max(1), hand)
        } else {
            Val::unknown(1, 1, hand)
        };
        self.pos.undo_move_unkeyed(m, captured);
        v
    }
}

/// Whether some reply in `ev` interposes against a single ranging checker (so that at a
/// depth limit the useless-interposition rule may still leave the node mated). Phoenix steps
/// never land between it and the checker, so the replies' destinations tell.
fn may_interpose(pos: &Position, ev: &EvasionSummary) -> bool {
    interposition(pos).is_some_and(|(block, _)| (block & ev.destinations).any())
}

/// df-pn+ initial proof number of an AND node from its evasions: phoenix moves and captures
/// count one each, interpositions one per square (the pieces that could be dropped there
/// are alternatives of one idea).
pub(crate) fn evasion_estimate(ev: &MoveList) -> u32 {
    let mut squares = Bitboard::EMPTY;
    let mut n = 0u32;
    for &m in ev.iter() {
        if m.is_drop() {
            if !squares.has(m.to()) {
                squares |= Bitboard::from_square(m.to());
                n += 1;
            }
        } else {
            n += 1;
        }
    }
    n.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::rules::generate_evasions;

    fn estimate(sfen: &str) -> u32 {
        let pos = parse_position(sfen).expect("a valid position");
        let mut ev = MoveList::new();
        generate_evasions(&pos, &mut ev);
        evasion_estimate(&ev)
    }

    #[test]
    fn interpositions_count_once_per_square() {
        // White's phoenix on 4a is checked along the file by Black's left quail on 4e
        // (worked out by hand: four phoenix steps, 3a, 5a, 3b and 5b). With a swallow, a
        // pheasant and a crane in hand White may also drop on 4b, 4c or 4d: nine drops,
        // three ideas.
        let with_drops = estimate("3k3/7/7/7/3L3/7/K6 w spc 1");
        let without = estimate("3k3/7/7/7/3L3/7/K6 w - 1");
        assert_eq!(without, 4);
        assert_eq!(with_drops, 4 + 3);
    }
}
