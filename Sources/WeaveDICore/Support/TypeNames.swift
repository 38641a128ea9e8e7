/// Type names as WeaveDI's messages spell them.
package enum TypeNames {
    /// The fully qualified name (`MyApp.UserService`), without the "(unknown context at $…)"
    /// segments the runtime prints for types declared inside a function.
    package static func qualified(_ type: Any.Type) -> String {
        cached(type, in: \.qualified) { sourceSpelling(withoutUnknownContexts(String(reflecting: type))) }
    }

    /// The name without its module (`UserService`), as `String(describing:)` gives it, with
    /// generic existentials spelled as in source (`any Repository<User>`).
    package static func short(_ type: Any.Type) -> String {
        cached(type, in: \.short) { sourceSpelling(String(describing: type)) }
    }

    /// Names already spelled, per type: the runtime's demangling costs microseconds, and the same
    /// types are named again and again (every miss an error hook hears names its type). Types
    /// are never unloaded, so the entries never go stale.
    private struct Cache {
        var qualified: [ObjectIdentifier: String] = [:]
        var short: [ObjectIdentifier: String] = [:]
    }
    private static let cache = Locked(Cache())

    private static func cached(
        _ type: Any.Type, in table: WritableKeyPath<Cache, [ObjectIdentifier: String]>, _ spell: () -> String
    ) -> String {
        let id = ObjectIdentifier(type)
        if let known = cache.withLock({ $0[keyPath: table][id] }) { return known }
        // Spelled outside the lock; two threads may both spell it, with the same result.
        let name = spell()
        cache.withLock { $0[keyPath: table][id] = name }
        return name
    }

    /// `short(type)` as the expression `….self` needs it: in parentheses when the spelling has a
    /// space outside brackets (`(any Repository<User>).self`, `((Int) -> Void).self`), without
    /// which `any Repository<User>.self` and `(Int) -> ().self` do not compile.
    package static func metatypeExpression(_ type: Any.Type) -> String {
        "\(parenthesized(short(type))).self"
    }

    /// The optional of `type` as a declaration writes it (`(any Repository<User>)?`, `Gateway?`).
    package static func optionalSpelling(_ type: Any.Type) -> String {
        "\(parenthesized(short(type)))?"
    }

    /// `name` in parentheses when it has a space outside brackets, so that a suffix (`.self`,
    /// `?`) applies to the whole type.
    private static func parenthesized(_ name: String) -> String {
        var depth = 0
        var previous: Character = " "
        for character in name {
            if character == " " && depth == 0 { return "(\(name))" }
            depth += bracketDelta(character, after: previous)
            previous = character
        }
        return name
    }

    /// Whether `spelling` (from ``short(_:)`` or ``qualified(_:)``) is one source can write: not a
    /// generic existential of several primary associated types (see ``sourceSpelling(_:)``).
    package static func isSourceSpelling(_ spelling: String) -> Bool { !spelling.contains(" == ") }

    /// Rewrites the runtime's spelling of a constrained existential into the source's.
    ///
    /// The runtime prints `any Repository<User>` as `any Repository<Self.Repository.Entity == User>`
    /// (qualified: `Self.App.Repository.Entity == App.User`). With one primary associated type the
    /// `Self.….Entity == ` prefix is dropped, giving the source spelling. With several, the runtime
    /// orders them by name, not as the protocol lists them (which it does not record), so
    /// dropping the names could name another type: each keeps its name (`any Store<Key == String,
    /// Value == Int>`) without the `Self.Store.` prefix.
    package static func sourceSpelling(_ name: String) -> String {
        guard name.contains("Self.") else { return name }
        var result = ""
        var rest = Substring(name)
        while let start = rest.range(of: "<Self.") {
            result += rest[..<start.lowerBound]
            result += "<"
            rest = rest[start.lowerBound...].dropFirst()
            // The constraints of this existential: up to its matching `>`.
            var depth = 0
            var end = rest.endIndex
            var previous: Character = " "
            for index in rest.indices {
                let delta = bracketDelta(rest[index], after: previous)
                if delta < 0 && depth == 0 {
                    end = index
                    break
                }
                depth += delta
                previous = rest[index]
            }
            let constraints = splitTopLevel(rest[..<end]).map { constraint -> (name: Substring, value: String) in
                guard constraint.hasPrefix("Self."), let equals = constraint.range(of: " == ") else {
                    return ("", sourceSpelling(String(constraint)))
                }
                let path = constraint[..<equals.lowerBound]
                let associated = path.split(separator: ".").last ?? path
                return (associated, sourceSpelling(String(constraint[equals.upperBound...])))
            }
            if constraints.count == 1 {
                result += constraints[0].value
            } else {
                result += constraints.map { $0.name.isEmpty ? $0.value : "\($0.name) == \($0.value)" }
                    .joined(separator: ", ")
            }
            rest = rest[end...]
        }
        return result + rest
    }

    /// `text` split at the commas outside brackets.
    private static func splitTopLevel(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        var previous: Character = " "
        for index in text.indices {
            if text[index] == "," && depth == 0 {
                parts.append(text[start..<index])
                start = text.index(after: index)
                while start < text.endIndex, text[start] == " " { start = text.index(after: start) }
            }
            depth += bracketDelta(text[index], after: previous)
            previous = text[index]
        }
        parts.append(text[start...])
        return parts
    }

    /// +1 for an opening bracket, -1 for a closing one; the `>` of a function arrow (`->`) is none.
    private static func bracketDelta(_ character: Character, after previous: Character) -> Int {
        switch character {
        case "<", "(", "[": return 1
        case ")", "]": return -1
        case ">": return previous == "-" ? 0 : -1
        default: return 0
        }
    }

    /// `reflected` without the "(unknown context at $…)" segments.
    private static func withoutUnknownContexts(_ reflected: String) -> String {
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
