//! Giving freed memory back to the system.
//!
//! glibc's allocator keeps memory a program freed for its next allocations: after a big client
//! detaches (its frames were megabytes) or a flood ends, the server's RSS stays at its peak.
//! `malloc_trim` returns what is free at the top of the heap and in whole free pages. It walks
//! the heap, so it is called on rare events only (a client leaving, a pane's flood ending),
//! never per frame. Other allocators return memory themselves: there it does nothing.

/// Returns memory the allocator holds but nobody uses to the system (glibc only).
#[allow(unsafe_code)]
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only inspects and releases the allocator's own free memory; it is
    // safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}
