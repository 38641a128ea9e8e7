// Keep resolution off the hot path, and stop recording the dependency graph in production.
import WeaveDI

// snippet.hide
final class PriceFormatter: Sendable { func format(_ cents: Int) -> String { "\(cents / 100).\(cents % 100)" } }
let prices = [1_200, 2_450, 8_900]
// snippet.show

// snippet.optimize
// Production: stop recording dependency-graph edges (for every container). Statistics, cycle
// detection, single creation of singletons and thread safety stay on.
UnifiedRegistry.shared.enableOptimization()
// snippet.end

// snippet.hotPath
UnifiedDI.register(PriceFormatter.self, scope: .singleton) { PriceFormatter() }

// Resolve once, outside the loop: a singleton is built once, but each resolution still probes the
// registry and takes the type's slot lock.
let formatter = try UnifiedDI.resolveOrThrow(PriceFormatter.self)
let labels = prices.map(formatter.format)
// snippet.end

// snippet.inject
final class CartViewModel {
    // After the first read, reading the property is one atomic load and a nil check: no lock.
    @Inject var formatter: PriceFormatter?
}
// snippet.end

// snippet.hide
print(labels, CartViewModel().formatter != nil)
