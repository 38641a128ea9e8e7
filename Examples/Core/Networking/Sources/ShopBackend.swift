import Foundation

/// The shop's backend, running inside the process: a catalog and a payment gateway behind the
/// same request/response shape an HTTP server has (JSON bodies, status codes), so swapping in a
/// real HTTP client changes no feature code.
public struct ShopBackend: Sendable {
    /// An answer: a status code and a JSON body.
    public struct Response: Sendable {
        public let status: Int
        public let body: Data
    }

    /// Catalog items by SKU.
    public var catalog: [String: PriceQuote]
    /// Payments above this amount are declined.
    public var spendingLimitCents: Int
    /// Cards ending with one of these are declined.
    public var blockedCardSuffixes: [String]

    public init(catalog: [PriceQuote], spendingLimitCents: Int = 100_000, blockedCardSuffixes: [String] = ["0002"]) {
        self.catalog = Dictionary(catalog.map { ($0.sku, $0) }, uniquingKeysWith: { _, last in last })
        self.spendingLimitCents = spendingLimitCents
        self.blockedCardSuffixes = blockedCardSuffixes
    }

    /// The catalog the example app sells from.
    public static let standard = ShopBackend(catalog: [
        PriceQuote(sku: "coffee-beans", name: "Coffee beans, 1 kg", unitPriceCents: 2_450),
        PriceQuote(sku: "mug", name: "Enamel mug", unitPriceCents: 1_200),
        PriceQuote(sku: "grinder", name: "Hand grinder", unitPriceCents: 8_900),
    ])

    /// Answers one request.
    public func handle(_ endpoint: Endpoint) -> Response {
        switch (endpoint.method, endpoint.path) {
        case (.get, let path) where path.hasPrefix("/catalog/items/"):
            let sku = String(path.dropFirst("/catalog/items/".count))
            guard let item = catalog[sku] else { return .error(404, "no catalog item '\(sku)'") }
            return .json(item)
        case (.post, "/payments/authorize"):
            guard let body = endpoint.body,
                let request = try? JSONDecoder().decode(PaymentAuthorizationRequest.self, from: body)
            else {
                return .error(400, "expected a PaymentAuthorizationRequest body")
            }
            return .json(authorize(request))
        default:
            return .error(404, "no route for \(endpoint)")
        }
    }

    private func authorize(_ request: PaymentAuthorizationRequest) -> PaymentAuthorization {
        if request.amountCents <= 0 {
            return PaymentAuthorization(approved: false, reference: nil, declineReason: "amount must be positive")
        }
        if request.amountCents > spendingLimitCents {
            return PaymentAuthorization(approved: false, reference: nil, declineReason: "over the spending limit")
        }
        if blockedCardSuffixes.contains(where: { request.cardNumber.hasSuffix($0) }) {
            return PaymentAuthorization(approved: false, reference: nil, declineReason: "card declined")
        }
        return PaymentAuthorization(
            approved: true, reference: "AUTH-\(request.orderID)-\(request.amountCents)",
            declineReason: nil)
    }
}

extension ShopBackend.Response {
    static func json(_ value: some Encodable) -> Self {
        // Encoding these plain Codable structs cannot fail; an empty body would surface as a decoding error.
        Self(status: 200, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    static func error(_ status: Int, _ message: String) -> Self {
        Self(status: status, body: Data(message.utf8))
    }
}
