import ChoreoEngine
import ChoreoJSON
import Dispatch
import Glibc
import Synchronization

/// Writes render responses in the scene format's response shape.
///
/// Frames are independent, so blocks of frames are sampled and encoded on every core and
/// joined in order: the bytes never depend on the number of threads.
public enum ResponseEncoder {
    /// Frames per parallel block.
    static let blockSize = 16
    /// Frames expected to be this large or larger, fewer than the threads, are each written in
    /// parts, one per thread (``frameBlocks(_:range:format:threads:bytesPerFrame:reusing:partedFrom:keepGoing:)``).
    public static let partedFrameBytes = 256 << 10
    /// Tile memory per rendering thread (``FramePlan/tileFrames(within:)``): about a core's L2
    /// cache, where a tile written track by track is still there when it is read frame by frame.
    public static let tileBytes = 2 << 20

    /// The whole JSON response: `{"duration", "frames", "events", "diagnostics", "animations"}`.
    public static func json(_ plan: RenderPlan, threads: Int = defaultThreads) -> [UInt8] {
        json(plan, threads: threads, keepGoing: nil)!
    }

    /// The JSON response, or nil when `keepGoing` (told each frame's size in bytes as it is
    /// written) says stop: the client has gone, or the document has grown past its budget. The
    /// frames left are not computed.
    public static func json(
        _ plan: RenderPlan, threads: Int = defaultThreads, keepGoing: (@Sendable (Int) -> Bool)?
    ) -> [UInt8]? {
        let stopped = StopFlag()
        var guarded: (@Sendable (Int) -> Bool)?
        if let keepGoing {
            guarded = { bytes in
                if stopped.isSet { return false }
                if keepGoing(bytes) { return true }
                stopped.set()
                return false
            }
        }
        // The frames a block per thread at a time, each round's blocks copied into the document
        // and written again in the next round: a block of megabytes is a mapping of its own,
        // which a new block for every 16 frames would fault in again.
        let count = plan.times.count
        let round = max(threads, 1) * blockSize
        var writer = JSONWriter(capacity: 0)
        writer.bytes = jsonHeader(plan)
        var spare: [[UInt8]] = []
        let cursors = CursorPool()
        var bytesPerFrame: Int?
        var lower = 0
        while lower < count {
            let upper = min(lower + round, count)
            let blocks = frameBlocks(
                plan, range: lower..<upper, format: .json, threads: threads, bytesPerFrame: bytesPerFrame,
                reusing: consume spare, cursors: cursors, keepGoing: guarded)
            if stopped.isSet { return nil }
            let size = blocks.reduce(0) { $0 + $1.count }
            if lower == 0 {
                // Sized once, from the first frames and half as much again: growing a buffer of
                // this size copies it and faults in every page again, and pages reserved and
                // never written take no memory.
                writer.bytes.reserveCapacity(writer.bytes.count + size + size / upper * (count - upper) * 3 / 2 + 4096)
            }
            for block in blocks { writer.bytes.append(contentsOf: block) }
            bytesPerFrame = max(1, size / (upper - lower))
            spare = blocks
            lower = upper
        }
        writer.bytes.append(contentsOf: jsonTrailer(plan))
        return writer.bytes
    }

    /// The JSON response up to its first frame: `{"duration": D, "frames": [`.
    public static func jsonHeader(_ plan: RenderPlan) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"duration\":")
        writer.number(plan.duration)
        writer.raw(",\"frames\":[")
        return writer.bytes
    }

    /// A range of the JSON response's frames, with the comma before them unless they are the first.
    public static func jsonFrames(_ plan: RenderPlan, range: Range<Int>, threads: Int = defaultThreads) -> [UInt8] {
        joined(frameBlocks(plan, range: range, format: .json, threads: threads))
    }

    /// The JSON response after its last frame: `], "events", "diagnostics", "animations"}`.
    public static func jsonTrailer(_ plan: RenderPlan) -> [UInt8] {
        var pieces = TrailerPieces(plan.timeline, format: .json, pieceBytes: .max)
        return pieces.next() ?? []
    }

    /// The first NDJSON line: `{"duration": D, "frames": N}`.
    public static func ndjsonHeader(_ plan: RenderPlan) -> [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"duration\":")
        writer.number(plan.duration)
        writer.raw(",\"frames\":")
        writer.integer(Int64(plan.times.count))
        writer.raw("}\n")
        return writer.bytes
    }

    /// NDJSON lines for a range of frames, one frame per line.
    public static func ndjsonFrames(_ plan: RenderPlan, range: Range<Int>, threads: Int = defaultThreads) -> [UInt8] {
        joined(frameBlocks(plan, range: range, format: .ndjson, threads: threads))
    }

    /// Blocks of frames (``frameBlocks(_:range:format:threads:bytesPerFrame:keepGoing:)``) as one
    /// buffer; a single block is that buffer already.
    package static func joined(_ blocks: [[UInt8]]) -> [UInt8] {
        if blocks.count == 1 { return blocks[0] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(blocks.reduce(0) { $0 + $1.count })
        for block in blocks { bytes.append(contentsOf: block) }
        return bytes
    }

    /// The last NDJSON line: `{"events", "diagnostics", "animations"}`.
    public static func ndjsonTrailer(_ plan: RenderPlan) -> [UInt8] {
        var pieces = TrailerPieces(plan.timeline, format: .ndjson, pieceBytes: .max)
        return pieces.next() ?? []
    }

    /// The processors online: the default for callers that do not say. The CLI and the server
    /// pass `RenderService.defaultThreads`, which also sees CPU affinity and container limits.
    public static var defaultThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    // MARK: Frames

    /// A range of frames as the blocks the threads wrote them in, in order: joined, they are
    /// ``jsonFrames(_:range:threads:)`` (JSON: a comma before every frame but the response's
    /// first) or ``ndjsonFrames(_:range:threads:)`` (NDJSON: a newline after every frame). A
    /// stream sends the blocks as they are, without copying large frames into one piece.
    ///
    /// `bytesPerFrame` is the size the frames are expected to have (those written last): each
    /// block's buffer is sized for it once instead of growing by doubling. `spare` are blocks
    /// returned before and no longer used: their storage is written again, so frames of
    /// megabytes (each its own mapping, ``Allocator``) do not map and fault in new memory
    /// for every block.
    public static func frameBlocks(
        _ plan: RenderPlan, range: Range<Int>, format: SamplingQuery.Format, threads: Int = defaultThreads,
        bytesPerFrame: Int? = nil, reusing spare: consuming [[UInt8]] = [],
        partedFrom partedBytes: Int = partedFrameBytes, cursors: CursorPool? = nil,
        keepGoing: (@Sendable (Int) -> Bool)? = nil
    ) -> [[UInt8]] {
        let json = format == .json
        let count = range.count
        guard count > 0 else { return [] }
        // Blocks of up to 16 frames, smaller when there are fewer frames than threads × 16, so
        // that a few large frames are still written on every thread.
        let blockSize = max(1, min(Self.blockSize, (count + max(threads, 1) - 1) / max(threads, 1)))
        let blockCount = (count + blockSize - 1) / blockSize
        // The frames written last plus an eighth, else about 24 bytes per sample; the buffer
        // grows if a block needs more.
        let bytesPerFrameEstimate =
            bytesPerFrame.map { $0 + $0 / 8 + 64 } ?? 64 + 40 * plan.sampleCount / max(plan.times.count, 1)
        if keepGoing == nil && threads > 1 && count < threads && bytesPerFrameEstimate >= partedBytes {
            return frameParts(
                plan, range: range, json: json, threads: threads, bytesPerFrame: bytesPerFrameEstimate,
                reusing: consume spare, cursors: cursors)
        }
        let results = BlockResults(count: blockCount, reusing: consume spare)
        // Sampled a tile at a time (track by track), then written frame by frame; frames too
        // large for a tile of two are sampled as they are written.
        let tileFrames = min(blockSize, plan.frames.tileFrames(within: Self.tileBytes))
        let tiled = tileFrames > 1
        // Each thread takes the next block until none is left, with one cursor (its tile) for all.
        let blocks = BlockCounter()
        let worker: @Sendable (Int) -> Void = { _ in
            let cursor =
                cursors?.take(tileFrames: tiled ? tileFrames : 0)
                ?? plan.frames.makeCursor(tileFrames: tiled ? tileFrames : 0)
            defer { cursors?.give(cursor) }
            while let block = blocks.take(below: blockCount) {
                let lower = range.lowerBound + block * blockSize
                let upper = min(lower + blockSize, range.upperBound)
                var writer = JSONWriter(
                    reusing: results.takeSpare(at: block), capacity: bytesPerFrameEstimate * (upper - lower))
                frames: for tileStart in stride(from: lower, to: upper, by: tileFrames) {
                    let tileEnd = min(tileStart + tileFrames, upper)
                    if tiled { plan.frames.sampleTile(plan.times[tileStart..<tileEnd], cursor: cursor) }
                    for index in tileStart..<tileEnd {
                        let before = writer.bytes.count
                        if json && index > 0 { writer.byte(UInt8(ascii: ",")) }
                        writeFrame(
                            plan, time: plan.times[index], tileFrame: tiled ? index - tileStart : nil, cursor: cursor,
                            into: &writer)
                        if !json { writer.byte(UInt8(ascii: "\n")) }
                        if let keepGoing, !keepGoing(writer.bytes.count - before) { break frames }
                    }
                }
                results.store(writer.bytes, at: block)
            }
        }
        let workers = max(1, min(threads, blockCount))
        if workers == 1 {
            worker(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: worker)
        }
        return results.values
    }

    /// Fewer large frames than threads: each frame in as many parts as threads, a slice of its
    /// drawing order each, written at once and returned in order (joined, they are the frames).
    /// A response of frames of megabytes (a piece is then one frame) keeps every core busy and
    /// holds one frame at a time, not one per thread.
    static func frameParts(
        _ plan: RenderPlan, range: Range<Int>, json: Bool, threads: Int, bytesPerFrame: Int,
        reusing spare: consuming [[UInt8]], cursors: CursorPool?
    ) -> [[UInt8]] {
        let parts = threads
        let blockCount = range.count * parts
        let results = BlockResults(count: blockCount, reusing: consume spare)
        let blocks = BlockCounter()
        let worker: @Sendable (Int) -> Void = { _ in
            let cursor = cursors?.take(tileFrames: 0) ?? plan.frames.makeCursor()
            defer { cursors?.give(cursor) }
            while let block = blocks.take(below: blockCount) {
                let index = range.lowerBound + block / parts
                let part = block % parts
                var writer = JSONWriter(reusing: results.takeSpare(at: block), capacity: bytesPerFrame / parts + 64)
                if json && index > 0 && part == 0 { writer.byte(UInt8(ascii: ",")) }
                writeFrame(
                    plan, time: plan.times[index], tileFrame: nil, cursor: cursor, into: &writer, part: part,
                    of: parts)
                if !json && part == parts - 1 { writer.byte(UInt8(ascii: "\n")) }
                results.store(writer.bytes, at: block)
            }
        }
        DispatchQueue.concurrentPerform(iterations: min(threads, blockCount), execute: worker)
        return results.values
    }

    /// Writes the frame at `time`: frame `tileFrame` of the cursor's tile, or sampled now. With
    /// `parts` more than one, only part `part` of it, a slice of its drawing order (sampled
    /// now): the first part opens the frame, the last closes it, and the parts joined in order
    /// are the frame.
    static func writeFrame(
        _ plan: RenderPlan, time: Double, tileFrame: Int?, cursor: SamplingCursor, into writer: inout JSONWriter,
        part: Int = 0, of parts: Int = 1
    ) {
        if part == 0 {
            writer.raw("{\"time\":")
            writer.number(time)
            writer.raw(",\"layers\":{")
        }
        var positions: Range<Int>?
        if parts > 1 {
            let layers = plan.frames.layerCount(at: time)
            positions = (part * layers / parts)..<((part + 1) * layers / parts)
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: JSONFrameWriter.stagingCapacity) { staging in
            var visitor = JSONFrameWriter(
                tables: plan.tables,
                continuing: positions.map { part > 0 && plan.frames.selectsLayer(before: $0.lowerBound, at: time) }
                    ?? false,
                staging: staging.baseAddress!)
            // The visitor writes into the response's buffer itself: swapped in and out, not copied.
            // `precision` rounds the sampled values, not the times or the interactive states.
            swap(&visitor.writer, &writer)
            visitor.writer.significantDigits = plan.precision
            if let tileFrame {
                plan.frames.visit(tileFrame: tileFrame, cursor: cursor, &visitor)
            } else if let positions {
                plan.frames.visit(time, positions: positions, cursor: cursor, &visitor)
            } else {
                plan.frames.visit(time, cursor: cursor, &visitor)
            }
            visitor.flush()
            visitor.writer.significantDigits = nil
            swap(&visitor.writer, &writer)
        }
        if part == parts - 1 {
            writer.byte(UInt8(ascii: "}"))
            writeInteractive(plan.timeline, at: time, into: &writer)
            writer.byte(UInt8(ascii: "}"))
        }
    }

    /// The frame's `animators` and `transitions` members, in scenes that have them.
    public static func writeInteractive(
        _ timeline: Timeline, at time: Double, into writer: inout JSONWriter, always: Bool = false
    ) {
        if !timeline.animators.isEmpty || always {
            writer.raw(",\"animators\":{")
            for (index, animator) in timeline.animators.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                let status = animator.status.value(at: time)
                writer.key(animator.id)
                writer.raw("{\"state\":")
                writer.string(status.state)
                writer.raw(",\"running\":")
                writer.bool(status.running)
                writer.raw(",\"fractionComplete\":")
                writer.number(timeline.clocks[animator.clock].value(at: time).fraction(at: time))
                writer.raw(",\"isReversed\":")
                writer.bool(status.isReversed)
                writer.byte(UInt8(ascii: "}"))
            }
            writer.byte(UInt8(ascii: "}"))
        }
        if !timeline.transitions.isEmpty || always {
            writer.raw(",\"transitions\":{")
            var first = true
            for transition in timeline.transitions where transition.begunAt <= time {
                if !first { writer.byte(UInt8(ascii: ",")) }
                first = false
                let phase = transition.phase.value(at: time)
                writer.key(transition.id)
                writer.raw("{\"phase\":")
                writer.string(phase.name)
                writer.raw(",\"percentComplete\":")
                writer.number(timeline.percentComplete(transition, at: time))
                writer.byte(UInt8(ascii: "}"))
            }
            writer.byte(UInt8(ascii: "}"))
        }
    }

    /// A value held in lane form (`kind.laneCount` lanes), written exactly as
    /// ``writeValue(_:into:)`` writes it.
    @inline(__always)
    static func writeLanes(_ lanes: UnsafePointer<Double>, kind: ValueKind, into writer: inout JSONWriter) {
        let count: Int
        switch kind {
        case .number:
            writer.number(lanes[0])
            return
        case .transform:
            if isIdentity(lanes) {
                writer.raw("[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]")
                return
            }
            count = 16
        default:
            count = kind.laneCount
        }
        writer.byte(UInt8(ascii: "["))
        for lane in 0..<count {
            if lane > 0 { writer.byte(UInt8(ascii: ",")) }
            writer.number(lanes[lane])
        }
        writer.byte(UInt8(ascii: "]"))
    }

    /// Whether 16 transform lanes are the identity (as `==` compares: −0 equals 0).
    @inline(__always)
    static func isIdentity(_ lanes: UnsafePointer<Double>) -> Bool {
        UnsafeRawPointer(lanes).loadUnaligned(as: Lanes.self) == .identityTransform
    }

    /// A value in the scene format's output form.
    public static func writeValue(_ value: Value, into writer: inout JSONWriter) {
        switch value {
        case .number(let n): writer.number(n)
        case .point(let p), .size(let p):
            writer.byte(UInt8(ascii: "["))
            writer.number(p.x)
            writer.byte(UInt8(ascii: ","))
            writer.number(p.y)
            writer.byte(UInt8(ascii: "]"))
        case .rect(let r):
            writer.byte(UInt8(ascii: "["))
            writer.number(r.origin.x)
            writer.byte(UInt8(ascii: ","))
            writer.number(r.origin.y)
            writer.byte(UInt8(ascii: ","))
            writer.number(r.size.x)
            writer.byte(UInt8(ascii: ","))
            writer.number(r.size.y)
            writer.byte(UInt8(ascii: "]"))
        case .color(let c):
            writer.byte(UInt8(ascii: "["))
            writer.number(c.red)
            writer.byte(UInt8(ascii: ","))
            writer.number(c.green)
            writer.byte(UInt8(ascii: ","))
            writer.number(c.blue)
            writer.byte(UInt8(ascii: ","))
            writer.number(c.alpha)
            writer.byte(UInt8(ascii: "]"))
        case .transform(let m):
            if m.isIdentity {
                writer.raw("[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]")
                return
            }
            writer.array(m.elements) { $0.number($1) }
        case .bool(let b): writer.bool(b)
        case .string(let s): writer.string(s)
        case .path(let p): writer.string(p.svgPathData)
        }
    }

    static func writeTransition(_ state: TransitionState, into writer: inout JSONWriter) {
        writer.raw("{\"type\":")
        writer.string(state.transition.kind.rawValue)
        writer.raw(",\"subtype\":")
        writer.string(state.transition.subtype.rawValue)
        writer.raw(",\"progress\":")
        writer.number(state.progress)
        writer.raw(",\"outgoing\":")
        writeContent(
            state.transition.kind, opacity: state.outgoingOpacity, offset: state.outgoingOffset,
            transform: state.outgoingTransform, curl: state.outgoingCurl, into: &writer)
        writer.raw(",\"incoming\":")
        writeContent(
            state.transition.kind, opacity: state.incomingOpacity, offset: state.incomingOffset,
            transform: state.incomingTransform, curl: state.incomingCurl, into: &writer)
        writer.raw("}")
    }

    /// `[{"cell", "id", "age", "position", "scale", "rotation", "color"}, ...]`: the live particles.
    static func writeParticles(_ particles: [Particle], into writer: inout JSONWriter) {
        writer.array(particles) { writer, particle in
            writer.raw("{\"cell\":")
            if let name = particle.cellName { writer.string(name) } else { writer.integer(Int64(particle.cell)) }
            writer.raw(",\"id\":")
            writer.integer(Int64(particle.index))
            writer.raw(",\"age\":")
            writer.number(particle.age)
            writer.raw(",\"position\":")
            writeValue(.point(particle.position), into: &writer)
            writer.raw(",\"scale\":")
            writer.number(particle.scale)
            writer.raw(",\"rotation\":")
            writer.number(particle.rotation)
            writer.raw(",\"color\":")
            writeValue(.color(particle.color), into: &writer)
            writer.raw("}")
        }
    }

    /// One side of a transition: `transform` is written for flips and `curl` for curls only.
    private static func writeContent(
        _ kind: Transition.Kind, opacity: Double, offset: Point, transform: Transform3D, curl: Double,
        into writer: inout JSONWriter
    ) {
        writer.raw("{\"opacity\":")
        writer.number(opacity)
        writer.raw(",\"offset\":")
        writeValue(.point(offset), into: &writer)
        if kind == .flip {
            writer.raw(",\"transform\":")
            writeValue(.transform(transform), into: &writer)
        }
        if kind == .curlUp || kind == .curlDown {
            writer.raw(",\"curl\":")
            writer.number(curl)
        }
        writer.raw("}")
    }

    // MARK: Events, diagnostics, animations

    public static func writeEvents(_ events: [Event], into writer: inout JSONWriter) {
        writer.array(events) { writer, event in writeEvent(event, into: &writer) }
    }

    /// One event: `{"time", "type", …}`.
    static func writeEvent(_ event: Event, into writer: inout JSONWriter) {
        writer.raw("{\"time\":")
        writer.number(event.time)
        writer.raw(",\"type\":")
        writer.string(event.typeName)
        func optionalKey(_ key: String?) {
            writer.raw(",\"key\":")
            if let key { writer.string(key) } else { writer.raw("null") }
        }
        switch event.kind {
        case .animationDidStart(let layer, let key):
            writer.raw(",\"layer\":")
            writer.string(layer)
            optionalKey(key)
        case .animationDidStop(let layer, let key, let finished):
            writer.raw(",\"layer\":")
            writer.string(layer)
            optionalKey(key)
            writer.raw(",\"finished\":")
            writer.bool(finished)
        case .transactionCompleted(let name, let finished):
            writer.raw(",\"finished\":")
            writer.bool(finished)
            if let name {
                writer.raw(",\"name\":")
                writer.string(name)
            }
        case .animateCompleted(let name, let finished):
            writer.raw(",\"finished\":")
            writer.bool(finished)
            if let name {
                writer.raw(",\"name\":")
                writer.string(name)
            }
        case .withAnimationCompleted(let name):
            if let name {
                writer.raw(",\"name\":")
                writer.string(name)
            }
        case .layerAdded(let layer), .layerRemoved(let layer):
            writer.raw(",\"layer\":")
            writer.string(layer)
        case .stateChanged(let layer, let state):
            writer.raw(",\"layer\":")
            writer.string(layer)
            writer.raw(",\"state\":")
            writer.string(state)
        case .marker(let name):
            writer.raw(",\"name\":")
            writer.string(name)
        case .animatorStateChanged(let animator, let state, let running):
            writer.raw(",\"animator\":")
            writer.string(animator)
            writer.raw(",\"state\":")
            writer.string(state)
            writer.raw(",\"running\":")
            writer.bool(running)
        case .animatorCompleted(let animator, let position):
            writer.raw(",\"animator\":")
            writer.string(animator)
            writer.raw(",\"position\":")
            writer.string(position.rawValue)
        case .appearance(_, let layer, let transition):
            writer.raw(",\"layer\":")
            writer.string(layer)
            writer.raw(",\"transition\":")
            writer.string(transition)
        case .transitionCompleted(let transition, let didComplete, let wasCancelled):
            writer.raw(",\"transition\":")
            writer.string(transition)
            writer.raw(",\"didComplete\":")
            writer.bool(didComplete)
            writer.raw(",\"wasCancelled\":")
            writer.bool(wasCancelled)
        }
        writer.byte(UInt8(ascii: "}"))
    }

    /// `[{"path", "message"}, ...]`: validation errors as problem documents and /v1/validate list them.
    public static func writeFieldErrors(_ errors: [FieldError], into writer: inout JSONWriter) {
        writer.array(errors) { writer, error in
            writer.raw("{\"path\":")
            writer.string(error.path)
            writer.raw(",\"message\":")
            writer.string(error.message)
            if let suggestion = error.suggestion {
                writer.raw(",\"didYouMean\":")
                writer.string(suggestion)
            }
            writer.byte(UInt8(ascii: "}"))
        }
    }

    public static func writeDiagnostics(_ diagnostics: [Diagnostic], into writer: inout JSONWriter) {
        writer.array(diagnostics) { writer, diagnostic in writeDiagnostic(diagnostic, into: &writer) }
    }

    /// One diagnostic: `{"severity", "code", "time", …, "message", "fix"}`.
    static func writeDiagnostic(_ diagnostic: Diagnostic, into writer: inout JSONWriter) {
        writer.raw("{\"severity\":")
        writer.string(diagnostic.severity.rawValue)
        writer.raw(",\"code\":")
        writer.string(diagnostic.code.rawValue)
        writer.raw(",\"time\":")
        writer.number(diagnostic.time)
        if let layer = diagnostic.layer {
            writer.raw(",\"layer\":")
            writer.string(layer)
        }
        if let keyPath = diagnostic.keyPath {
            writer.raw(",\"keyPath\":")
            writer.string(keyPath)
        }
        if let path = diagnostic.path {
            writer.raw(",\"path\":")
            writer.string(path)
        }
        writer.raw(",\"message\":")
        writer.string(diagnostic.message)
        writer.raw(",\"fix\":")
        writer.string(diagnostic.fix)
        writer.byte(UInt8(ascii: "}"))
    }

    /// One attached animation: `{"layer", "key", "type", …}`.
    static func writeAnimation(
        _ animation: Timeline.AttachedAnimation, of timeline: Timeline, into writer: inout JSONWriter
    ) {
        writer.raw("{\"layer\":")
        writer.string(timeline.layers[animation.layer].id)
        writer.raw(",\"key\":")
        if let key = animation.key { writer.string(key) } else { writer.raw("null") }
        writer.raw(",\"type\":")
        writer.string(animation.typeName)
        if let keyPath = animation.keyPath {
            writer.raw(",\"keyPath\":")
            writer.string(keyPath.description)
        }
        writer.raw(",\"addedAt\":")
        writer.number(animation.addedAt)
        writer.raw(",\"startedAt\":")
        if let value = animation.startedAt { writer.number(value) } else { writer.raw("null") }
        writer.raw(",\"stoppedAt\":")
        if let value = animation.stoppedAt { writer.number(value) } else { writer.raw("null") }
        if let finished = animation.finished {
            writer.raw(",\"finished\":")
            writer.bool(finished)
        }
        if let settling = animation.settlingDuration {
            writer.raw(",\"settlingDuration\":")
            writer.number(settling)
        }
        writer.byte(UInt8(ascii: "}"))
    }
}

/// Per-block output slots written from parallel workers: each slot is written by the one
/// `concurrentPerform` iteration of its block, and read once `concurrentPerform` has returned.
private final class BlockResults: Sendable {
    private let slots: Mutex<[[UInt8]]>

    /// Slots for `count` blocks, the first holding the spare buffers until their blocks take
    /// them.
    init(count: Int, reusing spare: consuming [[UInt8]]) {
        var slots = [[UInt8]](repeating: [], count: count)
        var spare = consume spare
        for index in 0..<min(count, spare.count) { swap(&slots[index], &spare[index]) }
        self.slots = Mutex(slots)
    }

    /// The spare buffer of block `index` (empty when there is none), moved out of its slot.
    func takeSpare(at index: Int) -> [UInt8] {
        slots.withLock { slots in
            var buffer: [UInt8] = []
            swap(&buffer, &slots[index])
            return buffer
        }
    }

    func store(_ bytes: [UInt8], at index: Int) {
        slots.withLock { $0[index] = bytes }
    }

    var values: [[UInt8]] { slots.withLock { $0 } }
}

/// The cursors of a stream's earlier pieces, for its next ones: a cursor's tile of sampled
/// frames (up to ``ResponseEncoder/tileBytes`` a thread) and its caches are mappings of their
/// own, which a new cursor for every piece would map and fault in again. One plan's only.
/// Sendable through its `Mutex`, the one thing it holds.
public final class CursorPool: Sendable {
    /// The cursors. `@unchecked Sendable`: a cursor is owned by one thread at a time, and goes
    /// from one to the next only through the lock (``take(tileFrames:)`` removes it from here,
    /// ``give(_:)`` puts it back when the thread is done with it).
    private struct Kept: @unchecked Sendable { var cursors: [SamplingCursor] = [] }
    private let kept = Mutex(Kept())

    public init() {}

    /// A kept cursor with a tile of at least `tileFrames` frames, or nil (then one with a
    /// smaller tile, if any, is let go: the pool keeps no more cursors than threads use at once).
    func take(tileFrames: Int) -> SamplingCursor? {
        kept.withLock { kept in
            guard let index = kept.cursors.firstIndex(where: { $0.tileCapacity >= tileFrames }) else {
                if !kept.cursors.isEmpty { kept.cursors.removeLast() }
                return nil
            }
            return kept.cursors.remove(at: index)
        }
    }

    func give(_ cursor: SamplingCursor) {
        kept.withLock { $0.cursors.append(cursor) }
    }

    /// The cursors kept.
    package var count: Int { kept.withLock { $0.cursors.count } }
}

/// The next block of frames to write, for the threads that share them.
private final class BlockCounter: Sendable {
    private let next = Atomic<Int>(0)

    /// The next block number, or nil once all `count` are taken.
    func take(below count: Int) -> Int? {
        let block = next.add(1, ordering: .relaxed).oldValue
        return block < count ? block : nil
    }
}

/// A frame as JSON: `"id": {"name": value, …}` for each layer the plan visits.
struct JSONFrameWriter: FrameVisitor {
    let tables: FrameTables
    var writer = JSONWriter()
    private var firstLayer = true
    private var firstColumn = true
    /// A layer's keys, punctuation and sampled numbers are laid out here, and appended to
    /// `writer` a few layers at a time (``flush()``): one append instead of one per key, number
    /// and bracket.
    private let staging: UnsafeMutablePointer<UInt8>
    private var staged = 0
    static let stagingCapacity = 4096

    /// `continuing`: the frame's layers written so far are in another part, so the first one
    /// here is preceded by a comma. `staging`: ``stagingCapacity`` bytes the writer may use
    /// until it is flushed.
    init(tables: FrameTables, continuing: Bool = false, staging: UnsafeMutablePointer<UInt8>) {
        self.tables = tables
        self.staging = staging
        firstLayer = !continuing
    }

    /// Appends what is staged to `writer`; called before anything writes to `writer` directly.
    @inline(__always)
    mutating func flush() {
        guard staged > 0 else { return }
        writer.bytes.append(contentsOf: UnsafeBufferPointer(start: staging, count: staged))
        staged = 0
    }

    /// Room for `count` more bytes in the staging area (flushed when it has too little).
    @inline(__always)
    private mutating func reserve(_ count: Int) {
        if staged + count > Self.stagingCapacity { flush() }
    }

    @inline(__always)
    private mutating func stage(_ byte: UInt8) {
        staging[staged] = byte
        staged += 1
    }

    @inline(__always)
    private mutating func stage(_ bytes: UnsafeBufferPointer<UInt8>) {
        staging.advanced(by: staged).update(from: bytes.baseAddress!, count: bytes.count)
        staged += bytes.count
    }

    @inline(__always)
    private mutating func stageNumber(_ value: Double, _ digits: Int?) {
        staged += JSONWriter.write(value, significantDigits: digits, into: staging + staged)
    }

    mutating func beginLayer(_ layer: Int) {
        let key = tables.keyBytes.bytes(tables.layerKeys[layer])
        guard key.count + 2 <= Self.stagingCapacity else {
            flush()
            if !firstLayer { writer.byte(UInt8(ascii: ",")) }
            firstLayer = false
            writer.bytes.append(contentsOf: key)
            writer.byte(UInt8(ascii: "{"))
            firstColumn = true
            return
        }
        reserve(key.count + 2)
        if !firstLayer { stage(UInt8(ascii: ",")) }
        firstLayer = false
        stage(key)
        stage(UInt8(ascii: "{"))
        firstColumn = true
    }

    /// A value in lane form, staged as ``ResponseEncoder/writeLanes(_:kind:into:)`` writes it.
    mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ lanes: UnsafePointer<Double>) {
        let key = tables.keyBytes.bytes(tables.columnKeys[column])
        let kind = keyPath.property.kind
        let count = kind == .transform ? 16 : kind.laneCount
        let most = key.count + 3 + count * (JSONWriter.maximumNumberLength + 1)
        guard most <= Self.stagingCapacity else {
            openColumn(key)
            ResponseEncoder.writeLanes(lanes, kind: kind, into: &writer)
            return
        }
        stageColumn(key, reserving: most)
        let digits = writer.significantDigits
        if kind == .number {
            stageNumber(lanes[0], digits)
            return
        }
        if kind == .transform && ResponseEncoder.isIdentity(lanes) {
            let identity: StaticString = "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]"
            stage(UnsafeBufferPointer(start: identity.utf8Start, count: identity.utf8CodeUnitCount))
            return
        }
        stage(UInt8(ascii: "["))
        for lane in 0..<count {
            if lane > 0 { stage(UInt8(ascii: ",")) }
            stageNumber(lanes[lane], digits)
        }
        stage(UInt8(ascii: "]"))
    }

    @inline(__always)
    private mutating func separate() {
        if !firstColumn { writer.byte(UInt8(ascii: ",")) }
        firstColumn = false
    }

    /// Opens a column in the staging area: room for `most` bytes, the comma, the key.
    @inline(__always)
    private mutating func stageColumn(_ key: UnsafeBufferPointer<UInt8>, reserving most: Int) {
        reserve(most)
        if !firstColumn { stage(UInt8(ascii: ",")) }
        firstColumn = false
        stage(key)
    }

    /// Opens a column in `writer` itself, after what is staged.
    private mutating func openColumn(_ key: UnsafeBufferPointer<UInt8>) {
        flush()
        separate()
        writer.bytes.append(contentsOf: key)
    }

    /// A value: numbers, points, sizes and rects (a sub-key-path such as `transform.scale`
    /// or `position.x`) staged as ``ResponseEncoder/writeValue(_:into:)`` writes them, others
    /// written by it.
    mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value) {
        let key = tables.keyBytes.bytes(tables.columnKeys[column])
        let most = key.count + 3 + 4 * (JSONWriter.maximumNumberLength + 1)
        let stageable: Bool
        switch value {
        case .number, .point, .size, .rect: stageable = most <= Self.stagingCapacity
        default: stageable = false
        }
        guard stageable else {
            openColumn(key)
            ResponseEncoder.writeValue(value, into: &writer)
            return
        }
        stageColumn(key, reserving: most)
        let digits = writer.significantDigits
        switch value {
        case .number(let n):
            stageNumber(n, digits)
        case .point(let p), .size(let p):
            stage(UInt8(ascii: "["))
            stageNumber(p.x, digits)
            stage(UInt8(ascii: ","))
            stageNumber(p.y, digits)
            stage(UInt8(ascii: "]"))
        case .rect(let r):
            stage(UInt8(ascii: "["))
            stageNumber(r.origin.x, digits)
            stage(UInt8(ascii: ","))
            stageNumber(r.origin.y, digits)
            stage(UInt8(ascii: ","))
            stageNumber(r.size.x, digits)
            stage(UInt8(ascii: ","))
            stageNumber(r.size.y, digits)
            stage(UInt8(ascii: "]"))
        default: break
        }
    }

    mutating func transition(_ column: Int, _ state: TransitionState) {
        flush()
        separate()
        writer.key("transition")
        ResponseEncoder.writeTransition(state, into: &writer)
    }

    mutating func particles(_ column: Int, _ particles: [Particle]) {
        flush()
        separate()
        writer.key("particles")
        ResponseEncoder.writeParticles(particles, into: &writer)
    }

    mutating func endLayer(_ layer: Int) {
        reserve(1)
        stage(UInt8(ascii: "}"))
    }
}

/// Set once by whichever thread stops a render; read by the others.
final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
