import ChoreoStorage
import Dispatch
import Foundation
import Synchronization

/// `/healthz`'s check of storage, with a deadline of the client's side: a database that stops
/// answering (a paused VM, a black-holed network: the server-side `statement_timeout` cannot
/// fire) is reported unhealthy within ``deadline``, not when it answers again. The check runs
/// on a thread of its own; while one still waits on storage, the next ones are answered at
/// once, unhealthy, until it returns. What `NWPathMonitor` is to a network, for the database.
public final class HealthCheck: Sendable {
    public enum Outcome: Sendable, Equatable {
        case healthy
        /// Storage answered that it is not healthy, and why.
        case unhealthy(String)
        /// Storage did not answer within the deadline (or an earlier check still waits).
        case noAnswer(String)
    }

    /// Seconds a check waits for storage: the storage's own bounded waits (1 s for SQLite's
    /// write lock or PostgreSQL's statement) come first and name their reason; this catches a
    /// database that does not answer at all.
    public static let deadline = 1.5

    private struct State {
        /// Checks asked for, and the number of the last one answered, with its answer.
        var asked = 0
        var answered = 0
        var answer: String?
        /// A check waits on storage now.
        var busy = false
        var workerStarted = false
    }

    private let store: any Storage
    private let state = Mutex(State())
    private let request = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)

    public init(store: any Storage) { self.store = store }

    /// Asks the checking thread and waits for its answer at most ``deadline`` seconds.
    public func run() -> Outcome {
        let (number, startWorker) = state.withLock { state -> (Int?, Bool) in
            if state.busy { return (nil, false) }
            state.asked += 1
            state.busy = true
            defer { state.workerStarted = true }
            return (state.asked, !state.workerStarted)
        }
        guard let number else {
            return .noAnswer("an earlier health check has waited on storage for more than \(Self.deadline) s")
        }
        if startWorker {
            let thread = Thread { [self] in work() }
            thread.name = "choreo-health"
            thread.start()
        }
        request.signal()
        let deadline = DispatchTime.now() + Self.deadline
        while true {
            guard done.wait(timeout: deadline) == .success else {
                return .noAnswer("storage did not answer within \(Self.deadline) s")
            }
            // A signal of a check that answered after its deadline is passed over.
            if let answer = state.withLock({ $0.answered == number ? Optional($0.answer) : nil }) {
                return answer.map(Outcome.unhealthy) ?? .healthy
            }
        }
    }

    /// The checking thread: one check per request, as long as the process runs.
    private func work() {
        while true {
            request.wait()
            let number = state.withLock { $0.asked }
            let problem = store.healthProblem()
            state.withLock { state in
                state.answered = number
                state.answer = problem
                state.busy = false
            }
            done.signal()
        }
    }
}
