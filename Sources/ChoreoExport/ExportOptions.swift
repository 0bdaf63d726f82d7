/// The formats a scene leaves choreo in (docs/export.md).
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Bodymovin JSON, as lottie-web, lottie-ios, lottie-android and rlottie play it.
    case lottie
    /// CSS `@keyframes` and the `animation-*` properties that play them.
    case css
    /// The same keyframes as JSON for `element.animate(keyframes, timing)` (Web Animations).
    case waapi
    /// A self-contained page: the layers as positioned elements, the CSS above.
    case html
    /// The dotLottie container (`.lottie`): a ZIP of `manifest.json` and the Lottie file above.
    case dotlottie

    /// Whether the artefact is a Lottie composition (bare, or in its dotLottie container).
    public var isLottie: Bool { self == .lottie || self == .dotlottie }

    /// The media type of the artefact.
    public var contentType: String {
        switch self {
        case .lottie, .waapi: "application/json"
        case .css: "text/css; charset=utf-8"
        case .html: "text/html; charset=utf-8"
        case .dotlottie: "application/zip"
        }
    }

    /// The file extension a CLI user expects.
    public var fileExtension: String {
        switch self {
        case .lottie: "json"
        case .css: "css"
        case .waapi: "waapi.json"
        case .html: "html"
        case .dotlottie: "lottie"
        }
    }
}

/// What an export is asked for: its format, the rate baked segments are sampled at, and the
/// stage's size and scale.
public struct ExportOptions: Sendable, Equatable {
    public var format: ExportFormat
    /// Frames per second of the sampled keyframes (a Lottie file's `fr`); 1…240.
    public var fps: Double
    /// The stage in points, instead of the scene's canvas.
    public var width: Double?
    public var height: Double?
    /// Pixels per point of the stage (a Lottie file's `w`/`h`, the page's stage), 0.1…4.
    public var scale: Double

    public init(format: ExportFormat, fps: Double = 60, width: Double? = nil, height: Double? = nil, scale: Double = 1)
    {
        self.format = format
        self.fps = fps
        self.width = width
        self.height = height
        self.scale = scale
    }
}

/// The bounds an export is held to (docs/limits.md).
public enum ExportLimits {
    /// Layers × sampled frames of one export: the samples held while keyframes are chosen
    /// (about 400 bytes each).
    public static let maxLayerFrames = 400_000
    /// Keyframes the animations play in one export's span, repeats included (``ExportCost``):
    /// what its eased stretches and added animations are made from.
    public static let maxKeyframes = 1_000_000
    /// Animations × the times each is sampled while attached, in one export (``ExportCost``):
    /// what its snapshots of the presentation tree evaluate.
    public static let maxSamples = 4_000_000
    public static let maxFPS = 240.0
    public static let maxScale = 4.0
}
