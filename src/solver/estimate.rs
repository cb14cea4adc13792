//! The value a child starts with before it is searched: looked up in the table, or, for a
//! position the table does not know, the df-pn+ initial estimate (a new AND child starts at
//! a proof number from its evasions, captures weighing more, a new OR child at a disproof
//! number from its checks),
//! with the 1-ply checks that solve some children at once (a check with no evasion is mate;
//! a defender position with no check is not), and the small cache that keeps the counts
//! these estimates are made from ([`EstimateCache`]).

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
    ///
    /// `child_key` is the full key of the position after `m`: with more than one ply left,
    /// its count of replies is taken from the [`EstimateCache`] where it is there.
    pub(crate) fn estimate_and_child(&mut self, m: Move, cdepth: Depth, child_key: u64) -> Val {
        let chand = self.pos.hand_after(m);
        let t = self.techniques;
        if !t.one_ply && !t.initial_estimates {
            return Val::unknown(1, 1, chand);
        }
        self.nodes += 1;
        // The replies are counted with the checking piece's square watched: the key says
        // which square that is.
        let cache_key = child_key ^ (m.to().index() as u64 + 1).wrapping_mul(WATCH_MIX);
        let cached = t.estimate_cache && t.initial_estimates && cdepth >= Depth::plies(2);
        if cached && let Some(v) = self.estimates.get(cache_key) {
            return self.and_estimate(v & 0xff, v >> 8, chand);
        }
        let captured = self.pos.do_move_unkeyed(m);
        let ev = evasion_summary(&self.pos, Bitboard::from_square(m.to()));
        if t.estimate_cache && !ev.is_empty() {
            // Never 0: a position with replies has at least one idea.
            let v = ev.ideas().min(0xff) | ev.onto_watched.min(0xff) << 8;
            self.estimates.put(cache_key, v);
        }
        let v = if t.one_ply && ev.is_empty() {
            self.terminal_proof(chand)
        } else if t.one_ply
            && cdepth < Depth::plies(2)
            && !ev.is_empty()
            && !may_interpose(&self.pos, &ev)
        {
            Val::disproven(cdepth, chand, false)
        } else {
            self.and_estimate(ev.ideas(), ev.onto_watched, chand)
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
        // A count of checks the cache holds serves, but not a position without a check:
        // its disproof pieces are read off the position itself.
        if t.estimate_cache
            && let Some(checks) = self.estimates.get(child_key)
        {
            return self.or_estimate(checks, self.pos.is_capture(m), hand);
        }
        let captured = self.pos.do_move_unkeyed(m);
        let checks = count_checks(&self.pos);
        if t.estimate_cache && checks > 0 {
            self.estimates.put(child_key, checks);
        }
        let v = if t.one_ply && checks == 0 {
            self.terminal_disproof(hand)
        } else {
            self.or_estimate(checks, captured.is_some(), hand)
        };
        self.pos.undo_move_unkeyed(m, captured);
        v
    }

    /// The estimate of a new AND child (the attacker holding `hand`) whose replies come to
    /// `ideas` ideas, `onto_watched` of them taking the checking piece.
    fn and_estimate(&self, ideas: u32, onto_watched: u32, hand: Hand) -> Val {
        let t = self.techniques;
        if !t.initial_estimates {
            return Val::unknown(1, 1, hand);
        }
        Val::unknown((ideas + t.capture_weight * onto_watched).max(1), 1, hand)
    }

    /// The estimate of a new OR child (the attacker holding `hand`) with `checks` checks
    /// (at least one), reached by a capture when `capture`.
    fn or_estimate(&self, checks: u32, capture: bool, hand: Hand) -> Val {
        let t = self.techniques;
        if !t.initial_estimates {
            return Val::unknown(1, 1, hand);
        }
        let dn = if t.capture_replies && capture {
            checks.div_ceil(2)
        } else {
            checks
        };
        Val::unknown(1, dn.clamp(1, 16) * t.disproof_per_check.max(1), hand)
    }
}

/// Mixed into a defender position's key with the square whose captures its reply count
/// watches.
const WATCH_MIX: u64 = 0x9e37_79b9_7f4a_7c15;

/// Slots of an [`EstimateCache`] (a power of two): 128 KB, an eighth of the second-level
/// cache of a core (1 MB). A larger cache finds more counts but crowds the search's other
/// data out of the second-level cache; this size measured fastest on the hard set
/// (docs/LOG.md).
pub(crate) const ESTIMATE_SLOTS: usize = 1 << 14;

/// The counts the df-pn+ estimates of new children are made from, kept for a node expanded
/// again (df-pn comes back to most nodes it leaves, and would count their unsearched
/// children's checks and replies anew): a direct-mapped cache of the searcher's own, keyed by
/// the child's full position key (the count of replies with the checking piece's square
/// mixed in), holding a count that depends on the position alone. A slot keeps the key's
/// bits above the low 16 beside a 16-bit count (0: empty), and the low 14 pick the slot, so
/// two positions are taken for one only when their keys agree in 62 of their 64 bits (bits
/// 14 and 15 are not kept; such a pair of positions is as likely as a false match in the
/// table). Allocated once, with the searcher; never cleared, since a position's count
/// never changes.
pub(crate) struct EstimateCache {
    slots: Vec<u64>,
}

impl EstimateCache {
    /// An empty cache of [`ESTIMATE_SLOTS`] slots.
    pub(crate) fn new() -> EstimateCache {
        EstimateCache {
            slots: vec![0; ESTIMATE_SLOTS],
        }
    }

    /// The count kept for `key`, if any.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<u32> {
        let s = self.slots[key as usize & (ESTIMATE_SLOTS - 1)];
        let count = (s & 0xffff) as u32;
        (count != 0 && s >> 16 == key >> 16).then_some(count)
    }

    /// Keeps `count` (1 to 65,535) for `key`, in place of what its slot held.
    #[inline]
    pub(crate) fn put(&mut self, key: u64, count: u32) {
        debug_assert!((1..=0xffff).contains(&count));
        self.slots[key as usize & (ESTIMATE_SLOTS - 1)] = key & !0xffff | count as u64;
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
    fn the_estimate_cache_answers_only_its_own_key() {
        let mut c = EstimateCache::new();
        let key = 0x1234_5678_9abc_def0_u64;
        assert_eq!(c.get(key), None, "empty at first");
        c.put(key, 7);
        assert_eq!(c.get(key), Some(7));
        // Same slot (same low 16 bits), another key: not taken for it.
        let other = key ^ 1 << 40;
        assert_eq!(c.get(other), None);
        // It replaces the first in that slot.
        c.put(other, 300);
        assert_eq!(c.get(other), Some(300));
        assert_eq!(c.get(key), None);
        // Another slot is untouched.
        c.put(key ^ 1, 2);
        assert_eq!(c.get(other), Some(300));
        assert_eq!(c.get(key ^ 1), Some(2));
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
