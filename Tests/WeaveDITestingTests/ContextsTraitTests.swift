import Testing
import WeaveDI
import WeaveDITesting

private final class TraitClient: Sendable {
    let tag: String
    init(_ tag: String) { self.tag = tag }
}

/// One container with a plain registration and a .test and a .preview one.
private let traitContainer: Container = {
    let container = Container()
    container.register(TraitClient.self) { TraitClient("live") }
    container.register(TraitClient.self, in: .test) { TraitClient("test") }
    container.register(TraitClient.self, in: .preview) { TraitClient("preview") }
    return container
}()

@Suite("The .contexts trait")
struct ContextsTraitTests {
    @Test(.contexts(disabling: [.test]))
    func disablesTheTestContext() async {
        #expect(traitContainer.resolve(TraitClient.self)?.tag == "live")
        // A child task inherits the forcing.
        #expect(await Task { traitContainer.resolve(TraitClient.self)?.tag }.value == "live")
    }

    @Test(.contexts([.preview], exclusively: true))
    func forcesAPreview() {
        #expect(traitContainer.resolve(TraitClient.self)?.tag == "preview")
    }

    @Test(.contexts([.test], exclusively: true))
    func forcesTheTestContext() {
        #expect(traitContainer.resolve(TraitClient.self)?.tag == "test")
    }
}
