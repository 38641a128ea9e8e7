import Foundation
import WeaveDICore

/// Everything ``Container/validate()`` found, all at once.
///
/// Validation resolves every registration once in a sandbox (see ``Container/validate()``), so
/// the report covers the whole graph, not just the parts the app has used so far.
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// How many registrations were resolved (this container's and its parents').
    public let validatedCount: Int
    /// Dependencies that are not registered: asked for by a factory, or declared by a module.
    public let missingDependencies: [MissingDependency]
    /// Cycles, each with its whole path.
    public let cycles: [Cycle]
    /// Singletons holding transient, weak or custom-scoped instances.
    public let captiveDependencies: [CaptiveDependency]
    /// Factories that threw.
    public let failingFactories: [FactoryFailure]
    /// Failures of any other kind met while resolving (a scope used after it ended).
    public let otherFailures: [DIError]
    /// The whole dependency graph, as resolving every registration revealed it.
    public let graph: DependencyGraph
    /// Registrations with an async factory that this validation did not build: ``Container/validate()``
    /// cannot await, so it leaves them to ``Container/validateAsync()``, which builds them too.
    /// Empty in a report of `validateAsync()`. Not counted as problems.
    public internal(set) var unbuiltAsyncRegistrations: [String] = []
    /// Registrations whose factory takes arguments (``Container/register(_:scope:file:line:factory:)-(_,_,_,_,(A,B)->T)``):
    /// no validation can build them without arguments, so they are listed here, not built. What
    /// they resolve is checked when something that is built resolves them. Not counted as problems.
    public internal(set) var unbuiltArgumentRegistrations: [String] = []
    /// Registrations that do not apply while this validation ran, so were not built: context
    /// registrations (`register(_:in:…)`) whose context is not active (`"APIClient in context
    /// preview"`), and a plain registration that an active context's replaces (`"APIClient
    /// (plain)"`). Validation builds what applies for the validating task; validate inside
    /// `Container.withContexts` to check another context. Not counted as problems.
    public internal(set) var inactiveContextRegistrations: [String] = []
    /// Optional parameters of autowired initializers (`logger: Logger?`) whose type is not
    /// registered, so the initializer gets `nil`: `"MyApp.UserService: MyApp.Logger?"`. Not counted
    /// as problems (that is what an optional parameter is for); listed so a forgotten
    /// registration still shows.
    public internal(set) var absentOptionalDependencies: [String] = []
    /// Factories that resolved from a container other than the validated one: a parent they
    /// captured, or `Container.shared` (through `UnifiedDI`, a property wrapper or a `Factory` key)
    /// while another container is validated. What they resolved there was checked there, as the app
    /// resolves it; these are not counted as problems, but say where the graph leaves the
    /// validated container.
    public internal(set) var outsideResolutions: [OutsideResolution] = []

    /// The missing dependencies that modules declared in `dependencies:`.
    public var missingDeclaredDependencies: [MissingDependency] { missingDependencies.filter(\.isDeclared) }

    /// Whether nothing at all was found.
    public var isValid: Bool { issueCount == 0 }

    /// The number of problems found, of every kind.
    public var issueCount: Int {
        missingDependencies.count + cycles.count + captiveDependencies.count + failingFactories.count
            + otherFailures.count
    }

    /// A summary line, then one line per problem, grouped by kind.
    public var description: String {
        var lines = [
            isValid
                ? "Dependency graph is valid: \(validatedCount) registrations resolved."
                : "Dependency graph has \(issueCount) problem(s) in \(validatedCount) registrations:"
        ]
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines.append("\(title):")
            lines.append(contentsOf: items.map { "  - \($0)" })
        }
        section("Missing dependencies", missingDependencies.map(\.description))
        section("Cycles", cycles.map(\.description))
        section("Captive dependencies", captiveDependencies.map(\.description))
        section("Factories that threw", failingFactories.map(\.description))
        section("Other failures", otherFailures.map(\.description))
        section("Not built (async factories; use validateAsync())", unbuiltAsyncRegistrations)
        section("Not built (factories taking arguments)", unbuiltArgumentRegistrations)
        section("Not built (contexts not active)", inactiveContextRegistrations)
        section("Optional parameters not registered (nil is passed)", absentOptionalDependencies)
        section("Resolved outside the validated container", outsideResolutions.map(\.description))
        return lines.joined(separator: "\n")
    }
}

extension ValidationReport {
    /// A dependency that is not registered, and who needs it.
    public struct MissingDependency: Sendable, CustomStringConvertible {
        /// The registration that needs it (type and name), or `nil` when it was asked for directly.
        public let dependent: String?
        /// Where the dependent was registered (`#fileID:#line` of its `register` call or module).
        public let dependentSite: RegistrationSite?
        /// The missing type (and name), e.g. `MyApp.Logger`.
        public let missing: String
        /// The missing type.
        public let missingType: Any.Type
        /// Whether the dependent's factory asked for it while being resolved.
        public let wasRequested: Bool
        /// Whether the dependent declared it: in its module's `dependencies:`, or as a parameter of
        /// its autowired initializer (known without building it).
        public let isDeclared: Bool
        /// The container it was asked of and is not registered in, when that is not the
        /// validated container (`"Container.shared (the process-wide container)"`, `"its parent"`).
        public internal(set) var askedOf: String? = nil
        /// What is registered that looks like the missing type: its registrations under other
        /// names first, then types whose names resemble it (as
        /// ``DIError/dependencyNotFound(_:name:similar:)`` suggests them).
        public internal(set) var similar: [String] = []
        /// Whether the dependent is autowired and the missing type is a parameter of its initializer.
        var isAutowiredParameter = false

        /// "`MyApp.UserService` (registered at App/Setup.swift:12) needs `MyApp.Logger`, which is not
        /// registered", with how that was found.
        public var description: String {
            var found: [String] = []
            if wasRequested { found.append("asked for while resolving") }
            if isDeclared {
                found.append(
                    isAutowiredParameter
                        ? "a parameter of its autowired initializer" : "declared in its module's dependencies")
            }
            let lookAlikes = similar.isEmpty ? "" : " Registered look-alikes: \(similar.joined(separator: ", "))."
            guard let dependent else {
                return "\(missing) is not registered. Register it (or a module for it)."
            }
            let site = dependentSite.map { " (registered at \($0))" } ?? ""
            if let askedOf {
                return
                    "\(dependent)\(site) needs \(missing), which is not registered in \(askedOf), where its factory asks for it (\(found.joined(separator: ", "))). Register it there, or resolve it from the container that has it.\(lookAlikes)"
            }
            return
                "\(dependent)\(site) needs \(missing), which is not registered (\(found.joined(separator: ", "))). Register it, or remove the dependency.\(lookAlikes)"
        }
    }

    /// A factory that resolved from a container other than the validated one.
    public struct OutsideResolution: Sendable, Hashable, CustomStringConvertible {
        /// The registration whose factory did (type and name), if a factory did.
        public let dependent: String?
        /// The container it resolved from: `"its parent"`, `"Container.shared (the process-wide
        /// container)"`, `"Container.shared (the container bound with withShared)"`.
        public let container: String

        /// A factory of `dependent` that resolved from `container`.
        public init(dependent: String?, container: String) {
            self.dependent = dependent
            self.container = container
        }

        /// Who resolved from where.
        public var description: String {
            "\(dependent.map { "The factory of \($0)" } ?? "A resolution") resolves from \(container), not from the validated container."
        }
    }

    /// Registrations that need each other, so none of them can be built.
    public struct Cycle: Sendable, Hashable, CustomStringConvertible {
        /// The whole cycle, first and last equal: `["A", "B", "A"]`. It starts at the alphabetically
        /// first member, so the same cycle found from different places reads the same.
        public let path: [String]
        /// Where each member of the cycle (in ``path`` order, without the repeated last one) was
        /// registered, when it is registered.
        public let sites: [RegistrationSite?]

        /// `A -> B -> A`, with where each member was registered.
        public var description: String {
            let members = zip(path, sites).map { name, site in site.map { "\(name) at \($0)" } ?? name }
            return
                "Circular dependency: \(path.joined(separator: " -> ")) (\(members.joined(separator: "; "))). Break it by letting one side get the other on first use, after both are built, instead of in its factory (`@Inject` for a synchronous registration, `resolveAsync` in a method for an async one)."
        }

        /// The cycle of `path` (as a cycle error gives it, first and last equal), starting at its
        /// smallest member.
        package init(path: [String], siteOf: (String) -> RegistrationSite?) {
            var members = Array(path.dropLast())
            if path.first != path.last || members.isEmpty { members = path }
            if let start = members.indices.min(by: { members[$0] < members[$1] }) {
                members = Array(members[start...] + members[..<start])
            }
            self.path = members + (members.first.map { [$0] } ?? [])
            self.sites = members.map(siteOf)
        }
    }

    /// A singleton whose factory resolved something meant to live shorter: the singleton keeps that
    /// instance for the life of the container, so it outlives its scope (a request-scoped object
    /// kept after the request ends, a transient shared by everyone through the singleton).
    public struct CaptiveDependency: Sendable, Hashable, CustomStringConvertible {
        /// The singleton (type and name).
        public let singleton: String
        /// Where the singleton was registered.
        public let singletonSite: RegistrationSite
        /// The shorter-lived dependency (type and name).
        public let dependency: String
        /// The dependency's lifetime: `transient`, `weak` or a custom scope such as `scope(request)`.
        public let dependencyScope: Scope
        /// Where the dependency was registered.
        public let dependencySite: RegistrationSite

        /// Who holds what, with both registration sites and what to do.
        public var description: String {
            "Captive dependency: singleton \(singleton) (registered at \(singletonSite)) holds \(dependency), which is \(dependencyScope) (registered at \(dependencySite)). Inject a factory or provider instead, or make the holder shorter-lived."
        }
    }

    /// A factory that threw while validation resolved its registration.
    public struct FactoryFailure: Sendable, CustomStringConvertible {
        /// The registration whose factory threw (type and name).
        public let typeName: String
        /// Where it was registered.
        public let site: RegistrationSite?
        /// The registration being built when it was asked for, if it was a dependency.
        public let requiredBy: String?
        /// What the factory threw.
        public let error: any Error

        /// The type, its site, and the error.
        public var description: String {
            let at = site.map { " (registered at \($0))" } ?? ""
            let by = requiredBy.map { ", needed by \($0)" } ?? ""
            return "The factory of \(typeName)\(at) threw\(by): \(error)"
        }
    }
}

/// Thrown by ``Container/validateOrThrow(allowingCaptiveDependencies:)``: the graph has problems,
/// all of them in ``report``.
public struct ValidationError: Error, CustomStringConvertible, LocalizedError {
    /// Everything validation found.
    public let report: ValidationReport

    /// The report, one problem per line.
    public var description: String { report.description }

    /// The same text as `description`, for `localizedDescription`.
    public var errorDescription: String? { description }
}
