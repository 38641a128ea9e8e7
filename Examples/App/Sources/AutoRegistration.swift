import DI
import PaymentFeature
import WeaveDI

// The app is the one place that sees both the payment feature (which declares the optional
// `receiptPrinter` slot) and a printer. AutoRegistering makes WeaveDI fill the slot before the
// very first resolution, so no start-up code can run too early to see it (see the Multiple-Module
// Registration article).
extension WeaveDI.Container: @retroactive AutoRegistering {
    public static func registerAllServices() {
        receiptPrinter.register {
            // Resolved when a receipt is printed, by which time the configuration is registered.
            guard let directory = Container.shared.resolve(AppConfiguration.self)?.receiptsDirectory else { return nil }
            return TextReceiptPrinter(directory: directory)
        }
    }
}
