import Networking
import SharedModels
import WeaveDI

/// The payment feature's implementation.
struct PaymentServiceImpl: PaymentService {
    let payments: any PaymentRepository
    let orders: any OrderLookup
    let events: any EventBus
    @Injected(\.apiClient) var apiClient
    @Injected(Container.receiptPrinter) var receiptPrinter

    func pay(orderID: Int64, cardNumber: String) async throws -> PaymentOutcome {
        guard let order = try orders.order(id: orderID) else { throw PaymentFeatureError.unknownOrder(orderID) }
        guard order.status == .pending else {
            throw PaymentFeatureError.notPayable(orderID: orderID, status: order.status)
        }
        let request = PaymentAuthorizationRequest(
            orderID: orderID, amountCents: order.totalCents, cardNumber: cardNumber)
        let authorization: PaymentAuthorization = try await apiClient.request(.authorizePayment(request))
        let last4 = String(cardNumber.suffix(4))
        guard authorization.approved else {
            let declined = try payments.insert(
                orderID: orderID, amountCents: order.totalCents, cardLast4: last4,
                status: .declined, reference: nil,
                declineReason: authorization.declineReason ?? "declined")
            return PaymentOutcome(payment: declined, receipt: nil)
        }
        let payment = try payments.insert(
            orderID: orderID, amountCents: order.totalCents, cardLast4: last4,
            status: .captured, reference: authorization.reference, declineReason: nil)
        try events.publish(PaymentCaptured(paymentID: payment.id, orderID: orderID, amountCents: payment.amountCents))
        // The receipt shows the order as it is now (the order feature has marked it paid).
        var receipt: String?
        if let receiptPrinter {
            receipt = try receiptPrinter.printReceipt(for: try orders.order(id: orderID) ?? order, payment: payment)
        }
        return PaymentOutcome(payment: payment, receipt: receipt)
    }
}
