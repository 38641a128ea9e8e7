import Foundation
import WeaveDICore

/// What one factory contributed to a ``ModuleFactoryManager`` registration.
public struct FactoryRegistrationStatistics: Sendable, CustomStringConvertible {
    /// The factory's name (its type name unless the app named it when adding it).
    public let name: String
    /// The layer the factory was registered in.
    public let layer: ModuleLayer
    /// How many of the factory's modules were registered (0 before registration).
    public let moduleCount: Int
    /// Seconds it took to register the factory's modules, or `nil` before they were registered.
    public let registrationDuration: TimeInterval?
    /// How many concurrent batches its modules were registered in (0 before registration).
    public let batchCount: Int

    /// The factory, its layer, its module count and (once registered) its timing.
    public var description: String {
        let timing = registrationDuration.map { String(format: ", %.3f ms in %d batches", $0 * 1000, batchCount) } ?? ""
        return "\(name) (\(layer)): \(moduleCount) modules\(timing)"
    }
}
