import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The container a thread-exit destructor resolves from (set before the threads start).
private let exitContainer = Container()
private let exitResolutions = Counter()

#if canImport(Darwin)
    private func resolveAtThreadExit(_ value: UnsafeMutableRawPointer) {
        if exitContainer.resolve(ExitChain.self) != nil { exitResolutions.increment() }
    }
#else
    private func resolveAtThreadExit(_ value: UnsafeMutableRawPointer?) {
        if exitContainer.resolve(ExitChain.self) != nil { exitResolutions.increment() }
    }
#endif

struct ExitLeaf {}
struct ExitChain { let leaf: ExitLeaf? }

@Suite("Thread exit")
struct ThreadExitTests {
    @Test func aResolutionInAThreadExitDestructorGetsAFreshStack() {
        // WeaveDI frees a thread's resolution stack from a pthread-key destructor when the thread
        // exits. Another key's destructor, run after it on the same thread, may still resolve: it
        // must get a new stack, not the freed one. (ThreadSanitizer reports a use after free
        // if it does not.)
        exitContainer.register(ExitLeaf.self) { ExitLeaf() }
        exitContainer.register(ExitChain.self) { ExitChain(leaf: exitContainer.resolve(ExitLeaf.self)) }
        _ = exitContainer.resolve(ExitChain.self) // WeaveDI's key exists before the test's key
        var created = pthread_key_t()
        #expect(pthread_key_create(&created, resolveAtThreadExit) == 0)
        let key = created
        let threadCount = 8
        runConcurrently(threads: threadCount) { _ in
            // Resolve on this thread (it gets a stack), and arm the test key's destructor.
            _ = exitContainer.resolve(ExitChain.self)
            pthread_setspecific(key, UnsafeMutableRawPointer(bitPattern: 1))
        }
        // Threads exit after signalling; wait until every destructor has resolved.
        let deadline = Date().addingTimeInterval(5)
        while exitResolutions.value < threadCount && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(exitResolutions.value == threadCount)
        // The threads' stacks were released: resolving still works everywhere.
        #expect(exitContainer.resolve(ExitChain.self)?.leaf != nil)
    }
}
