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
}

@Suite("Deep chains", .capturesLog)
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

    /// Resolves the head of a 2 000-deep chain on a thread with Apple's default secondary-thread
    /// stack (512 KB): a clear error with the head of the path, not a stack overflow — in a debug
    /// build too (about 5.8 KB per level there).
    @Test("a 2 000-deep chain on a 512 KB stack fails with resolutionTooDeep, naming the head of the path")
    func deepChainOnASmallStack() throws {
        let container = Self.chain(depth: 2000)
        let outcome = LockedValue<Result<DeepNode, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let capture = LogCapture.current
        let thread = Thread {
            withCurrentLogCapture(capture) {
                outcome.mutate { $0 = Result { try container.resolveOrThrow("d0", DeepNode.self) } }
            }
            done.signal()
        }
        thread.stackSize = Self.stackSize
        thread.start()
        #expect(done.wait(timeout: .now() + 30) == .success)
        guard case .failure(let error)? = outcome.value,
            case .resolutionTooDeep(let path, let limit)? = error as? DIError
        else {
            Issue.record("expected resolutionTooDeep, got \(String(describing: outcome.value))")
            return
        }
        #expect(limit == Container.maximumResolutionDepth)
        #expect(path.first == "WeaveDITests.DeepNode[\"d0\"]")
        #expect("\(error)".contains("WeaveDITests.DeepNode[\"d0\"] -> WeaveDITests.DeepNode[\"d1\"]"))
    }

    /// Apple's default for a secondary thread, 512 KB — except under AddressSanitizer, whose
    /// redzones make every frame several times larger (what the limit is chosen for is an
    /// ordinary debug build; the test still checks the error and the path there).
    static var stackSize: Int { isAddressSanitized ? 8 << 20 : 512 << 10 }

    /// Whether the AddressSanitizer runtime is loaded in this process.
    static let isAddressSanitized: Bool = {
        let process = dlopen(nil, RTLD_NOW)
        defer { if let process { dlclose(process) } }
        return dlsym(process, "__asan_init") != nil
    }()

    @Test("a chain within the limit resolves")
    func chainWithinTheLimit() throws {
        let container = Self.chain(depth: Container.maximumResolutionDepth)
        var node: DeepNode? = try container.resolveOrThrow("d0", DeepNode.self)
        var count = 0
        while let current = node {
            count += 1
            node = current.next
        }
        #expect(count == Container.maximumResolutionDepth)
    }
}
