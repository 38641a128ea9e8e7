import Foundation
import Testing
import WeaveDI
import WeaveDICore
import WeaveDITestSupport

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

final class DeepNode: Sendable {
    let next: DeepNode?
    init(_ next: DeepNode?) { self.next = next }

    /// How many nodes the chain from this one has.
    var length: Int {
        var count = 0
        var node: DeepNode? = self
        while let current = node {
            count += 1
            node = current.next
        }
        return count
    }
}

/// Chains of nested factories as deep as the stack allows: the guard measures the thread's stack
/// instead of counting levels. Serialized: one test changes `Container.maximumResolutionDepth`,
/// which is process-wide (no other suite nests anywhere near the depths set here).
@Suite("Deep chains", .serialized, .capturesLog)
struct DeepChainTests {
    /// A chain of `depth` named transient registrations, each resolving the next.
    static func chain(depth: Int) -> Container {
        let container = Container()
        for level in 0..<depth {
            container.register("d\(level)", DeepNode.self) {
                DeepNode(level + 1 < depth ? try container.resolveOrThrow("d\(level + 1)", DeepNode.self) : nil)
            }
        }
        return container
    }

    /// Resolves the head of `container`'s chain on a new thread with `stackSize` bytes of stack
    /// (`nil`: the platform's default for a secondary thread) and waits for the outcome.
    static func resolveHead(
        of container: Container, onThreadWithStack stackSize: Int?
    ) -> Result<DeepNode, any Error>? {
        let outcome = LockedValue<Result<DeepNode, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let capture = LogCapture.current
        let thread = Thread {
            withCurrentLogCapture(capture) {
                let result = Result { try container.resolveOrThrow("d0", DeepNode.self) }
                outcome.mutate { $0 = result }
            }
            done.signal()
        }
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
        guard done.wait(timeout: .now() + 120) == .success else { return nil }
        return outcome.value
    }

    /// Whether a sanitizer runtime (AddressSanitizer or ThreadSanitizer) is loaded in this
    /// process: both make every frame larger (about 8.8 KB and 9.5 KB a level of the chain, against
    /// 5.2 KB in a debug build).
    static let isAddressSanitized: Bool = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__asan_init") != nil || dlsym(process, "__tsan_init") != nil
    }()

    /// The stack a thread needs for a 1 000-deep chain: 8 MB, as a main thread has on Linux and
    /// Apple platforms — 32 MB under a sanitizer, whose larger frames do not fit 1 000 levels in
    /// 8 MB (the guard stops the chain there, with the error).
    static var stackFor1000Levels: Int { isAddressSanitized ? 32 << 20 : 8 << 20 }

    /// The main thread's stack is 8 MB on Linux and Apple platforms; a thread of that size stands
    /// for it here (Swift Testing runs no test on the process's main thread).
    /// `Scripts/check-module-named-di.sh` resolves the same chain on a real main thread.
    @Test("a 1 000-deep chain resolves on a thread with an 8 MB stack")
    func thousandLevelsOnAnEightMegabyteThread() throws {
        let container = Self.chain(depth: 1000)
        let head = try #require(Self.resolveHead(of: container, onThreadWithStack: Self.stackFor1000Levels)).get()
        #expect(head.length == 1000)
    }

    /// A secondary thread's default stack is 8 MB on Linux (glibc takes RLIMIT_STACK), 512 KB on
    /// Apple platforms: there a debug build's 1 000 levels do not fit, and the chain ends in the
    /// error instead of a crash.
    @Test("a 1 000-deep chain resolves on a secondary thread of the default size")
    func thousandLevelsOnADefaultSecondaryThread() throws {
        let container = Self.chain(depth: 1000)
        let outcome = try #require(Self.resolveHead(of: container, onThreadWithStack: nil))
        #if os(Linux)
            var limit = rlimit()
            getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit)
            if !Self.isAddressSanitized, limit.rlim_cur != rlim_t.max, limit.rlim_cur >= 8 << 20 {
                #expect(try outcome.get().length == 1000)
                return
            }
        #endif
        switch outcome {
        case .success(let head): #expect(head.length == 1000)
        case .failure(let error):
            guard case .resolutionTooDeep(_, _, .threadStack)? = error as? DIError else {
                Issue.record("expected the chain or resolutionTooDeep, got \(error)")
                return
            }
        }
    }

    /// Resolves the head of a 3 000-deep chain on a thread with Apple's default secondary-thread
    /// stack (512 KB): a clear error with the head of the path, the depth and the stack left,
    /// not a stack overflow — in a debug build and under the sanitizers too.
    @Test("a 3 000-deep chain on a 512 KB stack fails with resolutionTooDeep before the stack overflows")
    func threeThousandLevelsOnASmallStack() throws {
        let container = Self.chain(depth: 3000)
        let outcome = try #require(Self.resolveHead(of: container, onThreadWithStack: 512 << 10))
        guard case .failure(let error) = outcome,
            case .resolutionTooDeep(let path, let depth, .threadStack(let remaining, let needed))? = error as? DIError
        else {
            Issue.record("expected resolutionTooDeep from the stack guard, got \(outcome)")
            return
        }
        #expect(path.count == 8)
        #expect(path.first == "WeaveDITests.DeepNode[\"d0\"]")
        #expect(depth > 8 && depth < 3000)
        #expect(remaining < needed)
        #expect(remaining < 512 << 10)
        let message = "\(error)"
        #expect(message.contains("WeaveDITests.DeepNode[\"d0\"] -> WeaveDITests.DeepNode[\"d1\"]"))
        #expect(message.contains("\(depth) factories deep"))
        #expect(message.contains("\(remaining / 1024) KB of stack left"))
        // What each level took on this build (the articles' numbers come from this line).
        print("DeepChainTests: \(depth) levels on a 512 KB stack, \((512 << 10 - remaining) / depth) bytes per level")
    }

    /// The chain's failure is reported once, by the innermost public entry point, with the stack
    /// guard's error: the reserve leaves room for the error hook to run there.
    @Test("the stack guard's failure reaches onResolutionError once, on the small thread")
    func stackGuardFailureReachesTheErrorHook() throws {
        let container = Self.chain(depth: 3000)
        let heard = LockedValue<[String]>([])
        let token = UnifiedDI.onResolutionError { name, error in
            guard name.contains("DeepNode"), case .resolutionTooDeep = error else { return }
            heard.mutate { $0.append("\(error)") }
        }
        defer { token.cancel() }
        _ = try #require(Self.resolveHead(of: container, onThreadWithStack: 512 << 10))
        #expect(heard.value.count == 1)
        #expect(heard.value.first?.contains("KB of stack left") == true)
    }

    @Test("maximumResolutionDepth is an extra limit, none by default")
    func maximumResolutionDepthIsAnOptionalExtraLimit() throws {
        #expect(Container.maximumResolutionDepth == .max)
        Container.maximumResolutionDepth = 300
        defer { Container.maximumResolutionDepth = .max }
        let container = Self.chain(depth: 1000)
        let outcome = try #require(Self.resolveHead(of: container, onThreadWithStack: Self.stackFor1000Levels))
        guard case .failure(let error) = outcome,
            case .resolutionTooDeep(let path, 300, .maximumResolutionDepth(300))? = error as? DIError
        else {
            Issue.record("expected resolutionTooDeep at the set limit, got \(outcome)")
            return
        }
        #expect(path.first == "WeaveDITests.DeepNode[\"d0\"]")
        #expect("\(error)".contains("Container.maximumResolutionDepth (300)"))
        // A chain within the limit still resolves.
        #expect(try Self.chain(depth: 300).resolveOrThrow("d0", DeepNode.self).length == 300)
    }

    // MARK: Async factories nest on task frames: their bound is a count of the task's own open
    // factories.

    /// A chain of `depth` named async transient registrations, each resolving the next.
    static func asyncChain(_ prefix: String, depth: Int, in container: Container) {
        for level in 0..<depth {
            container.registerAsync("\(prefix)\(level)", DeepNode.self) {
                DeepNode(
                    level + 1 < depth ? try await container.resolveAsync("\(prefix)\(level + 1)", DeepNode.self) : nil)
            }
        }
    }

    @Test("as many nested async factories as maximumAsyncResolutionDepth resolve; one more fails")
    func asyncBound() async throws {
        let limit = Container.maximumAsyncResolutionDepth
        #expect(limit == 1000)
        let container = Container()
        Self.asyncChain("a", depth: limit, in: container)
        #expect(try await container.resolveAsync("a0", DeepNode.self).length == limit)
        Self.asyncChain("b", depth: limit + 1, in: container)
        do {
            _ = try await container.resolveAsync("b0", DeepNode.self)
            Issue.record("expected resolutionTooDeep")
        } catch let DIError.resolutionTooDeep(path, depth, limitHit) {
            #expect(depth == limit)
            #expect(limitHit == .maximumAsyncResolutionDepth(limit))
            #expect(path.first == "WeaveDITests.DeepNode[\"b0\"]")
        }
    }

    /// Frames whose factory has returned do not count, nor frames inherited from the task that
    /// started this one: two 600-deep chains one after the other in one factory resolve, and so
    /// does a 600-deep chain started in a `Task {}` by the 600th factory of another.
    @Test("only the task's own open async factories count")
    func onlyOpenOwnFramesCount() async throws {
        let container = Container()
        Self.asyncChain("x", depth: 600, in: container)
        Self.asyncChain("y", depth: 600, in: container)
        container.registerAsync("twice", [Int].self) {
            let first = try await container.resolveAsync("x0", DeepNode.self).length
            let second = try await container.resolveAsync("y0", DeepNode.self).length
            return [first, second]
        }
        #expect(try await container.resolveAsync("twice", [Int].self) == [600, 600])

        for level in 0..<600 {
            container.registerAsync("t\(level)", Int.self) {
                if level + 1 < 600 { return try await container.resolveAsync("t\(level + 1)", Int.self) + 1 }
                // The innermost of 600 open factories hands a 600-deep chain to a task of its own.
                let task = Task { try await container.resolveAsync("x0", DeepNode.self).length }
                return try await task.value
            }
        }
        #expect(try await container.resolveAsync("t0", Int.self) == 600 + 599)
    }
}
