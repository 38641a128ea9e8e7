import SharedModels

/// The result of a payment attempt.
public struct PaymentOutcome: Sendable, Hashable {
    public let payment: Payment
    /// Where the receipt went, if the app provides a receipt printer and the payment was captured.
    public let receipt: String?
}

/// What the payment feature offers the app.
public protocol PaymentService: Sendable {
    /// Charges the order's total to `cardNumber`. A captured payment announces
    /// ``PaymentCaptured`` (the order feature then marks the order paid); a declined one is stored
    /// and returned, not thrown.
    func pay(orderID: Int64, cardNumber: String) async throws -> PaymentOutcome
}

/// Why the payment feature refused.
public enum PaymentFeatureError: Error, Equatable, CustomStringConvertible {
    case unknownOrder(Int64)
    case notPayable(orderID: Int64, status: OrderStatus)

    public var description: String {
        switch self {
        case .unknownOrder(let id): return "No order with id \(id)."
        case .notPayable(let id, let status): return "Order \(id) is \(status.rawValue) and cannot be paid."
        }
    }
}
