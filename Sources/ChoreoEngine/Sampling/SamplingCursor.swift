/// One rendering thread's working memory for a ``SamplingProgram``: where each track was last
/// found, the last local times of the clocks and values of the curves, and a tile of sampled
/// frames.
///
/// Frames are sampled in increasing time, so a track's piece is usually the one it was in
/// before; and animations with the same timing (the several animations one `UIView.animate`
/// block adds, or one timing shared by many layers) map a layer time to the same local time,
/// computed once per layer time, and give their shared curve the same input. All of it is
/// exact: a hint is checked before use, a clock's local time is reused only for the same clock
/// and layer time, a curve's value only for the same curve and input. Not shareable: one
/// cursor per thread.
///
/// A tile holds up to ``tileCapacity`` frames: every track's lanes, frame after frame
/// (``SamplingProgram/sampleTile(_:maps:mapStride:cursor:)`` fills it track by track, so
/// a track's pieces and ops are read once per tile rather than once per frame).
public final class SamplingCursor {
    /// A clock's local time at one layer time, in a direct-mapped cache of ``clockSlots``
    /// entries per tile frame.
    struct ClockEntry {
        var clock: Int
        var time: Double
        var local: MediaTiming.Local?
    }

    /// A curve's value (an easing's, or a spring's, numbered after the easings) at one input,
    /// in a direct-mapped cache of ``curveSlots`` entries per tile frame (id −1: empty).
    struct CurveEntry {
        var id: Int
        var input: Double
        var output: Double
    }

    /// One tile frame's caches.
    struct FrameCache {
        let clocks: UnsafeMutablePointer<ClockEntry>
        let clockMask: Int
        let curves: UnsafeMutablePointer<CurveEntry>
        let curveMask: Int

        @inline(__always)
        func curve(_ id: Int) -> UnsafeMutablePointer<CurveEntry> { curves + (id & curveMask) }
    }

    let pieceHint: UnsafeMutablePointer<Int>
    let clockEntries: UnsafeMutablePointer<ClockEntry>
    /// Entries per tile frame: a power of two (clocks are hashed by their low bits).
    let clockSlots: Int
    let curveEntries: UnsafeMutablePointer<CurveEntry>
    /// Curve entries per tile frame, a power of two.
    let curveSlots: Int
    /// The most frames a tile holds.
    public let tileCapacity: Int
    /// The frames in the tile now.
    public internal(set) var tileCount = 0
    /// The tile's scene times.
    let tileTimes: UnsafeMutablePointer<Double>
    /// Lanes of every track, ``SamplingProgram/rowLanes`` a frame.
    let tileValues: UnsafeMutablePointer<Double>
    /// Whether a track was sampled (1) or falls in a generic piece (0), a byte per track a frame.
    let tileSampled: UnsafeMutablePointer<UInt8>
    /// Per tile frame, when layer time maps change with time: the tree and every layer's map.
    var tileShapes: [Timeline.TreeShape] = []
    var tileMaps: [[TimeMap]] = []
    private let trackCount: Int
    private let rowLanes: Int

    /// A cursor whose tile holds up to `tileFrames` frames; with 0 it has no tile, only the
    /// caches of the one frame it samples at a time (a tile frame of a 10,000-layer program is
    /// 1.8 MB, which a thread sampling frame by frame does not hold).
    public init(for program: SamplingProgram, tileFrames: Int = 0) {
        trackCount = program.tracks.count
        rowLanes = program.rowLanes
        tileCapacity = max(tileFrames, 0)
        let cacheFrames = max(tileFrames, 1)
        var slots = 1
        while slots < min(program.clockCount, 256) { slots *= 2 }
        clockSlots = slots
        var curves = 1
        while curves < min(program.easings.count + program.springs.count, 64) { curves *= 2 }
        curveSlots = curves
        curveEntries = .allocate(capacity: curves * cacheFrames)
        curveEntries.initialize(repeating: CurveEntry(id: -1, input: .nan, output: 0), count: curves * cacheFrames)
        pieceHint = .allocate(capacity: max(trackCount, 1))
        clockEntries = .allocate(capacity: slots * cacheFrames)
        for track in 0..<trackCount { (pieceHint + track).initialize(to: program.tracks[track].firstPiece) }
        clockEntries.initialize(repeating: ClockEntry(clock: -1, time: .nan, local: nil), count: slots * cacheFrames)
        tileTimes = .allocate(capacity: cacheFrames)
        tileTimes.initialize(repeating: 0, count: cacheFrames)
        // Doubles, written before they are read (a track's lanes when its flag is set).
        tileValues = .allocate(capacity: max(rowLanes * tileCapacity, 1))
        tileSampled = .allocate(capacity: max(trackCount * tileCapacity, 1))
        tileSampled.initialize(repeating: 0, count: max(trackCount * tileCapacity, 1))
    }

    /// The caches of tile frame `frame`.
    @inline(__always)
    func cache(frame: Int) -> FrameCache {
        FrameCache(
            clocks: clockEntries + frame * clockSlots, clockMask: clockSlots - 1,
            curves: curveEntries + frame * curveSlots, curveMask: curveSlots - 1)
    }

    /// The bytes a cursor with a tile of `tileFrames` frames holds for a program.
    public static func tileBytes(for program: SamplingProgram, tileFrames: Int) -> Int {
        tileFrames * (program.rowLanes * MemoryLayout<Double>.stride + program.tracks.count)
    }

    deinit {
        pieceHint.deallocate()
        clockEntries.deallocate()
        curveEntries.deallocate()
        tileTimes.deallocate()
        tileValues.deallocate()
        tileSampled.deallocate()
    }
}
