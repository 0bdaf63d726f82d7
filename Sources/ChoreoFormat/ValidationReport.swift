import ChoreoEngine
import ChoreoJSON

/// What `POST /v1/validate` and `choreo validate` answer: the scene's errors, or, for a valid
/// scene, its duration, diagnostics and events (the run, without frames).
public struct ValidationReport: Sendable {
    public let errors: [FieldError]
    /// The scene's natural end, for a valid scene.
    public let duration: Double?
    public let diagnostics: [Diagnostic]
    public let events: [Event]

    public var valid: Bool { errors.isEmpty }

    /// An invalid scene's report.
    public init(errors: [FieldError]) {
        self.errors = errors
        duration = nil
        diagnostics = []
        events = []
    }

    /// A valid scene's report.
    public init(duration: Double, diagnostics: [Diagnostic], events: [Event]) {
        errors = []
        self.duration = duration
        self.diagnostics = diagnostics
        self.events = events
    }
}

extension ResponseEncoder {
    /// `{"valid":false,"errors":[…],"diagnostics":[]}`, or `{"valid":true,"errors":[],
    /// "duration":…,"diagnostics":[…],"events":[…]}`.
    public static func validation(_ report: ValidationReport) -> [UInt8] {
        var writer = JSONWriter()
        if let duration = report.duration, report.valid {
            writer.raw("{\"valid\":true,\"errors\":[],\"duration\":")
            writer.number(duration)
            writer.raw(",\"diagnostics\":")
            writeDiagnostics(report.diagnostics, into: &writer)
            writer.raw(",\"events\":")
            writeEvents(report.events, into: &writer)
            writer.raw("}")
        } else {
            writer.raw("{\"valid\":false,\"errors\":")
            writeFieldErrors(report.errors, into: &writer)
            writer.raw(",\"diagnostics\":[]}")
        }
        return writer.bytes
    }
}
