import CWeaveDIShims

// A chain of synchronous factories nests on the thread's stack: every factory that resolves
// another adds a level of frames (its own, and WeaveDI's between it and the next factory). The
// guard below stops a chain before the next level could overflow the stack, by measuring rather
// than counting: it reads where the thread's stack ends once per thread (kept in the thread's
// `ThreadStack.Header`), and, before each nested factory, compares the room left below the
// current frame with what the next level could need. A resolution made outside any factory pays
// nothing: only nested ones check. Async factories run on task frames, not on a thread's stack;
// their bound is a count (`Container.maximumAsyncResolutionDepth`).

/// How much stack the guard keeps free, and where a thread's stack is.
enum StackGuard {
    /// Room kept free below the deepest factory for what a failure does there: throwing, building
    /// the error's message, logging it and running `onResolutionError` hooks.
    static var reserve: Int { 64 << 10 }
    /// A nested factory runs only when at least this many more levels of the size measured so
    /// far fit above the reserve: a level of the chain may take more stack than the average of
    /// the levels before it.
    static var levelsAhead: Int { 4 }
    /// What a level is assumed to take before there is one to measure (the first nested
    /// factory): about three times a level of a debug build, measured on Linux x86_64.
    static var firstLevelEstimate: Int { 16 << 10 }
    /// The stack assumed where the platform does not report a thread's bounds (neither Linux nor
    /// an Apple platform): the size of an Apple secondary thread's stack, below the frame from
    /// which the thread first resolved.
    static var assumedStackSize: UInt { 512 << 10 }

    /// The current thread's stack, lowest and highest address.
    static func currentThreadBounds() -> (low: UInt, high: UInt) {
        var low: UInt = 0
        var high: UInt = 0
        if weavedi_thread_stack_bounds(&low, &high) == 0, low < high { return (low, high) }
        let here = weavedi_stack_address()
        return (here > assumedStackSize ? here - assumedStackSize : 0, here)
    }
}

extension ThreadStack {
    /// When the stack left below the caller's frame is less than the next nested factory could
    /// need, how much is left and how much it could need (bytes); `nil` when it has room.
    ///
    /// `depth` is the number of factories running on this thread (at least 1). A level's size is
    /// the average of the levels of this chain so far: the stack used between the first nested
    /// resolution (at depth 1) and this one, divided by the levels between them. The next
    /// factory runs when ``StackGuard/reserve`` plus ``StackGuard/levelsAhead`` such levels fit.
    /// A frame outside the thread's stack (a coroutine's, say) is not judged.
    @inline(__always)
    func stackShortage(depth: Int) -> (remaining: Int, needed: Int)? {
        let here = weavedi_stack_address()
        if depth == 1 { header.pointee.nestedBase = here }
        let low = header.pointee.stackLow
        guard here > low, here <= header.pointee.stackHigh else { return nil }
        let remaining = Int(bitPattern: here &- low)
        let spare = remaining &- StackGuard.reserve
        let used = Int(bitPattern: header.pointee.nestedBase &- here)
        let levels = depth &- 1
        if levels > 0, used > 0 {
            // spare ≥ levelsAhead × (used / levels), without a division on the common path.
            if spare >= 0, spare &* levels >= StackGuard.levelsAhead &* used { return nil }
            return (remaining, StackGuard.reserve &+ StackGuard.levelsAhead &* (used / levels))
        }
        let needed = StackGuard.reserve &+ StackGuard.levelsAhead &* StackGuard.firstLevelEstimate
        return remaining >= needed ? nil : (remaining, needed)
    }
}
