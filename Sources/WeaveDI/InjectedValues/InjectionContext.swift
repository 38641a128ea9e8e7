import Foundation
import WeaveDICore

/// Which of an ``InjectedKey``'s values the process uses by default.
public enum InjectionContext: Sendable, Hashable {
    /// An app or tool: ``InjectedKey/liveValue``.
    case live
    /// A test process (XCTest or Swift Testing): ``InjectedKey/testValue``.
    case test
    /// An Xcode preview: ``InjectedKey/previewValue``.
    case preview

    /// The context of this process, detected once at first use.
    public static let current: InjectionContext = detect(
        environment: ProcessInfo.processInfo.environment,
        processName: ProcessInfo.processInfo.processName,
        arguments: ProcessInfo.processInfo.arguments,
        isTypeLoaded: { _typeByName($0) != nil })

    /// Mangled names of types only a test runner loads: `XCTest.XCTestCase` and `Testing.Test`.
    static let testRunnerTypes = ["6XCTest0A4CaseC", "7Testing4TestV"]

    /// Decides the context from what the process shows.
    ///
    /// Xcode previews set `XCODE_RUNNING_FOR_PREVIEWS=1`. Test runs are recognised by any of:
    /// Xcode's XCTest environment variables; the runner's process (`*.xctest` bundles on Linux and
    /// Windows, `xctest` and `swiftpm-testing-helper` on macOS); SwiftPM's `--testing-library`
    /// argument; or XCTest's or Swift Testing's types being loaded. Several signals keep the
    /// answer right when one of them is missing on some platform or runner.
    static func detect(
        environment: [String: String],
        processName: String,
        arguments: [String],
        isTypeLoaded: (String) -> Bool
    ) -> InjectionContext {
        if environment["XCODE_RUNNING_FOR_PREVIEWS"] == "1" { return .preview }
        let testVariables = ["XCTestConfigurationFilePath", "XCTestBundlePath", "XCTestSessionIdentifier"]
        if testVariables.contains(where: { environment[$0] != nil }) { return .test }
        let name = processName.lowercased()
        if name.hasSuffix(".xctest") || name == "xctest" || name == "swiftpm-testing-helper" { return .test }
        if arguments.contains("--testing-library") { return .test }
        if testRunnerTypes.contains(where: isTypeLoaded) { return .test }
        return .live
    }
}
