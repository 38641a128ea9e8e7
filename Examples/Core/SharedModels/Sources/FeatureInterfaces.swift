// What one feature offers another. A feature registers its implementation of these in the
// container; the others resolve the protocol and never see the implementation (or its module).

/// Looks users up (offered by UserFeature, used by OrderFeature).
public protocol UserDirectory: Sendable {
    func user(id: Int64) throws -> User?
}

/// Looks orders up (offered by OrderFeature, used by PaymentFeature).
public protocol OrderLookup: Sendable {
    func order(id: Int64) throws -> Order?
}

/// Prints a receipt for a captured payment. PaymentFeature declares an optional slot for one; the
/// app decides whether there is one (see `Container.receiptPrinter`).
public protocol ReceiptPrinting: Sendable {
    /// Prints the receipt and says where it went (a file path, a printer name).
    func printReceipt(for order: Order, payment: Payment) throws -> String
}
