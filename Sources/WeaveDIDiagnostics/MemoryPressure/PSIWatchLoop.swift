import WeaveDICore

#if os(Linux) || os(Android)
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Android)
        import Android
    #endif

    /// The body of the thread that waits for a Linux PSI trigger (see `MemoryPressureMonitor`).
    enum PSIWatchLoop {
        /// Blocks in `poll()` on the trigger `psi` and the pipe end `wake` until something is written
        /// to the pipe (stop) or the trigger goes away; calls `onPressure` each time the trigger fires.
        /// Closes both descriptors before returning.
        static func run(psi: Int32, wake: Int32, onPressure: () -> Void) {
            defer {
                close(psi)
                close(wake)
            }
            var fds = [
                pollfd(fd: psi, events: Int16(POLLPRI), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            while true {
                fds[0].revents = 0
                fds[1].revents = 0
                let ready = poll(&fds, nfds_t(fds.count), -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if fds[1].revents != 0 { return }
                // POLLERR: the trigger was destroyed (its cgroup went away); nothing more will come.
                if fds[0].revents & Int16(POLLERR | POLLNVAL) != 0 { return }
                if fds[0].revents & Int16(POLLPRI) != 0 { onPressure() }
            }
        }
    }
#endif
