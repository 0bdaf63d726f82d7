import ChoreoEngine
import ChoreoFormat
import ChoreoStorage
import ChoreoTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import ChoreoService

/// The registry's locks: one session's storage round trip does not hold another session, inputs
/// racing on one session are all taken in some order, and a rejected input restores the
/// session without replaying it.
@Suite final class SessionLockTests {
    let scratch = Scratch("choreo-session-locks")

    static let scene = Array(#"{"layers": [{"id": "card", "position": [0, 0]}], "script": []}"#.utf8)

    static func move(at time: Double, x: Double) -> [UInt8] {
        Array(
            #"{"at": \#(time), "do": [{"set": {"card": {"position": [\#(x), 0]}}}]}"#.utf8)
    }

    /// While an input of one session waits in storage, another session's input is taken.
    @Test func oneSessionsStorageDoesNotHoldAnother() throws {
        let store = PausingStore(try SQLiteStore(directory: scratch.file("pause")))
        let registry = SessionRegistry(store: store)
        let slow = try registry.create(Self.scene).id
        let quick = try registry.create(Self.scene).id
        store.pause(session: slow)
        let slowDone = DispatchSemaphore(value: 0)
        let slowResult = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let inputs = try? registry.append(slow, body: Self.move(at: 1, x: 10), ifMatch: nil).inputs
            slowResult.withLock { $0 = inputs }
            slowDone.signal()
        }
        #expect(store.waitUntilPaused(seconds: 10), "the slow input never reached storage")
        // The slow session's input is held inside storage; the other session is not.
        let quickDone = DispatchSemaphore(value: 0)
        let quickResult = Mutex<Int?>(nil)
        DispatchQueue.global().async {
            let inputs = try? registry.append(quick, body: Self.move(at: 1, x: 20), ifMatch: nil).inputs
            quickResult.withLock { $0 = inputs }
            quickDone.signal()
        }
        let quickFinished = quickDone.wait(timeout: .now() + 10) == .success
        store.resume()
        #expect(quickFinished, "an input of another session waited for the paused one")
        #expect(slowDone.wait(timeout: .now() + 10) == .success)
        if !quickFinished { _ = quickDone.wait(timeout: .now() + 10) }
        #expect(quickResult.withLock { $0 } == 1)
        #expect(slowResult.withLock { $0 } == 1)
    }

    /// Eight threads send inputs to one session at once: every input is taken once, in some
    /// order, and memory and storage agree.
    @Test func racingInputsAreAllTaken() throws {
        let store = try SQLiteStore(directory: scratch.file("race"))
        let registry = SessionRegistry(store: store)
        let id = try registry.create(Self.scene).id
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<10 {
                do {
                    _ = try registry.append(id, body: Self.move(at: 1, x: Double(thread * 100 + number)), ifMatch: nil)
                } catch {
                    failures.withLock { $0.append("\(thread).\(number): \(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let snapshot = try registry.describe(id)
        #expect(snapshot.entries.count == 80)
        #expect(try store.session(id)?.inputs.map(\.document) == snapshot.entries)
        // A fresh registry replays the stored inputs to the same state.
        let again = SessionRegistry(store: store)
        #expect(try again.describe(id).entries == snapshot.entries)
    }

    /// An input that fails at run time leaves the session at its last accepted input: its
    /// events and frames are those before, and the next input is numbered as if the failed one
    /// had never come.
    @Test func rejectedInputRestoresTheSession() throws {
        let store = try SQLiteStore(directory: scratch.file("reject"))
        let registry = SessionRegistry(store: store)
        let id = try registry.create(Self.scene).id
        let start =
            #"{"at": 0, "do": [{"propertyAnimator": {"id": "sheet", "duration": 2, "curve": "linear", "changes": {"card": {"position": [100, 0]}}}}, {"startAnimation": {}, "animator": "sheet"}]}"#
        _ = try registry.append(id, body: Array(start.utf8), ifMatch: nil)
        let before = try registry.timeline(id, horizon: 3)
        // UIKit raises on finishAnimation(at:) for a running animator.
        let raises = Array(#"{"at": 1, "do": [{"finishAnimation": {"at": "end"}, "animator": "sheet"}]}"#.utf8)
        #expect(throws: ServiceError.self) { try registry.append(id, body: raises, ifMatch: nil) }
        let after = try registry.timeline(id, horizon: 3)
        #expect(after.events == before.events)
        #expect(try registry.describe(id).entries.count == 1)
        let next = try registry.append(id, body: Self.move(at: 1, x: 5), ifMatch: 1)
        #expect(next.inputs == 2)
    }
}

/// A pan streamed one sample an input keeps the settings its first input gave (axis,
/// distance, thresholds): what a gesture client sends.
@Suite final class StreamedPanTests {
    let scratch = Scratch("choreo-streamed-pan")

    static let scene = Array(
        #"""
        {"layers": [{"id": "container", "frame": [0, 0, 375, 667], "sublayers": [
          {"id": "presenting", "frame": [0, 0, 375, 667]},
          {"id": "sheet", "frame": [0, 120, 375, 547]}]}]}
        """#.utf8)

    static let begin = Array(
        #"""
        {"at": 1, "do": [{"pan": {"transition": "dismiss", "axis": "x", "distance": 375,
          "finishIf": {"progressOver": 0.5, "velocityOver": 800},
          "onBegan": [{"beginTransition": {"id": "dismiss", "operation": "dismiss", "from": "sheet", "to": "presenting",
            "container": "container", "duration": 0.4, "interactive": {"completionSpeed": 1},
            "animateTransition": [{"animate": {"duration": 0.4, "changes": {"sheet": {"frame": [375, 120, 375, 547]}},
              "completion": [{"completeTransition": "notCancelled"}]}}]}}],
          "samples": [{"at": 1, "state": "began", "translation": [0, 0]}]}}]}
        """#.utf8)

    static func sample(_ at: Double, _ state: String, x: Double, velocity: Double = 0) -> [UInt8] {
        Array(
            #"{"at": \#(at), "do": [{"pan": {"transition": "dismiss", "samples": [{"at": \#(at), "state": "\#(state)", "translation": [\#(x), 0], "velocity": [\#(velocity), 0]}]}}]}"#
                .utf8)
    }

    /// A fast release along x finishes though the pan moved only a quarter of the distance:
    /// the later samples kept axis x and velocityOver 800 (they fell back to the y axis, and a
    /// 1000 pt/s release was cancelled).
    @Test func aStreamedPanKeepsItsSettings() throws {
        let registry = SessionRegistry(store: try SQLiteStore(directory: scratch.file("pan")))
        let id = try registry.create(Self.scene).id
        _ = try registry.append(id, body: Self.begin, ifMatch: nil)
        _ = try registry.append(id, body: Self.sample(1.05, "changed", x: 93.75), ifMatch: nil)
        _ = try registry.append(id, body: Self.sample(1.1, "ended", x: 93.75, velocity: 1000), ifMatch: nil)
        let completed = try registry.timeline(id, horizon: 3).events.compactMap { event -> Bool? in
            if case .transitionCompleted(_, let didComplete, _) = event.kind { didComplete } else { nil }
        }
        #expect(completed == [true])
    }

    /// A session whose finger is still down is not told its transition never completed, and
    /// the render of the same script says the same (replay equals render).
    @Test func aGestureInProgressIsNotNeverCompleted() throws {
        let registry = SessionRegistry(store: try SQLiteStore(directory: scratch.file("down")))
        let id = try registry.create(Self.scene).id
        _ = try registry.append(id, body: Self.begin, ifMatch: nil)
        _ = try registry.append(id, body: Self.sample(1.05, "changed", x: 93.75), ifMatch: nil)
        let live = try registry.timeline(id, horizon: 3).diagnostics.map(\.code)
        #expect(!live.contains(.transitionNeverCompleted), "\(live)")
        let script = [Self.begin, Self.sample(1.05, "changed", x: 93.75)].map { String(decoding: $0, as: UTF8.self) }
        let document = String(decoding: Self.scene, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let whole = String(document.dropLast()) + ", \"script\": [" + script.joined(separator: ", ") + "]}"
        let rendered = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(whole.utf8)).scene)
        #expect(rendered.diagnostics.map(\.code) == live)
    }
}

/// A SQLite store whose `appendInput` for one session waits until resumed: a storage round
/// trip that takes as long as the test wants.
final class PausingStore: Storage {
    let base: SQLiteStore
    private let paused = Mutex<String?>(nil)
    private let reached = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    init(_ base: SQLiteStore) { self.base = base }

    func pause(session: String) { paused.withLock { $0 = session } }

    func waitUntilPaused(seconds: Double) -> Bool { reached.wait(timeout: .now() + seconds) == .success }

    func resume() {
        paused.withLock { $0 = nil }
        release.signal()
    }

    func appendInput(session: String, number: Int, at: Double, document: [UInt8]) throws(StorageError) -> Bool {
        if paused.withLock({ $0 == session }) {
            reached.signal()
            _ = release.wait(timeout: .now() + 30)
        }
        return try base.appendInput(session: session, number: number, at: at, document: document)
    }

    var backend: String { base.backend }
    var location: String { base.location }
    var coordination: (any ReplicaCoordination)? { nil }
    func schemaVersion() throws(StorageError) -> Int { try base.schemaVersion() }
    /// With `holdHealth`, a health check waits until ``releaseHealth()`` (a frozen database).
    let healthHeld = Mutex(false)
    private let healthRelease = DispatchSemaphore(value: 0)

    func holdHealth() { healthHeld.withLock { $0 = true } }

    func releaseHealth() {
        healthHeld.withLock { $0 = false }
        healthRelease.signal()
    }

    func healthProblem() -> String? {
        if healthHeld.withLock({ $0 }) { _ = healthRelease.wait(timeout: .now() + 30) }
        return base.healthProblem()
    }
    func close() { base.close() }
    func insert(name: String?, document: [UInt8], created: Date) throws(StorageError) -> SceneSummary {
        try base.insert(name: name, document: document, created: created)
    }
    func get(_ id: String) throws(StorageError) -> SceneRecord? { try base.get(id) }
    func delete(_ id: String) throws(StorageError) -> Bool { try base.delete(id) }
    func list(limit: Int, after cursor: Int64?) throws(StorageError) -> (items: [SceneSummary], next: Int64?) {
        try base.list(limit: limit, after: cursor)
    }
    func createSession(scene: [UInt8], created: Date) throws(StorageError) -> String {
        try base.createSession(scene: scene, created: created)
    }
    func session(_ id: String) throws(StorageError) -> SessionRecord? { try base.session(id) }
    func inputs(session: String, from number: Int) throws(StorageError) -> [StoredInput]? {
        try base.inputs(session: session, from: number)
    }
    func deleteSession(_ id: String) throws(StorageError) -> Bool { try base.deleteSession(id) }
    func sessionCount() throws(StorageError) -> Int { try base.sessionCount() }
    func arenaConfiguration() throws(StorageError) -> [UInt8]? { try base.arenaConfiguration() }
    func saveArenaConfiguration(_ document: [UInt8]) throws(StorageError) { try base.saveArenaConfiguration(document) }
    func appendProbes(_ rows: [ProbeRow], buckets: [StoredBucket], trimming: Set<String>?) throws(StorageError) {
        try base.appendProbes(rows, buckets: buckets, trimming: trimming)
    }
    func buckets(node: String, fromMs: Int64, toMs: Int64) throws(StorageError) -> [StoredBucket] {
        try base.buckets(node: node, fromMs: fromMs, toMs: toMs)
    }
    func trimBuckets(resolution: Int64, beforeMs: Int64) throws(StorageError) -> Int {
        try base.trimBuckets(resolution: resolution, beforeMs: beforeMs)
    }
    func bucketCounts() throws(StorageError) -> [Int64: Int] { try base.bucketCounts() }
    func bucketTotals(resolution: Int64, fromMs: Int64) throws(StorageError) -> [String: (total: Int64, up: Int64)] {
        try base.bucketTotals(resolution: resolution, fromMs: fromMs)
    }
    func probes(node: String) throws(StorageError) -> [ProbeRow] { try base.probes(node: node) }
    func probes(after sequence: Int64, limit: Int) throws(StorageError) -> [(sequence: Int64, row: ProbeRow)] {
        try base.probes(after: sequence, limit: limit)
    }
    func latestProbeSequence() throws(StorageError) -> Int64 { try base.latestProbeSequence() }
    func claimRound(_ round: StoredRound) throws(StorageError) -> StoredRound? { try base.claimRound(round) }
    func latestRound(after id: Int) throws(StorageError) -> StoredRound? { try base.latestRound(after: id) }
    func recordAlert(_ event: StoredAlertEvent, deliveries: [StoredDelivery]) throws(StorageError) -> Bool {
        try base.recordAlert(event, deliveries: deliveries)
    }
    func latestAlertEvents() throws(StorageError) -> [StoredAlertEvent] { try base.latestAlertEvents() }
    func dueDeliveries(nowMs: Int64, limit: Int) throws(StorageError) -> [StoredDelivery] {
        try base.dueDeliveries(nowMs: nowMs, limit: limit)
    }
    func updateDelivery(
        key: String, channel: String, status: StoredDelivery.Status, attempts: Int, nextMs: Int64, error: String?
    ) throws(StorageError) {
        try base.updateDelivery(
            key: key, channel: channel, status: status, attempts: attempts, nextMs: nextMs, error: error)
    }
    func recentDeliveries(limit: Int) throws(StorageError) -> [StoredDelivery] {
        try base.recentDeliveries(limit: limit)
    }
    func deliveryCounts() throws(StorageError) -> [StoredDelivery.Status: Int] { try base.deliveryCounts() }
}
