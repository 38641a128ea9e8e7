import Hummingbird
import SharedModels

/// `POST /users`.
struct SignUpRequest: Decodable {
    let name: String
    let email: String
}

/// `POST /orders`.
struct PlaceOrderRequest: Decodable {
    struct Item: Decodable {
        let sku: String
        let quantity: Int
    }
    let userID: Int64
    let items: [Item]
}

/// `POST /orders/{id}/payments`.
struct PayRequest: Decodable {
    let cardNumber: String
}

/// A user as the API shows it.
struct UserBody: ResponseEncodable {
    let id: Int64
    let name: String
    let email: String
    let loyaltyPoints: Int
    init(_ user: User) {
        id = user.id
        name = user.name
        email = user.email
        loyaltyPoints = user.loyaltyPoints
    }
}

/// A payment as the API shows it.
struct PaymentBody: ResponseEncodable {
    let id: Int64
    let amountCents: Int
    let cardLast4: String
    let status: String
    let reference: String?
    let declineReason: String?
    init(_ payment: Payment) {
        id = payment.id
        amountCents = payment.amountCents
        cardLast4 = payment.cardLast4
        status = payment.status.rawValue
        reference = payment.reference
        declineReason = payment.declineReason
    }
}

/// An order, with its payments, as the API shows it.
struct OrderBody: ResponseEncodable {
    struct Line: Encodable {
        let sku: String
        let quantity: Int
        let unitPriceCents: Int
    }
    let id: Int64
    let userID: Int64
    let status: String
    let totalCents: Int
    let lines: [Line]
    let payments: [PaymentBody]
    init(_ order: Order, payments: [Payment]) {
        id = order.id
        userID = order.userID
        status = order.status.rawValue
        totalCents = order.totalCents
        lines = order.lines.map { Line(sku: $0.sku, quantity: $0.quantity, unitPriceCents: $0.unitPriceCents) }
        self.payments = payments.map(PaymentBody.init)
    }
}
