/// Something a feature announces for other features to react to.
public protocol Event: Sendable {}

/// A user signed up (UserFeature).
public struct UserRegistered: Event, Hashable {
    public let userID: Int64
    public let email: String
    public init(userID: Int64, email: String) {
        self.userID = userID
        self.email = email
    }
}

/// An order was placed and awaits payment (OrderFeature).
public struct OrderPlaced: Event, Hashable {
    public let orderID: Int64
    public let userID: Int64
    public let totalCents: Int
    public init(orderID: Int64, userID: Int64, totalCents: Int) {
        self.orderID = orderID
        self.userID = userID
        self.totalCents = totalCents
    }
}

/// The gateway captured a payment for an order (PaymentFeature). OrderFeature marks the order paid.
public struct PaymentCaptured: Event, Hashable {
    public let paymentID: Int64
    public let orderID: Int64
    public let amountCents: Int
    public init(paymentID: Int64, orderID: Int64, amountCents: Int) {
        self.paymentID = paymentID
        self.orderID = orderID
        self.amountCents = amountCents
    }
}

/// An order is paid (OrderFeature). UserFeature awards loyalty points.
public struct OrderPaid: Event, Hashable {
    public let orderID: Int64
    public let userID: Int64
    public let totalCents: Int
    public init(orderID: Int64, userID: Int64, totalCents: Int) {
        self.orderID = orderID
        self.userID = userID
        self.totalCents = totalCents
    }
}
