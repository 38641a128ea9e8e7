import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

private final class UserViewModel: Sendable {
    let id: String
    let serial: Int
    init(id: String, serial: Int = 0) {
        self.id = id
        self.serial = serial
    }
}

private final class Report: Sendable {
    let title: String
    let page: Int
    let draft: Bool
    init(title: String, page: Int, draft: Bool) {
        self.title = title
        self.page = page
        self.draft = draft
    }
}

/// Hashes every value alike: only `==` tells two apart (Factory's PR #384 shape).
private struct Colliding: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

private struct NotHashableID: Sendable { let raw: Int }

private final class Connection: AsyncDisposable {
    let host: String
    let disposed: Recorder<String>
    init(host: String, disposed: Recorder<String>) {
        self.host = host
        self.disposed = disposed
    }
    func dispose(reason: DisposalReason) async { disposed.append(host) }
}

@Suite("Arguments", .capturesLog)
struct ArgumentTests {
    @Test func oneArgumentReachesTheFactory() throws {
        let container = Container()
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
        #expect(container.resolve(UserViewModel.self, argument: "42")?.id == "42")
        #expect(try container.resolveOrThrow(UserViewModel.self, argument: "7").id == "7")
    }

    @Test func threeArgumentsReachTheFactoryInOrder() throws {
        let container = Container()
        container.register(Report.self) { (title: String, page: Int, draft: Bool) in
            Report(title: title, page: page, draft: draft)
        }
        let report = try container.resolveOrThrow(Report.self, arguments: "Q3", 12, true)
        #expect(report.title == "Q3" && report.page == 12 && report.draft)
    }

    @Test func namedRegistrationsTakeArguments() throws {
        let container = Container()
        container.register("admin", UserViewModel.self) { (id: String) in UserViewModel(id: "admin-\(id)") }
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
        #expect(try container.resolveOrThrow("admin", UserViewModel.self, argument: "1").id == "admin-1")
        #expect(container.resolve("admin", UserViewModel.self, arguments: "2")?.id == "admin-2")
        #expect(container.resolve(UserViewModel.self, argument: "3")?.id == "3")
    }

    @Test func wrongArgumentTypeIsAnErrorNamingBoth() {
        let container = Container()
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
        #expect(container.resolve(UserViewModel.self, argument: 42) == nil)
        do {
            _ = try container.resolveOrThrow(UserViewModel.self, argument: 42)
            Issue.record("resolved with the wrong argument type")
        } catch let error as DIError {
            guard case .argumentMismatch(_, _, let expected, let passed) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(expected.count == 1 && expected[0] == String.self)
            #expect(passed.count == 1 && passed[0] == Int.self)
            #expect(error.description.contains("(Swift.String)"))
            #expect(error.description.contains("(Swift.Int)"))
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func wrongArgumentCountIsAnError() {
        let container = Container()
        container.register(Report.self) { (title: String, page: Int, draft: Bool) in
            Report(title: title, page: page, draft: draft)
        }
        #expect(throws: DIError.self) { try container.resolveOrThrow(Report.self, arguments: "Q3", 12) }
        #expect(throws: DIError.self) { try container.resolveOrThrow(Report.self, argument: "Q3") }
    }

    @Test func resolvingWithoutArgumentsSaysWhatTheFactoryTakes() {
        let container = Container()
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
        #expect(container.resolve(UserViewModel.self) == nil)
        do {
            _ = try container.resolveOrThrow(UserViewModel.self)
            Issue.record("resolved without arguments")
        } catch {
            let text = "\(error)"
            #expect(text.contains("taking (Swift.String)") && text.contains("resolved with no arguments"))
            #expect(text.contains("argument:"))
        }
    }

    @Test func argumentsToARegistrationWithoutThemIsAnError() {
        let container = Container()
        container.register(UserViewModel.self) { UserViewModel(id: "fixed") }
        do {
            _ = try container.resolveOrThrow(UserViewModel.self, argument: "1")
            Issue.record("resolved with arguments it does not take")
        } catch {
            #expect("\(error)".contains("taking no arguments"))
        }
    }

    @Test func aMissIsDependencyNotFound() {
        let container = Container()
        do {
            _ = try container.resolveOrThrow(UserViewModel.self, argument: "1")
            Issue.record("resolved a missing registration")
        } catch let error as DIError {
            guard case .dependencyNotFound = error else {
                Issue.record("unexpected \(error)")
                return
            }
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func transientBuildsEveryTime() {
        let container = Container()
        let built = Counter()
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id, serial: built.next()) }
        let first = container.resolve(UserViewModel.self, argument: "a")
        let second = container.resolve(UserViewModel.self, argument: "a")
        #expect(first !== second)
        #expect(built.value == 2)
    }

    @Test func singletonIsOnePerArgumentValue() {
        let container = Container()
        container.register(UserViewModel.self, scope: .singleton) { (id: String) in UserViewModel(id: id) }
        let a1 = container.resolve(UserViewModel.self, argument: "a")
        let a2 = container.resolve(UserViewModel.self, argument: "a")
        let b = container.resolve(UserViewModel.self, argument: "b")
        #expect(a1 != nil && a1 === a2)
        #expect(b?.id == "b" && b !== a1)
    }

    @Test func singletonKeysByEqualityNotHash() {
        let container = Container()
        container.register(UserViewModel.self, scope: .singleton) { (key: Colliding) in
            UserViewModel(id: "\(key.value)")
        }
        let one = container.resolve(UserViewModel.self, argument: Colliding(value: 1))
        let two = container.resolve(UserViewModel.self, argument: Colliding(value: 2))
        #expect(one?.id == "1" && two?.id == "2")
        #expect(container.resolve(UserViewModel.self, argument: Colliding(value: 1)) === one)
    }

    @Test func singletonWithSeveralArgumentsKeysOnAllOfThem() throws {
        let container = Container()
        container.register(Report.self, scope: .singleton) { (title: String, page: Int, draft: Bool) in
            Report(title: title, page: page, draft: draft)
        }
        let a = try container.resolveOrThrow(Report.self, arguments: "x", 1, false)
        #expect(try container.resolveOrThrow(Report.self, arguments: "x", 1, false) === a)
        #expect(try container.resolveOrThrow(Report.self, arguments: "x", 1, true) !== a)
        #expect(try container.resolveOrThrow(Report.self, arguments: "x", 2, false) !== a)
    }

    @Test func sharedLifetimeWithANonHashableArgumentIsAnError() {
        let container = Container()
        container.register(UserViewModel.self, scope: .singleton) { (id: NotHashableID) in
            UserViewModel(id: "\(id.raw)")
        }
        do {
            _ = try container.resolveOrThrow(UserViewModel.self, argument: NotHashableID(raw: 1))
            Issue.record("built a shared instance keyed by a non-Hashable argument")
        } catch let error as DIError {
            guard case .argumentNotHashable = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.description.contains("NotHashableID"))
        } catch { Issue.record("unexpected \(error)") }
        // A transient registration takes any argument.
        container.register(UserViewModel.self) { (id: NotHashableID) in UserViewModel(id: "\(id.raw)") }
        #expect(container.resolve(UserViewModel.self, argument: NotHashableID(raw: 2))?.id == "2")
    }

    @Test func weakIsSharedWhileHeldPerArgument() {
        let container = Container()
        let built = Counter()
        container.register(UserViewModel.self, scope: .weak) { (id: String) in
            UserViewModel(id: id, serial: built.next())
        }
        var held = container.resolve(UserViewModel.self, argument: "a")
        #expect(container.resolve(UserViewModel.self, argument: "a") === held)
        #expect(built.value == 1)
        held = nil
        #expect(container.resolve(UserViewModel.self, argument: "a")?.serial == 2)
        _ = held
    }

    @Test func customScopeIsOnePerArgumentPerScopeInstance() throws {
        let container = Container()
        container.register(UserViewModel.self, scope: .request) { (id: String) in UserViewModel(id: id) }
        let first = container.beginScope(.request)
        let second = container.beginScope(.request)
        let (a1, a2, b) = try container.withScope(first) {
            (
                try container.resolveOrThrow(UserViewModel.self, argument: "a"),
                try container.resolveOrThrow(UserViewModel.self, argument: "a"),
                try container.resolveOrThrow(UserViewModel.self, argument: "b")
            )
        }
        #expect(a1 === a2 && a1 !== b)
        let other = try container.withScope(second) { try container.resolveOrThrow(UserViewModel.self, argument: "a") }
        #expect(other !== a1)
    }

    @Test func racingThreadsBuildOneSingletonPerArgument() async {
        let container = Container()
        let built = Counter()
        container.register(UserViewModel.self, scope: .singleton) { (id: String) in
            Thread.sleep(forTimeInterval: 0.01)
            return UserViewModel(id: id, serial: built.next())
        }
        let ids = await withTaskGroup(of: ObjectIdentifier?.self) { group in
            for index in 0..<16 {
                group.addTask { [key = index % 2 == 0 ? "even" : "odd"] in
                    await Task.detached {
                        container.resolve(UserViewModel.self, argument: key).map(ObjectIdentifier.init)
                    }.value
                }
            }
            var all = Set<ObjectIdentifier?>()
            for await id in group { all.insert(id) }
            return all
        }
        #expect(ids.count == 2 && !ids.contains(nil))
        #expect(built.value == 2)
    }

    @Test func childContainerResolvesTheParentsRegistration() throws {
        let parent = Container()
        parent.register(UserViewModel.self, scope: .singleton) { (id: String) in UserViewModel(id: id) }
        let child = Container(parent: parent)
        let fromChild = try child.resolveOrThrow(UserViewModel.self, argument: "a")
        #expect(try parent.resolveOrThrow(UserViewModel.self, argument: "a") === fromChild)
        child.register(UserViewModel.self) { (id: String) in UserViewModel(id: "child-\(id)") }
        #expect(try child.resolveOrThrow(UserViewModel.self, argument: "a").id == "child-a")
    }

    @Test func aCycleThroughAnArgumentFactoryIsReported() {
        let container = Container()
        // A(1) -> B -> C -> A(1)
        container.register(LoopA.self) { (depth: Int) in
            LoopA(b: try container.resolveOrThrow(LoopB.self))
        }
        container.register(LoopB.self) { LoopB(c: try container.resolveOrThrow(LoopC.self)) }
        container.register(LoopC.self) {
            LoopC(a: try container.resolveOrThrow(LoopA.self, argument: 1))
        }
        do {
            _ = try container.resolveOrThrow(LoopA.self, argument: 1)
            Issue.record("a cycle through an argument factory resolved")
        } catch let error as DIError {
            guard case .circularDependency(let path) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path.count == 4)
        } catch { Issue.record("unexpected \(error)") }
    }

    @Test func unregisterAndReplaceDropThePerArgumentInstances() {
        let container = Container()
        let handle = container.register(UserViewModel.self, scope: .singleton) { (id: String) in UserViewModel(id: id) }
        let first = container.resolve(UserViewModel.self, argument: "a")
        #expect(handle.unregister())
        #expect(container.resolve(UserViewModel.self, argument: "a") == nil)
        container.register(UserViewModel.self, scope: .singleton) { (id: String) in UserViewModel(id: id) }
        #expect(container.resolve(UserViewModel.self, argument: "a") !== first)
    }

    @Test func asyncFactoryWithArguments() async throws {
        let container = Container()
        let built = Counter()
        container.registerAsync(UserViewModel.self, scope: .singleton) { (id: String) async in
            try? await Task.sleep(nanoseconds: 5_000_000)
            return UserViewModel(id: id, serial: built.next())
        }
        async let first = container.resolveAsync(UserViewModel.self, argument: "a")
        async let second = container.resolveAsync(UserViewModel.self, argument: "a")
        async let other = container.resolveAsync(UserViewModel.self, arguments: "b")
        let (a1, a2, b) = try await (first, second, other)
        #expect(a1 === a2 && b.id == "b" && a1 !== b)
        #expect(built.value == 2)
        // Resolved synchronously, it builds nothing.
        do {
            _ = try container.resolveOrThrow(UserViewModel.self, argument: "c")
            Issue.record("an async factory was resolved synchronously")
        } catch let error as DIError {
            guard case .asyncResolutionRequired = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        #expect(built.value == 2)
    }

    @Test func asyncTransientAndCustomScopeWithArguments() async throws {
        let container = Container()
        container.registerAsync(Report.self) { (title: String, page: Int) async in
            Report(title: title, page: page, draft: false)
        }
        container.registerAsync(UserViewModel.self, scope: .request) { (id: String) async in UserViewModel(id: id) }
        let report = try await container.resolveAsync(Report.self, arguments: "t", 3)
        #expect(report.page == 3)
        #expect(try await container.resolveAsync(Report.self, arguments: "t", 3) !== report)
        let instance = container.beginScope(.request)
        try await container.withScope(instance) {
            let a = try await container.resolveAsync(UserViewModel.self, argument: "a")
            #expect(try await container.resolveAsync(UserViewModel.self, argument: "a") === a)
            #expect(try await container.resolveAsync(UserViewModel.self, argument: "b") !== a)
        }
    }

    @Test func resolveAsyncRunsASynchronousArgumentFactory() async throws {
        let container = Container()
        container.register(UserViewModel.self) { (id: String) in UserViewModel(id: id) }
        #expect(try await container.resolveAsync(UserViewModel.self, argument: "s").id == "s")
        await #expect(throws: DIError.self) { try await container.resolveAsync(UserViewModel.self, argument: 1) }
    }

    @Test func shutdownDisposesEveryPerArgumentSingleton() async {
        let container = Container()
        let disposed = Recorder<String>()
        container.register(Connection.self, scope: .singleton) { (host: String) in
            Connection(host: host, disposed: disposed)
        }
        _ = container.resolve(Connection.self, argument: "a")
        _ = container.resolve(Connection.self, argument: "b")
        await container.disposeSingletons()
        await container.disposeSingletons()
        #expect(disposed.all.sorted() == ["a", "b"])
    }

    @Test func validateListsArgumentRegistrationsWithoutBuildingThem() {
        let container = Container()
        let built = Counter()
        container.register(UserViewModel.self) { (id: String) in
            built.increment()
            return UserViewModel(id: id)
        }
        let report = container.validate()
        #expect(report.isValid)
        #expect(report.unbuiltArgumentRegistrations.count == 1)
        #expect(built.value == 0)
    }
}
