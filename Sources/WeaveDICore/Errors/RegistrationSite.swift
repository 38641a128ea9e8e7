/// Where something was declared in the app's source, as `#fileID` and `#line` give it.
public struct RegistrationSite: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The `#fileID` of the declaration (`Module/File.swift`).
    public let fileID: String
    /// The line of the declaration.
    public let line: Int

    /// A location; `fileID` is `#fileID` (or any path) and `line` is `#line`.
    package init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// `fileID:line`, as compilers print locations.
    public var description: String { "\(fileID):\(line)" }
}
