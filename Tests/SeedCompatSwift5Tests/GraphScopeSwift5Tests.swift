// The graph scope as Swinject users write it (its default object scope), in the Swift 5 language
// mode: non-Sendable classes, a factory capturing the container, a Factory key.
import Testing
import WeaveDI
import WeaveDITestSupport

protocol GraphUnitOfWork: AnyObject {}
final class GraphUnitOfWorkImpl: GraphUnitOfWork {}

final class GraphOrdersRepository {
    let unitOfWork: GraphUnitOfWork
    init(unitOfWork: GraphUnitOfWork) { self.unitOfWork = unitOfWork }
}

final class GraphPaymentsRepository {
    let unitOfWork: GraphUnitOfWork
    init(unitOfWork: GraphUnitOfWork) { self.unitOfWork = unitOfWork }
}

final class GraphCheckout {
    let orders: GraphOrdersRepository
    let payments: GraphPaymentsRepository
    init(orders: GraphOrdersRepository, payments: GraphPaymentsRepository) {
        self.orders = orders
        self.payments = payments
    }
}

extension Container {
    static let graphUnitOfWork = Factory<GraphUnitOfWork>(scope: .graph) { GraphUnitOfWorkImpl() }
    static let graphCheckout = Factory<GraphCheckout> {
        GraphCheckout(
            orders: GraphOrdersRepository(unitOfWork: Container.graphUnitOfWork()),
            payments: GraphPaymentsRepository(unitOfWork: Container.graphUnitOfWork()))
    }
}

@Test(.capturesLog) func graphScopedRegistrationsInTheSwift5Mode() throws {
    let container = Container()
    container.register(GraphUnitOfWork.self, scope: .graph) { GraphUnitOfWorkImpl() }
    container.register(GraphOrdersRepository.self) {
        GraphOrdersRepository(unitOfWork: container.resolve(GraphUnitOfWork.self)!)
    }
    container.register(GraphPaymentsRepository.self) {
        GraphPaymentsRepository(unitOfWork: container.resolve(GraphUnitOfWork.self)!)
    }
    container.register(GraphCheckout.self) {
        GraphCheckout(
            orders: container.resolve(GraphOrdersRepository.self)!,
            payments: container.resolve(GraphPaymentsRepository.self)!)
    }
    let checkout = try #require(container.resolve(GraphCheckout.self))
    #expect(checkout.orders.unitOfWork === checkout.payments.unitOfWork)
    let next = try #require(container.resolve(GraphCheckout.self))
    #expect(next.orders.unitOfWork !== checkout.orders.unitOfWork)

    Container.withShared(Container()) {
        let keyed = Container.graphCheckout()
        #expect(keyed.orders.unitOfWork === keyed.payments.unitOfWork)
    }
}
