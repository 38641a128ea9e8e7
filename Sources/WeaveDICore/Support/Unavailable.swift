/// The body of an unavailable declaration (a WeaveDI 3.x shape that fails to compile with a
/// message): never called, since no code that calls it compiles.
package func unavailableShape() -> Never {
    fatalError("This WeaveDI 3.x shape is unavailable; see its message.")
}
