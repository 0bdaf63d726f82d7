import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The same workload as ``ProbeBenchmark`` through FoundationNetworking's `URLSession`, to
/// compare the two clients the arena could use: 1,000 targets every second, one request in
/// flight per target, a 0.9 s timeout, against two local `choreo target` processes.
enum URLSessionProbeBenchmark {
    static func run(targets: Int = 1000, seconds: Double = 10) throws -> [(String, String)] {
        let ports = try ProbeBenchmark.startTargets()
        defer { ProbeBenchmark.stopTargets() }
        let urls = (0..<targets).map { URL(string: "http://127.0.0.1:\(ports[$0 % ports.count])/health?n=\($0)")! }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 0.9
        configuration.timeoutIntervalForResource = 0.9
        configuration.httpMaximumConnectionsPerHost = 1000
        let session = URLSession(configuration: configuration)
        let completed = Atomic<Int>(0)
        let answered = Atomic<Int>(0)
        let inFlight = Mutex<Set<Int>>([])
        let cpuBefore = ProbeBenchmark.cpuSeconds()
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds * 1e9)
        let interval: UInt64 = 1_000_000_000
        var due = (0..<targets).map { start + interval * UInt64($0) / UInt64(targets) }
        while DispatchTime.now().uptimeNanoseconds < end {
            let now = DispatchTime.now().uptimeNanoseconds
            var next = end
            for index in 0..<targets {
                if due[index] <= now {
                    let free = inFlight.withLock { $0.insert(index).inserted }
                    if free {
                        session.dataTask(with: urls[index]) { data, response, _ in
                            if (response as? HTTPURLResponse)?.statusCode == 200, data != nil {
                                answered.add(1, ordering: .relaxed)
                            }
                            completed.add(1, ordering: .relaxed)
                            inFlight.withLock { _ = $0.remove(index) }
                        }.resume()
                    }
                    due[index] += interval
                }
                next = min(next, due[index])
            }
            let wait = next > now ? next - now : 0
            if wait > 0 { usleep(UInt32(min(wait / 1000, 10_000))) }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpu = ProbeBenchmark.cpuSeconds() - cpuBefore
        session.invalidateAndCancel()
        let expected = Double(targets) * elapsed.rounded(.down)
        return [
            ("urlsession_targets", "\(targets)"),
            ("urlsession_seconds", String(format: "%.1f", elapsed)),
            ("urlsession_probes_completed", "\(completed.load(ordering: .relaxed))"),
            ("urlsession_probes_answered_200", "\(answered.load(ordering: .relaxed))"),
            ("urlsession_probes_due", String(format: "%.0f", expected)),
            ("urlsession_cpu_seconds", String(format: "%.2f", cpu)),
            ("urlsession_cpu_share_of_one_core", String(format: "%.3f", cpu / elapsed)),
        ]
    }
}
