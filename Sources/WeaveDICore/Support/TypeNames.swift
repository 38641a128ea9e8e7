/// Type names as WeaveDI's messages spell them.
package enum TypeNames {
    /// The fully qualified name (`MyApp.UserService`), without the "(unknown context at $…)"
    /// segments the runtime prints for types declared inside a function.
    package static func qualified(_ type: Any.Type) -> String {
        let reflected = String(reflecting: type)
        guard reflected.contains("(unknown context at ") else { return reflected }
        var result = ""
        var rest = Substring(reflected)
        while let start = rest.range(of: "(unknown context at ") {
            result += rest[..<start.lowerBound]
            guard let close = rest[start.upperBound...].firstIndex(of: ")") else { break }
            rest = rest[rest.index(after: close)...]
            if rest.first == "." { rest = rest.dropFirst() }
        }
        return result + rest
    }

    /// Whether `type` is a protocol (an existential such as `any UserService`): only a
    /// registration of that protocol type serves it, not one of a type conforming to it.
    ///
    /// Reads the metadata kind, whose values are part of Swift's stable ABI (3 | non-heap |
    /// runtime-private: an existential type).
    static func isProtocol(_ type: Any.Type) -> Bool {
        unsafeBitCast(type, to: UnsafeRawPointer.self).load(as: UInt.self) == 0x303
    }
}
