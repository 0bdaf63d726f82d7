/// A picture in pieces, as a response sends it: a PNG or a filmstrip at once, an animated PNG a
/// frame per piece (only the frame being drawn is in memory).
public struct PicturePieces {
    public enum Kind: Sendable, Equatable {
        /// One frame, at the first time.
        case png
        /// Every frame, each shown until the next one's time.
        case apng
        /// Every frame on one sheet, `columns` to a row.
        case filmstrip(columns: Int)
        /// Every frame, as an animated WebP (lossless without a quality); the file at the end.
        case webp(quality: Int?)
        /// Every frame, as a WebM of VP9, a frame per piece.
        case webm(quality: Int?)
    }

    public let renderer: FrameRenderer
    public let times: [Double]
    public let kind: Kind
    /// How long an animated PNG of one frame shows it (seconds).
    let frameDelay: Double
    var apng: APNGWriter
    /// An animated PNG's frames: the first index of each run of frames that draw alike
    /// (``FrameRenderer/drawsAlike(_:_:)``), which it shows once for the run's time. Found
    /// before the first frame is written, since the file's header counts them.
    var runs: [Int]?
    var webm: WebMStream?
    /// The last frame of an animated PNG, to which the next one is compared.
    var previous: [UInt32]?
    var nextFrame = 0
    var ended = false
    /// Frames drawn so far.
    public private(set) var framesDone = 0
    /// Why the picture could not be made (an encoder that refused its frames), once it ended.
    public private(set) var failure: String?
    public var total: Int { times.count }

    public init(renderer: FrameRenderer, times: [Double], kind: Kind, frameDelay: Double) {
        self.renderer = renderer
        self.times = times
        self.kind = kind
        self.frameDelay = frameDelay
        apng = APNGWriter(frameCount: times.count)
    }

    /// The memory drawing takes at once: the canvas (or the sheet and a frame), its straight
    /// and filtered copies and the compressed data, about 16 bytes a pixel; an animated PNG also
    /// keeps the frame before (4 bytes a pixel).
    public var workingBytes: Int {
        let frame = renderer.pixelWidth * renderer.pixelHeight
        switch kind {
        case .apng: return frame * 20
        // The encoder's canvases, its candidates for each frame and the frames encoded so far
        // (a lossless frame is at most about its pixels' bytes).
        case .webp: return frame * 32 + frame * 4 * times.count / 4
        case .webm: return frame * 24
        default: break
        }
        guard case .filmstrip(let columns) = kind else { return frame * 16 }
        let sheet = Filmstrip(renderer: renderer, times: times, columns: columns)
        return (sheet.pixelWidth * sheet.pixelHeight + frame) * 16
    }

    /// How long frame `index` shows: until the next frame's time (the last: as long as the one
    /// before it, or one frame at the rate asked).
    func delay(_ index: Int) -> Double { delay(of: index..<(index + 1)) }

    /// How long frames `run` show together: from the first's time to the next frame's (the
    /// last frame's own delay when the run ends the animation).
    func delay(of run: Range<Int>) -> Double {
        if run.upperBound < times.count { return times[run.upperBound] - times[run.lowerBound] }
        let last = times.count - 1
        let own = last > 0 ? times[last] - times[last - 1] : frameDelay
        return times[last] - times[run.lowerBound] + own
    }

    /// A frame's start, in whole milliseconds from the first frame.
    func milliseconds(_ index: Int) -> Int {
        index < times.count
            ? Int(((times[index] - times[0]) * 1000).rounded())
            : milliseconds(index - 1)
                + Int((delay(index - 1) * 1000).rounded())
    }

    /// The next piece, nil at the end.
    public mutating func next() -> [UInt8]? {
        guard !ended else { return nil }
        switch kind {
        case .webp(let quality):
            // The whole file at once: a WebP's header holds its size.
            ended = true
            guard !times.isEmpty else { return nil }
            guard
                let animation = WebPAnimation(
                    width: renderer.pixelWidth, height: renderer.pixelHeight, quality: quality)
            else {
                failure = "libwebp refused a \(renderer.pixelWidth) × \(renderer.pixelHeight) animation"
                return nil
            }
            for index in times.indices {
                if let stop = renderer.shouldStop, stop() { return nil }
                guard animation.add(renderer.draw(at: times[index]).words(), at: milliseconds(index)) else {
                    failure = "libwebp refused frame \(index)"
                    return nil
                }
                framesDone = index + 1
            }
            guard let file = animation.finish(at: milliseconds(times.count)) else {
                failure = "libwebp could not assemble the animation"
                return nil
            }
            return file
        case .webm(let quality):
            guard nextFrame < times.count else {
                ended = true
                return nil
            }
            if webm == nil {
                let transparent = (renderer.background?.alpha ?? 0) < 1
                webm = WebMStream(
                    width: renderer.pixelWidth, height: renderer.pixelHeight, transparent: transparent,
                    quality: quality, duration: Double(milliseconds(times.count)) / 1000)
                guard webm != nil else {
                    failure = "libvpx refused a \(renderer.pixelWidth) × \(renderer.pixelHeight) video"
                    ended = true
                    return nil
                }
            }
            let index = nextFrame
            nextFrame += 1
            framesDone = nextFrame
            let start = milliseconds(index)
            return webm?.add(
                renderer.draw(at: times[index]).words(), at: start, duration: milliseconds(index + 1) - start)
        case .apng:
            if runs == nil {
                guard let found = renderer.runsDrawingAlike(times) else {
                    ended = true
                    return nil
                }
                runs = found
                apng = APNGWriter(frameCount: found.count)
            }
            guard let runs, nextFrame < runs.count else {
                ended = true
                return times.isEmpty ? nil : apng.end()
            }
            let index = runs[nextFrame]
            let end = nextFrame + 1 < runs.count ? runs[nextFrame + 1] : times.count
            nextFrame += 1
            framesDone = end
            let delay = delay(of: index..<end)
            let canvas = renderer.draw(at: times[index])
            defer { previous = canvas.words() }
            // Every frame of an animated PNG compact (bytes count more than time there), the
            // first, whole, too.
            guard let previous else { return apng.frame(canvas.png(compact: true), delay: delay) }
            // Only what changed since the frame before: a frame that changed nothing is one
            // unchanged pixel.
            let region = canvas.changedRegion(from: previous) ?? (0, 0, 1, 1)
            let (png, over) = canvas.png(
                x: region.x, y: region.y, width: region.width, height: region.height, over: previous)
            return apng.frame(png, x: region.x, y: region.y, delay: delay, over: over)
        case .filmstrip(let columns):
            ended = true
            framesDone = times.count
            return Filmstrip(renderer: renderer, times: times, columns: columns).draw().png()
        case .png:
            ended = true
            framesDone = 1
            return renderer.draw(at: times.first ?? 0).png()
        }
    }
}
