import SharedModels
import WeaveDI

extension Container {
    /// The receipt printer, if the app has one. The payment feature cannot know the app's printer,
    /// so it declares an optional slot (the pattern of the Multiple-Module Registration article)
    /// that the app fills in, e.g. from `AutoRegistering.registerAllServices()`:
    ///
    /// ```swift
    /// Container.receiptPrinter.register { TextReceiptPrinter(directory: receipts) }
    /// ```
    public static let receiptPrinter = Factory<(any ReceiptPrinting)?> { nil }
}
