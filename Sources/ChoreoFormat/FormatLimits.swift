import ChoreoEngine

/// The bounds of the scene format and of render responses: what one document may hold and one
/// response may carry (the engine's own bounds are ``Limits``). Documented in `docs/limits.md`.
public enum FormatLimits {
    /// Script entries plus actions, counted over the whole document.
    public static let maxScriptActions = 100_000
    /// Animations nested in groups, at any depth.
    public static let maxGroupDepth = 16
    /// Keyframe values per animation.
    public static let maxKeyframes = 10_000
    /// Frames in one response.
    public static let maxFrames = 100_000
    /// Explicit `times` in one request.
    public static let maxTimes = 100_000
    /// Property samples (frames × layers × properties) in one JSON response.
    public static let maxSamplesJSON = 5_000_000
    /// Bytes of one JSON document the server builds (paths, strings and particles make a
    /// sample's size unbounded); over it, 422 — NDJSON streams it instead.
    public static let maxJSONResponseBytes = 256 << 20
    /// Property samples in one streamed NDJSON response.
    public static let maxSamplesNDJSON = 200_000_000
    /// Particles one frame may draw, over all its emitter layers (each at its bound:
    /// `Timeline.particleBound(layer:)`).
    public static let maxParticlesPerFrame = 100_000
    /// A canvas side, in points (× `scale` ≤ 4 gives pixels).
    public static let maxCanvasPoints = 8_192.0
    /// Pixels of one picture (a frame, or a whole filmstrip): 64 megapixels, 256 MB of ARGB.
    public static let maxPicturePixels = 64 << 20
    /// Frames of one animated PNG (5.5 minutes at 30 fps).
    public static let maxAPNGFrames = 10_000
    /// Frames of one filmstrip (more would not be read anyway).
    public static let maxFilmstripFrames = 1_000
    /// Things drawn for one response, all its frames together: each layer counts 16, plus its
    /// path's elements and the particles it can draw (a 60,000-segment path is then 1,600
    /// frames).
    public static let maxDrawCost = 100_000_000
    /// Pixels drawn for one response, all its frames together (about 2,300 frames of 1280 × 720).
    public static let maxPixelsPerResponse = 1 << 31
    /// Cells per emitter layer.
    public static let maxEmitterCells = 32
    /// `fps` bounds.
    public static let maxFPS = 1_000.0
    /// A cell's `birthRate`, particles per second.
    public static let maxParticleBirthRate = 100_000.0
}
