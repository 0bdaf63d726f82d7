import ChoreoEngine
import ChoreoJSON
import ChoreoRaster

/// An export refused: the field at fault and why.
public enum ExportError: Error, Sendable, Equatable {
    case tooLarge(String, String)
    case invalid(String, String)
    /// `shouldStop` said so: nobody reads the answer.
    case cancelled
}

/// An export: the artefact's bytes and media type, and its fidelity report.
public struct ExportArtifact: Sendable {
    public let bytes: [UInt8]
    public let contentType: String
    public let report: FidelityReport
}

/// Exports a scene's run (docs/export.md): its frames sampled at `fps` by the engine into
/// per-layer keyframes, written as Lottie, CSS, Web Animations or an HTML page, with a report of
/// what each format kept, measured against the engine.
public enum Exporter {
    /// Exports `timeline` from time 0 through its natural end (`end` when given). `shouldStop`
    /// is asked at every frame sampled, step searched and sample measured; when it says so the
    /// export stops (``ExportError/cancelled``).
    public static func export(
        _ timeline: Timeline, options: ExportOptions, end: Double? = nil, name: String? = nil,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws(ExportError) -> ExportArtifact {
        guard options.fps.isFinite, options.fps >= 1, options.fps <= ExportLimits.maxFPS else {
            throw .invalid("query.fps", "must be a number from 1 to \(Int(ExportLimits.maxFPS))")
        }
        guard options.scale.isFinite, options.scale >= 0.1, options.scale <= ExportLimits.maxScale else {
            throw .invalid("query.scale", "must be a number from 0.1 to \(Int(ExportLimits.maxScale))")
        }
        for (field, value) in [("query.width", options.width), ("query.height", options.height)] {
            if let value, !(value.isFinite && value >= 1 && value <= 8_192) {
                throw .invalid(field, "must be a number of points from 1 to 8192")
            }
        }
        let last = SceneTime.quantize(end ?? timeline.naturalEnd)
        // Its cost, before any frame is sampled.
        try ExportCost(timeline, end: last, fps: options.fps).check()
        var canvas: Canvas?
        if options.width != nil || options.height != nil {
            let natural = FrameRenderer(timeline: timeline)
            canvas = Canvas(
                width: options.width ?? natural.size.x, height: options.height ?? natural.size.y,
                background: timeline.canvas?.background)
        }
        let renderer = FrameRenderer(timeline: timeline, canvas: canvas)
        let stop = shouldStop ?? { false }
        let model: ExportModel
        if options.format.isLottie {
            model = ExportModel(
                try BakedScene(renderer: renderer, end: last, fps: options.fps, scale: options.scale, shouldStop: stop))
        } else {
            // The web formats write additive animations as themselves, over the scene without
            // them, and paths as offset paths.
            var added: [Int: [AddedAnimation]] = [:]
            var scene: BakedScene
            if let withAdded = try BakedScene.withAddedAnimations(
                renderer, end: last, fps: options.fps, scale: options.scale, shouldStop: stop)
            {
                (scene, added) = withAdded
            } else {
                scene = try BakedScene(
                    renderer: renderer, end: last, fps: options.fps, scale: options.scale, shouldStop: stop)
            }
            try scene.placeAlongPaths(timeline, shouldStop: stop)
            model = ExportModel(scene, added: added, engine: renderer)
        }
        let scene = model.scene
        let (approximated, dropped) = losses(scene, format: options.format)
        let report = try model.report(
            options.format, approximated: approximated, dropped: dropped, shouldStop: stop)
        switch options.format {
        case .lottie, .dotlottie:
            let document = LottieWriter(model: model, sceneName: name).document(report: report)
            var writer = JSONWriter()
            writer.value(document)
            guard options.format == .dotlottie else {
                return ExportArtifact(bytes: writer.bytes, contentType: options.format.contentType, report: report)
            }
            let archive = DotLottie.archive(
                animation: writer.bytes, id: DotLottie.id(name), loop: report.loop?.seamless ?? false)
            return ExportArtifact(bytes: archive, contentType: options.format.contentType, report: report)
        case .waapi:
            var writer = JSONWriter()
            writer.value(WebWriter(model: model, sceneName: name).waapi(report: report))
            return ExportArtifact(bytes: writer.bytes, contentType: options.format.contentType, report: report)
        case .css:
            let text = WebWriter(model: model, sceneName: name).css(report: report)
            return ExportArtifact(bytes: Array(text.utf8), contentType: options.format.contentType, report: report)
        case .html:
            let text = WebWriter(model: model, sceneName: name).html(report: report)
            return ExportArtifact(bytes: Array(text.utf8), contentType: options.format.contentType, report: report)
        }
    }

    /// What a format approximates or drops of each layer.
    static func losses(_ scene: BakedScene, format: ExportFormat) -> (
        approximated: [FidelityReport.Entry], dropped: [FidelityReport.Entry]
    ) {
        var approximated: [FidelityReport.Entry] = []
        var dropped: [FidelityReport.Entry] = []
        func approximate(_ layer: BakedLayer, _ properties: [String], _ note: String) {
            approximated.append(.init(layer: layer.id, properties: properties, note: note))
        }
        func drop(_ layer: BakedLayer, _ properties: [String], _ note: String) {
            dropped.append(.init(layer: layer.id, properties: properties, note: note))
        }
        var hasChildren = Set<Int>()
        for layer in scene.layers where layer.parent >= 0 { hasChildren.insert(layer.parent) }
        for layer in scene.layers {
            if layer.transition {
                drop(layer, ["transition"], "a CATransition's faces are not exported; the layer is shown as it is")
            }
            if layer.transitionDissolved {
                approximate(layer, ["transition"], "a cross-dissolve as the two strings' alphas, each face drawn apart")
            }
            if layer.particles { drop(layer, ["emitterCells"], "particles are not exported") }
            if scene.renderer.timeline.layers[layer.index].mask >= 0 {
                drop(layer, ["mask"], "its mask is not exported: the layer is shown unmasked")
            }
            if layer.pathChanges { approximate(layer, ["path"], "the first path throughout") }
            if layer.textChanges && layer.type != .text {
                approximate(layer, ["string"], "the first string throughout")
            }
            if layer.reparented { approximate(layer, ["superlayer"], "kept under its first superlayer") }
            if layer.reordered {
                approximate(layer, ["zPosition"], "kept in its first drawing order among its siblings")
            }
            if layer.masksChange { approximate(layer, ["masksToBounds"], "its first value throughout") }
            // A translucent layer whose parts overlap (sublayers, a border over the background).
            let translucentGroup =
                (hasChildren.contains(layer.index) || layer.uses(.borderWidth))
                && stride(from: 0, to: scene.frameCount, by: 1).contains {
                    let o = layer.value(.opacity, frame: $0).first ?? 1
                    return o > 0 && o < 1
                }
            switch format {
            case .lottie, .dotlottie:
                // Sublayers are clipped by masks of their clipping superlayers' boxes; a layer's
                // own content by nothing (a path or glyphs beyond its bounds show).
                if layer.masksToBounds && layer.type != .layer {
                    approximate(layer, ["masksToBounds"], "its sublayers are clipped, its own path or text is not")
                }
                if layer.type == .text {
                    if case .success = CairoCanvas.library {
                        approximate(layer, ["string"], "the glyphs' outlines as shapes, not clipped to the bounds")
                    } else {
                        drop(layer, ["string"], "Lottie text needs the glyphs' outlines, and Pango is not installed")
                    }
                }
                if layer.uses(.shadowColor) {
                    approximate(
                        layer, ["shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius"],
                        "as Lottie's drop-shadow effect (ty 25), of the layer's own shapes: lottie-ios, lottie-android and ThorVG draw it, rlottie and Qt ignore it"
                    )
                }
                if layer.uses(.blur) { drop(layer, ["blurRadius"], "Lottie's Gaussian blur effect is not written") }
                if layer.projective { approximate(layer, ["transform"], "perspective: the map's affine part") }
                if translucentGroup {
                    approximate(
                        layer, ["opacity"],
                        "applied to each sublayer and to the border apart, not to the group they form, where the layer is translucent"
                    )
                }
            case .css, .waapi, .html:
                if layer.uses(.shadowColor) {
                    approximate(layer, ["shadowRadius"], "a box-shadow whose blur is twice the radius")
                }
                if layer.uses(.blur) {
                    approximate(layer, ["blurRadius"], "CSS's Gaussian blur(), of a deviation half the radius")
                }
                if layer.type == .text {
                    approximate(
                        layer, ["string", "fontSize"],
                        format == .html
                            ? "its lines, baselines and characters placed where Pango sets them, the glyphs drawn by the browser's font engine"
                            : "set by the browser's font engine")
                }
                if layer.type == .shape, let path = layer.path, layer.uses(.trim),
                    path.elements.filter({ if case .move = $0 { true } else { false } }).count > 1,
                    layer.animated[Channel.trim.rawValue]
                        || layer.value(.trim, frame: 0) != [0, 1][...]
                {
                    approximate(layer, ["strokeStart", "strokeEnd"], "SVG restarts the dash at each subpath")
                }
                if layer.projective { approximate(layer, ["transform"], "perspective as matrix3d keyframes") }
            }
        }
        return (approximated, dropped)
    }
}
