import ChoreoJSON

/// A render response in order, a header, pieces of frames and a trailer, counting the frames
/// written: the NDJSON body streams it, and `choreo render` writes it with its progress. The
/// pieces joined are byte for byte ``ResponseEncoder/json(_:threads:)`` or the NDJSON lines.
public struct RenderPieces {
    enum Stage {
        case header
        case frames(from: Int)
        case trailer(TrailerPieces)
        case done
    }

    /// Frames per piece, at most.
    public static let framesPerPiece = 64
    /// Bytes a piece aims at: after a piece larger than this the next ones take fewer frames
    /// (one at least), so a stream of large frames holds a frame or so, not 64.
    public static let pieceBytes = 1 << 20

    let plan: RenderPlan
    let format: SamplingQuery.Format
    let threads: Int
    let framesPerPiece: Int
    /// Frames the next piece takes: the first piece is one frame, which sizes the others:
    /// as many as make about ``pieceBytes``, at least one, at most
    /// ``framesPerPiece``. So a piece holds about a megabyte, or one frame when a frame is
    /// larger than that (written in parts on every thread, so that one frame is held at once).
    var nextFrames = 1
    /// The size of the frames written last, which sizes the next blocks' buffers.
    var bytesPerFrame: Int?
    /// Blocks of frames written and not yet returned, each returned as a piece of its own:
    /// large frames are not copied into one buffer.
    var blocks: [[UInt8]] = []
    var nextBlock = 0
    /// Blocks joined into the last piece, and that piece: written again for the next ones once
    /// their readers let go of them, so a stream maps and faults in no new memory per piece
    /// (each of them is a mapping of its own, ``Allocator``).
    var joinedBlocks: [[UInt8]] = []
    var lastJoined: [UInt8] = []
    /// The rendering threads' cursors, kept from piece to piece.
    let cursors = CursorPool()
    var stage = Stage.header
    /// Frames in the response.
    public var total: Int { plan.times.count }
    /// Frames returned so far.
    public private(set) var framesDone = 0

    public init(
        _ plan: RenderPlan, format: SamplingQuery.Format, threads: Int,
        framesPerPiece: Int = RenderPieces.framesPerPiece
    ) {
        self.plan = plan
        self.format = format
        self.threads = threads
        self.framesPerPiece = max(1, framesPerPiece)
    }

    /// The next piece, nil after the trailer.
    public mutating func next() -> [UInt8]? {
        if nextBlock < blocks.count {
            defer { nextBlock += 1 }
            return blocks[nextBlock]
        }
        // The blocks returned or joined before are written again, once their readers let go of
        // them.
        var spare: [[UInt8]] = []
        swap(&spare, &blocks)
        if spare.isEmpty { swap(&spare, &joinedBlocks) }
        switch stage {
        case .header:
            stage = total > 0 ? .frames(from: 0) : trailer
            return format == .json ? ResponseEncoder.jsonHeader(plan) : ResponseEncoder.ndjsonHeader(plan)
        case .frames(let lower):
            let upper = min(lower + nextFrames, total)
            stage = upper < total ? .frames(from: upper) : trailer
            framesDone = upper
            let written = ResponseEncoder.frameBlocks(
                plan, range: lower..<upper, format: format, threads: threads, bytesPerFrame: bytesPerFrame,
                reusing: consume spare, cursors: cursors)
            let size = written.reduce(0) { $0 + $1.count }
            // Sized by the frames just written: large frames make small pieces.
            let perFrame = max(1, size / (upper - lower))
            bytesPerFrame = perFrame
            // Frames larger than a piece go one at a time, written in parts on every thread.
            nextFrames = min(framesPerPiece, max(1, RenderPieces.pieceBytes / perFrame))
            // Small blocks make one piece; large ones, and a single block, go as they are, not
            // copied once more.
            if size <= RenderPieces.pieceBytes && written.count > 1 {
                var previous: [UInt8] = []
                swap(&previous, &lastJoined)
                var piece = JSONWriter(reusing: consume previous, capacity: size)
                for block in written { piece.bytes.append(contentsOf: block) }
                joinedBlocks = written
                lastJoined = piece.bytes
                return lastJoined
            }
            blocks = written
            nextBlock = 1
            return blocks[0]
        case .trailer(var pieces):
            guard let piece = pieces.next() else {
                stage = .done
                return nil
            }
            stage = .trailer(pieces)
            return piece
        case .done:
            return nil
        }
    }

    /// The trailer's stage: its pieces of about ``pieceBytes``.
    private var trailer: Stage {
        .trailer(TrailerPieces(plan.timeline, format: format, pieceBytes: RenderPieces.pieceBytes))
    }
}
