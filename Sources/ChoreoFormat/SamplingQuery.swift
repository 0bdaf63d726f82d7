import ChoreoEngine

/// The sampling part of a render request: which times, layers and properties to return.
///
/// Comes from the query string of `POST /v1/render` and `GET /v1/scenes/{id}/frames`, or from
/// the flags of `choreo render`.
public struct SamplingQuery: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case json, ndjson
        /// Pictures (docs/pictures.md): one PNG frame, an animated PNG, a grid of frames.
        case png, apng, filmstrip
        /// Video (docs/pictures.md): an animated WebP, a WebM of VP9.
        case webp, webm

        public var isPicture: Bool { self != .json && self != .ndjson }
        /// Frames shown one after another (an animated PNG, WebP or WebM).
        public var isAnimation: Bool { self == .apng || self == .webp || self == .webm }
    }

    public var fps: Double = 60
    public var start: Double = 0
    /// nil: the scene's natural end.
    public var end: Double?
    /// Explicit sample times, in the order given; overrides fps/start/end.
    public var times: [Double]?
    /// Layer ids to return; nil: every layer.
    public var layers: [String]?
    /// Key paths to return; nil: the animated properties plus position, bounds, opacity, transform.
    public var properties: [String]?
    public var format: Format = .json
    /// Significant digits of the sampled values (1…17); nil: exact shortest round-trip output.
    public var precision: Int?

    public init() {}

    /// Reads query parameters as ``RenderQuery/parse(_:)`` does, and keeps the sampling.
    public static func parse(_ parameters: [(String, String)]) throws(ValidationFailure) -> SamplingQuery {
        try RenderQuery.parse(parameters).sampling
    }
}

/// How a picture's frames become pixels (docs/pictures.md): the `contentsScale`, the canvas,
/// and a filmstrip's frames per row.
public struct PictureQuery: Sendable, Equatable {
    /// Pixels per point (`contentsScale`), 0.1…4.
    public var scale: Double = 1
    /// The canvas size in points, instead of the scene's.
    public var width: Double?
    public var height: Double?
    /// Filmstrips: frames per row.
    public var columns = 8
    /// WebP and WebM: 0…100; nil: lossless WebP, and VP9 at its default quality.
    public var quality: Int?

    public init() {}
}

/// What a render request asks for: the frames to sample (``SamplingQuery``) and, for a
/// picture, how to draw them (``PictureQuery``). It comes from the query string of
/// `POST /v1/render` and the frames routes, or from the flags of `choreo render`.
public struct RenderQuery: Sendable, Equatable {
    public var sampling = SamplingQuery()
    public var picture = PictureQuery()

    public init() {}

    /// The parameters a render query takes.
    static let parameterNames = [
        "fps", "start", "end", "times", "time", "layers", "properties", "format", "scale", "width", "height", "columns",
        "precision", "quality",
    ]
    /// The parameters only pictures take.
    static let pictureParameters: Set<String> = ["scale", "width", "height", "columns", "quality"]

    /// Reads query parameters; unknown parameters and bad values are errors with `query.NAME` paths.
    public static func parse(_ parameters: [(String, String)]) throws(ValidationFailure) -> RenderQuery {
        var request = RenderQuery()
        var query = SamplingQuery()
        var picture = PictureQuery()
        var errors: [FieldError] = []
        var seen = Set<String>()
        func number(_ name: String, _ text: String, min: Double, max: Double) -> Double? {
            // Decimal numbers only, as JSON writes them: no hexadecimal floats, no "nan" or "inf".
            let decimal = !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) || "+-.eE".utf8.contains($0) }
            guard decimal, let value = Double(text), value.isFinite else {
                errors.append(FieldError(path: "query.\(name)", message: "must be a finite number, not \"\(text)\""))
                return nil
            }
            guard value >= min && value <= max else {
                errors.append(
                    FieldError(
                        path: "query.\(name)",
                        message: "must be within \(JSONReader.format(min))…\(JSONReader.format(max))"))
                return nil
            }
            return value
        }
        func wholeNumber(_ name: String, _ text: String, min: Double, max: Double, _ what: String) -> Int? {
            guard let v = number(name, text, min: min, max: max) else { return nil }
            guard v.rounded() == v else {
                errors.append(FieldError(path: "query.\(name)", message: "must be \(what)"))
                return nil
            }
            return Int(v)
        }
        func list(_ text: String) -> [String] {
            text.split(separator: ",", omittingEmptySubsequences: true).map {
                String($0).trimmingSpaces()
            }
        }
        for (name, value) in parameters {
            guard seen.insert(name).inserted else {
                errors.append(FieldError(path: "query.\(name)", message: "is given more than once"))
                continue
            }
            switch name {
            case "fps":
                if let v = number(name, value, min: 0.001, max: FormatLimits.maxFPS) { query.fps = v }
            case "start":
                if let v = number(name, value, min: 0, max: Limits.maxSceneTime) { query.start = v }
            case "end":
                if let v = number(name, value, min: 0, max: Limits.maxSceneTime) { query.end = v }
            case "time":
                if let v = number(name, value, min: 0, max: Limits.maxSceneTime) { query.times = [v] }
            case "scale":
                if let v = number(name, value, min: 0.1, max: 4) { picture.scale = v }
            case "width":
                if let v = number(name, value, min: 1, max: FormatLimits.maxCanvasPoints) { picture.width = v }
            case "height":
                if let v = number(name, value, min: 1, max: FormatLimits.maxCanvasPoints) { picture.height = v }
            case "columns":
                if let v = wholeNumber(name, value, min: 1, max: 64, "a whole number") { picture.columns = v }
            case "quality":
                if let v = wholeNumber(name, value, min: 0, max: 100, "a whole number") { picture.quality = v }
            case "precision":
                if let v = wholeNumber(name, value, min: 1, max: 17, "a whole number of digits") { query.precision = v }
            case "times":
                let items = list(value)
                if items.count > FormatLimits.maxTimes {
                    errors.append(FieldError(path: "query.times", message: "at most \(FormatLimits.maxTimes) times"))
                } else if items.isEmpty {
                    errors.append(FieldError(path: "query.times", message: "must list at least one time"))
                } else {
                    var times: [Double] = []
                    for (index, item) in items.enumerated() {
                        if let v = number("times[\(index)]", item, min: 0, max: Limits.maxSceneTime) {
                            times.append(v)
                        }
                    }
                    query.times = times
                }
            case "layers":
                query.layers = list(value)
            case "properties":
                let items = list(value)
                for (index, item) in items.enumerated()
                where KeyPath(item) == nil && item != "transition" && item != "particles" {
                    errors.append(
                        .unknown(
                            "query.properties[\(index)]", "unknown key path \"\(item)\"", item,
                            among: Vocabulary.keyPaths + ["transition", "particles"]))
                }
                query.properties = items
            case "format":
                if let format = SamplingQuery.Format(rawValue: value) {
                    query.format = format
                } else {
                    errors.append(
                        .unknown(
                            "query.format", "must be json, ndjson, png, apng, filmstrip, webp or webm", value,
                            among: SamplingQuery.Format.allCases.map(\.rawValue)))
                }
            default:
                errors.append(.unknown("query.\(name)", "unknown query parameter", name, among: Self.parameterNames))
            }
        }
        if seen.contains("time") && seen.contains("times") {
            errors.append(FieldError(path: "query.time", message: "give time or times, not both"))
        }
        if query.format.isPicture {
            for name in ["layers", "properties", "precision"] where seen.contains(name) {
                errors.append(
                    FieldError(
                        path: "query.\(name)",
                        message: "a picture draws every layer and property; \(name) is for json and ndjson"))
            }
            if query.format == .png {
                if let times = query.times, times.count > 1 {
                    errors.append(
                        FieldError(
                            path: "query.times", message: "format=png draws one frame; use apng or filmstrip for more"))
                }
                // One frame: at `time`, else at `start`.
                if query.times == nil { query.times = [query.start] }
            } else if !seen.contains("fps") {
                // Pictures default to fewer frames than the numbers: 30 a second for an animation,
                // 4 for a sheet.
                query.fps = query.format.isAnimation ? 30 : 4
            }
            if query.format != .filmstrip && seen.contains("columns") {
                errors.append(FieldError(path: "query.columns", message: "only format=filmstrip has columns"))
            }
            if query.format != .webp && query.format != .webm && seen.contains("quality") {
                errors.append(FieldError(path: "query.quality", message: "only format=webp and webm have a quality"))
            }
        } else {
            for name in Self.pictureParameters.sorted() where seen.contains(name) {
                errors.append(
                    FieldError(
                        path: "query.\(name)",
                        message: "only pictures (format=png, apng, filmstrip, webp or webm) take \(name)"))
            }
        }
        if let end = query.end, query.times == nil, end < query.start {
            errors.append(FieldError(path: "query.end", message: "must not be before start"))
        }
        if !errors.isEmpty { throw ValidationFailure(errors) }
        request.sampling = query
        request.picture = picture
        return request
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars = scalars.dropFirst() }
        while scalars.last == " " { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
