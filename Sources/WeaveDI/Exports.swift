// `import WeaveDI` is the one import users write: it brings in every layer.
@_exported import WeaveDICore
@_exported import WeaveDIDiagnostics
@_exported import WeaveDIModules
