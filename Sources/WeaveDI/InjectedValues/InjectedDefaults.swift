/// Each key's default value for the process's context, computed once and kept.
///
/// A default is computed outside the lock (it may read other keys); a thread that asks for a
/// default another thread is computing waits for it, so each default is computed exactly once. A
/// default that reads its own key while being computed gets a fresh, uncached value instead of
/// deadlocking.
final class InjectedDefaults: @unchecked Sendable {
    static let shared = InjectedDefaults(context: InjectionContext.current)

    private enum Entry {
        case computing(thread: ObjectIdentifier)
        case ready(Any)
    }

    let context: InjectionContext
    private let mutex = ConditionMutex()
    private var entries: [ObjectIdentifier: Entry] = [:]

    init(context: InjectionContext) {
        self.context = context
    }

    func value<K: InjectedKey>(for key: K.Type) -> K.Value {
        let id = ObjectIdentifier(key)
        let me = ResolutionStack.current.threadID
        mutex.lock()
        while true {
            switch entries[id] {
            case .ready(let stored)?:
                mutex.unlock()
                if let box = stored as? InjectedValues.OverrideBox<K.Value> { return box.value }
                return compute(key)
            case .computing(let thread)? where thread == me:
                mutex.unlock()
                return compute(key)
            case .computing?:
                mutex.wait()
            case nil:
                entries[id] = .computing(thread: me)
                mutex.unlock()
                let value = compute(key)
                mutex.withLock {
                    entries[id] = .ready(InjectedValues.OverrideBox(value: value))
                    mutex.broadcast()
                }
                return value
            }
        }
    }

    private func compute<K: InjectedKey>(_ key: K.Type) -> K.Value {
        switch context {
        case .live: return K.liveValue
        case .test: return K.testValue
        case .preview: return K.previewValue
        }
    }
}
