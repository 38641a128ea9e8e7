import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

private final class UserViewModel: Sendable {
    let id: String
    let serial: Int
    let label: String
    init(id: String, serial: Int = 0, label: String = "default") {
        self.id = id
        self.serial = serial
        self.label = label
    }
}

/// Hashes every value alike: only `==` tells two apart (Factory's PR #384 shape).
private struct Colliding: Hashable, Sendable {
    let value: Int
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

private struct Failure: Error {}

private protocol Greeting: Sendable { var text: String { get } }
private struct Hello: Greeting { let text: String }

extension Container {
    fileprivate static let parameterUser = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
}

/// `ParameterFactory<P, T>` keys and the `@Injected(key, parameter)` wrapper.
@Suite(.capturesLog)
struct ParameterFactoryTests {
    @Test func theKeyCallsItsDefaultWithTheParameterFromTheSharedContainer() {
        let container = Container()
        let model = Container.withShared(container) { Container.parameterUser("42") }
        #expect(model.id == "42")
        #expect(model.label == "default")
        #expect(Container.parameterUser.resolve("7", in: container).id == "7")
    }

    @Test func transientBuildsPerResolution() {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id, serial: built.next()) }
        let container = Container()
        #expect(key.resolve("a", in: container) !== key.resolve("a", in: container))
        #expect(built.value == 2)
    }

    @Test func registerReplacesTheDefaultInThatContainerAndResetRestoresIt() throws {
        let key = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
        let container = Container()
        let other = Container()
        key.register(in: container) { id in UserViewModel(id: id, label: "registered") }
        #expect(key.resolve("1", in: container).label == "registered")
        #expect(try key.resolveOrThrow("1", in: container).id == "1")
        #expect(key.resolve("1", in: other).label == "default")
        #expect(key.reset(in: container))
        #expect(key.resolve("1", in: container).label == "default")
        #expect(!key.reset(in: container))
    }

    @Test func childContainersSeeTheParentsRegistrationAndKeepTheirOwn() {
        let key = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
        let parent = Container()
        key.register(in: parent) { id in UserViewModel(id: id, label: "parent") }
        let child = Container(parent: parent)
        #expect(key.resolve("1", in: child).label == "parent")
        key.register(in: child) { id in UserViewModel(id: id, label: "child") }
        #expect(key.resolve("1", in: child).label == "child")
        #expect(key.resolve("1", in: parent).label == "parent")
    }

    @Test func aSingletonDefaultIsOnePerParameterValueInTheRoot() {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel>(scope: .singleton) { id in
            UserViewModel(id: id, serial: built.next())
        }
        let root = Container()
        let child = Container(parent: root)
        let a = key.resolve("a", in: root)
        #expect(key.resolve("a", in: child) === a)
        #expect(key.resolve("b", in: root) !== a)
        #expect(key.resolve("b", in: child).id == "b")
        #expect(built.value == 2)
        // Another root builds its own.
        #expect(key.resolve("a", in: Container()) !== a)
    }

    @Test func racingThreadsInstallTheDefaultOnceAndBuildOnePerValue() async {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel>(scope: .singleton) { id in
            Thread.sleep(forTimeInterval: 0.01)
            return UserViewModel(id: id, serial: built.next())
        }
        let container = Container()
        let ids = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<16 {
                group.addTask { [value = index % 2 == 0 ? "even" : "odd"] in
                    await Task.detached { ObjectIdentifier(key.resolve(value, in: container)) }.value
                }
            }
            var all = Set<ObjectIdentifier>()
            for await id in group { all.insert(id) }
            return all
        }
        #expect(ids.count == 2)
        #expect(built.value == 2)
    }

    @Test func sharedLifetimesKeyByEqualityNotHash() {
        let key = ParameterFactory<Colliding, UserViewModel>(scope: .singleton) { value in
            UserViewModel(id: "\(value.value)")
        }
        let container = Container()
        let one = key.resolve(Colliding(value: 1), in: container)
        let two = key.resolve(Colliding(value: 2), in: container)
        #expect(one !== two)
        #expect(two.id == "2")
        #expect(key.resolve(Colliding(value: 1), in: container) === one)
        // A registered factory's instances too.
        key.register(scope: .singleton, in: container) { value in UserViewModel(id: "r\(value.value)") }
        let three = key.resolve(Colliding(value: 1), in: container)
        #expect(three.id == "r1")
        #expect(key.resolve(Colliding(value: 2), in: container).id == "r2")
        #expect(key.resolve(Colliding(value: 1), in: container) === three)
    }

    @Test func aTupleParameterCarriesSeveralValues() {
        let key = ParameterFactory<(String, Int), UserViewModel> { id, page in UserViewModel(id: id, serial: page) }
        let model = key.resolve(("42", 3), in: Container())
        #expect(model.id == "42")
        #expect(model.serial == 3)
    }

    @Test func aTupleParameterInASharedLifetimeIsNotHashable() {
        let key = ParameterFactory<(String, Int), UserViewModel>(scope: .singleton) { id, page in
            UserViewModel(id: id, serial: page)
        }
        #expect {
            try key.resolveOrThrow(("42", 3), in: Container())
        } throws: { error in
            guard case .argumentNotHashable(_, _, let argument, _) = error as? DIError else { return false }
            return argument == (String, Int).self
        }
    }

    @Test func whatTheDefaultThrowsFailsTheResolution() {
        let key = ParameterFactory<String, UserViewModel> { (_: String) throws -> UserViewModel in throw Failure() }
        #expect {
            try key.resolveOrThrow("1", in: Container())
        } throws: { error in
            guard case .factoryFailed(_, _, let underlying) = error as? DIError else { return false }
            return underlying is Failure
        }
    }

    @Test func aDefaultResolvingItsOwnKeyIsACycle() {
        let container = Container()
        #expect {
            try Container.withShared(container) { try Recursive.key.resolveOrThrow("1") }
        } throws: { error in
            guard case .circularDependency = error as? DIError else { return false }
            return true
        }
    }

    private enum Recursive {
        static let key: ParameterFactory<String, UserViewModel> = ParameterFactory { id throws -> UserViewModel in
            try Recursive.key.resolveOrThrow(id + "!")
        }
    }

    @Test func callingAKeyWithNoValueToReturnStopsNamingTheKey() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let key = ParameterFactory<String, Int> { (_: String) throws -> Int in
                throw DIError.factoryFailed(Int.self, name: nil, underlying: CancellationError())
            }
            _ = key.resolve("1", in: Container())
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("The ParameterFactory<Swift.String, Swift.Int> key declared at"))
        #expect(message.contains("has no value to return"))
        #expect(message.contains("`resolveOrThrow(_:in:)`"))
    }

    @Test func validateListsARegisteredFactoryWithoutBuildingIt() {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel> { id in UserViewModel(id: id) }
        let container = Container()
        key.register(in: container) { id in
            built.increment()
            return UserViewModel(id: id)
        }
        let report = container.validate()
        #expect(report.isValid)
        #expect(report.unbuiltArgumentRegistrations.count == 1)
        #expect(built.value == 0)
    }

    @Test func decoratorsWrapTheDefaultAndRegisteredFactoriesUntilRemoved() {
        let key = ParameterFactory<String, UserViewModel>(scope: .singleton) { id in UserViewModel(id: id) }
        let container = Container()
        let handle = key.decorate(in: container) { inner in UserViewModel(id: inner.id, label: "decorated") }
        let decorated = key.resolve("a", in: container)
        #expect(decorated.label == "decorated")
        // A shared instance is decorated once, when built.
        #expect(key.resolve("a", in: container) === decorated)
        key.register(in: container) { id in UserViewModel(id: id, label: "registered") }
        #expect(key.resolve("b", in: container).label == "decorated")
        #expect(handle.remove())
        #expect(key.resolve("b", in: container).label == "registered")
        #expect(!handle.remove())
    }

    @Test func aMissInsideADecoratorOfTheOverrideFailsItAndNeverBuildsTheDefault() {
        // The override is registered and decorated in a child; the default would be built in the
        // root, where that decorator does not apply. A decorator's missing dependency used to be
        // taken for the override's absence: the caller silently got the undecorated default.
        let defaults = Counter()
        let key = ParameterFactory<String, UserViewModel> { id in
            defaults.increment()
            return UserViewModel(id: id)
        }
        let child = Container(parent: Container())
        key.register(in: child) { id in UserViewModel(id: id, label: "registered") }
        // `unowned`: the child's own decorator holding the child strongly would be a cycle.
        key.decorate(in: child) { [unowned child] model in
            _ = try child.resolveOrThrow(Greeting.self)
            return model
        }
        #expect {
            try key.resolveOrThrow("1", in: child)
        } throws: { error in
            guard case DIError.dependencyNotFound(let type, _, _) = error else { return false }
            return type == Greeting.self
        }
        #expect(defaults.value == 0)
        #expect(!capturedProblems(mentioning: "Greeting").isEmpty)
        // Without the override, the default is what the key gives.
        key.reset(in: child)
        #expect(key.resolve("1", in: child).label == "default")
    }

    @Test func injectedWithAKeyAndAParameterResolvesOnEveryRead() {
        let container = Container()
        Container.withShared(container) {
            struct Screen {
                @Injected(Container.parameterUser, "42") var model
            }
            let screen = Screen()
            #expect(screen.model.id == "42")
            #expect(screen.model !== screen.model)
            Container.parameterUser.register(in: container) { id in UserViewModel(id: id, label: "later") }
            #expect(screen.model.label == "later")
            #expect(screen.model.id == "42")
        }
    }

    @Test func injectedTakesItsParameterInAnInitializer() {
        final class ProfileScreen {
            @Injected var model: UserViewModel
            init(id: String) { _model = Injected(Container.parameterUser, id) }
        }
        let container = Container()
        Container.withShared(container) {
            #expect(ProfileScreen(id: "7").model.id == "7")
        }
    }

    @Test func aProtocolExistentialKey() {
        let key = ParameterFactory<String, any Greeting> { name in Hello(text: "hello \(name)") }
        let container = Container()
        #expect(key.resolve("ann", in: container).text == "hello ann")
        key.register(in: container) { name in Hello(text: "hi \(name)") }
        #expect(key.resolve("bob", in: container).text == "hi bob")
    }

    @Test func aWeakDefaultIsSharedPerValueWhileHeld() {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel>(scope: .weak) { id in
            UserViewModel(id: id, serial: built.next())
        }
        let container = Container()
        var held: UserViewModel? = key.resolve("a", in: container)
        #expect(key.resolve("a", in: container) === held)
        #expect(key.resolve("b", in: container) !== held)
        #expect(built.value == 2)
        held = nil
        // Released: the next resolution of "a" builds again (its serial is new).
        #expect(key.resolve("a", in: container).serial == 3)
    }

    @Test func aCustomScopeDefaultIsOnePerValuePerScopeInstanceThroughAChild() throws {
        let key = ParameterFactory<String, UserViewModel>(scope: .request) { id in UserViewModel(id: id) }
        let root = Container()
        let child = Container(parent: root)
        let first = child.beginScope(.request)
        let second = child.beginScope(.request)
        let (a1, a2, b) = try child.withScope(first) {
            (
                try key.resolveOrThrow("a", in: child), try key.resolveOrThrow("a", in: child),
                try key.resolveOrThrow("b", in: child)
            )
        }
        #expect(a1 === a2 && a1 !== b)
        let other = try child.withScope(second) { try key.resolveOrThrow("a", in: child) }
        #expect(other !== a1)
    }

    @Test func aResetOfTheRootDropsTheDefaultsInstancesAndTheNextCallRebuilds() {
        let built = Counter()
        let key = ParameterFactory<String, UserViewModel>(scope: .singleton) { id in
            UserViewModel(id: id, serial: built.next())
        }
        let container = Container()
        let before = key.resolve("a", in: container)
        container.reset()
        let after = key.resolve("a", in: container)
        #expect(after !== before)
        #expect(built.value == 2)
    }

    @Test @MainActor func aMainActorViewModelReadsItsKeyWithItsParameter() async {
        @MainActor final class ProfileViewModel {
            @Injected var user: UserViewModel
            init(id: String) { _user = Injected(Container.parameterUser, id) }
        }
        let container = Container()
        Container.withShared(container) { @MainActor in
            let model = ProfileViewModel(id: "main")
            #expect(model.user.id == "main")
        }
    }
}
