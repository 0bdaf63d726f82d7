import Foundation

/// Debian's HAProxy in front of choreo replicas on loopback, round-robin, checking `/healthz`
/// every 500 ms and retrying a request that reached no replica on another (as
/// deploy/haproxy.cfg does): the load balancer of the replica tests and of `choreo-bench
/// --scale-out`. Stopped when released.
public final class HAProxyProcess {
    public let port: UInt16
    private let process = Process()

    /// Starts it in front of `backends`, its configuration in `directory`, and waits (at most
    /// 10 s) until `ready(port)` says it answers.
    public init(backends: [UInt16], directory: String, ready: (UInt16) -> Bool) throws {
        port = try freeLoopbackPort()
        var config = """
            global
                maxconn 512
            defaults
                mode http
                timeout connect 2s
                timeout client 60s
                timeout server 60s
            frontend choreo
                bind 127.0.0.1:\(port)
                default_backend replicas
            backend replicas
                balance roundrobin
                option httpchk GET /healthz
                retry-on conn-failure empty-response
                retries 2
                option redispatch

            """
        for (index, backend) in backends.enumerated() {
            config += "    server r\(index) 127.0.0.1:\(backend) check inter 500ms fall 2 rise 1\n"
        }
        let path = directory + "/haproxy-\(port).cfg"
        try config.write(toFile: path, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/haproxy")
        process.arguments = ["-f", path, "-db", "-q"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if ready(port) { return }
            usleep(50_000)
        }
        stop()
        throw HAProxyError(description: "HAProxy did not answer on port \(port)")
    }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

public struct HAProxyError: Error, CustomStringConvertible {
    public let description: String
}
