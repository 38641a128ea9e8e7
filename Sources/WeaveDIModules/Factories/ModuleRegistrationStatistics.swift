import Foundation
import WeaveDICore

/// How many modules a ``ModuleFactoryManager/registerAll(to:)`` registered, per factory and per
/// layer, and how long it took (see ``ModuleFactoryManager/getRegistrationStatistics()``). Before a
/// registration, every count is 0 and ``isRegistered`` is `false`.
public struct ModuleRegistrationStatistics: Sendable, CustomStringConvertible {
    /// One entry per factory, in registration (layer) order.
    public let factories: [PerFactory]
    /// Seconds spent making and validating the modules, or `nil` before registration.
    public let validationDuration: TimeInterval?
    /// Seconds the whole `registerAll` took (making, validating, registering), or `nil` before it ran.
    public let totalDuration: TimeInterval?

    /// Whether these statistics describe a completed registration (durations are set).
    public var isRegistered: Bool { totalDuration != nil }

    /// Modules registered across every factory (the sum of the per-layer counts).
    public var totalModules: Int { factories.reduce(0) { $0 + $1.moduleCount } }

    /// Modules registered by the factories of `layer`.
    func modules(in layer: ModuleLayer) -> Int {
        factories.lazy.filter { $0.layer == layer }.reduce(0) { $0 + $1.moduleCount }
    }

    /// Modules in the infrastructure layer.
    public var infrastructureModules: Int { modules(in: .infrastructure) }
    /// Modules in the repository layer.
    public var repositoryModules: Int { modules(in: .repository) }
    /// Modules in the use-case layer.
    public var useCaseModules: Int { modules(in: .useCase) }
    /// Modules in the service layer.
    public var serviceModules: Int { modules(in: .service) }
    /// Modules in the scope layer.
    public var scopeModules: Int { modules(in: .scope) }
    /// Modules in the presentation layer.
    public var presentationModules: Int { modules(in: .presentation) }
    /// Modules from factories added with the custom layer.
    public var customModules: Int { modules(in: .custom) }

    /// Statistics for the factory named `name`, if there is one.
    public func factory(named name: String) -> PerFactory? {
        factories.first { $0.name == name }
    }

    /// A summary line followed by one line per factory.
    public var description: String {
        var lines = [
            "\(totalModules) modules across \(factories.count) factories"
                + (totalDuration.map { String(format: ", registered in %.3f ms", $0 * 1000) } ?? " (not registered yet)")
        ]
        lines += factories.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }
}

extension ModuleRegistrationStatistics {
    /// What one factory contributed to a ``ModuleFactoryManager`` registration.
    public struct PerFactory: Sendable, CustomStringConvertible {
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
            let timing =
                registrationDuration.map { String(format: ", %.3f ms in %d batches", $0 * 1000, batchCount) } ?? ""
            return "\(name) (\(layer)): \(moduleCount) modules\(timing)"
        }
    }
}
