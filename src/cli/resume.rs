//! `generate`'s checkpoint file (`OUT.checkpoint`, beside its output): what it holds, how
//! it is saved (whole or not at all) and read back, and the output file a resumed run
//! appends to, cut back to what the checkpoint accounts for.

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use toritsume::generator::Checkpoint;

/// What the file's `toritsume` field says it is.
const KIND: &str = "generate checkpoint";

/// The checkpoint file of the output `out`: `out` with `.checkpoint` added.
pub fn checkpoint_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".checkpoint");
    PathBuf::from(s)
}

/// A checkpoint file: the run's [`Checkpoint`], and how much of its output it accounts for
/// (its problems, one a line, are the ones the run has kept).
#[derive(Serialize, Deserialize)]
pub struct SavedRun {
    /// What the file is ([`KIND`]).
    pub toritsume: String,
    /// Bytes of the output written when the checkpoint was saved.
    pub out_bytes: u64,
    /// The run.
    pub run: Checkpoint,
}

impl SavedRun {
    /// The checkpoint `run`, taken when the output held `out_bytes` bytes.
    pub fn new(run: Checkpoint, out_bytes: u64) -> SavedRun {
        SavedRun {
            toritsume: KIND.to_string(),
            out_bytes,
            run,
        }
    }

    /// The problems written when the checkpoint was saved.
    pub fn problems(&self) -> u64 {
        self.run.stats.kept_total() as u64
    }

    /// Reads the checkpoint file `path`.
    pub fn read(path: &Path) -> anyhow::Result<SavedRun> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the checkpoint {}", path.display()))?;
        let saved: SavedRun = serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "{} is not a checkpoint this build can read: {e}",
                path.display()
            )
        })?;
        if saved.toritsume != KIND {
            bail!(
                "{} is not a generate checkpoint (it says `{}`)",
                path.display(),
                saved.toritsume
            );
        }
        Ok(saved)
    }

    /// Saves this as `path`, whole or not at all (a file beside it, then renamed), after
    /// `out`'s data has reached the disk, so that the checkpoint never accounts for output
    /// that is not there.
    pub fn save(&self, path: &Path, out: Option<&File>) -> anyhow::Result<()> {
        let fail = |e: std::io::Error| {
            anyhow::anyhow!(
                "cannot save the checkpoint {}: {}",
                path.display(),
                super::output::io_reason(&e)
            )
        };
        if let Some(f) = out {
            // A device or a pipe cannot be synced (EINVAL): there is nothing to wait for.
            match f.sync_data() {
                Err(e) if e.kind() != std::io::ErrorKind::InvalidInput => return Err(fail(e)),
                _ => {}
            }
        }
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let text = serde_json::to_string(self).map_err(|e| fail(std::io::Error::other(e)))?;
        let mut f = File::create(&tmp).map_err(fail)?;
        f.write_all(text.as_bytes())
            .and_then(|()| f.sync_data())
            .map_err(fail)?;
        std::fs::rename(&tmp, path).map_err(fail)
    }

    /// Opens `out` to go on writing where this checkpoint left it: checks that its first
    /// [`SavedRun::out_bytes`] bytes are the [`SavedRun::problems`] lines written then, and
    /// cuts off what was written after (the run writes it again). Returns the file, at its
    /// end, and the number of problems cut off.
    pub fn reopen(&self, out: &Path) -> anyhow::Result<(File, u64)> {
        let shown = out.display();
        if self.out_bytes == 0 && !out.exists() {
            // Killed before it wrote anything: the output is made now.
            let f = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(out)
                .with_context(|| format!("cannot write {shown}"))?;
            return Ok((f, 0));
        }
        let bytes = std::fs::read(out).with_context(|| format!("cannot read {shown}"))?;
        let n = usize::try_from(self.out_bytes).unwrap_or(usize::MAX);
        let head = bytes
            .get(..n)
            .filter(|h| h.last().is_none_or(|&b| b == b'\n'));
        let lines = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count() as u64;
        let problems = self.problems();
        if head.is_none_or(|h| lines(h) != problems) {
            bail!(
                "{shown} is not as its checkpoint left it ({} problems in {} bytes): it was \
                 changed since; pass --force to start over",
                problems,
                self.out_bytes
            );
        }
        // What follows was written after the checkpoint, by this run: whole records, but
        // for a last line cut short by the stop. Anything else is not the run's to cut off.
        let tail = &bytes[n..];
        let whole = tail.split(|&b| b == b'\n').take(lines(tail) as usize);
        if let Some(k) = whole.clone().position(|l| {
            std::str::from_utf8(l)
                .map_or(true, |l| toritsume::problem::Problem::from_json(l).is_err())
        }) {
            bail!(
                "line {} of {shown} is not a problem the run wrote: the file was changed \
                 since its checkpoint; pass --force to start over",
                problems + k as u64 + 1
            );
        }
        let after = whole.count() as u64;
        let mut f = OpenOptions::new()
            .write(true)
            .open(out)
            .with_context(|| format!("cannot write {shown}"))?;
        f.set_len(self.out_bytes)
            .and_then(|()| f.seek(SeekFrom::End(0)).map(|_| ()))
            .with_context(|| format!("cannot write {shown}"))?;
        Ok((f, after))
    }
}

/// The run stopped while writing `out`, to go on with (`resume`), from its checkpoint `cp`;
/// `None` to start afresh. Refuses to start afresh over a stopped run or an existing output
/// unless `force` (which then removes the old checkpoint), and refuses to resume what
/// cannot be.
pub fn earlier_run(
    out: &Path,
    cp: &Path,
    resume: bool,
    force: bool,
) -> anyhow::Result<Option<SavedRun>> {
    let (o, c) = (out.display(), cp.display());
    match (out.exists(), cp.exists(), resume) {
        (_, true, false) if force => {
            std::fs::remove_file(cp).map_err(|e| {
                anyhow::anyhow!("cannot remove {c}: {}", super::output::io_reason(&e))
            })?;
            Ok(None)
        }
        (true, true, false) => bail!(
            "{o} exists, from a run that was stopped (its checkpoint is {c}); pass --resume \
             to go on with it, or --force to start over"
        ),
        // A run killed as it began, between its first checkpoint and its output: nothing
        // written yet, so it goes on from the start.
        (false, true, true) => {
            let saved = SavedRun::read(cp)?;
            if saved.out_bytes != 0 {
                bail!(
                    "{c} is the checkpoint of a run writing {o}, which is not there; pass \
                     --force to start over"
                );
            }
            Ok(Some(saved))
        }
        (false, true, false) => bail!(
            "{c} is the checkpoint of a run writing {o}, which is not there; pass --resume \
             to go on with it (if it had written nothing yet), or --force to start over"
        ),
        (true, false, true) => bail!(
            "--resume: {o} has no checkpoint beside it ({c}): the run that wrote it ended \
             (a finished run removes its checkpoint), or it was not written by `generate \
             --out`; pass --force to start over"
        ),
        (true, true, true) => SavedRun::read(cp).map(Some),
        _ => Ok(None),
    }
}
