import Foundation

/// An HTTP method.
public enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
}

/// A request to the shop's backend: method, path and an optional JSON body.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: String
    public let body: Data?

    public init(method: HTTPMethod, path: String, body: Data? = nil) {
        self.method = method
        self.path = path
        self.body = body
    }

    public var description: String { "\(method.rawValue) \(path)" }

    /// `GET /catalog/items/{sku}`: a ``PriceQuote``.
    public static func price(sku: String) -> Endpoint {
        Endpoint(method: .get, path: "/catalog/items/\(sku)")
    }

    /// `POST /payments/authorize`: a ``PaymentAuthorization``.
    public static func authorizePayment(_ request: PaymentAuthorizationRequest) throws -> Endpoint {
        Endpoint(method: .post, path: "/payments/authorize", body: try JSONEncoder().encode(request))
    }
}

/// The catalog's answer for one item.
public struct PriceQuote: Codable, Sendable, Hashable {
    public let sku: String
    public let name: String
    public let unitPriceCents: Int

    public init(sku: String, name: String, unitPriceCents: Int) {
        self.sku = sku
        self.name = name
        self.unitPriceCents = unitPriceCents
    }
}

/// What the payment gateway is asked to charge.
public struct PaymentAuthorizationRequest: Codable, Sendable, Hashable {
    public let orderID: Int64
    public let amountCents: Int
    public let cardNumber: String

    public init(orderID: Int64, amountCents: Int, cardNumber: String) {
        self.orderID = orderID
        self.amountCents = amountCents
        self.cardNumber = cardNumber
    }
}

/// The payment gateway's decision.
public struct PaymentAuthorization: Codable, Sendable, Hashable {
    public let approved: Bool
    /// The gateway's reference, when approved.
    public let reference: String?
    /// Why it was declined, when not approved.
    public let declineReason: String?

    public init(approved: Bool, reference: String?, declineReason: String?) {
        self.approved = approved
        self.reference = reference
        self.declineReason = declineReason
    }
}
