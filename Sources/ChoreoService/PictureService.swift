import ChoreoEngine
import ChoreoFormat
import ChoreoRaster
import ChoreoTransport

/// Render plans drawn as pictures (docs/pictures.md): one PNG frame, an animated PNG streamed
/// frame by frame, or a filmstrip. The same bytes for `POST /v1/render`, the stored scenes'
/// and sessions' frames, the arena round and `choreo render`.
public enum PictureService {
    /// The renderer for a plan, its size checked: one picture at most 64 megapixels, and all
    /// the frames of a response together at most 2^31 pixels; over, 422 naming the field.
    public static func renderer(_ plan: RenderPlan, _ request: RenderQuery) throws(ServiceError) -> FrameRenderer {
        let query = request.sampling
        let picture = request.picture
        // Cairo and Pango are loaded with the first picture; without them, a 500 that says so.
        if case .failure(let unavailable) = CairoCanvas.library {
            throw ServiceError.internalFailure("pictures cannot be drawn here: \(unavailable)")
        }
        var canvas = plan.timeline.canvas
        if picture.width != nil || picture.height != nil {
            let natural = FrameRenderer(frames: plan.frames)
            canvas = Canvas(
                width: picture.width ?? natural.size.x, height: picture.height ?? natural.size.y,
                background: plan.timeline.canvas?.background)
        }
        if query.format == .webp, case .failure(let unavailable) = WebPAnimation.library {
            throw ServiceError.internalFailure("animated WebP cannot be made here: \(unavailable)")
        }
        if query.format == .webm, case .failure(let unavailable) = WebMStream.library {
            throw ServiceError.internalFailure("WebM cannot be made here: \(unavailable)")
        }
        let frameLimit =
            query.format.isAnimation
            ? FormatLimits.maxAPNGFrames
            : query.format == .filmstrip ? FormatLimits.maxFilmstripFrames : 1
        if plan.times.count > frameLimit {
            throw refused(
                query.times == nil ? "query.fps" : "query.times",
                "\(plan.times.count) frames requested; a \(query.format.rawValue) has at most \(frameLimit) (lower fps or narrow start…end)"
            )
        }
        let renderer = FrameRenderer(frames: plan.frames, scale: picture.scale, canvas: canvas)
        // Drawing's cost, decided before the first frame: layers, path elements, particles,
        // characters of text, shadow pixels (a blur costs about a step per 16 pixels), a blurred
        // layer's group, and the
        // pixels each layer covers (bounds × its and its ancestors' scale, at most the canvas;
        // a step per 16 pixels; a group composited for its opacity once more, the canvas).
        let pixelsPerPoint = picture.scale * picture.scale
        let canvasPixels = Double(renderer.pixelWidth) * Double(renderer.pixelHeight)
        let coverage = plan.timeline.coverageBounds()
        var perFrame = 0.0
        for layer in plan.timeline.layers.indices {
            perFrame += 16 + Double(plan.timeline.pathElementBound(layer: layer))
            perFrame += plan.timeline.particleBound(layer: layer)
            perFrame += Double(plan.timeline.stringLengthBound(layer: layer))
            perFrame += min(plan.timeline.shadowAreaBound(layer: layer), 1e12) * pixelsPerPoint / 16
            perFrame += min(coverage[layer] * pixelsPerPoint, canvasPixels) / 16
            if plan.timeline.isCompositedGroup(layer: layer) { perFrame += canvasPixels / 16 }
            // A blur: its group (at most the canvas) is read and written 24 times (three box
            // passes each way over four channels), whatever the radius.
            if plan.timeline.isBlurred(layer: layer) { perFrame += canvasPixels * 24 / 16 }
        }
        let cost = perFrame * Double(plan.times.count)
        if cost > Double(FormatLimits.maxDrawCost) {
            throw refused(
                query.times == nil ? "query.fps" : "query.times",
                "\(plan.times.count) frames of \(count(perFrame)) drawing steps each (layers, the pixels they cover, path elements, particles, text, shadows) are \(count(cost)), \(count(cost - Double(FormatLimits.maxDrawCost))) over the \(FormatLimits.maxDrawCost) one response may draw (fewer frames, a lower scale, or a simpler scene)"
            )
        }
        var pixels = renderer.pixelWidth * renderer.pixelHeight
        var field = "query.scale"
        if query.format == .filmstrip {
            let sheet = Filmstrip(renderer: renderer, times: plan.times, columns: picture.columns)
            pixels = sheet.pixelWidth * sheet.pixelHeight
            field = "query.fps"
        }
        if pixels > FormatLimits.maxPicturePixels {
            throw refused(
                field,
                "the picture would be \(pixels) pixels, \(pixels - FormatLimits.maxPicturePixels) over the \(FormatLimits.maxPicturePixels) one picture may have (lower scale, width/height or the frames)"
            )
        }
        let frames = renderer.pixelWidth * renderer.pixelHeight * plan.times.count
        if frames > FormatLimits.maxPixelsPerResponse {
            throw refused(
                query.times == nil ? "query.fps" : "query.times",
                "\(plan.times.count) frames of \(renderer.pixelWidth) × \(renderer.pixelHeight) pixels are \(frames) pixels, \(frames - FormatLimits.maxPixelsPerResponse) over the \(FormatLimits.maxPixelsPerResponse) one response may draw (fewer frames or a lower scale)"
            )
        }
        return renderer
    }

    /// The picture a plan and query ask for, in pieces (``PicturePieces``), its size and cost
    /// checked (``renderer(_:_:)``). With a `cancellation`, drawing stops between layers once
    /// it is set.
    public static func pieces(
        _ plan: RenderPlan, _ query: RenderQuery, cancellation: Cancellation? = nil
    ) throws(ServiceError) -> PicturePieces {
        var renderer = try renderer(plan, query)
        if let cancellation { renderer.shouldStop = { cancellation.isCancelled } }
        let kind: PicturePieces.Kind =
            switch query.sampling.format {
            case .apng: .apng
            case .webp: .webp(quality: query.picture.quality)
            case .webm: .webm(quality: query.picture.quality)
            case .filmstrip: .filmstrip(columns: query.picture.columns)
            default: .png
            }
        return PicturePieces(renderer: renderer, times: plan.times, kind: kind, frameDelay: 1 / query.sampling.fps)
    }

    /// A count for a message, whole while it fits an integer.
    static func count(_ value: Double) -> String {
        value.isFinite && value < 9e18 ? String(Int(value.rounded(.up))) : String(value)
    }

    /// A 422 naming the field at fault.
    static func refused(_ path: String, _ message: String) -> ServiceError {
        ServiceError.invalidField(path, message)
    }

    /// The media type of a picture format.
    public static func contentType(_ format: SamplingQuery.Format) -> String {
        switch format {
        case .apng: "image/apng"
        case .webp: "image/webp"
        case .webm: "video/webm"
        default: "image/png"
        }
    }

    /// The output: PNG and filmstrip whole, APNG streamed.
    ///
    /// With `memory`, the picture's working memory (its canvases and encoding buffers, about 16
    /// bytes a pixel) is reserved first and held until the output is sent: when the renders
    /// in flight hold the budget, busy.
    /// `holding`: render memory the request holds already (its scene's run): a picture that
    /// could never fit beside it is refused, not told to try again.
    public static func output(
        _ plan: RenderPlan, _ query: RenderQuery, cancellation: Cancellation? = nil, memory: RenderMemory? = nil,
        holding: Int = 0
    ) throws(ServiceError) -> RenderOutput {
        let pieces = try Self.pieces(plan, query, cancellation: cancellation)
        var reservation: RenderMemory.Reservation?
        if let memory {
            if pieces.workingBytes + holding > memory.limit {
                throw refused(
                    "query.scale",
                    "drawing this picture takes about \(pieces.workingBytes) bytes beside the \(holding) its scene holds; this server draws at most \(memory.limit) at once (--max-render-memory): lower scale, width or height"
                )
            }
            guard let taken = memory.reserve(pieces.workingBytes) else { throw RenderService.busy(memory) }
            reservation = taken
        }
        let type = contentType(query.sampling.format)
        // Animated PNG and WebM stream a frame at a time; a WebP's header holds its size.
        if query.sampling.format == .apng || query.sampling.format == .webm {
            var stream = pieces
            return RenderOutput(
                body: .stream(BodyStream(pulling: { stream.next().map(BodyStream.Piece.bytes) ?? .end })),
                contentType: type, reservation: reservation)
        }
        var whole = pieces
        var bytes: [UInt8] = []
        while let piece = whole.next() {
            if cancellation?.isCancelled == true { throw .cancelled }
            bytes += piece
        }
        if cancellation?.isCancelled == true { throw .cancelled }
        if let failure = whole.failure { throw ServiceError.internalFailure(failure) }
        return RenderOutput(
            body: .bytes(bytes), contentType: type,
            reservation: reservation)
    }
}
