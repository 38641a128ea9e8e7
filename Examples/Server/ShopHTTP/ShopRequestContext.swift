import Hummingbird
import WeaveDIHummingbird

/// The shop's request context: Hummingbird's basics, this request's WeaveDI scope, and a 64 KiB
/// limit on request bodies (a larger one is answered 413).
public struct ShopRequestContext: WeaveDIRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var dependencies: RequestDependencies?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        dependencies = nil
    }

    /// The largest request body the shop reads.
    public var maxUploadSize: Int { 64 * 1024 }
}
