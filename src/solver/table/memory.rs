//! The table's memory: zeroed pages from the allocator, aligned by hand, touched only where
//! the search writes, on huge pages where the kernel gives them and they are asked for; and
//! the error of a size that cannot be had.

use super::entry::Bucket;
use std::alloc::Layout;

/// Why a solver cannot be made: its table cannot be had (or its search threads cannot
/// start).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    /// The operating system refused the memory.
    #[error("cannot allocate a transposition table of {mb} MB: not enough memory")]
    OutOfMemory {
        /// The size asked for, in megabytes.
        mb: usize,
    },
    /// The size is beyond what this machine can address.
    #[error("a transposition table of {mb} MB is too large for this machine")]
    TooLarge {
        /// The size asked for, in megabytes.
        mb: usize,
    },
    /// The helper threads of a parallel search could not be started.
    #[error("cannot start {threads} search threads: {reason}")]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// What the operating system said.
        reason: String,
    },
}

/// The bucket array: zeroed memory from the allocator, touched only where it is used.
///
/// Asked for with the C library's own alignment (so that a large request is served by
/// `calloc` from fresh, untouched pages rather than written with zeros) and a bucket's
/// worth of slack, and aligned by hand.
pub(super) struct Buckets {
    base: *mut u8,
    layout: Layout,
    start: *mut Bucket,
    pub(super) len: usize,
}

// SAFETY: `Buckets` owns its allocation exclusively, like a `Box<[Bucket]>`.
unsafe impl Send for Buckets {}
// SAFETY: shared access goes through the buckets' atomic words only.
unsafe impl Sync for Buckets {}

impl Buckets {
    pub(super) fn zeroed(len: usize, mb: usize, huge: bool) -> Result<Buckets, TableError> {
        let size = len
            .checked_mul(std::mem::size_of::<Bucket>())
            .and_then(|s| s.checked_add(std::mem::align_of::<Bucket>()))
            .ok_or(TableError::TooLarge { mb })?;
        let layout = Layout::from_size_align(size, 16).map_err(|_| TableError::TooLarge { mb })?;
        // SAFETY: `layout` has a non-zero size.
        let base = unsafe { std::alloc::alloc_zeroed(layout) };
        if base.is_null() {
            return Err(TableError::OutOfMemory { mb });
        }
        let offset = base.align_offset(std::mem::align_of::<Bucket>());
        // SAFETY: the slack of one bucket's alignment keeps `len` buckets inside the block.
        let start = unsafe { base.add(offset) } as *mut Bucket;
        if huge {
            huge_pages(base, size);
        }
        Ok(Buckets {
            base,
            layout,
            start,
            len,
        })
    }

    /// Bytes of the block the kernel has backed with memory (the pages the table touched),
    /// as `mincore` reports them: what a test of the table's memory use measures, unmoved
    /// by whatever else the process allocates.
    #[cfg(all(test, target_os = "linux"))]
    pub(super) fn resident_bytes(&self) -> usize {
        // SAFETY: sysconf only reads a setting.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let start = self.base as usize / page * page;
        let end = self.base as usize + self.layout.size();
        let mut resident = vec![0u8; (end - start).div_ceil(page)];
        // SAFETY: the range covers the pages of the block this owns, `resident` has a byte
        // for each of them, and mincore only reports on them.
        let ok = unsafe {
            libc::mincore(
                start as *mut libc::c_void,
                end - start,
                resident.as_mut_ptr() as *mut _,
            )
        };
        assert_eq!(ok, 0, "mincore failed");
        resident.iter().filter(|&&b| b & 1 != 0).count() * page
    }

    #[inline]
    pub(super) fn as_slice(&self) -> &[Bucket] {
        // SAFETY: `start` is aligned, the block holds `len` buckets, and all-zero bytes are a
        // valid `Bucket` (atomic integers; all zero is an empty entry).
        unsafe { std::slice::from_raw_parts(self.start, self.len) }
    }
}

/// Asks the kernel to back the block with huge pages where it can (Linux, where
/// transparent huge pages are on "madvise"): a table spread over hundreds of megabytes then
/// costs one TLB entry and one page fault per 2 MB instead of per 4 KB, which pays over many
/// searches (a fresh huge page can cost more to fault in than it saves in one: see
/// [`crate::solver::SolverConfig::huge_pages`]). Pages are still untouched until written.
#[cfg(target_os = "linux")]
fn huge_pages(base: *mut u8, size: usize) {
    const HUGE: usize = 2 << 20;
    let first = base.align_offset(HUGE);
    if size <= first + HUGE {
        return;
    }
    let len = (size - first) / HUGE * HUGE;
    // SAFETY: the range lies inside the block just allocated; madvise only gives advice
    // (a refusal, such as on a kernel without huge pages, changes nothing).
    unsafe {
        libc::madvise(
            base.add(first) as *mut libc::c_void,
            len,
            libc::MADV_HUGEPAGE,
        );
    }
}

#[cfg(not(target_os = "linux"))]
fn huge_pages(_base: *mut u8, _size: usize) {}

impl Drop for Buckets {
    fn drop(&mut self) {
        // SAFETY: `base` came from `alloc_zeroed` with `layout`.
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}
