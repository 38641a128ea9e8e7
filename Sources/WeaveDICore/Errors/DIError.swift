import Foundation

/// Why a resolution or registration failed. Every message names the types involved and says what
/// to do about it.
public enum DIError: Error, CustomStringConvertible, LocalizedError {
    /// Nothing is registered for the type (and name). `similar` lists registered types whose names
    /// look alike, which is usually the mistake (computed when first read: see ``LookAlikes``).
    case dependencyNotFound(Any.Type, name: String? = nil, similar: LookAlikes = [])
    /// Resolving the type would need itself: `path` is the whole chain, first and last equal.
    case circularDependency(path: [String])
    /// The registered factory threw `underlying`.
    case factoryFailed(Any.Type, name: String? = nil, underlying: any Error)
    /// A custom-scope instance was used after ``ScopeInstance/end()``.
    case scopeEnded(scope: String, type: Any.Type)
    /// `type` lives in a scope that must be bound (``Container/requireBinding(of:)``, which a
    /// request-scope middleware calls), and no instance of it is bound where it was resolved.
    case scopeNotBound(scope: String, type: Any.Type)
    /// The type was registered twice under the same name while duplicates are rejected
    /// (see ``Container/duplicatePolicy``).
    case duplicateRegistration(Any.Type, name: String? = nil, first: RegistrationSite, second: RegistrationSite)
    /// Factories nested too deep: `path` is the head of the chain (outermost first, at most eight
    /// names), `depth` how many factories were running, `limit` what stopped the next one — the
    /// thread's stack (checked before each nested synchronous factory, so the chain stops before
    /// the stack overflows), ``Container/maximumResolutionDepth`` when set, or
    /// ``Container/maximumAsyncResolutionDepth`` for async factories.
    case resolutionTooDeep(path: [String], depth: Int, limit: DepthLimit)
    /// The type is registered with an async factory (``Container/registerAsync(_:scope:file:line:factory:)-(_,_,_,_,()->T)``)
    /// and was resolved synchronously. Nothing was built and nothing waited: resolve it with
    /// `try await container.resolveAsync(_:)`.
    case asyncResolutionRequired(Any.Type, name: String? = nil)
    /// The arguments a resolution passed do not match what the registration's factory takes:
    /// `expected` are the types the registration takes (empty: none), `passed` the types of the
    /// arguments the resolution gave (empty: none). Nothing was built.
    case argumentMismatch(Any.Type, name: String? = nil, expected: [Any.Type], passed: [Any.Type])
    /// A registration with arguments in a shared lifetime keeps one instance per argument value,
    /// keyed by the arguments' equality: `argument`, one of the arguments passed, is not
    /// `Hashable`. Nothing was built.
    case argumentNotHashable(Any.Type, name: String? = nil, argument: Any.Type, scope: String)

    /// What went wrong, naming the types involved, and what to do about it.
    public var description: String {
        switch self {
        case .dependencyNotFound(let type, let name, let similar):
            var text = "No registration for \(ResolutionFrame.displayName(type, name))."
            let similar = similar.names
            let typeName = TypeNames.short(type)
            // `typeName.self` as code; `nil` when the type has no spelling the suggestion could use.
            let code = TypeNames.isSourceSpelling(typeName) ? TypeNames.metatypeExpression(type) : nil
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
                    text += " \(typeName) is registered only under names: \(quoted.joined(separator: ", "))."
                    text +=
                        code.map { " Resolve one by name: `resolve(\"\(first)\", \($0))`." } ?? " Resolve one by name."
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
                if TypeNames.isProtocol(type), let code, let implementation = implementations.first {
                    let short = implementation.split(separator: ".").last.map(String.init) ?? implementation
                    text +=
                        " \(typeName) is a protocol: only a registration of \(typeName) itself serves it, not one of a type conforming to it. If \(short) conforms, register it as the protocol: `container.register(\(code)) { \(short)() }`."
                    return text
                }
            }
            guard let code else {
                // Several primary associated types: the runtime does not record their order.
                return text
                    + " Register it with `container.register(_:factory:)`, writing the type's arguments in the order its protocol lists its primary associated types."
            }
            if let name {
                text += " Register it with `container.register(\"\(name)\", \(code)) { ... }`."
            } else {
                text += " Register it with `container.register(\(code)) { ... }` (or a module) before resolving it."
            }
            return text
        case .circularDependency(let path):
            return "Circular dependency: \(path.joined(separator: " -> ")). " + Self.cycleAdvice(path)
        case .factoryFailed(let type, let name, let underlying):
            return "The factory for \(ResolutionFrame.displayName(type, name)) threw: \(underlying)."
        case .scopeEnded(let scope, let type):
            return
                "Scope '\(scope)' has ended; \(TypeNames.qualified(type)) cannot be resolved in it. Begin a new scope instance."
        case .scopeNotBound(let scope, let type):
            return
                "\(TypeNames.qualified(type)) lives in scope '\(scope)', and no instance of that scope is bound here (it is bound only in the task that serves it and the tasks that task creates: not in a Task.detached, a health check or anything outside a request). Resolve it inside `container.withScope(...)`, or through the request's `context.dependencies`, which binds the request's instance in any task."
        case .duplicateRegistration(let type, let name, let first, let second):
            return
                "\(ResolutionFrame.displayName(type, name)) is registered twice: at \(first) and at \(second). Remove one, or use a name to register both."
        case .resolutionTooDeep(let path, let depth, let limit):
            let chain = "\(path.joined(separator: " -> ")) -> …"
            let usual = "A chain this deep is usually a factory that keeps resolving new names or types"
            switch limit {
            case .threadStack(let remaining, let needed):
                return
                    "Resolution stopped \(depth) factories deep, before the thread's stack overflows: \(remaining / 1024) KB of stack left, and the next factory could need \(needed / 1024) KB (\(chain)). \(usual); if the graph really is this deep, resolve it on a thread with a larger stack (Thread.stackSize), or resolve part of it lazily (@Inject, a Factory key)."
            case .maximumResolutionDepth(let maximum):
                return
                    "Resolution nested \(depth) factories deep, the limit set in Container.maximumResolutionDepth (\(maximum)): \(chain). \(usual); if the graph really is this deep, raise the limit (Int.max, the default, leaves only the stack guard)."
            case .maximumAsyncResolutionDepth(let maximum):
                return
                    "Resolution nested \(depth) async factories deep in one task, the limit in Container.maximumAsyncResolutionDepth (\(maximum)): \(chain). \(usual); if the graph really is this deep, raise Container.maximumAsyncResolutionDepth."
            }
        case .asyncResolutionRequired(let type, let name):
            let code = TypeNames.metatypeExpression(type)
            let call = name.map { "resolveAsync(\"\($0)\", \(code))" } ?? "resolveAsync(\(code))"
            return
                "\(ResolutionFrame.displayName(type, name)) is registered with an async factory and cannot be resolved synchronously. Resolve it with `try await container.\(call)` from async code (an async factory, a task, an async initializer); a type whose synchronous factory or initializer needs it must be registered with registerAsync and resolved with resolveAsync too."
        case .argumentMismatch(let type, let name, let expected, let passed):
            func list(_ types: [Any.Type]) -> String {
                types.isEmpty ? "no arguments" : "(\(types.map { TypeNames.qualified($0) }.joined(separator: ", ")))"
            }
            let code = TypeNames.metatypeExpression(type)
            let prefix = name.map { "\"\($0)\", " } ?? ""
            let call: String
            switch expected.count {
            case 0: call = "resolve(\(prefix)\(code))"
            case 1: call = "resolve(\(prefix)\(code), argument: …)"
            default: call = "resolve(\(prefix)\(code), arguments: …)"
            }
            return
                "\(ResolutionFrame.displayName(type, name)) is registered with a factory taking \(list(expected)), and was resolved with \(list(passed)). Nothing was built. Resolve it with `\(call)` passing \(list(expected)), in that order and with exactly those types (a literal or a subtype is not converted), or register a factory taking \(list(passed))."
        case .argumentNotHashable(let type, let name, let argument, let scope):
            return
                "\(ResolutionFrame.displayName(type, name)) is registered as \(scope) with arguments, so it keeps one instance per argument value, and \(TypeNames.qualified(argument)) (an argument passed) is not Hashable. Make \(TypeNames.short(argument)) Hashable, or register \(TypeNames.short(type)) as transient."
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
            .duplicateRegistration(let type, let name, _, _), .asyncResolutionRequired(let type, let name),
            .argumentMismatch(let type, let name, _, _), .argumentNotHashable(let type, let name, _, _):
            return ResolutionFrame.displayName(type, name)
        case .circularDependency(let path), .resolutionTooDeep(let path, _, _): return path.first ?? "?"
        case .scopeEnded(_, let type), .scopeNotBound(_, let type): return TypeNames.qualified(type)
        }
    }
}

extension DIError {
    /// What stopped a resolution nested too deep (see ``DIError/resolutionTooDeep(path:depth:limit:)``).
    public enum DepthLimit: Sendable, Equatable {
        /// The thread's stack: `remainingBytes` were left below the deepest factory's frame, less
        /// than the next nested factory could need (`neededBytes`: a reserve for reporting the
        /// failure, plus room for several levels of the size the chain's levels took so far).
        case threadStack(remainingBytes: Int, neededBytes: Int)
        /// ``Container/maximumResolutionDepth``, set to this many nested factories.
        case maximumResolutionDepth(Int)
        /// ``Container/maximumAsyncResolutionDepth``: this many async factories nested in one task.
        case maximumAsyncResolutionDepth(Int)
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
        case (.scopeNotBound(let aScope, let a), .scopeNotBound(let bScope, let b)):
            return aScope == bScope && ObjectIdentifier(a) == ObjectIdentifier(b)
        case (.scopeEnded(let aScope, let a), .scopeEnded(let bScope, let b)):
            return aScope == bScope && ObjectIdentifier(a) == ObjectIdentifier(b)
        case (
            .duplicateRegistration(let a, let aName, let aFirst, let aSecond),
            .duplicateRegistration(let b, let bName, let bFirst, let bSecond)
        ):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName && aFirst == bFirst
                && aSecond == bSecond
        case (.resolutionTooDeep(let a, let aDepth, let aLimit), .resolutionTooDeep(let b, let bDepth, let bLimit)):
            return a == b && aDepth == bDepth && aLimit == bLimit
        case (.asyncResolutionRequired(let a, let aName), .asyncResolutionRequired(let b, let bName)):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
        case (
            .argumentMismatch(let a, let aName, let aExpected, let aPassed),
            .argumentMismatch(let b, let bName, let bExpected, let bPassed)
        ):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
                && aExpected.map(ObjectIdentifier.init) == bExpected.map(ObjectIdentifier.init)
                && aPassed.map(ObjectIdentifier.init) == bPassed.map(ObjectIdentifier.init)
        case (
            .argumentNotHashable(let a, let aName, let aArgument, _),
            .argumentNotHashable(let b, let bName, let bArgument, _)
        ):
            return ObjectIdentifier(a) == ObjectIdentifier(b) && aName == bName
                && ObjectIdentifier(aArgument) == ObjectIdentifier(bArgument)
        default:
            return false
        }
    }
}
