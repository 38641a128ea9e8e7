import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

/// Diagnostics tests that change process-wide state (log level, logger, slow threshold, hooks,
/// memory pressure monitor) run one at a time inside this suite; the nested suites live in the
/// feature files (`DiagnosticsLoggingTests.swift`, `DiagnosticsHookTests.swift`,
/// `DiagnosticsValidationTests.swift`). Hooks hear every container in the process, so tests
/// also filter what they hear by their own probe types.
@Suite(.serialized, .capturesLog)
struct DiagnosticsGlobalState {}
