//! What the search knows of a node: its [`Val`] (proof and disproof numbers, and once
//! solved the length and the proof or disproof pieces), the [`Depth`] a length or a limit is
//! counted in, and the saturating arithmetic of proof numbers.
//!
//! [`INF`] is kept for solved nodes alone (pn = INF exactly when dn = 0, and the other way
//! round): sums that grow through transpositions and cycles saturate at [`MAX_UNSOLVED`]
//! and are never read as a proof or a disproof.

use super::table::Found;
use crate::rules::Hand;

/// Proof and disproof numbers are capped here; this value means "infinite" (a solved node).
pub const INF: u32 = 1 << 30;

/// The largest proof or disproof number of an unsolved node. Thresholds may be [`INF`]: a
/// search with that threshold runs until its node is solved (or a limit stops it).
pub const MAX_UNSOLVED: u32 = INF - 1;

/// A length in plies: a search's depth limit, a proven mate's length, or a disproof's "no
/// mate within this many plies". [`Depth::UNLIMITED`] is no limit (a disproof with it holds
/// at any length) and orders above every finite depth.
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Depth(u16);

impl Depth {
    /// No plies.
    pub const ZERO: Depth = Depth(0);
    /// No limit.
    pub const UNLIMITED: Depth = Depth(u16::MAX);

    /// `n` plies (a finite depth; `n` below `u16::MAX`).
    #[inline]
    pub const fn plies(n: u16) -> Depth {
        debug_assert!(n < u16::MAX);
        Depth(n)
    }

    /// `max` plies, or no limit.
    #[inline]
    pub fn limit(max: Option<u16>) -> Depth {
        max.map_or(Depth::UNLIMITED, Depth::plies)
    }

    /// Whether this is [`Depth::UNLIMITED`].
    #[inline]
    pub fn is_unlimited(self) -> bool {
        self == Depth::UNLIMITED
    }

    /// The plies of a finite depth (`None` for [`Depth::UNLIMITED`]).
    #[inline]
    pub fn finite(self) -> Option<u16> {
        (!self.is_unlimited()).then_some(self.0)
    }

    /// The plies, for a depth known to be finite (a proven mate's length).
    #[inline]
    pub fn plies_of_finite(self) -> u16 {
        debug_assert!(!self.is_unlimited());
        self.0
    }

    /// The stored form (the table packs depths into its words).
    #[inline]
    pub(crate) const fn raw(self) -> u16 {
        self.0
    }

    /// A depth from its stored form.
    #[inline]
    pub(crate) const fn from_raw(raw: u16) -> Depth {
        Depth(raw)
    }

    /// The depth left after one ply (unlimited stays unlimited, zero stays zero).
    #[inline]
    pub fn child(self) -> Depth {
        if self.is_unlimited() {
            self
        } else {
            Depth(self.0.saturating_sub(1))
        }
    }

    /// One ply more (unlimited stays unlimited).
    #[inline]
    pub fn plus_one(self) -> Depth {
        if self.is_unlimited() {
            self
        } else {
            Depth(self.0 + 1)
        }
    }
}

impl std::fmt::Debug for Depth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.finite() {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("unlimited"),
        }
    }
}

impl std::fmt::Display for Depth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self, f)
    }
}

/// The value of a node: proof and disproof numbers and, once solved, the length and the
/// proof/disproof pieces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Val {
    /// Proof number (0 = proven).
    pub pn: u32,
    /// Disproof number (0 = disproven).
    pub dn: u32,
    /// Proven: mate length; disproven: no mate within this many plies.
    pub len: Depth,
    /// Proof or disproof pieces (the attacker's hand for unsolved nodes).
    pub hand: Hand,
    /// Solved only because of a repetition on the current path: a disproof that a
    /// repetition made, or a proof that relied on one (the useless-interposition rule may
    /// set an interposition aside because another reply is not mated in time on this path).
    /// It holds for the exact hand, on this path alone.
    pub rep: bool,
    /// Solved for the exact attacker hand alone: a proof or disproof that relied on the
    /// useless-interposition rule's comparison of an interposition with the defender's other
    /// replies, which a hand with more or fewer pieces can turn either way (docs/RULES.md
    /// "Useless interposition"), so that neither hand superiority nor proof and disproof
    /// pieces apply to it.
    pub exact: bool,
    /// Best move (raw) of a proven OR node.
    pub best: u16,
}

impl Val {
    /// An unsolved node with these estimates.
    #[inline]
    pub(crate) fn unknown(pn: u32, dn: u32, hand: Hand) -> Val {
        Val {
            pn,
            dn,
            len: Depth::ZERO,
            hand,
            rep: false,
            exact: false,
            best: 0,
        }
    }

    /// Mated within `len` with proof pieces `hand`.
    #[inline]
    pub(crate) fn proven(len: Depth, hand: Hand) -> Val {
        Val {
            pn: 0,
            dn: INF,
            len,
            hand,
            rep: false,
            exact: false,
            best: 0,
        }
    }

    /// Not mated within `len`, with disproof pieces `hand`; `rep` when only on this path.
    #[inline]
    pub(crate) fn disproven(len: Depth, hand: Hand, rep: bool) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len,
            hand,
            rep,
            exact: false,
            best: 0,
        }
    }

    /// What a table lookup says: a proof (with its best move), a disproof, the estimates
    /// of an unfinished search (with `hand`, the exact hand looked up), or `None` when the
    /// table knows nothing usable.
    #[inline]
    pub(crate) fn from_found(found: Found, hand: Hand) -> Option<Val> {
        match found {
            Found::Proven {
                len,
                hand,
                best,
                exact,
            } => {
                let mut v = Val::proven(len, hand);
                v.best = best;
                v.exact = exact;
                Some(v)
            }
            Found::Disproven {
                len,
                hand,
                rep,
                exact,
            } => {
                let mut v = Val::disproven(len, hand, rep);
                v.exact = exact;
                Some(v)
            }
            Found::Unknown { pn, dn, .. } => Some(Val::unknown(pn, dn, hand)),
            Found::None => None,
        }
    }

    /// Whether proven.
    pub fn is_proven(&self) -> bool {
        self.pn == 0
    }

    /// Whether disproven.
    pub fn is_disproven(&self) -> bool {
        self.dn == 0
    }

    /// Whether (pn, dn) obeys the invariant: `INF` only for a solved node (pn = INF ⇔
    /// dn = 0, dn = INF ⇔ pn = 0).
    pub fn is_consistent(&self) -> bool {
        (self.pn == INF) == (self.dn == 0) && (self.dn == INF) == (self.pn == 0)
    }
}

/// `a + b` for thresholds, at most [`INF`].
#[inline]
pub(crate) fn sat_add(a: u32, b: u32) -> u32 {
    (a.saturating_add(b)).min(INF)
}

/// `a + b` for the summed number of an unsolved node, at most [`MAX_UNSOLVED`]; an
/// [`INF`] operand (a solved child) keeps it [`INF`].
#[inline]
pub(crate) fn sum_unsolved(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(MAX_UNSOLVED)
    }
}

/// Makes (pn, dn) consistent at the node level: pn = 0 ⇔ dn = INF and dn = 0 ⇔ pn = INF;
/// unsolved values stay within [`MAX_UNSOLVED`].
#[inline]
pub(crate) fn settle(pn: u32, dn: u32) -> (u32, u32) {
    if pn == 0 {
        (0, INF)
    } else if dn == 0 {
        (INF, 0)
    } else {
        (pn.min(MAX_UNSOLVED), dn.min(MAX_UNSOLVED))
    }
}

/// The 1+ε threshold from the second-best value `x` (Pawlewicz & Lew): `x·(1+ε) + 1`, at
/// most [`INF`].
#[inline]
pub(crate) fn epsilon_threshold(x: u32, epsilon_percent: u32) -> u32 {
    if x >= MAX_UNSOLVED {
        return INF;
    }
    let t = x as u64 + 1 + x as u64 * epsilon_percent as u64 / 100;
    t.min(INF as u64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_counts_down_and_up_but_unlimited_stays() {
        assert_eq!(Depth::plies(3).child(), Depth::plies(2));
        assert_eq!(Depth::ZERO.child(), Depth::ZERO);
        assert_eq!(Depth::UNLIMITED.child(), Depth::UNLIMITED);
        assert_eq!(Depth::plies(3).plus_one(), Depth::plies(4));
        assert_eq!(Depth::UNLIMITED.plus_one(), Depth::UNLIMITED);
        assert!(Depth::plies(u16::MAX - 1) < Depth::UNLIMITED);
        assert_eq!(Depth::limit(None), Depth::UNLIMITED);
        assert_eq!(Depth::limit(Some(7)).finite(), Some(7));
        assert_eq!(Depth::UNLIMITED.finite(), None);
    }

    #[test]
    fn unsolved_sums_saturate_below_inf() {
        assert_eq!(sum_unsolved(MAX_UNSOLVED, 5), MAX_UNSOLVED);
        assert_eq!(sum_unsolved(INF, 1), INF);
        assert_eq!(sum_unsolved(3, 4), 7);
        assert_eq!(settle(0, 5), (0, INF));
        assert_eq!(settle(5, 0), (INF, 0));
        assert_eq!(settle(INF, 3), (MAX_UNSOLVED, 3));
        assert!(Val::unknown(MAX_UNSOLVED, 1, Hand::EMPTY).is_consistent());
        assert!(!Val::unknown(INF, 1, Hand::EMPTY).is_consistent());
    }

    #[test]
    fn epsilon_threshold_exceeds_the_second_best() {
        assert_eq!(epsilon_threshold(0, 25), 1);
        assert_eq!(epsilon_threshold(100, 25), 126);
        assert_eq!(epsilon_threshold(100, 0), 101);
        // Computed wide: no overflow for large numbers.
        assert_eq!(epsilon_threshold(200_000_000, 25), 250_000_001);
        assert_eq!(epsilon_threshold(MAX_UNSOLVED, 25), INF);
        assert_eq!(epsilon_threshold(MAX_UNSOLVED - 1, 25), INF);
    }
}
