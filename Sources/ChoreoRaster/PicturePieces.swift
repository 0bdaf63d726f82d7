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
    }

    public let renderer: FrameRenderer
    public let times: [Double]
    public let kind: Kind
    /// How long an animated PNG of one frame shows it (seconds).
    let frameDelay: Double
    var apng: APNGWriter
    /// The last frame of an animated PNG, to which the next one is compared.
    var previous: [UInt32]?
    var nextFrame = 0
    var ended = false
    /// Frames drawn so far.
    public private(set) var framesDone = 0
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
        if case .apng = kind { return frame * 20 }
        guard case .filmstrip(let columns) = kind else { return frame * 16 }
        let sheet = Filmstrip(renderer: renderer, times: times, columns: columns)
        return (sheet.pixelWidth * sheet.pixelHeight + frame) * 16
    }

    /// The next piece, nil at the end.
    public mutating func next() -> [UInt8]? {
        guard !ended else { return nil }
        switch kind {
        case .apng:
            guard nextFrame < times.count else {
                ended = true
                return times.isEmpty ? nil : apng.end()
            }
            let index = nextFrame
            nextFrame += 1
            framesDone = nextFrame
            let delay =
                index + 1 < times.count
                ? times[index + 1] - times[index] : index > 0 ? times[index] - times[index - 1] : frameDelay
            let canvas = renderer.draw(at: times[index])
            defer { previous = canvas.words() }
            guard let previous else { return apng.frame(canvas.png(), delay: delay) }
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
