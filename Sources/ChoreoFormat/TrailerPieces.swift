import ChoreoEngine
import ChoreoJSON

/// A render response's trailer — `events`, `diagnostics` and `animations` after the frames —
/// in pieces of about `pieceBytes`, so it streams like the frames: a scene of 10,000 layers
/// has a trailer of some 25 MB (its `animationDidStart:` / `animationDidStop:finished:` events,
/// its diagnostics, every attached animation), which would otherwise be one buffer.
///
/// The pieces joined are ``ResponseEncoder/jsonTrailer(_:)`` or
/// ``ResponseEncoder/ndjsonTrailer(_:)`` byte for byte: a piece ends after the element that
/// passes `pieceBytes`, never inside one.
public struct TrailerPieces {
    private enum Section: Int {
        case events, diagnostics, animations
    }

    private let timeline: Timeline
    private let format: SamplingQuery.Format
    private let pieceBytes: Int
    private var section = Section.events
    /// The next element of the section; elements before it are written.
    private var index = 0
    private var started = false
    private var opened = false
    private var finished = false

    public init(_ timeline: Timeline, format: SamplingQuery.Format, pieceBytes: Int) {
        self.timeline = timeline
        self.format = format
        self.pieceBytes = max(1, pieceBytes)
    }

    /// The next piece, nil after the last.
    public mutating func next() -> [UInt8]? {
        guard !finished else { return nil }
        // Sized once for a piece and the entry that passes its size (a buffer grown by doubling
        // past a megabyte holds the old storage and twice as much new for a moment).
        var writer = JSONWriter(capacity: pieceBytes < 1 << 30 ? pieceBytes + 64 << 10 : 1024)
        if !started {
            // The JSON document closes its frames array; an NDJSON trailer is a line of its own.
            writer.raw(format == .json ? "]," : "{")
            started = true
        }
        while writer.bytes.count < pieceBytes {
            if !opened {
                writer.raw(Self.opening(section))
                opened = true
            }
            let count = count(section)
            while index < count && writer.bytes.count < pieceBytes {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                write(section, index, into: &writer)
                index += 1
            }
            guard index == count else { break }
            writer.byte(UInt8(ascii: "]"))
            guard let following = Section(rawValue: section.rawValue + 1) else {
                writer.raw(format == .json ? "}" : "}\n")
                finished = true
                break
            }
            (section, index, opened) = (following, 0, false)
        }
        return writer.bytes
    }

    /// The total size of the trailer, counted piece by piece.
    public static func size(_ timeline: Timeline, format: SamplingQuery.Format, pieceBytes: Int) -> Int {
        var pieces = TrailerPieces(timeline, format: format, pieceBytes: pieceBytes)
        var total = 0
        while let piece = pieces.next() { total += piece.count }
        return total
    }

    private static func opening(_ section: Section) -> StaticString {
        switch section {
        case .events: "\"events\":["
        case .diagnostics: ",\"diagnostics\":["
        case .animations: ",\"animations\":["
        }
    }

    private func count(_ section: Section) -> Int {
        switch section {
        case .events: timeline.events.count
        case .diagnostics: timeline.diagnostics.count
        case .animations: timeline.animations.count
        }
    }

    private func write(_ section: Section, _ index: Int, into writer: inout JSONWriter) {
        switch section {
        case .events: ResponseEncoder.writeEvent(timeline.events[index], into: &writer)
        case .diagnostics: ResponseEncoder.writeDiagnostic(timeline.diagnostics[index], into: &writer)
        case .animations:
            ResponseEncoder.writeAnimation(timeline.animations[index], of: timeline, into: &writer)
        }
    }
}
