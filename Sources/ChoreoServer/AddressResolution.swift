import Foundation

extension MicroHTTPDServer {
    /// The address to bind: an IPv4 or IPv6 literal, or a host name such as `localhost`,
    /// resolved with getaddrinfo (its first IPv4 address, else its first IPv6 one).
    static func resolve(_ host: String, port: UInt16) -> sockaddr_storage? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var chosen: UnsafeMutablePointer<addrinfo>?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if entry.pointee.ai_family == AF_INET {
                chosen = entry
                break
            }
            if entry.pointee.ai_family == AF_INET6 && chosen == nil { chosen = entry }
            cursor = entry.pointee.ai_next
        }
        guard let chosen, let address = chosen.pointee.ai_addr else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(chosen.pointee.ai_addrlen)))
        }
        withUnsafeMutablePointer(to: &storage) { pointer in
            if chosen.pointee.ai_family == AF_INET {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port.bigEndian }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_port = port.bigEndian }
            }
        }
        return storage
    }
}
