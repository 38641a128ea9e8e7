// Cross-module registration with optional Factory keys, filled in by the app before first use.
import WeaveDI

// snippet.hide
public struct Account: Sendable { public let name: String }
final class AccountLoader: AccountLoading { func load() -> [Account] { [Account(name: "Checking")] } }
// snippet.show

// snippet.protocol
// ModuleP: models and protocols.
public protocol AccountLoading: Sendable {
    func load() -> [Account]
}
// snippet.end

// snippet.optionalKey
// ModuleA: needs a loader but cannot see any implementation, so it declares an optional slot.
extension Container {
    public static let accountLoader = Factory<(any AccountLoading)?> { nil }
}

@MainActor
final class AccountsViewModel {
    @Injected(Container.accountLoader) var loader
    var accounts: [Account] = []

    func load() {
        guard let loader else { return } // nil until the app registers a loader
        accounts = loader.load()
    }
}
// snippet.end

// snippet.autoRegistering
// The app: sees ModuleA and ModuleB (which has AccountLoader) and wires them together.
// WeaveDI calls this once, before the very first resolution — even one made by a property
// initializer that runs before any of the app's own setup code.
extension Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        accountLoader.register { AccountLoader() }
    }
}
// snippet.end

// snippet.resolveKey
let loader = Container.accountLoader() // (any AccountLoading)?: the registered AccountLoader
// snippet.end

// snippet.hide
await MainActor.run {
    let model = AccountsViewModel()
    model.load()
    print(model.accounts.count, loader != nil)
}
