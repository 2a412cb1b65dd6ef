//! The allocator adjudicate runs on, in every build that links the library (the binary, its
//! tests, the benches): mimalloc. The engines, the receive path and rendering make many small
//! allocations, which it serves faster than the system allocator (numbers: README, Performance).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc v2's `mi_option_t` (include/mimalloc.h), which
/// libmimalloc-sys does not name.
const PURGE_DELAY: std::ffi::c_int = 15;

unsafe extern "C" {
    fn mi_option_get(option: std::ffi::c_int) -> std::ffi::c_long;
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// A command runs for seconds and exits: memory it frees is soon needed again, so mimalloc keeps
/// it instead of handing it back to the kernel after 10 ms. Handing it back made the kernel zero
/// the same pages again and again: a quarter of a 10,000-player tick's time, for 5% less peak
/// memory. Called first thing by `main` (and by the benches, to measure what runs).
pub fn keep_freed_memory() {
    // SAFETY: reads and sets one of mimalloc's options (atomics inside); any value is valid.
    unsafe {
        debug_assert_eq!(
            mi_option_get(PURGE_DELAY),
            10,
            "the documented default: PURGE_DELAY names the purge delay"
        );
        mi_option_set(PURGE_DELAY, -1);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_purge_delay_is_set_to_never() {
        super::keep_freed_memory();
        // SAFETY: reads an option.
        assert_eq!(unsafe { super::mi_option_get(super::PURGE_DELAY) }, -1);
    }
}
