// The rows of "Migrating to WeaveDI" whose WeaveDI code needs features still being built on other
// branches: the graph scope, autowiring by initializer, registration contexts and parameter keys.
// Written with the agreed spellings and left out of the build until those features are merged:
// define WEAVEDI_PENDING_FEATURES (or remove the `#if`) to compile it. The documentation tests
// compile this same file (Tests/DocumentationTests/MigrationPendingArticle.swift is a link to it)
// and MigrationArticleTests.swift runs it under the same condition.
import WeaveDI

#if WEAVEDI_PENDING_FEATURES
    // snippet.hide
    final class UnitOfWork: Sendable {}
    final class OrderStore: Sendable {
        let unitOfWork: UnitOfWork
        init(unitOfWork: UnitOfWork) { self.unitOfWork = unitOfWork }
    }
    final class InvoiceStore: Sendable {
        let unitOfWork: UnitOfWork
        init(unitOfWork: UnitOfWork) { self.unitOfWork = unitOfWork }
    }
    final class CheckoutService: Sendable {
        let orders: OrderStore
        let invoices: InvoiceStore
        init(orders: OrderStore, invoices: InvoiceStore) {
            self.orders = orders
            self.invoices = invoices
        }
    }
    protocol ProfileStore: Sendable {}
    final class DiskProfileStore: ProfileStore {}
    protocol ProfileService: Sendable { var store: any ProfileStore { get } }
    final class ProfileServiceImpl: ProfileService {
        let store: any ProfileStore
        init(store: any ProfileStore) { self.store = store }
    }
    protocol Telemetry: Sendable { var kind: String { get } }
    struct LiveTelemetry: Telemetry { var kind: String { "live" } }
    struct SilentTelemetry: Telemetry { var kind: String { "silent" } }
    struct PreviewTelemetry: Telemetry { var kind: String { "preview" } }
    struct VerboseTelemetry: Telemetry { var kind: String { "verbose" } }
    final class OrderDetailViewModel: Sendable {
        let orderID: String
        init(orderID: String) { self.orderID = orderID }
    }
    // snippet.show

    // snippet.graphScope
    // Swinject's default `.graph` (and Factory's `.graph`): one instance shared by every factory of
    // one outermost resolution, a new one for the next.
    func registerCheckout(in container: WeaveDI.Container) {
        container.register(UnitOfWork.self, scope: .graph) { UnitOfWork() }
        container.register(OrderStore.self) { OrderStore(unitOfWork: try container.resolveOrThrow(UnitOfWork.self)) }
        container.register(InvoiceStore.self) {
            InvoiceStore(unitOfWork: try container.resolveOrThrow(UnitOfWork.self))
        }
        container.register(CheckoutService.self) {
            CheckoutService(
                orders: try container.resolveOrThrow(OrderStore.self),
                invoices: try container.resolveOrThrow(InvoiceStore.self))
        }
    }
    // snippet.end

    // snippet.autowiring
    // SwinjectAutoregistration's `autoregister(_:initializer:)`: WeaveDI resolves each parameter of
    // the initializer, so validate() and the graph know the dependencies without building anything.
    func registerProfile(in container: WeaveDI.Container) {
        container.register((any ProfileStore).self, scope: .singleton) { DiskProfileStore() }
        container.register((any ProfileService).self, scope: .transient, initializer: ProfileServiceImpl.init)
    }
    // snippet.end

    // snippet.contexts
    // Factory's contexts, on a registration: chosen for tests, previews, debug builds or a launch
    // argument, never in a release build unless asked for.
    func registerTelemetry(in container: WeaveDI.Container) {
        container.register((any Telemetry).self) { LiveTelemetry() }
        container.register((any Telemetry).self, in: .test) { SilentTelemetry() }
        container.register((any Telemetry).self, in: .preview) { PreviewTelemetry() }
        container.register((any Telemetry).self, in: .argument("verbose-telemetry")) { VerboseTelemetry() }
    }
    // snippet.end

    // snippet.factoryContexts
    // The same on a Factory key: `.onTest`, `.onPreview`, `.onDebug`, `.onArg`.
    extension WeaveDI.Container {
        static let telemetry = Factory<any Telemetry> { LiveTelemetry() }
    }

    func configureTelemetryContexts() {
        WeaveDI.Container.telemetry.onTest { SilentTelemetry() }
        WeaveDI.Container.telemetry.onPreview { PreviewTelemetry() }
        WeaveDI.Container.telemetry.onArg("verbose-telemetry") { VerboseTelemetry() }
    }
    // snippet.end

    // snippet.parameterFactory
    // Factory's `ParameterFactory`: a key whose factory takes the parameter.
    extension WeaveDI.Container {
        static let orderDetail = ParameterFactory<String, OrderDetailViewModel> { id in
            OrderDetailViewModel(orderID: id)
        }
    }

    func orderDetail(_ id: String) -> OrderDetailViewModel {
        WeaveDI.Container.orderDetail(id)
    }
// snippet.end
#endif
