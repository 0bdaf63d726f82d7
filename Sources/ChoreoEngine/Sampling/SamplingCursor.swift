/// One rendering thread's working memory for a ``SamplingProgram``: where each track was last
/// found and the last local time of each clock.
///
/// Frames are sampled in increasing time, so a track's piece is usually the one it was in
/// before; and animations with the same timing (the several animations one `UIView.animate`
/// block adds, or one timing shared by many layers) map a layer time to the same local time,
/// computed once per layer time. Both are exact: a hint is checked before use, and a clock's
/// local time is reused only for the same layer time. Not shareable: one cursor per thread.
public final class SamplingCursor {
    let pieceHint: UnsafeMutablePointer<Int>
    /// The layer time each clock's local time was computed for (NaN: never).
    let clockTime: UnsafeMutablePointer<Double>
    let clockLocal: UnsafeMutablePointer<MediaTiming.Local?>
    private let trackCount: Int
    private let clockCount: Int

    public init(for program: SamplingProgram) {
        trackCount = program.tracks.count
        clockCount = program.clockCount
        pieceHint = .allocate(capacity: max(trackCount, 1))
        clockTime = .allocate(capacity: max(clockCount, 1))
        clockLocal = .allocate(capacity: max(clockCount, 1))
        for track in 0..<trackCount { (pieceHint + track).initialize(to: program.tracks[track].firstPiece) }
        clockTime.initialize(repeating: .nan, count: clockCount)
        clockLocal.initialize(repeating: nil, count: clockCount)
    }

    deinit {
        pieceHint.deallocate()
        clockTime.deallocate()
        clockLocal.deallocate()
    }
}
