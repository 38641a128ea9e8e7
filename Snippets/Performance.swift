// Keep resolution off the hot path, and switch on the fastest read path in production.
import WeaveDI

// snippet.hide
final class PriceFormatter: Sendable { func format(_ cents: Int) -> String { "\(cents / 100).\(cents % 100)" } }
let prices = [1_200, 2_450, 8_900]
// snippet.show

// snippet.optimize
// Production: stop recording statistics and graph edges on every resolution. Cycle detection,
// single creation of singletons and thread safety stay on.
UnifiedRegistry.shared.enableOptimization()
// snippet.end

// snippet.hotPath
UnifiedDI.register(PriceFormatter.self, scope: .singleton) { PriceFormatter() }

// Resolve once, outside the loop: a singleton is built once, and reading it again is a lock-free lookup.
let formatter = try UnifiedDI.resolveOrThrow(PriceFormatter.self)
let labels = prices.map(formatter.format)
// snippet.end

// snippet.inject
final class CartViewModel {
    // After the first read, reading the property is a stored-property read and a nil check.
    @Inject var formatter: PriceFormatter?
}
// snippet.end

// snippet.hide
print(labels, CartViewModel().formatter != nil)
