import ChoreoEngine
import ChoreoJSON

/// A live session's summary: `POST /v1/sessions` answers with it.
public struct SessionSummary: Sendable, Equatable {
    public let id: String
    /// The session's time: its latest input's `at`.
    public let time: Double
    /// Inputs taken.
    public let inputs: Int

    public init(id: String, time: Double, inputs: Int) {
        self.id = id
        self.time = time
        self.inputs = inputs
    }
}

/// What one input did: the session's time and input count after it, its animators' and
/// transitions' state then, and the events it made fire. The answer to
/// `POST /v1/sessions/{id}/inputs`.
public struct InputOutcome: Sendable {
    public let time: Double
    public let inputs: Int
    /// The session's timeline as recorded up to ``time`` (its animators and transitions).
    public let recorded: Timeline
    public let events: [Event]
    /// What the input says that is valid but probably not meant (`suspicious-unit`).
    public let diagnostics: [Diagnostic]

    public init(time: Double, inputs: Int, recorded: Timeline, events: [Event], diagnostics: [Diagnostic] = []) {
        self.time = time
        self.inputs = inputs
        self.recorded = recorded
        self.events = events
        self.diagnostics = diagnostics
    }
}

/// A live session whole: its scene and inputs as they were sent. `GET /v1/sessions/{id}`.
public struct SessionSnapshot: Sendable {
    public let id: String
    public let time: Double
    /// The scene document, as sent.
    public let scene: [UInt8]
    /// Each input's document, as sent, in order.
    public let entries: [[UInt8]]

    public init(id: String, time: Double, scene: [UInt8], entries: [[UInt8]]) {
        self.id = id
        self.time = time
        self.scene = scene
        self.entries = entries
    }
}

extension ResponseEncoder {
    /// `{"id","time","inputs"}`.
    public static func session(_ summary: SessionSummary) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"id\":")
        writer.string(summary.id)
        writer.raw(",\"time\":")
        writer.number(summary.time)
        writer.raw(",\"inputs\":")
        writer.integer(Int64(summary.inputs))
        writer.raw("}")
        return writer.bytes
    }

    /// `{"time", "inputs", "animators", "transitions", "events"}` after an input, and
    /// `"diagnostics"` when the input has any.
    public static func input(_ outcome: InputOutcome) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"time\":")
        writer.number(outcome.time)
        writer.raw(",\"inputs\":")
        writer.integer(Int64(outcome.inputs))
        writeInteractive(outcome.recorded, at: SceneTime.quantize(outcome.time), into: &writer, always: true)
        writer.raw(",\"events\":")
        writeEvents(outcome.events, into: &writer)
        if !outcome.diagnostics.isEmpty {
            writer.raw(",\"diagnostics\":")
            writeDiagnostics(outcome.diagnostics, into: &writer)
        }
        writer.raw("}")
        return writer.bytes
    }

    /// `{"id", "time", "inputs", "scene", "entries"}`: the documents as they were sent.
    public static func session(_ snapshot: SessionSnapshot) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"id\":")
        writer.string(snapshot.id)
        writer.raw(",\"time\":")
        writer.number(snapshot.time)
        writer.raw(",\"inputs\":")
        writer.integer(Int64(snapshot.entries.count))
        writer.raw(",\"scene\":")
        writer.bytes.append(contentsOf: snapshot.scene)
        writer.raw(",\"entries\":")
        writer.array(snapshot.entries) { $0.bytes.append(contentsOf: $1) }
        writer.raw("}")
        return writer.bytes
    }
}
