import OrderFeature
import PaymentFeature
import SharedModels
import Testing
import UserFeature
import WeaveDI
import WeaveDITesting

/// An optional Factory key, as in the Multiple-Module Registration article: the payment feature declares `Container.receiptPrinter` as
/// `Factory<(any ReceiptPrinting)?> { nil }`; whoever sees a printer registers one.
@Suite(.container)
struct ReceiptPrinterTests {
    @Test func withoutAPrinterTheKeyResolvesToNil() async throws {
        _ = try await TestApp.bootstrap()
        #expect(WeaveDI.Container.receiptPrinter() == nil)
    }

    @Test func aRegisteredPrinterPrintsTheReceiptOfTheCapturedPayment() async throws {
        let app = try await TestApp.bootstrap()
        let printer = RecordingReceiptPrinter()
        WeaveDI.Container.receiptPrinter.register { printer }

        let user = try app.resolve(UserService.self).signUp(name: "Margaret", email: "margaret@example.com").user
        let order = try await app.resolve(OrderService.self).placeOrder(
            userID: user.id, items: [OrderItem(sku: "mug", quantity: 1)])
        let outcome = try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "4242")

        #expect(outcome.receipt == "memory:order-\(order.id)")
        let receipts = printer.receipts
        #expect(receipts.count == 1)
        // Printed after the order feature reacted to the capture: the receipt shows it paid.
        #expect(receipts.first?.order.status == .paid)
        #expect(receipts.first?.payment.id == outcome.payment.id)
    }

    @Test func aDeclinedPaymentPrintsNothing() async throws {
        let app = try await TestApp.bootstrap()
        let printer = RecordingReceiptPrinter()
        WeaveDI.Container.receiptPrinter.register { printer }

        let user = try app.resolve(UserService.self).signUp(name: "Donald", email: "donald@example.com").user
        let order = try await app.resolve(OrderService.self).placeOrder(
            userID: user.id, items: [OrderItem(sku: "mug", quantity: 1)])
        let outcome = try await app.resolve(PaymentService.self).pay(orderID: order.id, cardNumber: "0002")

        #expect(outcome.receipt == nil)
        #expect(printer.receipts.isEmpty)
    }
}
