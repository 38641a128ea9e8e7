import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the numbers were measured on.
struct MachineInfo: Codable, Sendable {
    var cpu: String
    var cores: Int
    /// The 1-minute load average when the run started: other work on the machine skews numbers.
    var loadAverage: Double
    var os: String

    static func current() -> MachineInfo {
        var load = [0.0, 0.0, 0.0]
        _ = getloadavg(&load, 3)
        var cpu = "unknown CPU"
        if let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let name = line.split(separator: ":", maxSplits: 1).last
        {
            cpu = name.trimmingCharacters(in: .whitespaces)
        }
        return MachineInfo(
            cpu: cpu, cores: ProcessInfo.processInfo.activeProcessorCount, loadAverage: load[0],
            os: ProcessInfo.processInfo.operatingSystemVersionString)
    }

    var summary: String {
        "\(cpu), \(cores) cores, load \(String(format: "%.2f", loadAverage)) at start"
    }
}
