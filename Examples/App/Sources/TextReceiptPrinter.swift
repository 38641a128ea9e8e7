import Foundation
import SharedModels

/// Writes each receipt as a text file: the app's answer to the payment feature's optional
/// `Container.receiptPrinter` slot.
struct TextReceiptPrinter: ReceiptPrinting {
    let directory: URL

    func printReceipt(for order: Order, payment: Payment) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var lines = ["Receipt for order #\(order.id) (\(order.status.rawValue))"]
        for line in order.lines {
            lines.append(
                "  \(line.quantity) × \(line.sku) @ \(formatCents(line.unitPriceCents)) = \(formatCents(line.totalCents))"
            )
        }
        lines.append(
            "Total \(formatCents(order.totalCents)), card …\(payment.cardLast4), \(payment.reference ?? "no reference")"
        )
        let file = directory.appendingPathComponent("order-\(order.id).txt")
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }
}
