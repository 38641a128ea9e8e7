import CWeaveDIShims

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The current thread's ``ResolutionStack`` as the resolution path uses it: a plain pointer to
/// the stack's header.
///
/// Every factory run pushes and pops an entry, and every nested resolution scans the entries for
/// a cycle. Going through a pointer rather than the class instance keeps all of that free of
/// reference counting (a class reference taken from thread-local storage would be retained and
/// released around each use), and the entries are trivial values, so a push or a pop is a few
/// plain stores.
@usableFromInline
struct ThreadStack {
    /// What the hot path reads and writes, in one allocation owned by the ``ResolutionStack``.
    @usableFromInline
    struct Header {
        @usableFromInline var base: UnsafeMutablePointer<StackEntry>
        /// The names of the named entries, each at its entry's position (the other positions
        /// hold garbage); room for `capacity` strings. A name is kept *unretained*: its bits are
        /// copied in by ``ThreadStack/push(_:type:container:)`` and nothing is released by
        /// ``ThreadStack/pop(pushedAt:)``. That is safe because an entry never outlives the key it was
        /// pushed from: `push` and `pop` bracket a factory run inside a function that holds the
        /// key as a parameter, and only this thread reads its entries, while they are pushed
        /// (reading one copies, so retains, the name). So a named push is two stores, like an
        /// unnamed one: no retain and release, no call, no array bookkeeping, nothing allocated.
        @usableFromInline var names: UnsafeMutableRawPointer
        /// Number of entries: factories running on this thread right now.
        @usableFromInline var depth: Int
        /// Whether the thread's outermost resolution started a graph (`Scope.graph`): the pop
        /// that ends it releases the graph (see ``ThreadStack/pop(pushedAt:)``). Beside `depth`, so that
        /// pop reads no other cache line.
        @usableFromInline var hasGraph: Bool
        @usableFromInline var capacity: Int
        /// The stack object (unretained: the thread-local slot owns it).
        @usableFromInline var owner: Unmanaged<ResolutionStack>?
        /// Unnamed edges this thread recorded lately (see `Container.noteEdge`): four sets of
        /// four trivial entries, so a hot loop of nested resolutions neither takes the graph's
        /// lock nor touches a reference count.
        @usableFromInline let edgeCache: UnsafeMutablePointer<EdgeStamp>
        /// Which entry of a set the next miss replaces.
        @usableFromInline var edgeVictim: Int
        /// The thread's stack, lowest and highest address (read once, when the thread first
        /// resolves; see ``ThreadStack/stackShortage(depth:)``).
        let stackLow: UInt
        let stackHigh: UInt
        /// The frame address of the latest nested resolution made at depth 1: the deeper ones of
        /// the same chain measure from it how much stack a level takes.
        var nestedBase: UInt
        /// The child container a resolution now delegated to a parent was asked of (unretained:
        /// it is alive while its own resolution runs), and the depth the delegation was made at:
        /// the factory whose frame sits right above that depth was asked for through it (see
        /// `Container.autowiringTarget()`). Written only when a child delegates to a parent.
        @usableFromInline var requester: Unmanaged<Container>?
        @usableFromInline var requesterDepth: Int

        @usableFromInline static var edgeCacheSize: Int { 16 }

        init(owner: Unmanaged<ResolutionStack>?) {
            capacity = 16
            depth = 0
            hasGraph = false
            base = .allocate(capacity: 16)
            names = .allocate(
                byteCount: 16 * MemoryLayout<String>.stride, alignment: MemoryLayout<String>.alignment)
            self.owner = owner
            edgeCache = .allocate(capacity: Header.edgeCacheSize)
            edgeCache.initialize(
                repeating: EdgeStamp(from: 0, to: 0, container: 0, epoch: 0), count: Header.edgeCacheSize)
            edgeVictim = 0
            (stackLow, stackHigh) = StackGuard.currentThreadBounds()
            nestedBase = 0
            requester = nil
            requesterDepth = -1
        }

        func deallocateBuffers() {
            base.deallocate()
            names.deallocate()
            edgeCache.deallocate()
        }
    }

    @usableFromInline let header: UnsafeMutablePointer<Header>

    @inlinable @inline(__always)
    init(header: UnsafeMutablePointer<Header>) { self.header = header }

    /// The current thread's stack (from a C thread-local variable: one load, where
    /// `pthread_getspecific` would be a call); made on first use.
    @inlinable @inline(__always)
    static var current: ThreadStack {
        if let raw = weavedi_current_stack_get() {
            return ThreadStack(header: raw.assumingMemoryBound(to: Header.self))
        }
        return ResolutionStack.makeCurrent()
    }

    /// Whether a factory is running on the current thread (without making a stack).
    @inlinable @inline(__always)
    static var isResolving: Bool {
        guard let raw = weavedi_current_stack_get() else { return false }
        return raw.assumingMemoryBound(to: Header.self).pointee.depth != 0
    }

    /// The stack object, for slow paths.
    @usableFromInline
    var object: ResolutionStack { header.pointee.owner.unsafelyUnwrapped.takeUnretainedValue() }

    @inlinable
    var depth: Int { header.pointee.depth }

    /// Pushes the resolution of `key` (of `type`, in `container`).
    ///
    /// A named key's name is stored beside the entry, in the header's `names` buffer at the
    /// entry's own position, unretained (see `Header.names` for why that is safe).
    @inlinable @inline(__always)
    func push(_ key: RegistryKey, type: Any.Type, container: ObjectIdentifier) {
        if header.pointee.depth == header.pointee.capacity { grow() }
        let depth = header.pointee.depth
        var nameIndex = -1
        if key.name != nil {
            withUnsafeBytes(of: key.name.unsafelyUnwrapped) { name in
                (header.pointee.names + depth &* MemoryLayout<String>.stride).copyMemory(
                    from: name.baseAddress.unsafelyUnwrapped, byteCount: MemoryLayout<String>.size)
            }
            nameIndex = depth
        }
        (header.pointee.base + depth)
            .initialize(to: StackEntry(id: key.id, type: type, container: container, nameIndex: nameIndex))
        header.pointee.depth = depth + 1
    }

    /// Pops the innermost entry (a name in it was not retained: nothing to release), which was
    /// pushed at `depth` (the depth before the push, which the caller has in a register): the pop
    /// of an outermost factory (`depth` 0) releases the graph its resolution started, if any
    /// (`Scope.graph`), at the cost of one load beside the depth; a nested pop checks nothing.
    @inlinable @inline(__always)
    func pop(pushedAt depth: Int) {
        header.pointee.depth = depth
        if depth == 0 && header.pointee.hasGraph { endGraph() }
    }

    /// Releases the graph of the resolution that just ended (out of line: graph-scoped
    /// registrations only).
    @usableFromInline @inline(never)
    func endGraph() { object.dropGraph() }

    /// The name of the named entry at `index` (its ``StackEntry/nameIndex``), while the entry is
    /// pushed: a copy (retained) of the key's name.
    @usableFromInline
    func name(at index: Int) -> String {
        header.pointee.names.load(fromByteOffset: index * MemoryLayout<String>.stride, as: String.self)
    }

    @usableFromInline
    func grow() {
        let capacity = header.pointee.capacity * 2
        let depth = header.pointee.depth
        let larger = UnsafeMutablePointer<StackEntry>.allocate(capacity: capacity)
        let largerNames = UnsafeMutableRawPointer.allocate(
            byteCount: capacity * MemoryLayout<String>.stride, alignment: MemoryLayout<String>.alignment)
        largerNames.copyMemory(from: header.pointee.names, byteCount: depth * MemoryLayout<String>.stride)
        larger.moveInitialize(from: header.pointee.base, count: depth)
        header.pointee.base.deallocate()
        header.pointee.names.deallocate()
        header.pointee.base = larger
        header.pointee.names = largerNames
        header.pointee.capacity = capacity
    }

    /// Returns the index of `key` in the chain when resolving it now would close a cycle.
    @inlinable
    func indexOf(_ key: RegistryKey, in container: ObjectIdentifier) -> Int? {
        // Typical chains are a few entries deep: a linear scan beats any set. Ids are compared
        // first so names are compared only on a real match.
        let base = header.pointee.base
        var index = header.pointee.depth - 1
        while index >= 0 {
            let entry = base[index]
            if entry.id == key.id && entry.container == container && sameName(entry, key.name) { return index }
            index -= 1
        }
        return nil
    }

    @inlinable @inline(__always)
    func sameName(_ entry: StackEntry, _ name: String?) -> Bool {
        if entry.nameIndex < 0 { return name == nil }
        return name != nil && self.name(at: entry.nameIndex) == name
    }

    /// Remembers the edges this thread recorded lately, so a hot loop does not take the graph's
    /// lock on every nested resolution. Returns whether the edge from the innermost entry to
    /// `to` is new to this thread. Inlined into the nested-resolution path; named edges take an
    /// out-of-line path.
    @inline(__always)
    func rememberEdge(to: RegistryKey, container: ObjectIdentifier, epoch: Int) -> Bool {
        let parent = header.pointee.base[header.pointee.depth - 1]
        guard parent.nameIndex < 0, to.name == nil else {
            return rememberNamedEdge(parent: parent, to: to, container: container, epoch: epoch)
        }
        let stamp = EdgeStamp(from: parent.id, to: to.id, container: UInt(bitPattern: container), epoch: epoch)
        // The set comes from a hash of both ends (related types have neighbouring metadata
        // addresses, so both are multiplied into the top bits), and a miss replaces the entries
        // of a set in turn, so edges landing in one set do not evict each other every time.
        let mixed = (parent.id &* fibonacciMultiplier) ^ (to.id &* secondaryMultiplier)
        let set = header.pointee.edgeCache + Int(truncatingIfNeeded: mixed >> (UInt.bitWidth - 2)) * 4
        for way in 0..<4 where set[way] == stamp { return false }
        header.pointee.edgeVictim &+= 1
        set[header.pointee.edgeVictim & 3] = stamp
        return true
    }

    @inline(never)
    func rememberNamedEdge(parent: StackEntry, to: RegistryKey, container: ObjectIdentifier, epoch: Int) -> Bool {
        let from = RegistryKey(
            rawID: parent.id, name: parent.nameIndex < 0 ? nil : name(at: parent.nameIndex))
        return object.rememberNamedEdge(from: from, to: to, container: container, epoch: epoch)
    }
}

/// One entry of a ``ResolutionStack``: a ``ResolutionFrame`` without its name.
///
/// Trivial (no reference-counted fields), so pushing and popping one is a few plain stores: a
/// named resolution keeps its name beside it, in the header's `names` buffer.
@usableFromInline
struct StackEntry {
    @usableFromInline let id: UInt
    @usableFromInline let type: Any.Type
    @usableFromInline let container: ObjectIdentifier
    /// Position of the name in the header's `names` buffer (the entry's own position), or -1 for
    /// an unnamed resolution.
    @usableFromInline let nameIndex: Int

    @inlinable @inline(__always)
    init(id: UInt, type: Any.Type, container: ObjectIdentifier, nameIndex: Int) {
        self.id = id
        self.type = type
        self.container = container
        self.nameIndex = nameIndex
    }
}

/// An unnamed graph edge a thread recorded: trivial, compared as four words.
@usableFromInline
struct EdgeStamp: Equatable {
    @usableFromInline let from: UInt
    @usableFromInline let to: UInt
    @usableFromInline let container: UInt
    @usableFromInline let epoch: Int

    @inlinable
    init(from: UInt, to: UInt, container: UInt, epoch: Int) {
        self.from = from
        self.to = to
        self.container = container
        self.epoch = epoch
    }
}
