import Foundation

/// A TCP connection to 127.0.0.1:`port`; with `receiveTimeout`, reads give up after that
/// many seconds. For the live tests' and the benchmark's HTTP clients.
public func loopbackConnection(_ port: UInt16, receiveTimeout: Int? = nil) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackError(description: "socket failed") }
    if let receiveTimeout {
        var tv = timeval(tv_sec: receiveTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        close(fd)
        throw LoopbackError(description: "cannot connect to port \(port)")
    }
    return fd
}

/// Writes all of `bytes` to the socket `fd`, however many sends that takes.
public func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
    var sent = 0
    while sent < bytes.count {
        let count = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + sent, bytes.count - sent, 0) }
        guard count > 0 else { throw LoopbackError(description: "send failed") }
        sent += count
    }
}

/// A TCP socket bound to a free port of 127.0.0.1 (the kernel's choice), listening with
/// `backlog` when given: the socket and its port.
public func loopbackSocket(listening backlog: Int32? = nil) throws -> (socket: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, length) == 0 && (backlog.map { listen(fd, $0) == 0 } ?? true)
                && getsockname(fd, $0, &length) == 0
        }
    }
    guard bound else {
        close(fd)
        throw LoopbackError(description: "no free loopback port")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// A loopback port free now (the kernel's choice for a socket bound to port 0).
public func freeLoopbackPort() throws -> UInt16 {
    let (fd, port) = try loopbackSocket()
    close(fd)
    return port
}

public struct LoopbackError: Error, CustomStringConvertible {
    public let description: String
}
