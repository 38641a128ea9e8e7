/// Fibonacci hashing: multiplying by 2^w / φ spreads neighbouring keys (type metadata addresses
/// are close to each other) over the top bits, which a table indexes by.
///
/// The constant has the platform word's width: `UInt` is 32 bits on watchOS (arm64_32, armv7k),
/// where a 64-bit literal in `UInt` arithmetic does not compile.
/// (Computed, not a stored global: the optimizer folds it to a constant, where a global would
/// cost a lazy-initialization check on every resolution.)
@inlinable @inline(__always)
package var fibonacciMultiplier: UInt {
    MemoryLayout<UInt>.size == 8
        ? UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        : UInt(truncatingIfNeeded: 0x9E37_79B9 as UInt64)
}

/// A second odd multiplier (from xxHash), for mixing a second key into the same hash.
@inlinable @inline(__always)
var secondaryMultiplier: UInt {
    MemoryLayout<UInt>.size == 8
        ? UInt(truncatingIfNeeded: 0xC2B2_AE3D_27D4_EB4F as UInt64)
        : UInt(truncatingIfNeeded: 0x85EB_CA77 as UInt64)
}
