import CMicroHTTPD
import Foundation

/// A fixed set of the server's own threads fed by a bounded queue: the render executor runs the
/// requests which run a scene, the worker executor those that wait on storage. A request that
/// finds the queue full is not admitted (the server answers 503 with `Retry-After`), so a burst
/// of heavy renders neither grows memory without bound nor takes the threads that storage reads
/// and health checks use, and requests that wait on the database never hold Dispatch's threads.
///
/// `@unchecked Sendable`: `jobs`, `head` and `idle` are guarded by `condition`.
final class RenderExecutor: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var head = 0
    /// Threads waiting for a job (a job queued for one of them is not kept waiting).
    private var idle = 0
    /// Jobs that may wait beyond the running ones.
    let queueLimit: Int

    /// The threads run as long as the process and keep their executor: a server that fails to
    /// start (its port taken) lets go of its executor while the threads are starting, and they
    /// must not find it gone.
    init(threads: Int, queueLimit: Int, name: String = "render") {
        self.queueLimit = queueLimit
        for index in 0..<max(1, threads) {
            let thread = Thread { self.loop() }
            thread.name = "choreo-\(name)-\(index)"
            thread.start()
        }
    }

    /// Jobs waiting for a thread.
    var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return jobs.count - head
    }

    /// Queues a job; with `admit`, only while fewer than `queueLimit` wait (false otherwise).
    /// Without it (the next piece of a stream already admitted), always.
    func submit(admit: Bool, _ job: @escaping @Sendable () -> Void) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        if admit && jobs.count - head >= queueLimit + idle { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    private func loop() {
        lowerWorkerPriority()
        while true {
            condition.lock()
            idle += 1
            while head == jobs.count { condition.wait() }
            idle -= 1
            let job = jobs[head]
            head += 1
            if head == jobs.count {
                jobs.removeAll(keepingCapacity: true)
                head = 0
            }
            condition.unlock()
            job()
        }
    }
}

/// Runs request work (renders, storage) below libmicrohttpd's I/O threads, so that a long
/// render on every core still leaves health checks answered promptly. Linux schedules threads
/// as tasks, so `setpriority` on the thread id affects this worker thread only; the I/O threads
/// keep the default priority. Failure (no permission) leaves the priority as it was.
func lowerWorkerPriority() {
    let workerNice: Int32 = 10
    let thread = id_t(cmhd_thread_id())
    errno = 0
    let current = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
    if errno == 0 && current < workerNice {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, workerNice)
    }
}
