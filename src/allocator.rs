//! The allocator adjudicate runs on, in every build that links the library (the binary, its
//! tests, the benches): mimalloc. The engines, the receive path and rendering make many small
//! allocations, which it serves faster than the system allocator (numbers: README, Performance).

#[cfg(not(test))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The library's own tests run on mimalloc too, counting each thread's allocations, so that a
/// test can say what a piece of code allocates (`counting::allocations`).
#[cfg(test)]
#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

#[cfg(test)]
pub mod counting {
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::Cell;

    thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    fn count() {
        // (a thread being torn down has no counter left; its allocations are not counted)
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }

    /// How many allocations (and reallocations) this thread has made so far.
    pub fn allocations() -> u64 {
        COUNT.with(Cell::get)
    }

    /// mimalloc, with every allocation counted on the thread that makes it.
    pub struct Counting;

    // SAFETY: every call is passed on to mimalloc unchanged; counting touches only a
    // thread-local integer and never allocates.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            count();
            unsafe { mimalloc::MiMalloc.alloc(layout) }
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            count();
            unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            count();
            unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) }
        }
    }
}

/// `mi_option_purge_delay` in mimalloc v2's `mi_option_t` (include/mimalloc.h), which
/// libmimalloc-sys does not name.
const PURGE_DELAY: std::ffi::c_int = 15;

unsafe extern "C" {
    fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// `PR_SET_THP_DISABLE` and `PR_GET_THP_DISABLE` (linux/prctl.h).
#[cfg(target_os = "linux")]
const PR_SET_THP_DISABLE: std::ffi::c_int = 41;
#[cfg(all(target_os = "linux", test))]
const PR_GET_THP_DISABLE: std::ffi::c_int = 42;

#[cfg(target_os = "linux")]
unsafe extern "C" {
    /// Linux's process controls; the THP options take four more arguments, all 0 but the first
    /// of a set (the kernel refuses the call otherwise).
    fn prctl(option: std::ffi::c_int, ...) -> std::ffi::c_int;
}

/// How a command uses memory, set first thing by `main` (and by the benches, to measure what
/// runs): freed memory is handed back at once, and pages are the kernel's small ones.
pub fn configure() {
    hand_back_freed_memory();
    no_transparent_huge_pages();
}

/// A large tick's phases free most of what they allocate (the files read, their parsed trees,
/// each report once written), often on other threads than those that allocate next, which
/// cannot reuse it. Kept, it stayed resident to the end: mimalloc hands a page that is wholly
/// free back to the kernel at once instead (`purge_delay` 0, not its default 10 ms, which
/// freed too late to lower any peak). Measured on a God Race round that receives and resolves
/// everything (A/B, alternating): 100,000 players 480 → 280 MB peak, 10,000 players 70 → 43
/// MB, for 5-10% more time (the kernel zeroes pages asked for again); a six-player tick and
/// `simulate`, which free little at a time, the same within noise. (Earlier, memory was kept
/// with `-1`, when handing it back after the default 10 ms cost a quarter of a 10,000-player
/// tick's time for 5% less memory.)
fn hand_back_freed_memory() {
    // SAFETY: reads and sets one of mimalloc's options (atomics inside); any value is valid.
    unsafe {
        debug_assert_eq!(
            mi_option_get(PURGE_DELAY),
            10,
            "the documented default: PURGE_DELAY names the purge delay"
        );
        mi_option_set(PURGE_DELAY, 0);
    }
}

/// Called as `main` returns: nothing is handed back from now on. mimalloc frees what every
/// heap still holds as the process ends (`mi_process_done` collects), and with a purge delay of
/// 0 each page freed there was handed back to the kernel one `madvise` at a time, just before
/// the kernel takes the whole address space back anyway.
pub fn finish() {
    // SAFETY: sets one of mimalloc's options (atomics inside); any value is valid.
    unsafe { mi_option_set(PURGE_DELAY, -1) };
}

/// With transparent huge pages, the first byte a command touches in a 2 MiB stretch costs the
/// whole stretch: a tenth of a 10,000-player tick's peak memory, and 2 MiB zeroed before `main`
/// (the first allocation) that a small command does not need (its time is the same within
/// noise: small page faults instead). mimalloc is built without asking for them (its `no_thp`
/// feature: no `madvise(MADV_HUGEPAGE)` on its arena), which is enough where the kernel gives
/// them only to who asks (`madvise`, Debian's default); on a kernel set to give them to every
/// process (`always`), the kernel's switch, set here, holds for every page touched from now on.
/// (mimalloc's own `allow_thp` option is read before `main`, too late to set.)
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: sets a flag of this process (the other arguments must be 0); the call cannot
        // touch memory. A kernel without it refuses (-1), and the command runs as before.
        unsafe {
            let (on, zero): (std::ffi::c_ulong, std::ffi::c_ulong) = (1, 0);
            prctl(PR_SET_THP_DISABLE, on, zero, zero, zero);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn freed_memory_is_handed_back_and_pages_are_small() {
        super::configure();
        // SAFETY: reads an option.
        assert_eq!(unsafe { super::mi_option_get(super::PURGE_DELAY) }, 0);
        // as main returns, nothing more is handed back (then as configured again, for the
        // tests that run after this one in the same process)
        super::finish();
        // SAFETY: reads, then sets an option.
        unsafe {
            assert_eq!(super::mi_option_get(super::PURGE_DELAY), -1);
            super::mi_option_set(super::PURGE_DELAY, 0);
        }
        #[cfg(target_os = "linux")]
        {
            // SAFETY: reads a flag of this process.
            let zero: std::ffi::c_ulong = 0;
            let disabled =
                unsafe { super::prctl(super::PR_GET_THP_DISABLE, zero, zero, zero, zero) };
            assert_eq!(
                disabled, 1,
                "transparent huge pages are off for the process"
            );
        }
    }
}
