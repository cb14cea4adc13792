//! The options of a generation run as a person gives them (`generate --plies 5..9 --count
//! 100 ...`, or the same from the Python package) and the checked [`GenConfig`] they make:
//! a run that could never keep a problem is refused before it starts.

use super::themes::ThemeChoice;
use super::{FinalDuals, GenConfig, Seed};
use crate::input::{read_file, records};
use std::path::PathBuf;

/// The longest solution the generator builds, in plies.
pub const GENERATE_MAX_PLIES: u16 = 61;

/// Reads a range of solution lengths, `MIN..MAX` or `N` (both ends included), and checks it
/// ([`check_plies`]).
pub fn parse_plies(text: &str, most: Option<u16>) -> Result<(u16, u16), String> {
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (text.trim(), text.trim()),
    };
    let number = |w: &str| {
        w.parse::<u16>()
            .map_err(|_| format!("--plies: `{w}` is not a number of plies"))
    };
    let (lo, hi) = (number(a)?, number(b)?);
    if lo == 0 {
        return Err(format!(
            "--plies: lengths start at 1, not 0 (in `{}`)",
            text.trim()
        ));
    }
    check_plies(lo, hi, most)?;
    Ok((lo, hi))
}

/// Checks a range of solution lengths `lo..=hi`: from 1 up, not backwards, at most `most`
/// when given (the generator's reach), and a single length odd.
pub fn check_plies(lo: u16, hi: u16, most: Option<u16>) -> Result<(), String> {
    if lo == 0 {
        return Err("--plies: lengths start at 1, not 0".to_string());
    }
    if hi < lo {
        return Err(format!(
            "--plies: the range {lo}..{hi} runs backwards (give MIN..MAX)"
        ));
    }
    if let Some(most) = most
        && hi > most
    {
        return Err(format!(
            "--plies: {hi} is beyond what the generator can build (at most {most})"
        ));
    }
    if lo == hi && lo.is_multiple_of(2) {
        return Err(format!(
            "--plies: a mate problem's solution has an odd number of plies, not {lo}"
        ));
    }
    Ok(())
}

/// Reads a shard, `K/N` (0-based: K below N).
pub fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("--shard: expected K/N, got `{text}`"))?;
    let k: u64 = k
        .trim()
        .parse()
        .map_err(|_| format!("--shard: bad K in `{text}`"))?;
    let n: u64 = n
        .trim()
        .parse()
        .map_err(|_| format!("--shard: bad N in `{text}`"))?;
    check_shard(k, n)?;
    Ok((k, n))
}

/// Checks a shard `k` of `n`.
pub fn check_shard(k: u64, n: u64) -> Result<(), String> {
    if n == 0 || k >= n {
        return Err(format!("--shard: K must be below N (0-based), got {k}/{n}"));
    }
    Ok(())
}

/// The options of a generation run, as `generate` takes them.
#[derive(Clone, Debug, PartialEq)]
pub struct GenerateOptions {
    /// The range of solution lengths in plies.
    pub plies: (u16, u16),
    /// Problems to produce (at least 1).
    pub count: usize,
    /// The seed: the same seed and count give the same problems, whatever the threads.
    pub seed: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Shard K of N (0-based): disjoint candidates, so that N machines can share a job.
    pub shard: (u64, u64),
    /// Keep only problems scoring at least this.
    pub min_score: Option<f64>,
    /// Keep only problems rated within this range (`1200..1600`, or `1500`).
    pub rating: Option<String>,
    /// Keep only problems carrying every one of these themes (`sacrifice,quietDrop`).
    pub themes: Option<String>,
    /// Leave out problems carrying any of these themes.
    pub exclude_themes: Option<String>,
    /// Node budget of a candidate's first solve (its verification gets 8×).
    pub nodes: Option<u64>,
    /// Table size per worker, MB.
    pub hash_mb: usize,
    /// Stop after this many candidates (at least 1) even if fewer problems were found.
    pub max_candidates: Option<u64>,
    /// Whether a problem whose last move has an alternative mate may be kept.
    pub final_duals: FinalDuals,
    /// Most problems kept from one family.
    pub family_limit: usize,
    /// Most problems kept with one solution shape.
    pub shape_limit: usize,
    /// Problem files to start from: mutated and extended like the problems kept.
    pub from: Vec<PathBuf>,
}

impl Default for GenerateOptions {
    /// The defaults of `generate`, for one problem of 1 ply on one thread.
    fn default() -> GenerateOptions {
        GenerateOptions {
            plies: (1, 1),
            count: 1,
            seed: 1,
            threads: 1,
            shard: (0, 1),
            min_score: None,
            rating: None,
            themes: None,
            exclude_themes: None,
            nodes: None,
            hash_mb: 16,
            max_candidates: None,
            final_duals: FinalDuals::Forbid,
            family_limit: 3,
            shape_limit: 1,
            from: Vec::new(),
        }
    }
}

impl GenerateOptions {
    /// The run's configuration; the error says which option makes the run impossible and
    /// why (a choice no problem can meet would make the run go on for ever).
    pub fn config(&self) -> Result<GenConfig, String> {
        let (lo, hi) = self.plies;
        check_plies(lo, hi, Some(GENERATE_MAX_PLIES))?;
        check_shard(self.shard.0, self.shard.1)?;
        if self.count == 0 {
            return Err("--count: at least 1".to_string());
        }
        if self.max_candidates == Some(0) {
            return Err("--max-candidates: at least 1".to_string());
        }
        if self.threads == 0 {
            return Err("--threads: at least 1".to_string());
        }
        let mut config = GenConfig::new(lo, hi, self.count, self.seed);
        config.threads = self.threads;
        config.shard = self.shard;
        if let Some(s) = self.min_score
            && !s.is_finite()
        {
            return Err(format!("--min-score must be a number, got {s}"));
        }
        config.min_score = self.min_score;
        config.choice = ThemeChoice::parse(
            self.rating.as_deref(),
            self.themes.as_deref(),
            self.exclude_themes.as_deref(),
        )?;
        let never = |why: String| format!("no problem could ever be kept: {why}");
        if let Some(why) = config
            .choice
            .impossible()
            .or_else(|| config.choice.off_the_scale())
        {
            return Err(never(why));
        }
        // The longest a kept problem can be: a `mateInN` asked for sets it.
        if let Some(why) = config.choice.too_short(config.choice.plies().unwrap_or(hi)) {
            return Err(never(why));
        }
        if let Some(min) = config.min_score {
            // The proof's size counts a quarter of its bits: 16 at most.
            let most = super::quality::score_bound(hi, u64::MAX);
            if min > most {
                return Err(never(format!(
                    "--min-score {min:?} is above the best score a problem of at most {} can \
                     have ({most:.2}; see docs/GUIDE.md, \"Quality\")",
                    crate::notation::plies(hi as u64)
                )));
            }
        }
        if let Some(p) = config.choice.plies()
            && !(lo..=hi).contains(&p)
        {
            let range = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}..{hi}")
            };
            return Err(never(format!(
                "mateIn{} is {p} plies, outside --plies {range}",
                p.div_ceil(2)
            )));
        }
        if self.final_duals == FinalDuals::Forbid
            && config.choice.with.iter().any(|t| t == "finalDual")
        {
            return Err(never(
                "--themes finalDual asks for final duals, which --final-duals forbid (the \
                 default) leaves out; give --final-duals allow"
                    .to_string(),
            ));
        }
        config.hash_mb = self.hash_mb.max(1);
        config.max_candidates = self.max_candidates;
        if let Some(n) = self.nodes {
            config.solve_nodes = n;
            config.verify_nodes = n.saturating_mul(8);
        }
        config.final_duals = self.final_duals;
        if self.family_limit == 0 || self.shape_limit == 0 {
            return Err("--family-limit and --shape-limit must be at least 1".to_string());
        }
        config.family_limit = self.family_limit;
        config.shape_limit = self.shape_limit;
        for f in &self.from {
            let bytes = read_file(f).map_err(|e| e.to_string())?;
            for (n, record) in records(&bytes) {
                let seed = record.and_then(|p| {
                    Seed::from_record(&p, format!("{}:{n}", f.display())).map_err(|e| e.to_string())
                });
                match seed {
                    Ok(s) => config.seeds.push(s),
                    Err(e) => return Err(format!("line {n} of {}: {e}", f.display())),
                }
            }
        }
        Ok(config)
    }
}
