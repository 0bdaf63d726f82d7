import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoStorage
import ChoreoTransport
import Foundation
import Synchronization

/// Live sessions (docs/sessions.md): a scene whose script is written while it runs, one input
/// at a time, over HTTP. What `UIViewPropertyAnimator` and `UIPercentDrivenInteractiveTransition`
/// are to an app, driven by a client's requests.
///
/// Each session in use is a ``SceneSession`` in memory, so an input costs what it does, not a
/// replay of the ones before. Its scene and inputs are in storage, each input stored before it
/// is acknowledged: a session evicted from memory, or one this server has never seen (after a
/// restart), comes back by replaying them. Memory is bounded by a count and by bytes; the
/// least recently used sessions leave first. With the server's render memory, live sessions
/// hold theirs in it too (``memoryPerDocumentByte`` times their documents' bytes), so that
/// sessions and renders share one budget: when renders hold it, other sessions leave memory
/// to make room for an input, and an input that still does not fit is busy (503).
///
/// Locks: the registry's lock guards the index of sessions in memory and nothing else. Each
/// session has two of its own: its state lock, held only while its state is read or replaced
/// (never across a storage call or a look-ahead), and its writer lock, which orders its inputs
/// and is held across the input's storage call, so that only the next input of the same
/// session waits for it. An input runs on a copy of its session, is stored, and the copy then
/// takes the session's place: a rejected input leaves the session as it was, with nothing to
/// replay.
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
        /// Sessions stored at once (each holds its scene and inputs on disk until deleted).
        public var storedSessions = 10_000
        /// Bytes of input documents one session may hold (they stay in memory while the
        /// session is in use, and `GET /v1/sessions/{id}` returns them all).
        public var bytesPerSession = 16 * 1024 * 1024

        public init() {}
    }

    /// One session in memory: its state behind a lock of its own.
    final class Live: Sendable {
        let id: String
        let scene: [UInt8]
        let state: Mutex<LiveState>
        /// Taken by each input for its whole run, storage included: one session's inputs go one
        /// at a time. Nothing else waits for it.
        let writing = Mutex(())

        init(id: String, scene: [UInt8], session: sending SceneSession, inputs: [StoredInput]) {
            self.id = id
            self.scene = scene
            state = Mutex(LiveState(session: session, inputs: inputs))
        }
    }

    /// What a session's lock guards.
    struct LiveState: ~Copyable {
        /// The session at its last accepted input; replaced whole, never changed in place by a
        /// request that may fail.
        var session: SceneSession
        private(set) var inputs: [StoredInput]
        /// The input documents' bytes.
        private(set) var inputBytes: Int

        init(session: sending SceneSession, inputs: [StoredInput]) {
            self.session = session
            self.inputs = inputs
            inputBytes = inputs.reduce(0) { $0 + $1.document.count }
        }

        /// Appends an accepted input, counting its bytes.
        mutating func append(_ input: StoredInput) {
            inputs.append(input)
            inputBytes += input.document.count
        }
    }

    /// The sessions in memory, by id; guarded by the registry's lock.
    struct Index {
        var live: [String: Entry] = [:]
        var clock: UInt64 = 0
        var bytes = 0
    }

    struct Entry {
        let live: Live
        var bytes: Int
        var lastUse: UInt64
    }

    let store: any Storage
    public let limits: Limits
    private let index = Mutex(Index())
    /// The budget shared with renders, and what the live sessions hold in it.
    private let memory: RenderMemory?
    private let held: RenderMemory.Reservation?

    /// Memory a live session takes per byte of its scene and input documents: the documents
    /// kept, and what running them builds (measured: about 0.52 MiB per 256 KiB input).
    static let memoryPerDocumentByte = 2

    public init(store: any Storage, limits: Limits = Limits(), memory: RenderMemory? = nil) {
        self.store = store
        self.limits = limits
        self.memory = memory
        held = memory?.reserve(0)
    }

    /// The sessions in memory now (for tests and metrics).
    public var liveCount: Int { index.withLock { $0.live.count } }

    // MARK: Requests

    /// `POST /v1/sessions`: stores the scene and starts the session.
    public func create(_ body: [UInt8]) throws(ServiceError) -> SessionSummary {
        let (scene, _) = try RenderService.scene(from: body)
        let stored = try storage { () throws(StorageError) in try store.sessionCount() }
        guard stored < limits.storedSessions else {
            throw ServiceError.conflict(
                "This server stores \(stored) sessions, its limit: delete sessions that are over (DELETE /v1/sessions/{id}) first."
            )
        }
        try makeRoom(for: body.count, keeping: nil)
        let id = try storage { () throws(StorageError) in try store.createSession(scene: body) }
        admit(Live(id: id, scene: body, session: SceneSession(scene), inputs: []), bytes: body.count)
        return SessionSummary(id: id, time: 0, inputs: 0)
    }

    /// Tries to store an input that writers of other replicas may also take; at most this many
    /// times.
    static let appendAttempts = 3

    /// `If-Match: "n"` of an input: the number of inputs the client has seen (quotes
    /// optional); nil without the header.
    public static func ifMatch(_ header: String?) throws(ServiceError) -> Int? {
        guard let header else { return nil }
        let trimmed = header.trimmingCharacters(in: .whitespaces).trimmingCharacters(
            in: CharacterSet(charactersIn: "\""))
        guard let count = Int(trimmed), count >= 0 else {
            throw ServiceError.invalidField("header.If-Match", "must be the number of inputs seen, as \"3\"")
        }
        return count
    }

    /// `POST /v1/sessions/{id}/inputs`.
    public func append(_ id: String, body: [UInt8], ifMatch: Int?) throws(ServiceError) -> InputOutcome {
        guard body.count <= limits.inputBytes else {
            throw ServiceError.invalidField("$", "an input is at most \(limits.inputBytes) bytes")
        }
        // Inputs to one session are taken one at a time, in the order they reach its writer
        // lock; its state lock is held only to read and to swap, so reads of the session (and
        // every other session) never wait for the storage round trip. Without If-Match, a
        // writer that lost the race for an input number to another replica takes the winner's
        // inputs and tries again, as one server would have ordered them.
        try makeRoom(for: body.count, keeping: id)
        for attempt in 1...Self.appendAttempts {
            let live = try session(id)
            let outcome = try live.writing.withLock { _ throws(ServiceError) -> InputOutcome? in
                let trial = try prepare(live, body: body, ifMatch: ifMatch)
                let stored = try storage { () throws(StorageError) in
                    try store.appendInput(session: id, number: trial.number, at: trial.at, document: body)
                }
                guard stored else { return nil }
                commit(trial, of: live, body: body)
                return trial.outcome
            }
            if let outcome { return outcome }
            if ifMatch != nil || attempt == Self.appendAttempts { break }
            try catchUp(live)
        }
        throw ServiceError.preconditionFailed("Another input was stored first. Read the session and retry.")
    }

    /// An input run on a copy of its session, not yet stored.
    struct Trial {
        /// The input's number: the session's input count when it was run.
        let number: Int
        let at: Double
        let session: SceneSession
        let outcome: InputOutcome
    }

    /// Validates the input and runs it on a copy of the session, under the session's lock: the
    /// session itself is not changed.
    private func prepare(_ live: Live, body: [UInt8], ifMatch: Int?) throws(ServiceError) -> Trial {
        // The copy leaves the lock: nothing else holds it (it is made here, from values), and
        // only this request uses it until it takes the session's place under the lock again.
        nonisolated(unsafe) var prepared: Trial?
        try live.state.withLock { (state: inout LiveState) throws(ServiceError) -> Void in
            let count = state.inputs.count
            if let ifMatch, ifMatch != count {
                throw ServiceError.preconditionFailed(
                    "The session has \(count) inputs, not \(ifMatch): another input came first. Read it and retry.")
            }
            guard count < limits.inputsPerSession else {
                throw ServiceError.conflict("The session has taken its \(limits.inputsPerSession) inputs.")
            }
            guard state.inputBytes + body.count <= limits.bytesPerSession else {
                throw ServiceError.conflict(
                    "The session's inputs hold \(state.inputBytes) bytes; with this one they would pass the \(limits.bytesPerSession) one session may hold."
                )
            }
            // The input runs on a copy, first run up to the input's time: the ids it may name are
            // those that exist then (an animator the scene's own script makes at 0 s is there for
            // a first input at 0 s).
            let copy = state.session.copy()
            let eventsBefore = copy.events.count
            let offset = copy.nextOffset
            let entry: ScriptEntry
            var warnings: [Diagnostic]
            var advanceFailure: RuntimeError?
            do throws(SceneDocumentError) {
                (entry, warnings) = try SceneDecoder.decodeInput(bytes: body) { at in
                    advanceFailure = Self.advance(copy, to: at)
                    return Self.ids(of: copy)
                }
            } catch {
                throw ServiceError(error)
            }
            if let advanceFailure { throw ServiceError.invalidField(advanceFailure.path, advanceFailure.message) }
            if entry.at < state.session.time {
                throw ServiceError.conflict(
                    "The input's time \(entry.at) is earlier than the session's time \(state.session.time): inputs arrive in time order."
                )
            }
            let jump = entry.at - state.session.time
            if jump > ChoreoEngine.Limits.maxInputJump {
                throw ServiceError.invalidField(
                    "$.at",
                    "moves the session \(jump) s ahead of its time \(state.session.time); an input moves it at most \(Int(ChoreoEngine.Limits.maxInputJump)) s (at is in seconds: 0.7, not 700)"
                )
            }
            if jump >= 60 {
                warnings.insert(
                    Diagnostic.suspiciousUnit(
                        time: entry.at, path: "$.at",
                        message: "at \(entry.at) moves the session \(jump) s ahead: probably milliseconds",
                        fix: "at is in seconds, as CACurrentMediaTime(): write \(entry.at / 1000) for \(entry.at) ms"),
                    at: 0)
            }
            do throws(RuntimeError) {
                try copy.append(entry)
            } catch {
                // The copy is dropped: the session stays at its last accepted input.
                let prefix = "$.script[\(offset)]"
                let path = error.path.hasPrefix(prefix) ? "$" + error.path.dropFirst(prefix.count) : error.path
                throw ServiceError.invalidField(path, error.message)
            }
            let outcome = InputOutcome(
                time: copy.time, inputs: count + 1, recorded: copy.recorded,
                events: Array(copy.events[eventsBefore...]), diagnostics: warnings)
            prepared = Trial(number: count, at: entry.at, session: copy, outcome: outcome)
        }
        return prepared!
    }

    /// A stored input's copy takes the session's place, unless a catch-up has applied the
    /// stored input already.
    private func commit(_ trial: Trial, of live: Live, body: [UInt8]) {
        let added = live.state.withLock { (state: inout LiveState) -> Bool in
            guard state.inputs.count == trial.number else { return false }
            state.session = trial.session
            state.append((trial.at, body))
            return true
        }
        touch(live, adding: added ? body.count : 0)
    }

    /// Applies the inputs other writers stored since this session last saw them (read from
    /// storage outside the session's lock); not found when another replica deleted it.
    private func catchUp(_ live: Live) throws(ServiceError) {
        let seen = live.state.withLock { $0.inputs.count }
        let newer = try storage { () throws(StorageError) in try store.inputs(session: live.id, from: seen) }
        guard let newer else {
            forget(live.id)
            throw ServiceError.notFound("No session has the id \(live.id).")
        }
        guard !newer.isEmpty else { return }
        let added = try live.state.withLock { (state: inout LiveState) throws(ServiceError) -> Int in
            // Inputs applied meanwhile by another request are skipped.
            let skip = state.inputs.count - seen
            guard skip < newer.count else { return 0 }
            let copy = state.session.copy()
            var bytes = 0
            for input in newer.dropFirst(max(0, skip)) {
                try Self.apply(input, to: copy)
                state.append(input)
                bytes += input.document.count
            }
            state.session = copy
            return bytes
        }
        touch(live, adding: added)
    }

    /// `GET /v1/sessions/{id}`: the scene, the inputs, the time.
    public func describe(_ id: String) throws(ServiceError) -> SessionSnapshot {
        let live = try session(id)
        return live.state.withLock { state in
            SessionSnapshot(id: id, time: state.session.time, scene: live.scene, entries: state.inputs.map(\.document))
        }
    }

    /// The session's timeline run on to its end: `GET /v1/sessions/{id}/frames`. The run goes
    /// on a copy, outside the session's lock.
    public func timeline(_ id: String, horizon: Double?) throws(ServiceError) -> Timeline {
        let live = try session(id)
        let copy = live.state.withLock { $0.session.copy() }
        do throws(RuntimeError) {
            return try copy.timeline(horizon: horizon)
        } catch {
            throw ServiceError.invalidField(error.path, error.message)
        }
    }

    /// `GET /v1/sessions/{id}/frames`: the session's timeline run on to the end the query
    /// samples, rendered as ``RenderService`` renders a scene, pictures with their query's
    /// scale, size and frames; `planned` sees the plan first.
    public func frames(
        _ id: String, query request: RenderQuery, cancellation: Cancellation?, memory: RenderMemory?, threads: Int,
        byteBudget: Int?, planned: (RenderPlan) -> Void = { _ in }
    ) throws(ServiceError) -> RenderOutput {
        let query = request.sampling
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
            memory: memory, query: request)
    }

    /// `DELETE /v1/sessions/{id}`.
    public func delete(_ id: String) throws(ServiceError) {
        let deleted = try storage { () throws(StorageError) in try store.deleteSession(id) }
        forget(id)
        guard deleted else { throw ServiceError.notFound("No session has the id \(id).") }
    }

    // MARK: Memory

    /// The session in memory, or loaded (and replayed) from storage outside every lock. With
    /// replicas, it first takes the inputs another replica stored since.
    private func session(_ id: String) throws(ServiceError) -> Live {
        if let known = index.withLock({ index -> Live? in
            guard let entry = index.live[id] else { return nil }
            index.clock += 1
            index.live[id]?.lastUse = index.clock
            return entry.live
        }) {
            if store.coordination != nil { try catchUp(known) }
            return known
        }
        guard let record = try storage({ () throws(StorageError) in try store.session(id) }) else {
            throw ServiceError.notFound("No session has the id \(id).")
        }
        let loaded = Live(
            id: id, scene: record.scene, session: try replay(scene: record.scene, inputs: record.inputs),
            inputs: record.inputs)
        // Another request may have loaded it meanwhile: the first one in memory is used.
        return admit(loaded, bytes: record.scene.count + record.inputs.reduce(0) { $0 + $1.document.count })
    }

    /// Puts a session in memory (or returns the one already there) and evicts others past
    /// the limits.
    @discardableResult
    private func admit(_ live: Live, bytes: Int) -> Live {
        index.withLock { index in
            index.clock += 1
            if let present = index.live[live.id] {
                index.live[live.id]?.lastUse = index.clock
                return present.live
            }
            index.live[live.id] = Entry(live: live, bytes: bytes, lastUse: index.clock)
            index.bytes += bytes
            evict(&index, keeping: live.id)
            holdMemory(&index, keeping: live.id)
            return live
        }
    }

    /// Counts bytes a session has taken and marks it used.
    private func touch(_ live: Live, adding bytes: Int) {
        index.withLock { index in
            index.clock += 1
            // Only the session the index holds is counted (an evicted one is not).
            guard index.live[live.id]?.live === live else { return }
            index.live[live.id]?.lastUse = index.clock
            index.live[live.id]?.bytes += bytes
            index.bytes += bytes
            evict(&index, keeping: live.id)
            holdMemory(&index, keeping: live.id)
        }
    }

    /// Lets a session go from memory (it stays stored, unless deleted).
    private func forget(_ id: String) {
        index.withLock { index in
            if let entry = index.live.removeValue(forKey: id) { index.bytes -= entry.bytes }
            holdMemory(&index, keeping: nil)
        }
    }

    /// Brings what the live sessions hold in the shared budget to their documents' bytes times
    /// ``memoryPerDocumentByte``: the least recently used sessions but `id` leave memory while
    /// it does not fit. (An input checked the room first, ``makeRoom(for:keeping:)``; a render
    /// that took it meanwhile leaves the sessions holding less until their next change.)
    private func holdMemory(_ index: inout Index, keeping id: String?) {
        guard let held else { return }
        let target = index.bytes * Self.memoryPerDocumentByte
        if target < held.bytes {
            held.shrink(held.bytes - target)
            return
        }
        while target > held.bytes && !held.grow(target - held.bytes) {
            guard let oldest = index.live.filter({ $0.key != id }).min(by: { $0.value.lastUse < $1.value.lastUse })
            else { return }
            index.live.removeValue(forKey: oldest.key)
            index.bytes -= oldest.value.bytes
            let lower = index.bytes * Self.memoryPerDocumentByte
            if lower < held.bytes { held.shrink(held.bytes - lower) }
            if lower <= held.bytes { return }
        }
    }

    /// Before a session or an input is taken: room in the shared budget for `bytes` more of
    /// documents, made by letting the least recently used other sessions go from memory; busy
    /// (503, `Retry-After`) when the renders in flight hold the rest.
    private func makeRoom(for bytes: Int, keeping id: String?) throws(ServiceError) {
        guard let memory, let held else { return }
        let need = bytes * Self.memoryPerDocumentByte
        let fits = index.withLock { index -> Bool in
            while memory.limit - memory.inUse < need {
                guard
                    let oldest = index.live.filter({ $0.key != id }).min(by: { $0.value.lastUse < $1.value.lastUse })
                else { return false }
                index.live.removeValue(forKey: oldest.key)
                index.bytes -= oldest.value.bytes
                let target = index.bytes * Self.memoryPerDocumentByte
                if target < held.bytes { held.shrink(held.bytes - target) }
            }
            return true
        }
        if !fits {
            throw ServiceError.busy(
                "The renders in flight and the live sessions hold the server's render memory (\(memory.limit) bytes); try again shortly."
            )
        }
    }

    /// The least recently used sessions leave memory while over either limit (they stay stored).
    private func evict(_ index: inout Index, keeping id: String) {
        while index.live.count > limits.liveSessions || (index.bytes > limits.liveBytes && index.live.count > 1) {
            guard let oldest = index.live.filter({ $0.key != id }).min(by: { $0.value.lastUse < $1.value.lastUse })
            else { return }
            index.live.removeValue(forKey: oldest.key)
            index.bytes -= oldest.value.bytes
        }
    }

    /// A session rebuilt from its scene and inputs.
    private func replay(scene: [UInt8], inputs: [StoredInput]) throws(ServiceError) -> SceneSession {
        let (decoded, _) = try RenderService.scene(from: scene)
        let session = SceneSession(decoded)
        for input in inputs { try Self.apply(input, to: session) }
        return session
    }

    /// Runs a stored input on a session, as it ran when it was accepted (the session first run
    /// up to its time): one that no longer decodes or runs is a fault of the server's.
    private static func apply(_ input: StoredInput, to session: SceneSession) throws(ServiceError) {
        var advanceFailure: RuntimeError?
        do {
            let (entry, _) = try SceneDecoder.decodeInput(bytes: input.document) { at in
                advanceFailure = advance(session, to: at)
                return ids(of: session)
            }
            if let advanceFailure { throw advanceFailure }
            try session.append(entry)
        } catch {
            throw ServiceError.internalFailure("A stored input no longer replays: \(error)")
        }
    }

    /// Runs `session` up to an input's time `at`, when the input can run then (not earlier than
    /// the session's time, nor further ahead than an input may move it); the failure of the
    /// scene's own script on the way, if any.
    private static func advance(_ session: SceneSession, to at: Double?) -> RuntimeError? {
        guard let at, at >= session.time, at - session.time <= ChoreoEngine.Limits.maxInputJump else { return nil }
        do throws(RuntimeError) {
            try session.advance(to: at)
            return nil
        } catch {
            return error
        }
    }

    /// The ids an input may name in `session` as it is now.
    private static func ids(of session: SceneSession) -> KnownIDs {
        KnownIDs(
            layers: session.knownLayers, animators: session.knownAnimators, transitions: session.knownTransitions)
    }

    private func storage<T>(_ body: () throws(StorageError) -> T) throws(ServiceError) -> T {
        try ServiceError.storing(body)
    }
}
