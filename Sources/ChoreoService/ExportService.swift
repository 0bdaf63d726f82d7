import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoJSON
import ChoreoTransport

/// A scene out as Lottie, CSS, Web Animations or an HTML page (docs/export.md): the one path
/// shared by `POST /v1/export`, the stored scenes', sessions' and the arena round's exports and
/// `choreo export`.
public enum ExportService {
    /// What an export request asks: the options, and whether the report alone is wanted.
    public struct Query: Sendable, Equatable {
        public var options: ExportOptions
        public var reportOnly: Bool
    }

    static let parameterNames = ["format", "fps", "width", "height", "scale", "report"]

    /// Reads `format` (required), `fps`, `width`, `height`, `scale` and `report`; unknown
    /// parameters and bad values are errors naming `query.NAME`, with the name meant.
    public static func query(_ parameters: [(String, String)]) throws(ServiceError) -> Query {
        var errors: [FieldError] = []
        var format: ExportFormat?
        var options = ExportOptions(format: .html)
        var reportOnly = false
        var seen = Set<String>()
        func number(_ name: String, _ text: String) -> Double? {
            guard let value = Double(text), value.isFinite else {
                errors.append(FieldError(path: "query.\(name)", message: "must be a number, not \"\(text)\""))
                return nil
            }
            return value
        }
        for (name, value) in parameters {
            if seen.contains(name) {
                errors.append(FieldError(path: "query.\(name)", message: "given more than once"))
                continue
            }
            seen.insert(name)
            switch name {
            case "format":
                if let chosen = ExportFormat(rawValue: value) {
                    format = chosen
                } else {
                    let names = ExportFormat.allCases.map(\.rawValue)
                    let near = Vocabulary.suggestion(for: value, among: names)
                    errors.append(
                        FieldError(
                            path: "query.format",
                            message: "unknown export format \"\(value)\" (one of \(names.joined(separator: ", ")))"
                                + (near.map { "; did you mean \"\($0)\"?" } ?? ""), suggestion: near))
                }
            case "fps": if let v = number(name, value) { options.fps = v }
            case "width": options.width = number(name, value)
            case "height": options.height = number(name, value)
            case "scale": if let v = number(name, value) { options.scale = v }
            case "report":
                switch value {
                case "1", "true", "": reportOnly = true
                case "0", "false": reportOnly = false
                default:
                    errors.append(FieldError(path: "query.report", message: "must be 1 or 0, not \"\(value)\""))
                }
            default:
                let near = Vocabulary.suggestion(for: name, among: parameterNames)
                errors.append(
                    FieldError(
                        path: "query.\(name)",
                        message: "unknown query parameter" + (near.map { "; did you mean \"\($0)\"?" } ?? ""),
                        suggestion: near))
            }
        }
        if format == nil && !errors.contains(where: { $0.path == "query.format" }) {
            errors.append(
                FieldError(
                    path: "query.format",
                    message: "required: one of \(ExportFormat.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        if !errors.isEmpty { throw ServiceError.invalidScene(ValidationFailure(errors)) }
        options.format = format!
        return Query(options: options, reportOnly: reportOnly)
    }

    /// Runs a scene and exports its run; a `cancellation` set during the run stops it.
    public static func export(
        _ scene: consuming Scene, name: String?, _ query: Query, cancellation: Cancellation? = nil,
        memory: RenderMemory? = nil
    ) throws(ServiceError) -> ExportArtifact {
        let timeline: Timeline
        var shouldStop: (@Sendable () -> Bool)?
        if let cancellation { shouldStop = { cancellation.isCancelled } }
        do throws(RuntimeError) {
            timeline = try SceneRunner.run(consume scene, horizon: nil, shouldStop: shouldStop)
        } catch {
            if cancellation?.isCancelled == true { throw ServiceError.cancelled }
            throw ServiceError.invalidScene(
                ValidationFailure([FieldError(path: error.path, message: error.message)]))
        }
        return try export(timeline, name: name, query, cancellation: cancellation, memory: memory)
    }

    /// Exports a scene document: its render memory reserved, then parsed, run and exported
    /// (`POST /v1/export`, a stored scene's export). `name` stands in when the scene has none.
    public static func export(
        document: consuming [UInt8], name: String?, _ query: Query, cancellation: Cancellation? = nil,
        memory: RenderMemory
    ) throws(ServiceError) -> ExportArtifact {
        let (scene, sceneName, run) = try RenderService.prepare(consume document, memory: memory)
        defer { _ = run }
        return try export(consume scene, name: sceneName ?? name, query, cancellation: cancellation, memory: memory)
    }

    /// Bytes an export holds per layer and sampled frame: its channels' samples (54 numbers)
    /// and their keyframes.
    public static let bytesPerLayerFrame = 512

    /// Bytes an export holds per layer whatever its frames: the layer's keyframes, its part of
    /// the written document (a Lottie layer is some hundred JSON values) and of the
    /// measurement. Measured peaks (`choreo export … --format lottie`, `/usr/bin/time -f %M`):
    /// 1,000 layers × 31 frames 90 MB, × 301 frames 226 MB, 10,000 layers × 31 frames 679 MB,
    /// which this and ``bytesPerLayerFrame`` cover.
    public static let bytesPerLayer = 64 << 10

    /// Exports a scene already run. Its cost (``ExportCost``: the keyframes its animations play
    /// and the times they are sampled) is checked first, a 422 naming the figure and the limit;
    /// then, with `memory`, the samples' working memory is reserved (503 while the renders in
    /// flight hold it); a `cancellation` set while it is made stops it (the export asks at
    /// every frame it samples, step it searches and sample it measures).
    public static func export(
        _ timeline: Timeline, name: String?, _ query: Query, cancellation: Cancellation? = nil,
        memory: RenderMemory? = nil
    ) throws(ServiceError) -> ExportArtifact {
        let fps = query.options.fps
        if fps.isFinite && fps >= 1 && fps <= ExportLimits.maxFPS {
            // Its keyframes and samples, before its memory is taken (docs/limits.md).
            do throws(ExportError) {
                try ExportCost(timeline, end: SceneTime.quantize(timeline.naturalEnd), fps: fps).check()
            } catch {
                if case .tooLarge(let path, let message) = error { throw ServiceError.invalidField(path, message) }
            }
        }
        var reservation: RenderMemory.Reservation?
        if let memory {
            let end = SceneTime.quantize(timeline.naturalEnd)
            let frames = Int(min(1e9, (end * query.options.fps).rounded(.up))) + 1
            let layers = max(1, timeline.layers.count)
            if frames <= ExportLimits.maxLayerFrames / layers {
                let bytes = frames * layers * bytesPerLayerFrame + layers * bytesPerLayer
                guard let taken = memory.reserve(bytes) else { throw RenderService.busy(memory) }
                reservation = taken
            }
        }
        defer { _ = reservation }
        do {
            var shouldStop: (@Sendable () -> Bool)?
            if let cancellation { shouldStop = { cancellation.isCancelled } }
            return try Exporter.export(timeline, options: query.options, name: name, shouldStop: shouldStop)
        } catch {
            switch error {
            case .tooLarge(let path, let message), .invalid(let path, let message):
                throw ServiceError.invalidField(path, message)
            case .cancelled: throw ServiceError.cancelled
            }
        }
    }
}
