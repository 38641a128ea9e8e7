/// What happened to a payment attempt.
public enum PaymentStatus: String, Sendable, Codable, CaseIterable {
    /// The gateway took the money.
    case captured
    /// The gateway refused; `Payment.declineReason` says why.
    case declined
}

/// A payment attempt for an order.
public struct Payment: Sendable, Hashable, Codable, Identifiable {
    public let id: Int64
    public let orderID: Int64
    public let amountCents: Int
    /// The card's last four digits.
    public let cardLast4: String
    public let status: PaymentStatus
    /// The gateway's reference for a captured payment.
    public let reference: String?
    public let declineReason: String?

    public init(
        id: Int64, orderID: Int64, amountCents: Int, cardLast4: String, status: PaymentStatus,
        reference: String?, declineReason: String?
    ) {
        self.id = id
        self.orderID = orderID
        self.amountCents = amountCents
        self.cardLast4 = cardLast4
        self.status = status
        self.reference = reference
        self.declineReason = declineReason
    }
}
