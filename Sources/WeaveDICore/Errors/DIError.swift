import Foundation

/// Why a resolution or registration failed. Every message names the types involved and says what
/// to do about it.
public enum DIError: Error, CustomStringConvertible, LocalizedError {
    /// Nothing is registered for the type (and name). `similar` lists registered types whose names
    /// look alike, which is usually the mistake.
    case dependencyNotFound(Any.Type, name: String? = nil, similar: [String] = [])
    /// Resolving the type would need itself: `path` is the whole chain, first and last equal.
    case circularDependency(path: [String])
    /// The registered factory threw `underlying`.
    case factoryFailed(Any.Type, name: String? = nil, underlying: any Error)
    /// A custom-scope instance was used after ``ScopeInstance/end()``.
    case scopeEnded(scope: String, type: Any.Type)
    /// The type was registered twice under the same name while duplicates are rejected
    /// (see ``Container/duplicatePolicy``).
    case duplicateRegistration(Any.Type, name: String? = nil, first: RegistrationSite, second: RegistrationSite)
    /// Factories nested deeper than ``Container/maximumResolutionDepth`` on one thread: `path`
    /// is the head of the chain (outermost first), `limit` the depth in force. Stopped before the
    /// thread's stack runs out.
    case resolutionTooDeep(path: [String], limit: Int)
    /// The type is registered with an async factory (``Container/registerAsync(_:scope:file:line:factory:)``)
    /// and was resolved synchronously. Nothing was built and nothing waited: resolve it with
    /// `try await container.resolveAsync(_:)`.
    case asyncResolutionRequired(Any.Type, name: String? = nil)

    /// What went wrong, naming the types involved, and what to do about it.
    public var description: String {
        switch self {
        case .dependencyNotFound(let type, let name, let similar):
            var text = "No registration for \(ResolutionFrame.displayName(type, name))."
            let typeName = String(describing: type)
            let qualified = TypeNames.qualified(type)
            // Other registrations of the type itself come first in `similar` (see
            // `Container.similarRegistrations`), spelled `Type` or `Type["name"]`.
            let sameType = similar.filter { $0 == qualified || $0.hasPrefix(qualified + "[\"") }
            let lookAlikes = similar.filter { !sameType.contains($0) }
            if !sameType.isEmpty {
                // `Type["name"]` → `name`
                let names = sameType.filter { $0 != qualified }.map {
                    String($0.dropFirst(qualified.count + 2).dropLast(2))
                }
                let quoted = names.map { "\"\($0)\"" }
                if name == nil, let first = names.first {
                    text +=
                        " \(typeName) is registered only under names: \(quoted.joined(separator: ", ")). Resolve one by name: `resolve(\"\(first)\", \(typeName).self)`."
                } else {
                    let places = (sameType.contains(qualified) ? ["without a name"] : []) + quoted
                    text +=
                        " \(typeName) is registered \(places.count == 1 && names.isEmpty ? "only without a name" : "under: \(places.joined(separator: ", "))")."
                }
            }
            if !lookAlikes.isEmpty {
                text += " Registered types with similar names: \(lookAlikes.joined(separator: ", "))."
                let protocolName = typeName.lowercased()
                let implementations = lookAlikes.filter {
                    ($0.split(separator: ".").last.map { $0.lowercased() } ?? "").contains(protocolName)
                }
                if TypeNames.isProtocol(type), let implementation = implementations.first {
                    let short = implementation.split(separator: ".").last.map(String.init) ?? implementation
                    text +=
                        " \(typeName) is a protocol: only a registration of \(typeName) itself serves it, not one of a type conforming to it. If \(short) conforms, register it as the protocol: `container.register(\(typeName).self) { \(short)() }`."
                    return text
                }
            }
            if let name {
                text += " Register it with `container.register(\"\(name)\", \(typeName).self) { ... }`."
            } else {
                text +=
                    " Register it with `container.register(\(typeName).self) { ... }` (or a module) before resolving it."
            }
            return text
        case .circularDependency(let path):
            return "Circular dependency: \(path.joined(separator: " -> ")). " + Self.cycleAdvice(path)
        case .factoryFailed(let type, let name, let underlying):
            return "The factory for \(ResolutionFrame.displayName(type, name)) threw: \(underlying)."
        case .scopeEnded(let scope, let type):
            return
                "Scope '\(scope)' has ended; \(TypeNames.qualified(type)) cannot be resolved in it. Begin a new scope instance."
        case .duplicateRegistration(let type, let name, let first, let second):
            return
                "\(ResolutionFrame.displayName(type, name)) is registered twice: at \(first) and at \(second). Remove one, or use a name to register both."
        case .resolutionTooDeep(let path, let limit):
            return
                "Resolution nested more than \(limit) factories deep: \(path.joined(separator: " -> ")) -> …. A chain this deep is usually a factory that keeps resolving new names or types; if the graph really is this deep, raise Container.maximumResolutionDepth (each level takes stack: about 6 KB in a debug build)."
        case .asyncResolutionRequired(let type, let name):
            let typeName = String(describing: type)
            let call = name.map { "resolveAsync(\"\($0)\", \(typeName).self)" } ?? "resolveAsync(\(typeName).self)"
            return
                "\(ResolutionFrame.displayName(type, name)) is registered with an async factory and cannot be resolved synchronously. Resolve it with `try await container.\(call)` from async code (an async factory, a task, an async initializer)."
        }
    }

    /// How to break the cycle `path` (`A -> B -> A`): the last factory on it gets the first one
    /// after both are built, not in its factory. A protocol between them changes no order of
    /// construction, so it is not advice; `@Inject` cannot reach an async registration.
    static func cycleAdvice(_ path: [String]) -> String {
        guard let first = path.first, path.count >= 2 else { return "" }
        let last = path[path.count - 2]
        if last == first { return "\(first)'s factory resolves \(first) itself: build it without that resolution." }
        return
            "\(last)'s factory resolves \(first), which is still being built. Break the cycle by letting \(last) get \(first) on first use, after both are built: an optional `@Inject` property or a Factory key read later (synchronous registrations), or `try await container.resolveAsync(…)` in the method that needs it (async registrations, which @Inject cannot reach)."
    }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }

    /// The type the error is about (the first of the path for a cycle).
    var typeName: String {
        switch self {
        case .dependencyNotFound(let type, let name, _), .factoryFailed(let type, let name, _),
            .duplicateRegistration(let type, let name, _, _), .asyncResolutionRequired(let type, let name):
            return ResolutionFrame.displayName(type, name)
        case .circularDependency(let path), .resolutionTooDeep(let path, _): return path.first ?? "?"
        case .scopeEnded(_, let type): return TypeNames.qualified(type)
        }
    }
}

extension DIError {
    /// The log level from which this failure is logged: a miss is a warning (an optional
    /// dependency may be missing on purpose), anything else an error.
    var logLevel: DILogLevel {
        if case .dependencyNotFound = self { return .warnings }
        return .errors
    }

    /// Whether `other` is the same failure (same case, types, names and path), ignoring what
    /// reporting adds (look-alike names) and what cannot be compared (a factory's error).
    package func isSameFailure(as other: DIError) -> Bool {
        switch (self, other) {
        case (.dependencyNotFound(let a, let aName, _), .dependencyNotFound(let b, let bName, _)):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
        case (.circularDependency(let a), .circularDependency(let b)):
            return a == b
        case (.factoryFailed(let a, let aName, _), .factoryFailed(let b, let bName, _)):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
        case (.scopeEnded(let aScope, let a), .scopeEnded(let bScope, let b)):
            return aScope == bScope && ObjectIdentifier(a) == ObjectIdentifier(b)
        case (
            .duplicateRegistration(let a, let aName, let aFirst, let aSecond),
            .duplicateRegistration(let b, let bName, let bFirst, let bSecond)
        ):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName && aFirst == bFirst
                && aSecond == bSecond
        case (.resolutionTooDeep(let a, let aLimit), .resolutionTooDeep(let b, let bLimit)):
            return a == b && aLimit == bLimit
        case (.asyncResolutionRequired(let a, let aName), .asyncResolutionRequired(let b, let bName)):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
        default:
            return false
        }
    }
}
