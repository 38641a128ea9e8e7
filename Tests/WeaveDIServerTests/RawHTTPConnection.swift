#if Hummingbird
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// A bare TCP connection to a loopback port: sends bytes and closes, to play a client that goes
    /// away in the middle of a request.
    struct RawHTTPConnection {
        private let fd: Int32

        init?(port: Int) {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { return nil }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                _ = closeSocket(fd)
                return nil
            }
            self.fd = fd
        }

        func send(_ text: String) {
            var bytes = Array(text.utf8)
            _ = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress, $0.count) }
        }

        func close() { _ = closeSocket(fd) }
    }

    private func closeSocket(_ fd: Int32) -> Int32 { close(fd) }
#endif
