import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoStorage
import Dispatch
import Synchronization

/// Live sessions (docs/sessions.md): a scene whose script is written while it runs, one input
/// at a time, over HTTP.
///
/// Each session in use is a ``SceneSession`` in memory, so an input costs what it does, not a
/// replay of the ones before. Its scene and inputs are in storage, each input stored before it
/// is acknowledged: a session evicted from memory, or one this server has never seen (after a
/// restart), comes back by replaying them. Memory is bounded by a count and by bytes; the
/// least recently used sessions leave first.
public final class SessionRegistry: Sendable {
    /// Limits, documented in docs/limits.md.
    public struct Limits: Sendable {
        /// Inputs one session may take.
        public var inputsPerSession = 10_000
        /// Sessions kept in memory at once.
        public var liveSessions = 64
        /// Bytes of scene and input documents kept in memory, over all live sessions.
        public var liveBytes = 64 * 1024 * 1024
        /// Largest input body.
        public var inputBytes = 256 * 1024

        public init() {}
    }

    /// One session in memory.
    ///
    /// `@unchecked Sendable`: it is created outside the registry's mutex but, once admitted,
    /// read and written only under it (``withSession(_:_:)``), so no two threads use it at once.
    final class Live: @unchecked Sendable {
        let id: String
        let scene: [UInt8]
        var session: SceneSession
        var inputs: [(at: Double, document: [UInt8])]
        var bytes: Int
        var lastUse: UInt64 = 0

        init(id: String, scene: [UInt8], session: SceneSession, inputs: [(at: Double, document: [UInt8])]) {
            self.id = id
            self.scene = scene
            self.session = session
            self.inputs = inputs
            bytes = scene.count + inputs.reduce(0) { $0 + $1.document.count }
        }
    }

    struct State {
        var live: [String: Live] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }

    let store: any Storage
    public let limits: Limits
    /// The sessions in memory; reached only under this mutex.
    private let state = Mutex(State())

    public init(store: any Storage, limits: Limits = Limits()) {
        self.store = store
        self.limits = limits
    }

    /// The sessions in memory now (for tests and metrics).
    public var liveCount: Int { state.withLock { $0.live.count } }

    // MARK: Requests

    /// `POST /v1/sessions`: stores the scene and starts the session.
    public func create(_ body: [UInt8]) throws(ServiceError) -> SessionSummary {
        let (scene, _) = try RenderService.scene(from: body)
        let id = try storage { () throws(StorageError) in try store.createSession(scene: body) }
        let live = Live(id: id, scene: body, session: SceneSession(scene), inputs: [])
        state.withLock { state in admit(live, into: &state) }
        return SessionSummary(id: id, time: 0, inputs: 0)
    }

    /// `POST /v1/sessions/{id}/inputs`.
    public func append(_ id: String, body: [UInt8], ifMatch: Int?) throws(ServiceError) -> InputOutcome {
        guard body.count <= limits.inputBytes else {
            throw ServiceError.invalidScene(
                ValidationFailure([FieldError(path: "$", message: "an input is at most \(limits.inputBytes) bytes")]))
        }
        return try withSession(id) { (live: Live) throws(ServiceError) -> InputOutcome in
            // Replicas sharing a database may race for an input number: without If-Match, the
            // loser takes the winner's inputs and tries again, as one server would have ordered them.
            for attempt in 1...Self.appendAttempts {
                if let response = try appendOnce(
                    live, body: body, ifMatch: ifMatch, lastAttempt: attempt == Self.appendAttempts)
                {
                    return response
                }
                try catchUp(live)
            }
            throw ServiceError.preconditionFailed("Another input was stored first. Read the session and retry.")
        }
    }

    /// Tries to store an input racing writers may also take; at most this many times.
    static let appendAttempts = 3

    /// Validates, applies and stores one input; nil when another writer took its number first
    /// and the caller may catch up and try again.
    private func appendOnce(_ live: Live, body: [UInt8], ifMatch: Int?, lastAttempt: Bool) throws(ServiceError)
        -> InputOutcome?
    {
        let id = live.id
        let count = live.inputs.count
        if let ifMatch, ifMatch != count {
            throw ServiceError.preconditionFailed(
                "The session has \(count) inputs, not \(ifMatch): another input came first. Read it and retry.")
        }
        guard count < limits.inputsPerSession else {
            throw ServiceError.conflict("The session has taken its \(limits.inputsPerSession) inputs.")
        }
        let session = live.session
        let entry: ScriptEntry
        do throws(SceneDocumentError) {
            entry = try SceneDecoder.decodeEntry(
                bytes: body, knownLayers: session.knownLayers, knownAnimators: session.knownAnimators,
                knownTransitions: session.knownTransitions)
        } catch {
            throw ServiceError(error)
        }
        if entry.at < session.time {
            throw ServiceError.conflict(
                "The input's time \(entry.at) is earlier than the session's time \(session.time): inputs arrive in time order."
            )
        }
        let eventsBefore = session.events.count
        let offset = session.nextOffset
        do throws(RuntimeError) {
            try session.append(entry)
        } catch {
            // Nothing is appended: the session is rebuilt from what was accepted before.
            live.session = try replay(scene: live.scene, inputs: live.inputs)
            let prefix = "$.script[\(offset)]"
            let path = error.path.hasPrefix(prefix) ? "$" + error.path.dropFirst(prefix.count) : error.path
            throw ServiceError.invalidScene(ValidationFailure([FieldError(path: path, message: error.message)]))
        }
        let stored: Bool
        do throws(StorageError) {
            stored = try store.appendInput(session: id, number: count, at: entry.at, document: body)
        } catch {
            live.session = try replay(scene: live.scene, inputs: live.inputs)
            throw ServiceError.storage(error)
        }
        guard stored else {
            // Another server took this input number first.
            live.session = try replay(scene: live.scene, inputs: live.inputs)
            if ifMatch != nil || lastAttempt || store.coordination == nil {
                throw ServiceError.preconditionFailed(
                    "Another input was stored first as number \(count + 1). Read the session and retry.")
            }
            return nil
        }
        live.inputs.append((entry.at, body))
        live.bytes += body.count
        return InputOutcome(
            time: session.time, inputs: count + 1, recorded: session.recorded,
            events: Array(session.events[eventsBefore...]))
    }

    /// Applies the inputs other replicas stored since this one last saw the session; 404 when
    /// another replica deleted it.
    private func catchUp(_ live: Live) throws(ServiceError) {
        let newer = try storage { () throws(StorageError) in
            try store.inputs(session: live.id, from: live.inputs.count)
        }
        guard let newer else { throw ServiceError.notFound("No session has the id \(live.id).") }
        guard !newer.isEmpty else { return }
        do {
            for input in newer {
                let session = live.session
                let entry = try SceneDecoder.decodeEntry(
                    bytes: input.document, knownLayers: session.knownLayers, knownAnimators: session.knownAnimators,
                    knownTransitions: session.knownTransitions)
                try session.append(entry)
                live.inputs.append(input)
                live.bytes += input.document.count
            }
        } catch {
            live.session = try replay(scene: live.scene, inputs: live.inputs)
            throw ServiceError.internalFailure("A stored input no longer replays: \(error)")
        }
    }

    /// `GET /v1/sessions/{id}`: the scene, the inputs, the time.
    public func describe(_ id: String) throws(ServiceError) -> SessionSnapshot {
        try withSession(id) { (live: Live) throws(ServiceError) -> SessionSnapshot in
            SessionSnapshot(id: id, time: live.session.time, scene: live.scene, entries: live.inputs.map(\.document))
        }
    }

    /// The session's timeline run on to its end: `GET /v1/sessions/{id}/frames`.
    public func timeline(_ id: String, horizon: Double?) throws(ServiceError) -> Timeline {
        try withSession(id) { (live: Live) throws(ServiceError) -> Timeline in
            do throws(RuntimeError) {
                return try live.session.timeline(horizon: horizon)
            } catch {
                throw ServiceError.invalidScene(
                    ValidationFailure([FieldError(path: error.path, message: error.message)]))
            }
        }
    }

    /// `GET /v1/sessions/{id}/frames`: the session's timeline run on to the end the query
    /// samples, rendered as ``RenderService`` renders a scene; `planned` sees the plan first.
    public func frames(
        _ id: String, query: SamplingQuery, cancellation: Cancellation?, memory: RenderMemory?, threads: Int,
        byteBudget: Int?, planned: (RenderPlan) -> Void = { _ in }
    ) throws(ServiceError) -> RenderOutput {
        let timeline = try timeline(id, horizon: query.times?.max() ?? query.end)
        let plan: RenderPlan
        do throws(ValidationFailure) {
            plan = try RenderPlan.make(timeline: timeline, query: query)
        } catch {
            throw ServiceError.invalidScene(error)
        }
        planned(plan)
        return try RenderService.response(
            plan, format: query.format, threads: threads, cancellation: cancellation, byteBudget: byteBudget,
            memory: memory)
    }

    /// `DELETE /v1/sessions/{id}`.
    public func delete(_ id: String) throws(ServiceError) {
        let deleted = try storage { () throws(StorageError) in try store.deleteSession(id) }
        state.withLock { state in
            if let live = state.live.removeValue(forKey: id) { state.bytes -= live.bytes }
        }
        guard deleted else { throw ServiceError.notFound("No session has the id \(id).") }
    }

    // MARK: Memory

    /// Runs `body` on the session, loaded from storage when it is not in memory. Requests on
    /// sessions are serialised: an input is cheap, and one lock keeps two inputs from racing.
    private func withSession<T>(_ id: String, _ body: (Live) throws(ServiceError) -> T) throws(ServiceError) -> T {
        let result: Result<T, ServiceError> = state.withLock { state in
            do throws(ServiceError) {
                state.clock += 1
                let live: Live
                let before: Int
                if let known = state.live[id] {
                    live = known
                    before = live.bytes
                    // Another replica may have written since: its inputs, or its deletion.
                    if store.coordination != nil {
                        do throws(ServiceError) {
                            try catchUp(live)
                        } catch {
                            if error.kind == .notFound {
                                state.live.removeValue(forKey: id)
                                state.bytes -= before
                            } else {
                                state.bytes += live.bytes - before
                            }
                            throw error
                        }
                    }
                } else {
                    guard let record = try storage({ () throws(StorageError) in try store.session(id) }) else {
                        throw ServiceError.notFound("No session has the id \(id).")
                    }
                    live = Live(
                        id: id, scene: record.scene, session: try replay(scene: record.scene, inputs: record.inputs),
                        inputs: record.inputs)
                    admit(live, into: &state)
                    before = live.bytes
                }
                live.lastUse = state.clock
                let value: T
                do throws(ServiceError) {
                    value = try body(live)
                } catch {
                    // Inputs caught up with before the failure stay, and are counted.
                    state.bytes += live.bytes - before
                    throw error
                }
                state.bytes += live.bytes - before
                evict(&state, keeping: id)
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private func admit(_ live: Live, into state: inout State) {
        state.clock += 1
        live.lastUse = state.clock
        state.live[live.id] = live
        state.bytes += live.bytes
        evict(&state, keeping: live.id)
    }

    /// The least recently used sessions leave memory while over either limit (they stay stored).
    private func evict(_ state: inout State, keeping id: String) {
        while state.live.count > limits.liveSessions || (state.bytes > limits.liveBytes && state.live.count > 1) {
            guard let oldest = state.live.values.filter({ $0.id != id }).min(by: { $0.lastUse < $1.lastUse }) else {
                return
            }
            state.live.removeValue(forKey: oldest.id)
            state.bytes -= oldest.bytes
        }
    }

    /// A session rebuilt from its scene and inputs.
    private func replay(scene: [UInt8], inputs: [(at: Double, document: [UInt8])]) throws(ServiceError) -> SceneSession
    {
        let (decoded, _) = try RenderService.scene(from: scene)
        let session = SceneSession(decoded)
        for input in inputs {
            do {
                let entry = try SceneDecoder.decodeEntry(
                    bytes: input.document, knownLayers: session.knownLayers, knownAnimators: session.knownAnimators,
                    knownTransitions: session.knownTransitions)
                try session.append(entry)
            } catch {
                throw ServiceError.internalFailure("A stored input no longer replays: \(error)")
            }
        }
        return session
    }

    private func storage<T>(_ body: () throws(StorageError) -> T) throws(ServiceError) -> T {
        try ServiceError.storing(body)
    }
}
