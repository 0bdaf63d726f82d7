/// The bounds every request is held to, so that no scene or query can exhaust the service.
/// Documented in `docs/limits.md`; violations are reported as validation errors, never crashes.
public enum Limits {
    /// Layers in a scene, including those added by the script.
    public static let maxLayers = 10_000
    /// Script entries plus actions, counted over the whole document.
    public static let maxScriptActions = 100_000
    /// Animations nested in groups, at any depth.
    public static let maxGroupDepth = 16
    /// Keyframe values per animation.
    public static let maxKeyframes = 10_000
    /// The latest scene time anything may be scheduled or sampled at, in seconds.
    public static let maxSceneTime = 3_600.0
    /// Frames in one response.
    public static let maxFrames = 100_000
    /// Explicit `times` in one request.
    public static let maxTimes = 100_000
    /// Property samples (frames × layers × properties) in one JSON response.
    public static let maxSamplesJSON = 5_000_000
    /// Property samples in one streamed NDJSON response.
    public static let maxSamplesNDJSON = 200_000_000
    /// Runtime events (turns and delegate callbacks) one scene may generate.
    public static let maxEvents = 1_000_000
    /// How far a scene that never settles is sampled by default, in seconds.
    public static let neverSettlesHorizon = 10.0
    /// Cells per emitter layer.
    public static let maxEmitterCells = 32
    /// Particles of one cell alive at once (birth rate × longest lifetime).
    public static let maxParticlesPerCell = 5_000
    /// A cell's `birthRate`, particles per second.
    public static let maxParticleBirthRate = 100_000.0
    /// `fps` bounds.
    public static let maxFPS = 1_000.0
}
