/// A classic animation pitfall found in a scene, with when and where it happens and the fix.
public struct Diagnostic: Sendable, Equatable {
    public enum Severity: String, Sendable, Equatable {
        case info, warning, error
    }

    /// The scene-format diagnostic codes.
    public enum Code: String, Sendable, Equatable, CaseIterable {
        case snapBack = "snap-back"
        case fillWithoutRetain = "fill-without-retain"
        case retainedDivergence = "retained-divergence"
        case groupClipped = "group-clipped"
        case keyReplaced = "key-replaced"
        case overridden
        case completionImmediate = "completion-immediate"
        case emitterNotRemoved = "emitter-not-removed"
        case neverSettles = "never-settles"
        case suspiciousUnit = "suspicious-unit"
        case toViewNotAdded = "to-view-not-added"
        case transitionNeverCompleted = "transition-never-completed"
        case completionIgnoresCancel = "completion-ignores-cancel"
        case cancelNotRestored = "cancel-not-restored"
        case animatesOffscreenLayer = "animates-offscreen-layer"
        case completionNeverRuns = "completion-never-runs"
        case animationWithoutValue = "animation-without-value"
        case replicasCapped = "replicas-capped"
    }

    public var severity: Severity
    public var code: Code
    public var time: Double
    public var layer: String?
    public var keyPath: String?
    /// One sentence: what happens.
    public var message: String
    /// One sentence: how to avoid it.
    public var fix: String
    /// The JSON path of the value at fault, for what the scene says rather than does.
    public var path: String?

    public init(
        severity: Severity, code: Code, time: Double, layer: String?, keyPath: String?, message: String, fix: String
    ) {
        self.severity = severity
        self.code = code
        self.time = time
        self.layer = layer
        self.keyPath = keyPath
        self.message = message
        self.fix = fix
    }
}
