//! The memory a run holds: an allocator that counts it, and the ceiling `max-memory` puts on it.
//!
//! The planner refuses work whose estimate passes `max-memory`, and the
//! engines whose work is not known in advance check what they hold as they
//! grow. Estimates can be wrong, and not every byte is an engine's (a parsed
//! file, a DOT text, a JSON answer), so a program that wants `max-memory` to
//! be a bound installs [`Meter`] as its global allocator and calls [`bound`]:
//! every allocation is then counted, and the one that would take the heap
//! past the ceiling calls the program's handler instead, which reports the
//! limit and ends the process. The `pegflip` binary does both.
//!
//! ```no_run
//! #[global_allocator]
//! static METER: pegflip::memory::Meter = pegflip::memory::Meter;
//!
//! fn over(over: pegflip::memory::Over) -> ! {
//!     eprintln!("{}", over.error());
//!     std::process::exit(2)
//! }
//!
//! pegflip::memory::bound(100 << 20, over);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::{Mutex, OnceLock};

use crate::error::Error;
use crate::limits::{Limits, PROCESS_BYTES};

/// The heap bytes held now, as the [`Meter`] counts them.
static HELD: AtomicUsize = AtomicUsize::new(0);
/// The most heap bytes the [`Meter`] lets the process hold; no ceiling at `usize::MAX`.
static CEILING: AtomicUsize = AtomicUsize::new(usize::MAX);
/// The `max-memory` the ceiling comes from, for the handler's message.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// The handler called when an allocation would pass the ceiling.
static HANDLER: OnceLock<fn(Over) -> !> = OnceLock::new();

/// What the run at hand has proved so far, for the handler's message.
static PROVED: Mutex<String> = Mutex::new(String::new());

/// The system allocator, counting what is held: install it with
/// `#[global_allocator]` to make [`bound`] and [`held`] work.
pub struct Meter;

// SAFETY: every call is passed to `System` unchanged; the counters are only arithmetic.
unsafe impl GlobalAlloc for Meter {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: the caller's contract for `alloc` is passed on unchanged.
        let ptr = unsafe { System.alloc(layout) };
        huge_pages(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        // SAFETY: as for `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        huge_pages(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from `System` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            take(new_size - layout.size());
        } else {
            HELD.fetch_sub(layout.size() - new_size, Relaxed);
        }
        // A grown block is not advised to take huge pages: growing levels of
        // the move levels advised so were seen to take a run's peak resident
        // memory to 1.6 times what it was without the advice.
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// The least allocation whose pages are asked to be huge.
const HUGE: usize = 4 << 20;

/// Asks the kernel to back the whole 2 MiB pages inside a large new
/// allocation with huge pages where it can (transparent huge pages, in `madvise` mode on
/// most systems): a layer of millions of positions then costs a few hundred
/// page faults instead of a hundred thousand. Elsewhere, nothing.
#[inline]
fn huge_pages(ptr: *mut u8, size: usize) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if size >= HUGE && !ptr.is_null() {
        let start = (ptr as usize).next_multiple_of(2 << 20);
        let end = (ptr as usize + size) & !((2 << 20) - 1);
        if end > start {
            // SAFETY: advice on pages of an allocation the caller owns; it
            // changes how they are backed, never what they hold.
            unsafe {
                libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = (ptr, size);
}

/// Counts `bytes` more held, and calls the handler when that passes the ceiling.
#[inline]
fn take(bytes: usize) {
    let held = HELD.fetch_add(bytes, Relaxed).wrapping_add(bytes);
    let ceiling = CEILING.load(Relaxed);
    if held > ceiling {
        over(held, ceiling);
    }
}

#[cold]
fn over(held: usize, ceiling: usize) {
    // Only the first allocation past the ceiling reports; lifting the ceiling
    // lets the handler (and every other thread meanwhile) allocate.
    if CEILING
        .compare_exchange(ceiling, usize::MAX, Relaxed, Relaxed)
        .is_err()
    {
        return;
    }
    if let Some(handler) = HANDLER.get() {
        handler(Over {
            held: held as u64,
            limit: LIMIT.load(Relaxed) as u64,
        });
    }
}

/// An allocation that would have taken the process past its ceiling.
#[derive(Clone, Copy, Debug)]
pub struct Over {
    /// The heap bytes held with the allocation.
    pub held: u64,
    /// The `max-memory` the ceiling comes from.
    pub limit: u64,
}

impl Over {
    /// The limit error, naming `max-memory`: the process's bytes (its heap
    /// and [`PROCESS_BYTES`]) against the limit, and what the run had
    /// proved so far, where a search noted it.
    pub fn error(&self) -> Error {
        let mut hint = String::from(
            "the work needs more than its estimate said; raise --max-memory if the machine has \
             room",
        );
        // The lock is only tried: this runs inside an allocation, and a
        // message without the note is better than a wait there.
        if let Ok(proved) = PROVED.try_lock()
            && !proved.is_empty()
        {
            hint = format!("{hint} (searched so far: {proved})");
        }
        Limits::exceeded_bound(
            "max-memory",
            "the memory this run holds (counted as it is allocated)",
            u128::from(self.held) + PROCESS_BYTES,
            u128::from(self.limit),
            hint,
        )
    }
}

/// Bounds the process at `max_memory` bytes: once the heap and
/// [`PROCESS_BYTES`] would pass it, `handler` is called (once) instead of
/// the allocation going on. Only a process whose global allocator is
/// [`Meter`] is bounded. A later call sets a new bound; the first call's
/// handler stays.
pub fn bound(max_memory: u64, handler: fn(Over) -> !) {
    let _ = HANDLER.set(handler);
    give_back_freed_buffers();
    let limit = usize::try_from(max_memory).unwrap_or(usize::MAX);
    LIMIT.store(limit, Relaxed);
    let ceiling = u128::from(max_memory).saturating_sub(PROCESS_BYTES);
    CEILING.store(usize::try_from(ceiling).unwrap_or(usize::MAX), Relaxed);
}

/// Makes the allocator return large freed buffers to the system, so that
/// what the process holds resident follows what the [`Meter`] counts. On
/// glibc a buffer past the mmap threshold is mapped apart and unmapped when
/// freed, but the threshold rises to the largest such buffer freed (up to
/// 32 MiB), and later buffers below it come from the heap, which keeps them
/// when they are freed: a search that frees its chunk buffers a level at a
/// time would then hold far more than it counts. Fixing the threshold at
/// 1 MiB keeps every larger buffer apart. Elsewhere, nothing to do.
fn give_back_freed_buffers() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: `mallopt` only sets a glibc tuning parameter; it is called
        // before the threads that allocate large buffers start.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20);
        }
    }
}

/// Gives the pages of freed memory the allocator keeps back to the system
/// once the process's resident memory passes `bytes`. Small buffers (a
/// level's partitions, a chunk's buckets) come from the allocator's heaps,
/// and freed ones stay resident there between other buffers, so what is
/// resident can pass what is held by half or more. Giving them back costs the
/// page faults of using them again, so it is done only near a bound. On
/// glibc, `malloc_trim`, which releases every whole free page of every heap;
/// elsewhere, nothing.
pub(crate) fn give_back_past(bytes: u64) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if crate::limits::resident_bytes().is_some_and(|r| r > bytes) {
        // SAFETY: `malloc_trim` only returns free pages; no live allocation moves.
        unsafe {
            libc::malloc_trim(0);
        }
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = bytes;
}

/// The heap bytes held now and [`PROCESS_BYTES`], when the global allocator
/// is [`Meter`].
#[cfg(feature = "dataflow")]
pub(crate) fn process_bytes() -> Option<u64> {
    held().map(|heap| heap.saturating_add(PROCESS_BYTES as u64))
}

/// Notes what the run at hand has `proved` so far (empty for nothing), for
/// the message of an allocation past the ceiling ([`Over::error`]). The
/// note is the process's: of searches run at once on several threads, the
/// message names what the last to note had proved.
pub(crate) fn note_proved(proved: String) {
    let mut note = PROVED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *note = proved;
}

/// Lifts the bound [`bound`] set.
pub fn unbound() {
    CEILING.store(usize::MAX, Relaxed);
}

/// The heap bytes the process holds, when its global allocator is [`Meter`].
pub fn held() -> Option<u64> {
    let held = HELD.load(Relaxed);
    // A program allocates before it asks; nothing counted means no meter.
    (held > 0).then_some(held as u64)
}
