import Foundation
import WeaveDICore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Android)
    import Android
#endif

/// Watches the system for memory pressure while `onMemoryPressure` hooks are installed.
///
/// Per platform:
/// - Apple platforms: a `DispatchSource` memory-pressure source (`.warning` and `.critical`
///   events), the same signal `didReceiveMemoryWarning` comes from.
/// - Linux: a PSI trigger (pressure stall information, kernel 4.20+), first on the process's
///   cgroup v2 `memory.pressure`, then on the system-wide `/proc/pressure/memory`: it fires when
///   tasks stalled on memory for at least 200 ms within a 2 s window (2 s is the window
///   unprivileged processes may use). A thread blocked in `poll()` waits for it.
/// - Elsewhere, or where PSI is missing (kernels without `CONFIG_PSI`, `psi=0`, containers that
///   hide `/proc/pressure`): there is no source, and only `UnifiedDI.reportMemoryPressure()` calls
///   reach the hooks. ``status`` says which case applies.
///
/// It starts when the first hook is installed and stops when the last one is removed, so an
/// app that never asks pays nothing.
final class MemoryPressureMonitor: Sendable {
    /// What the monitor is doing.
    enum Status: Sendable, Equatable {
        /// No hook asks for it.
        case stopped
        /// Watching the named source.
        case watching(String)
        /// Asked to watch, but the platform offers no source (the reason says why).
        case unavailable(String)
    }

    private struct State {
        var status: Status = .stopped
        var stopWatching: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    var status: Status { state.withLock { $0.status } }

    /// Starts watching, if not already; `onPressure` gets a description of the source.
    /// Returns the status it ends in.
    @discardableResult
    func start(onPressure: @escaping @Sendable (String) -> Void) -> Status {
        state.withLock { s in
            if case .watching = s.status { return s.status }
            switch Self.makeWatcher(onPressure: onPressure) {
            case .success(let watcher):
                s.status = .watching(watcher.source)
                s.stopWatching = watcher.stop
            case .failure(let reason):
                s.status = .unavailable(reason.message)
                s.stopWatching = nil
            }
            return s.status
        }
    }

    /// Stops watching and releases the source.
    func stop() {
        let stop = state.withLock { s -> (@Sendable () -> Void)? in
            defer {
                s.status = .stopped
                s.stopWatching = nil
            }
            return s.stopWatching
        }
        stop?()
    }

    struct Watcher {
        let source: String
        let stop: @Sendable () -> Void
    }

    struct Unavailable: Error {
        let message: String
    }

    #if canImport(Darwin)
        private static func makeWatcher(onPressure: @escaping @Sendable (String) -> Void) -> Result<
            Watcher, Unavailable
        > {
            let source = DispatchSource.makeMemoryPressureSource(
                eventMask: [.warning, .critical], queue: DispatchQueue.global(qos: .utility))
            let name = "DispatchSource memory-pressure source"
            source.setEventHandler { onPressure(name) }
            source.resume()
            let box = UncheckedBox(source)
            return .success(Watcher(source: name, stop: { box.value.cancel() }))
        }
    #elseif os(Linux) || os(Android)
        /// 200 ms of memory stall within a 2 s window; the trailing NUL is what the kernel expects.
        private static let trigger = "some 200000 2000000"

        private static func makeWatcher(onPressure: @escaping @Sendable (String) -> Void) -> Result<
            Watcher, Unavailable
        > {
            var failures: [String] = []
            for path in candidatePaths() {
                let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
                if fd < 0 {
                    failures.append("\(path): \(String(cString: strerror(errno)))")
                    continue
                }
                let written = trigger.withCString { write(fd, $0, strlen($0) + 1) }
                if written < 0 {
                    failures.append("\(path): \(String(cString: strerror(errno)))")
                    close(fd)
                    continue
                }
                var wake: [Int32] = [-1, -1]
                guard pipe(&wake) == 0 else {
                    close(fd)
                    return .failure(
                        Unavailable(message: "could not create a pipe: \(String(cString: strerror(errno)))"))
                }
                let name = "PSI trigger on \(path)"
                let wakeRead = wake[0]
                let thread = Thread {
                    PSIWatchLoop.run(psi: fd, wake: wakeRead, onPressure: { onPressure(name) })
                }
                thread.name = "WeaveDI memory pressure"
                thread.start()
                let wakeWrite = wake[1]
                return .success(
                    Watcher(
                        source: name,
                        stop: {
                            var byte: UInt8 = 1
                            _ = write(wakeWrite, &byte, 1)
                            close(wakeWrite)
                        }))
            }
            return .failure(
                Unavailable(message: failures.isEmpty ? "no PSI file found" : failures.joined(separator: "; ")))
        }

        /// The cgroup v2 `memory.pressure` of this process (pure and hybrid hierarchies), then the
        /// system-wide file.
        private static func candidatePaths() -> [String] {
            var paths: [String] = []
            if let cgroups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) {
                for line in cgroups.split(separator: "\n") where line.hasPrefix("0::") {
                    let group = String(line.dropFirst(3))
                    if group != "/" {
                        paths.append("/sys/fs/cgroup\(group)/memory.pressure")
                        paths.append("/sys/fs/cgroup/unified\(group)/memory.pressure")
                    }
                }
            }
            paths.append("/proc/pressure/memory")
            return paths.filter { FileManager.default.fileExists(atPath: $0) }
        }
    #else
        private static func makeWatcher(onPressure: @escaping @Sendable (String) -> Void) -> Result<
            Watcher, Unavailable
        > {
            .failure(Unavailable(message: "this platform has no memory-pressure notification WeaveDI can use"))
        }
    #endif
}
