// This target's code is generated at build time by the GenerateFillers plugin (see
// Sources/FillerGenerator): 10 000 concrete types, and the registration code an app would write for
// them with WeaveDI and with Swinject. It is compiled without optimization (see Package.swift).
