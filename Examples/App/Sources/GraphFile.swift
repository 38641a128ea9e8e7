import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// The file `--graph-dot PATH` writes, opened when the app starts, so that a path it cannot open
/// for writing stops the app before it does any work rather than after the whole run.
///
/// Opening creates the file if it is missing and leaves an existing one as it is until the graph
/// replaces its contents; a file it created is removed again if the run ends without writing it.
final class GraphFile: @unchecked Sendable {
    /// Why the graph cannot be written to `path`: the system's reason, e.g. "No such file or
    /// directory" or "Is a directory".
    struct Unwritable: Error, CustomStringConvertible {
        let path: String
        let reason: String

        var description: String { "cannot write the graph to \(path): \(reason)" }
    }

    let path: String
    private let descriptor: Int32
    /// Whether opening the file created it.
    private let created: Bool
    private let lock = NSLock()
    private var written = false // guarded by `lock`

    init(path: String) throws(Unwritable) {
        var created = true
        var descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EEXIST {
            created = false
            descriptor = open(path, O_WRONLY | O_CLOEXEC)
        }
        guard descriptor >= 0 else {
            throw Unwritable(path: path, reason: String(cString: strerror(errno)))
        }
        self.path = path
        self.created = created
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Replaces the file's contents with `text`.
    func write(_ text: String) throws(Unwritable) {
        lock.lock()
        defer { lock.unlock() }
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else { throw failure() }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure()
            }
            bytes = bytes.dropFirst(count)
        }
        written = true
    }

    /// The failure `errno` describes.
    private func failure() -> Unwritable {
        Unwritable(path: path, reason: String(cString: strerror(errno)))
    }

    /// Removes the file if opening it created it and nothing was written: for a run that failed.
    func discard() {
        lock.lock()
        defer { lock.unlock() }
        if created && !written { unlink(path) }
    }
}
