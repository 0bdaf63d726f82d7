import ChoreoHTTP
import ChoreoTransport
import Dispatch

/// Where a request runs once it has been read, by its route's lane, and which requests are
/// refused for want of a thread: the server's admission.
///
/// Renders run on the render executor (`Options.renderWorkers`, at most `renderQueue` waiting),
/// exports on an executor of their own (`exportWorkers`, at most `exportQueue` waiting), so
/// that exports, which sample a scene many times over, never hold the render threads;
/// storage, sessions and the arena on the worker executor (`ioWorkers`, at most `ioQueue`
/// waiting): they wait on the database, so on threads of their own, not on Dispatch's pool,
/// whose few threads (one a core) they would hold. Health checks run one at a time on a queue
/// of their own. A request beyond a queue is answered 503 with `Retry-After` at once.
final class Admission: Sendable {
    let renders: RenderExecutor
    let exports: RenderExecutor
    let workers: RenderExecutor
    let health = DispatchQueue(label: "choreo.health")
    let metrics: Metrics

    init(renders: RenderExecutor, exports: RenderExecutor, workers: RenderExecutor, metrics: Metrics) {
        self.renders = renders
        self.exports = exports
        self.workers = workers
        self.metrics = metrics
    }

    /// Queues `work` on its lane's threads: nil once admitted, else the answer to send at once.
    func submit(_ lane: RequestLane, _ work: @escaping @Sendable () -> Void) -> HTTPResponse? {
        switch lane {
        case .health:
            health.async(execute: work)
            return nil
        case .render:
            // Counted as waiting before it can start, so the gauge never dips below zero.
            metrics.renderAdmitted()
            let metrics = metrics
            let admitted = renders.submit(admit: true) {
                metrics.renderStarted()
                work()
                metrics.renderFinished()
            }
            if admitted { return nil }
            metrics.renderRefused()
            return Self.busy(
                "The server is busy: \(renders.queueLimit) requests that run a scene are waiting. Try again shortly.")
        case .export:
            if exports.submit(admit: true, work) { return nil }
            return Self.busy(
                "The server is busy: \(exports.queueLimit) exports are waiting for the export thread. Try again shortly."
            )
        case .worker, .inline:
            if workers.submit(admit: true, work) { return nil }
            return Self.busy(
                "The server is busy: \(workers.queueLimit) requests are waiting for a worker. Try again shortly.")
        }
    }

    /// Where a response stream of a lane produces its pieces: a render's on the render
    /// executor, an export's on the export executor (always admitted: its request was),
    /// another's on Dispatch at a lower priority.
    func streamRunner(for lane: RequestLane) -> @Sendable (@escaping @Sendable () -> Void) -> Void {
        if lane == .render || lane == .export {
            let executor = lane == .render ? renders : exports
            return { work in _ = executor.submit(admit: false, work) }
        }
        return { work in
            DispatchQueue.global().async {
                lowerWorkerPriority()
                work()
            }
        }
    }

    static func busy(_ detail: String) -> HTTPResponse {
        var problem = Problem.unavailable(detail)
        problem.headers = [("Retry-After", "1")]
        return problem.response
    }
}
