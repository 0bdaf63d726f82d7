import Foundation

extension MicroHTTPDServer {
    /// Limits and addresses. Documented in docs/limits.md.
    public struct Options: Sendable {
        public var host = "127.0.0.1"
        public var port: UInt16 = 8080
        public var threads = 2
        /// Seconds of inactivity before a connection is closed (a stalled upload included).
        public var connectionTimeout = 15
        /// Per-connection memory for headers and the read buffer; larger headers get 431.
        public var connectionMemoryLimit = 64 * 1024
        public var connectionLimit = 1000
        public var maxBodyBytes = 8 * 1024 * 1024
        /// Seconds a connection has to send a whole request head, from its opening or from its
        /// previous response; also the grace before the body's minimum rate applies.
        public var headTimeout = 10
        /// Bytes a second a body must average once `headTimeout` seconds of it have passed.
        public var minimumBodyRate = 1024
        /// Connections one client address may hold at once.
        public var connectionsPerClient = 256
        /// Bytes of request bodies all connections may hold at once (announced or received);
        /// a body that would pass it gets 503 with Retry-After.
        public var bodyMemory = 256 * 1024 * 1024
        /// Threads of the render executor: requests that run a scene at once.
        public var renderWorkers = max(2, ProcessInfo.processInfo.activeProcessorCount)
        /// Requests that run a scene that may wait for a render thread; beyond, 503.
        public var renderQueue = 64
        /// Threads of the export executor: exports at once, apart from the render threads (an
        /// export samples its scene many times over, and would hold a render thread for it).
        public var exportWorkers = 1
        /// Exports that may wait for an export thread; beyond, 503.
        public var exportQueue = 8
        /// Threads for the other requests (storage, sessions, the arena): they mostly wait for
        /// the database, so more of them than cores.
        public var ioWorkers = 16
        /// Those requests that may wait for a worker thread; beyond, 503.
        public var ioQueue = 1024
        /// Seconds a stop waits for running requests before the process exits without them.
        public var shutdownTimeout = 30.0

        public init() {}
    }

    public enum StartError: Error, CustomStringConvertible {
        case badHost(String)
        case cannotListen(String)
        /// libmicrohttpd could not be loaded.
        case unavailable(String)

        public var description: String {
            switch self {
            case .unavailable(let reason): "cannot serve HTTP: \(reason)"
            case .badHost(let host): "cannot resolve --host \(host) to an IPv4 or IPv6 address"
            case .cannotListen(let address): "cannot listen on \(address) (in use, or not permitted)"
            }
        }
    }
}
