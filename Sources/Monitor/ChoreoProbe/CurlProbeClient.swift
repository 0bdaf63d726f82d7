import CCurl
import ChoreoArena
import ChoreoLibraries
import Foundation
import Synchronization

/// Health probes over HTTP with libcurl's multi interface, all on one thread.
///
/// The only file with libcurl calls. libcurl is loaded with the first client, not when choreo
/// starts (``SharedLibrary``); where it cannot be loaded, every probe fails with the reason and
/// the package to install. Every target is probed once per interval with at most one
/// request in flight: a target that hangs holds only its own transfer until the timeout and
/// never delays another; a failing one costs one request per interval whatever it answers.
/// Each transfer follows at most 3 redirects, over `http` and `https` only, reads at most
/// 64 KiB of body, and is cut at the timeout.
///
/// `@unchecked Sendable`: the plan is behind a `Mutex`; the multi handle is used by the probe
/// thread alone, except `curl_multi_wakeup`, which libcurl lets any thread call; `thread` is
/// written only by ``start()`` and ``stop()``, which the owner calls from one thread.
public final class CurlProbeClient: @unchecked Sendable {
    /// Where to probe, and what to call with each result.
    public struct Target: Sendable, Equatable {
        public let id: Int
        public let url: String

        public init(id: Int, url: String) {
            self.id = id
            self.url = url
        }
    }

    /// Limits every transfer is held to.
    public static let maxRedirects = 3
    public static let maxBodyBytes = 64 * 1024

    private struct Plan {
        var targets: [Target] = []
        var interval = 5.0
        var timeout = 4.0
        var generation = 0
        var stopping = false
    }

    private let plan = Mutex(Plan())
    private let onResult: @Sendable (Int, ProbeResult) -> Void
    /// libcurl's functions, or why it could not be loaded.
    private let curl: Result<BoundFunctions<ccurl_functions>, LibraryUnavailable>
    /// Created with the client and freed with it: any thread may wake it at any time.
    private let multi: UnsafeMutableRawPointer?
    /// Set and cleared by `start` and `stop`, which the owner calls from one thread.
    private var thread: Thread?
    private let finished = DispatchSemaphore(value: 0)

    /// `onResult(targetID, result)` runs on the probe thread: keep it short.
    public convenience init(onResult: @escaping @Sendable (Int, ProbeResult) -> Void) {
        self.init(library: Self.library, onResult: onResult)
    }

    /// A client on the given library (another than libcurl's only in tests, to see what
    /// probes report when it cannot be loaded).
    package init(
        library: Result<BoundFunctions<ccurl_functions>, LibraryUnavailable>,
        onResult: @escaping @Sendable (Int, ProbeResult) -> Void
    ) {
        self.onResult = onResult
        curl = library
        if case .success(let curl) = library {
            Self.initializeLibrary
            multi = curl.curl_multi_init()
        } else {
            multi = nil
        }
    }

    deinit {
        if case .success(let curl) = curl, let multi { _ = curl.curl_multi_cleanup(multi) }
    }

    /// libcurl, loaded once, with the first client.
    package static let library = SharedLibrary.load("libcurl.so.4", package: "libcurl4", bind: ccurl_bind)

    private static let initializeLibrary: Void = {
        if case .success(let curl) = library { _ = curl.curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }
    }()

    /// Replaces the targets and timing; transfers in flight finish under the old settings.
    public func configure(targets: [Target], interval: Double, timeout: Double) {
        plan.withLock {
            $0.targets = targets
            $0.interval = interval
            $0.timeout = timeout
            $0.generation += 1
        }
        wake()
    }

    public func start() {
        guard thread == nil else { return }
        plan.withLock { $0.stopping = false }
        let thread = Thread { [self] in
            runLoop()
            finished.signal()
        }
        thread.name = "choreo-prober"
        self.thread = thread
        thread.start()
    }

    /// Stops probing and waits for the loop to close every transfer.
    public func stop() {
        guard thread != nil else { return }
        plan.withLock { $0.stopping = true }
        wake()
        finished.wait()
        thread = nil
    }

    private func wake() {
        if case .success(let curl) = curl, let multi { _ = curl.curl_multi_wakeup(multi) }
    }

    // MARK: The loop (probe thread only)

    /// One transfer in flight.
    final class Transfer {
        let target: Int
        let handle: UnsafeMutableRawPointer
        let started: UInt64
        var body: [UInt8] = []
        var tooLarge = false

        init(target: Int, handle: UnsafeMutableRawPointer, started: UInt64) {
            self.target = target
            self.handle = handle
            self.started = started
        }
    }

    private func runLoop() {
        let curl: BoundFunctions<ccurl_functions>
        switch self.curl {
        case .success(let functions): curl = functions
        case .failure(let unavailable):
            reportUnavailable(unavailable)
            return
        }
        guard let multi else { return }
        var inFlight: Set<Int> = []
        var handles: [UnsafeMutableRawPointer: Transfer] = [:]
        // When each target is next due, as a min-heap: a loop turn looks only at the due ones.
        var schedule = DueHeap()
        var targets: [Int: Target] = [:]
        var seenGeneration = -1
        while true {
            let current = plan.withLock { $0 }
            if current.stopping { break }
            let now = DispatchTime.now().uptimeNanoseconds
            let intervalNanos = UInt64(max(current.interval, 0.05) * 1e9)
            if current.generation != seenGeneration {
                // New targets are spread over the first interval (no burst of a thousand requests
                // at once); removed ones are forgotten.
                seenGeneration = current.generation
                targets = Dictionary(uniqueKeysWithValues: current.targets.map { ($0.id, $0) })
                schedule = DueHeap()
                let count = UInt64(max(current.targets.count, 1))
                for (position, target) in current.targets.enumerated() {
                    schedule.push(now + intervalNanos * UInt64(position) / count, target.id)
                }
            }
            while let (when, id) = schedule.first, when <= now {
                schedule.pop()
                guard let target = targets[id] else { continue }
                if !inFlight.contains(id), let transfer = begin(target, curl, timeout: current.timeout, at: now) {
                    inFlight.insert(id)
                    handles[transfer.handle] = transfer
                    _ = curl.curl_multi_add_handle(multi, transfer.handle)
                }
                // Keep the cadence; a target that fell behind waits a whole interval, no bursts.
                let next = when + intervalNanos
                schedule.push(next > now ? next : now + intervalNanos, id)
            }
            var running: Int32 = 0
            _ = curl.curl_multi_perform(multi, &running)
            var remaining: Int32 = 0
            while let message = curl.curl_multi_info_read(multi, &remaining) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                    let transfer = handles.removeValue(forKey: handle)
                else { continue }
                let code = message.pointee.data.result
                _ = curl.curl_multi_remove_handle(multi, handle)
                let result = Self.result(code, transfer, curl, finishedAt: DispatchTime.now().uptimeNanoseconds)
                curl.curl_easy_cleanup(handle)
                Unmanaged.passUnretained(transfer).release()
                inFlight.remove(transfer.target)
                if targets[transfer.target] != nil { onResult(transfer.target, result) }
            }
            let after = DispatchTime.now().uptimeNanoseconds
            let nextWake = min(schedule.first?.0 ?? after + 100_000_000, after + 100_000_000)
            let waitMs = nextWake > after ? Int32(min((nextWake - after) / 1_000_000 + 1, 100)) : 0
            _ = curl.curl_multi_poll(multi, nil, 0, waitMs, nil)
        }
        for transfer in handles.values {
            _ = curl.curl_multi_remove_handle(multi, transfer.handle)
            curl.curl_easy_cleanup(transfer.handle)
            Unmanaged.passUnretained(transfer).release()
        }
    }

    /// Without libcurl, every target fails once per interval with the reason, until the client
    /// stops: the arena shows why, instead of probes that never answer.
    private func reportUnavailable(_ unavailable: LibraryUnavailable) {
        var due: [Int: UInt64] = [:]
        while true {
            let current = plan.withLock { $0 }
            if current.stopping { return }
            let now = DispatchTime.now().uptimeNanoseconds
            let interval = UInt64(max(current.interval, 0.05) * 1e9)
            for target in current.targets where due[target.id, default: 0] <= now {
                due[target.id] = now + interval
                onResult(
                    target.id,
                    ProbeResult(failure: .other(unavailable.description), status: 0, body: [], latencyMs: 0))
            }
            usleep(20_000)
        }
    }

    /// A binary min-heap of (due time, target id).
    struct DueHeap {
        private var items: [(UInt64, Int)] = []

        var first: (UInt64, Int)? { items.first }

        mutating func push(_ time: UInt64, _ id: Int) {
            items.append((time, id))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].0 < items[parent].0 else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() {
            guard !items.isEmpty else { return }
            items.swapAt(0, items.count - 1)
            items.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                let right = left + 1
                var best = parent
                if left < items.count && items[left].0 < items[best].0 { best = left }
                if right < items.count && items[right].0 < items[best].0 { best = right }
                if best == parent { break }
                items.swapAt(parent, best)
                parent = best
            }
        }
    }

    private func begin(_ target: Target, _ curl: BoundFunctions<ccurl_functions>, timeout: Double, at now: UInt64)
        -> Transfer?
    {
        guard let handle = curl.curl_easy_init() else { return nil }
        var curl = curl.table
        let transfer = Transfer(target: target.id, handle: handle, started: now)
        let context = Unmanaged.passRetained(transfer).toOpaque()
        let timeoutMs = max(1, Int(timeout * 1000))
        _ = ccurl_set_string(&curl, handle, CURLOPT_URL, target.url)
        _ = ccurl_set_long(&curl, handle, CURLOPT_NOSIGNAL, 1)
        // A fresh connection per probe, closed by the target once it has answered: each probe
        // tests the whole path (a refused connect shows), and no idle connections pile up on
        // either side.
        _ = ccurl_set_long(&curl, handle, CURLOPT_FORBID_REUSE, 1)
        _ = ccurl_set_pointer(&curl, handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(ccurl_probe_headers(&curl)))
        _ = ccurl_set_long(&curl, handle, CURLOPT_TIMEOUT_MS, timeoutMs)
        _ = ccurl_set_long(&curl, handle, CURLOPT_CONNECTTIMEOUT_MS, timeoutMs)
        _ = ccurl_set_long(&curl, handle, CURLOPT_FOLLOWLOCATION, 1)
        _ = ccurl_set_long(&curl, handle, CURLOPT_MAXREDIRS, Self.maxRedirects)
        _ = ccurl_set_string(&curl, handle, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = ccurl_set_string(&curl, handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = ccurl_set_string(&curl, handle, CURLOPT_USERAGENT, "choreo-prober")
        _ = ccurl_set_write_function(&curl, handle, Self.receive)
        _ = ccurl_set_pointer(&curl, handle, CURLOPT_WRITEDATA, context)
        return transfer
    }

    /// libcurl's write callback: keeps at most 64 KiB, then aborts the transfer.
    private static let receive: ccurl_write_callback = { data, size, count, context in
        guard let data, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        if transfer.body.count + length > CurlProbeClient.maxBodyBytes {
            transfer.tooLarge = true
            return 0
        }
        data.withMemoryRebound(to: UInt8.self, capacity: length) {
            transfer.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: length))
        }
        return length
    }

    private static func result(
        _ code: CURLcode, _ transfer: Transfer, _ curl: BoundFunctions<ccurl_functions>, finishedAt: UInt64
    ) -> ProbeResult {
        let latency = Double(finishedAt - transfer.started) / 1e6
        var status = 0
        var curl = curl.table
        ccurl_get_long(&curl, transfer.handle, CURLINFO_RESPONSE_CODE, &status)
        let failure: ProbeResult.Failure?
        switch code {
        case CURLE_OK: failure = nil
        case CURLE_OPERATION_TIMEDOUT: failure = .timeout
        case CURLE_COULDNT_CONNECT: failure = .connectionRefused
        case CURLE_COULDNT_RESOLVE_HOST: failure = .cannotResolve
        case CURLE_TOO_MANY_REDIRECTS: failure = .tooManyRedirects
        case CURLE_WRITE_ERROR where transfer.tooLarge: failure = .bodyTooLarge
        default:
            failure = .other(
                curl.curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)")
        }
        return ProbeResult(failure: failure, status: status, body: transfer.body, latencyMs: latency)
    }
}
