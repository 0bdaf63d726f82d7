import CMalloc

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator, set for a process that holds large arrays for a while and lets them go:
/// a scene's timeline, a compiled program, frames of megabytes.
///
/// By default glibc serves an allocation of 128 KiB or more with a mapping of its own, but
/// raises that threshold to the size of every such block freed, up to 32 MiB. After the first
/// large array is freed (a request's body, a grown array's old storage), arrays of up to
/// megabytes come from the heap, and once freed they stay there as holes that later, larger
/// arrays cannot use. A fixed threshold of 256 KiB gives every larger array its own mapping,
/// returned to the system when it is freed, and of which only the pages written take memory
/// (docs/architecture.md, "C libraries and memory"). Smaller allocations, nearly all of them,
/// are unchanged. What is allocated again and again (a stream's frame buffers and cursors) is
/// kept and written again instead, or each use would fault in new pages.
package enum Allocator {
    /// Allocations of this many bytes or more get a mapping of their own.
    package static let mappingThreshold: Int32 = 256 * 1024

    /// Sets the threshold; call it once, first thing in `main`, before other threads start.
    /// glibc's own setting wins: with `MALLOC_MMAP_THRESHOLD_` (or a `glibc.malloc.mmap_threshold`
    /// in `GLIBC_TUNABLES`) in the environment, the operator's value stays.
    package static func configure() {
        if getenv("MALLOC_MMAP_THRESHOLD_") != nil { return }
        if let tunables = getenv("GLIBC_TUNABLES"), String(cString: tunables).contains("mmap_threshold") { return }
        _ = mallopt(M_MMAP_THRESHOLD, mappingThreshold)
    }

    /// Gives the heap's free pages back to the system (`malloc_trim`), freed small blocks
    /// between live ones included: the server does it once a large response has been sent.
    package static func releaseFreePages() {
        _ = malloc_trim(0)
    }
}
