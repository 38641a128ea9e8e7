import DI
import Foundation
import WeaveDI

// Checks, in a program that imports both the module `DI` and WeaveDI, that the facade's `DI`
// and `UnifiedDI` spellings reach the same registrations; exits non-zero otherwise.
func check(_ condition: Bool, _ message: String) {
    guard condition else { fatalError("module-named-DI fixture: \(message)") }
}

AppDI.configure()

// Unqualified `DI` is the facade here too.
let greeter = DI.resolve(Greeter.self)
check(greeter?.greet("Ada") == "Hello, Ada", "DI.resolve found no Greeter")
check(UnifiedDI.resolve(Clock.self)?.label == "unified", "UnifiedDI.resolve found no Clock")
check(DI.resolve(Clock.self)?.label == "unified", "DI.resolve does not see UnifiedDI's registration")
check(WeaveDI.DI.resolve("formal", Greeter.self) != nil, "WeaveDI.DI.resolve found no named Greeter")
check(UnifiedDI.greeter.greet("Grace") == "Hello, Grace", "an extension of DI is not one of UnifiedDI")
// Same singleton through either name.
check(
    (DI.resolve(Greeter.self) as? AnyObject) === (UnifiedDI.resolve(Greeter.self) as? AnyObject),
    "not the same storage")
// The module's own declarations, qualified by module where a name is needed.
let appDI: DI::AppDI.Type = DI::AppDI.self
_ = appDI

// An app's start-up on the main thread (8 MB of stack): a 1 000-deep chain of named
// registrations resolves there, the stack guard measuring the main thread's real stack.
check(Thread.isMainThread, "top-level code is not on the main thread")
final class Link: Sendable {
    let next: Link?
    init(_ next: Link?) { self.next = next }
}
let depth = 1000
for level in 0..<depth {
    DI.register("link\(level)", Link.self) {
        Link(level + 1 < depth ? DI.resolve("link\(level + 1)", Link.self) : nil)
    }
}
var length = 0
var link = DI.resolve("link0", Link.self)
while let current = link {
    length += 1
    link = current.next
}
check(length == depth, "the chain has \(length) links")
print("module named DI: DI and UnifiedDI are one facade; a \(depth)-deep chain resolved on the main thread")
