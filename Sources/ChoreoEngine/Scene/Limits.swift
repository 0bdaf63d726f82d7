/// The bounds the engine holds every run to, so that no scene can exhaust the service; the
/// scene format's and the response's own bounds are `FormatLimits` (ChoreoFormat).
/// Documented in `docs/limits.md`; violations are reported as validation errors, never crashes.
public enum Limits {
    /// Layers in a scene, including those added by the script.
    public static let maxLayers = 10_000
    /// The latest scene time anything may be scheduled or sampled at, in seconds.
    public static let maxSceneTime = 3_600.0
    /// How far one input may move a live session's time ahead, in seconds: a jump past it is
    /// surely milliseconds (`"at": 700` for 0.7 s).
    public static let maxInputJump = 600.0
    /// Runtime events (turns and delegate callbacks) one scene may generate.
    public static let maxEvents = 250_000
    /// Runtime events at one instant: a loop that restarts itself without time passing (a
    /// zero-length animation re-added from its own `onStop`) is stopped here, long before
    /// ``maxEvents``.
    public static let maxEventsPerInstant = 100_000
    /// How far a scene that never settles is sampled by default, in seconds.
    public static let neverSettlesHorizon = 10.0
    /// Particles of one cell alive at once (birth rate × longest lifetime).
    public static let maxParticlesPerCell = 5_000
    /// Copies `CAReplicatorLayer`s make in one scene, over all of them (each a layer whose
    /// values are derived at every sample).
    public static let maxReplicaLayers = 2_000
}
