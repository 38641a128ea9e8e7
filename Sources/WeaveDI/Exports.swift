// `import WeaveDI` is the one import users write: it brings in every layer.
@_exported import WeaveDICore
@_exported import WeaveDIDiagnostics
@_exported import WeaveDIModules

// With the `Dependencies` package trait, `import WeaveDI` also brings in pointfreeco's
// Dependencies (`DependencyKey`, `@Dependency`, `withDependencies`), as WeaveDI 3.x did, so an
// app's files that pair the two compile with the one import.
#if Dependencies
    @_exported import Dependencies
#endif
