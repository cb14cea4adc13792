//! What the run has kept, as far as the keeping policy is concerned: positions, solution
//! shapes and lines already taken, problems per coarse shape and per family; the seeds a run
//! starts from (which count as kept); and the cheap tests that turn a candidate away before
//! its verification, the expensive part, is spent on it.

use super::coarse_shape;
use super::dedup;
use crate::notation::hodges::line_to_hodges;
use crate::problem::{Problem, ProblemError};
use crate::rules::{Move, MoveList, Position, generate_checks, is_checkmate};
use crate::solver::DefenderHand;
use std::collections::{BTreeMap, HashSet};

/// A problem a run starts from (`--from`): mutated and extended like a problem kept in the
/// run, never written, and counted against the limits as if kept, so that the run's output
/// added to its seeds still keeps them.
#[derive(Clone, Debug)]
pub struct Seed {
    /// The problem's position.
    pub position: Position,
    /// Its length.
    pub plies: u16,
    /// Its family.
    pub family: String,
    /// What it takes up of the policy.
    pub keys: Keys,
}

impl Seed {
    /// The seed of a record; `family` when the record names none.
    pub fn from_record(record: &Problem, family: String) -> Result<Seed, ProblemError> {
        let position = record.position()?;
        let (prepared, moves) = record.main_line()?;
        let family = record
            .extra
            .get("family")
            .and_then(|v| v.as_str())
            .map_or(family, str::to_string);
        let mut keys = Keys::of(&position, &prepared, &moves);
        if record.convention() == DefenderHand::Given {
            // Stating the defender's hand makes another problem of the same position.
            keys.position = dedup::given_hand_key(keys.position, &prepared);
        }
        Ok(Seed {
            position,
            plies: moves.len() as u16,
            family,
            keys,
        })
    }
}

/// The keys by which a problem takes up room under the policy. A record without a
/// solution (a no-mate, or one whose line is not known) has only its position key: two
/// such records are the same only when their positions are.
#[derive(Clone, Debug)]
pub struct Keys {
    /// Canonical position key (mirror included).
    pub position: u64,
    /// Solution shape key ([`dedup::shape_key`]); `None` without a solution.
    pub shape: Option<u64>,
    /// Hash of the solution's moves; `None` without a solution.
    pub line: Option<u64>,
    /// [`coarse_shape`] of the solution (empty without one).
    pub coarse: String,
}

impl Keys {
    /// The keys of problem `pos` whose solution is `moves` from `prepared` (the position the
    /// solution starts from).
    pub fn of(pos: &Position, prepared: &Position, moves: &[Move]) -> Keys {
        let usi = crate::notation::usi::line_to_usi(moves);
        let solved = !moves.is_empty();
        Keys {
            position: dedup::position_key(pos),
            shape: solved.then(|| dedup::shape_key(prepared, moves)),
            line: solved.then(|| dedup::text_key(&usi.join(" "))),
            coarse: coarse_shape(&line_to_hodges(prepared, moves)),
        }
    }
}

/// What a set holds so far, as far as the keeping policy is concerned: no position (mirror
/// included), solution shape or line twice (a record without a solution takes up no shape
/// or line), at most `shape_limit` problems per coarse shape (solved ones) and
/// `family_limit` per family. The generator reads it during a batch and writes it
/// between batches, in candidate order, so that what is kept does not depend on the thread
/// count; `merge` applies it to the records in file order.
pub struct Policy {
    family_limit: usize,
    shape_limit: usize,
    positions: HashSet<u64>,
    shapes: HashSet<u64>,
    lines: HashSet<u64>,
    coarse: BTreeMap<String, usize>,
    families: BTreeMap<String, usize>,
}

/// Why a problem would not be kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Its position, solution shape or line is taken.
    Duplicate,
    /// Its coarse shape has all the problems allowed.
    ShapeFull,
    /// Its family has all the problems allowed.
    FamilyFull,
}

impl Policy {
    /// An empty set with these limits.
    pub fn new(family_limit: usize, shape_limit: usize) -> Policy {
        Policy {
            family_limit,
            shape_limit,
            positions: HashSet::new(),
            shapes: HashSet::new(),
            lines: HashSet::new(),
            coarse: BTreeMap::new(),
            families: BTreeMap::new(),
        }
    }

    /// Whether `family` has all the problems the policy allows it.
    pub fn family_full(&self, family: &str) -> bool {
        self.families
            .get(family)
            .is_some_and(|&n| n >= self.family_limit)
    }

    /// Whether a problem with `keys` in `family` would be kept, and if not, why.
    pub fn check(&self, keys: &Keys, family: &str) -> Result<(), Refusal> {
        if self.positions.contains(&keys.position)
            || keys.shape.is_some_and(|k| self.shapes.contains(&k))
            || keys.line.is_some_and(|k| self.lines.contains(&k))
        {
            Err(Refusal::Duplicate)
        } else if keys.shape.is_some()
            && self
                .coarse
                .get(&keys.coarse)
                .is_some_and(|&n| n >= self.shape_limit)
        {
            Err(Refusal::ShapeFull)
        } else if self.family_full(family) {
            Err(Refusal::FamilyFull)
        } else {
            Ok(())
        }
    }

    /// Takes note of a problem kept (or a seed); returns whether its family is now full.
    pub fn keep(&mut self, keys: &Keys, family: &str) -> bool {
        self.positions.insert(keys.position);
        if let (Some(shape), Some(line)) = (keys.shape, keys.line) {
            self.shapes.insert(shape);
            self.lines.insert(line);
            *self.coarse.entry(keys.coarse.clone()).or_default() += 1;
        }
        *self.families.entry(family.to_string()).or_default() += 1;
        self.family_full(family)
    }
}

/// A [`Policy`] as a checkpoint keeps it: the keys sorted, so that the same policy always
/// reads the same.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SavedPolicy {
    /// Canonical position keys taken.
    pub positions: Vec<u64>,
    /// Solution shape keys taken.
    pub shapes: Vec<u64>,
    /// Solution line keys taken.
    pub lines: Vec<u64>,
    /// Problems per coarse shape.
    pub coarse: BTreeMap<String, usize>,
    /// Problems per family.
    pub families: BTreeMap<String, usize>,
}

impl Policy {
    /// What this policy has taken, for a checkpoint.
    pub fn saved(&self) -> SavedPolicy {
        let sorted = |set: &HashSet<u64>| {
            let mut v: Vec<u64> = set.iter().copied().collect();
            v.sort_unstable();
            v
        };
        SavedPolicy {
            positions: sorted(&self.positions),
            shapes: sorted(&self.shapes),
            lines: sorted(&self.lines),
            coarse: self.coarse.clone(),
            families: self.families.clone(),
        }
    }

    /// The policy with these limits that has taken what `saved` says.
    pub fn restored(family_limit: usize, shape_limit: usize, saved: SavedPolicy) -> Policy {
        Policy {
            family_limit,
            shape_limit,
            positions: saved.positions.into_iter().collect(),
            shapes: saved.shapes.into_iter().collect(),
            lines: saved.lines.into_iter().collect(),
            coarse: saved.coarse,
            families: saved.families,
        }
    }
}

/// Whether the last attacker move of the line `moves` from `start` has another mating move
/// beside it: a final dual that verification would report too, found here with one ply of
/// move generation instead of a verification.
pub(super) fn last_move_has_dual(start: &Position, moves: &[Move]) -> bool {
    let Some((_, before)) = moves.split_last() else {
        return false;
    };
    let mut pos = start.clone();
    for &m in before {
        pos.do_move(m);
    }
    let mut checks = MoveList::new();
    generate_checks(&pos, &mut checks);
    checks
        .iter()
        .filter(|&&m| {
            let mut child = pos.clone();
            child.do_move(m);
            is_checkmate(&child)
        })
        .nth(1)
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The check `usi` of `pos`.
    fn check(pos: &Position, usi: &str) -> Move {
        let mut checks = MoveList::new();
        generate_checks(pos, &mut checks);
        *checks.iter().find(|m| m.usi() == usi).expect(usi)
    }

    /// The keys of `sfen` with the main line `moves` (USI, from the position as given).
    fn keys(sfen: &str, moves: &[&str]) -> Keys {
        let p: Position = sfen.parse().unwrap();
        let line = crate::notation::parse_move_list(&p, &moves.join(" ")).unwrap();
        Keys::of(&p, &p, &line)
    }

    #[test]
    fn only_the_same_position_or_the_same_solution_is_a_duplicate() {
        let mut policy = Policy::new(usize::MAX, 1);
        // Two positions without a solution (a swallow, or a falcon, in hand: the phoenix
        // walks away from either), then the first again.
        let swallow = keys("3k3/7/7/7/7/7/7 b S 1", &[]);
        let falcon = keys("3k3/7/7/7/7/7/7 b F 1", &[]);
        assert_eq!(swallow.shape, None);
        assert!(policy.check(&swallow, "a").is_ok());
        policy.keep(&swallow, "a");
        assert!(
            policy.check(&falcon, "b").is_ok(),
            "another position is kept"
        );
        policy.keep(&falcon, "b");
        assert_eq!(policy.check(&swallow, "c"), Err(Refusal::Duplicate));
        // A solution takes up its line and shape; the same line from a position one file
        // over (the shape, relative to the phoenix, is the same) is a duplicate, and a
        // position without a solution takes up no shape to refuse it by.
        let mate = keys("3k3/7/3C3/7/7/7/7 b C 1", &["C*4b"]);
        let moved = keys("2k4/7/2C4/7/7/7/7 b C 1", &["C*5b"]);
        assert!(policy.check(&mate, "d").is_ok());
        policy.keep(&mate, "d");
        assert_eq!(policy.check(&moved, "e"), Err(Refusal::Duplicate));
        assert!(
            policy
                .check(&keys("2k4/7/7/7/7/7/7 b C 1", &[]), "f")
                .is_ok()
        );
    }

    #[test]
    fn a_lone_mating_drop_has_no_dual() {
        // White's phoenix in the corner (1a), Black's swallow on 1c guarding 1b, a falcon in
        // hand. F*1b mates: the falcon covers 2a and 2b, the swallow guards it. F*2a and F*2b
        // are taken by the phoenix, S-1b too (a goose on 1b would not check).
        let p: Position = "6k/7/6S/7/7/7/3K3 b F 1".parse().unwrap();
        assert!(!last_move_has_dual(&p, &[check(&p, "F*1b")]));
    }

    #[test]
    fn a_second_mating_drop_is_a_dual() {
        // As above with a crane on 3c: it guards 2b, so F*2b mates as well (the falcon
        // covers 2a and 1b from there).
        let p: Position = "6k/7/4C1S/7/7/7/3K3 b F 1".parse().unwrap();
        assert!(last_move_has_dual(&p, &[check(&p, "F*1b")]));
        assert!(last_move_has_dual(&p, &[check(&p, "F*2b")]));
    }
}
