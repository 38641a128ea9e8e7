import Testing
import WeaveDI
import WeaveDITestSupport

protocol MsgGateway {}
final class StripeMsgGateway: MsgGateway {}
struct MsgCache {}

@Suite("Messages", .capturesLog)
struct MessageTests {
    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch { return "\(error)" }
    }

    @Test("asked without a name when only named registrations exist: the names, and how to resolve one")
    func onlyNamedRegistrations() {
        let container = Container()
        container.register("images", MsgCache.self) { MsgCache() }
        container.register("thumbnails", MsgCache.self) { MsgCache() }
        let text = message { _ = try container.resolveOrThrow(MsgCache.self) }
        #expect(
            text.contains(
                #"MsgCache is registered only under names: "images", "thumbnails". Resolve one by name: `resolve("images", MsgCache.self)`."#
            ), "\(text)")
    }

    @Test("asked under a name that does not exist: the names that do")
    func otherNames() {
        let container = Container()
        container.register(MsgCache.self) { MsgCache() }
        container.register("images", MsgCache.self) { MsgCache() }
        let text = message { _ = try container.resolveOrThrow("videos", MsgCache.self) }
        #expect(text.contains(#"MsgCache is registered under: without a name, "images"."#), "\(text)")
    }

    @Test("asked for a protocol when only an implementation is registered as itself")
    func protocolWithOnlyAConcreteRegistration() {
        let container = Container()
        container.register(StripeMsgGateway.self) { StripeMsgGateway() }
        let text = message { _ = try container.resolveOrThrow((any MsgGateway).self) }
        #expect(
            text.contains("MsgGateway is a protocol: only a registration of MsgGateway itself serves it"), "\(text)")
        #expect(text.contains("`container.register(MsgGateway.self) { StripeMsgGateway() }`"), "\(text)")
    }

    @Test("a type declared in a function is named without the runtime's \"unknown context\"")
    func localTypes() {
        struct LocalService {}
        let container = Container()
        let text = message { _ = try container.resolveOrThrow(LocalService.self) }
        #expect(text.hasPrefix("No registration for WeaveDITests.MessageTests.LocalService."), "\(text)")
        #expect(!text.contains("unknown context"))
    }
}
