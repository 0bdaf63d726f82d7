/// Frames of a recorded timeline, planned once and visited many times: what a render, a
/// picture or a status page reads of `CALayer.presentation()` at each time.
///
/// The plan holds the selected layers and, for each, its columns — key paths to sample (whole
/// properties compiled into a ``SamplingProgram``, sub-paths read from the timeline), the
/// `CATransition` faces, the particles — flat, so that frames visited on every core at once
/// touch no reference count. ``visit(_:cursor:_:)`` walks one frame layer by layer in drawing
/// order (the tree's order at that time) and hands each value to a ``FrameVisitor``: the JSON
/// encoder, a rasteriser and the arena's status are three such visitors.
public final class FramePlan: Sendable {
    /// One column of a layer: a key path, the transition, or the particles.
    public struct Column: Sendable {
        public enum Member: Sendable {
            case keyPath(KeyPath)
            /// A `CATransition` (or UIView transition) in effect: its faces.
            case transition
            /// An emitter layer's live particles.
            case particles
        }

        public let member: Member
        /// The column's track in the sampling program, −1 when it is read from the timeline. A
        /// sub-path's track is its whole property's: the sub-path is extracted from it
        /// (`KeyPath.extract`, as `Timeline.presentationValue` does).
        let track: Int
    }

    public let timeline: Timeline
    /// Sample times in order.
    public let times: [Double]
    let columns: FrozenBuffer<Column>
    /// Per layer: its columns in `columns` (empty for layers not selected).
    let layerColumns: FrozenBuffer<Range<Int>>
    let selected: FrozenBuffer<Bool>
    let program: SamplingProgram
    /// Whether layer time maps and the tree never change (then they are computed once).
    let staticMaps: [TimeMap]?
    let staticShape: Timeline.TreeShape?
    /// Animated birth-rate integrals, shared by every frame of this plan.
    let emissions = EmissionCache()

    /// Plans the frames: `columns[layer]` for each selected layer. With `releasingLeaves`, a
    /// plan whose columns are all compiled whole (no sub-path, no particles, no generic piece)
    /// keeps its timeline without leaves (``Timeline/releaseLeaves()``): for a render's plan,
    /// which owns its timeline and whose frames are read only through ``visit(_:cursor:_:)``.
    ///
    /// The timeline is consumed: a caller that passes it with `consume` lets the plan release
    /// the leaves in place, instead of in a copy of the timeline's layers while the caller's
    /// copy still holds them.
    ///
    /// The columns are consumed too, and flattened before the program compiles, so that a large
    /// plan does not hold them twice while it does.
    public init(
        timeline: consuming Timeline, times: [Double], selected: [Bool], columns: consuming [[Column.Member]],
        releasingLeaves: Bool = false
    ) {
        self.times = times
        var total = 0
        for layer in timeline.layers.indices where selected[layer] { total += columns[layer].count }
        var requests: [(layer: Int, property: LayerProperty)] = []
        requests.reserveCapacity(total)
        // A layer's whole property is compiled once, however many of its columns read it.
        var tracks: [Int: Int] = [:]
        let flat = GrowableBuffer<Column>()
        flat.reserveCapacity(total)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(timeline.layers.count)
        for layer in timeline.layers.indices {
            let first = flat.count
            if selected[layer] {
                for member in columns[layer] {
                    var track = -1
                    if case .keyPath(let keyPath) = member {
                        let key = layer &* 64 &+ keyPath.property.ordinal
                        if let known = tracks[key] {
                            track = known
                        } else {
                            track = requests.count
                            tracks[key] = track
                            requests.append((layer, keyPath.property))
                        }
                    }
                    flat.append(Column(member: member, track: track))
                }
            }
            ranges.append(first..<flat.count)
        }
        _ = consume columns
        // Every column read from the program: none from the timeline, no particles.
        let columnsCompiled = flat.allSatisfy { column in
            switch column.member {
            case .keyPath: column.track >= 0
            case .transition: true
            case .particles: false
            }
        }
        self.columns = flat.freeze()
        layerColumns = FrozenBuffer(ranges)
        self.selected = FrozenBuffer(selected)
        program = SamplingProgram(timeline: copy timeline, requests: requests)
        let sampledWhole = program.isComplete && columnsCompiled
        let isStatic = timeline.shape.isConstant && timeline.layers.allSatisfy { $0.timingIsConstant }
        let shape = isStatic ? timeline.shape(at: 0) : nil
        staticShape = shape
        staticMaps = shape.map { timeline.timeMaps(at: 0, shape: $0) }
        var kept = consume timeline
        // A mask (`CALayer.mask`) is out of the tree: a picture reads its values from the timeline.
        if releasingLeaves && sampledWhole && !kept.layers.contains(where: { $0.mask >= 0 }) { kept.releaseLeaves() }
        self.timeline = kept
    }

    deinit {
        columns.free()
        layerColumns.free()
        selected.free()
    }

    /// The columns of a layer, as indices into the plan's flat column list.
    public func columns(of layer: Int) -> Range<Int> { layerColumns[layer] }

    /// The number of columns over all layers.
    public var columnCount: Int { columns.count }

    /// Column `index` of the flat list (``columns(of:)`` gives a layer's).
    public func column(_ index: Int) -> Column { columns[index] }

    /// The tree and each layer's time map at `time`: what ``visit(_:shape:maps:cursor:_:)``
    /// takes, for a visitor that also reads the timeline at that time.
    public func frameState(at time: Double) -> (shape: Timeline.TreeShape, maps: [TimeMap]) {
        let shape = staticShape ?? timeline.shape(at: time)
        return (shape, staticMaps ?? timeline.timeMaps(at: time, shape: shape))
    }

    /// Visits the frame at `time` as ``visit(_:cursor:_:)`` does, with its tree and time maps
    /// given (``frameState(at:)``).
    public func visit<Visitor: FrameVisitor>(
        _ time: Double, shape: Timeline.TreeShape, maps: [TimeMap], cursor: SamplingCursor, _ visitor: inout Visitor
    ) {
        visit(time, shape: shape, maps: maps, tileFrame: -1, positions: nil, cursor: cursor, &visitor)
    }

    /// What Core Animation's render server reads of every layer to draw it
    /// (``LayerType/drawnProperties``), its `CATransition` faces and, on a `CAEmitterLayer`,
    /// its particles: the columns of a plan whose frames are pictures.
    public static func drawnColumns(_ timeline: Timeline) -> [[Column.Member]] {
        var byType: [LayerType: [Column.Member]] = [:]
        return timeline.layers.map { track in
            var columns =
                byType[track.type]
                ?? {
                    let members = track.type.drawnProperties.map { Column.Member.keyPath(KeyPath($0)) }
                    byType[track.type] = members
                    return members
                }()
            if !track.transitionsEmpty { columns.append(.transition) }
            if track.type == .emitter { columns.append(.particles) }
            return columns
        }
    }

    /// A working cursor for one thread, with a tile of up to `tileFrames` frames (none with 0:
    /// frames sampled one at a time).
    public func makeCursor(tileFrames: Int = 0) -> SamplingCursor {
        SamplingCursor(for: program, tileFrames: tileFrames)
    }

    /// The frames a tile holds within `bytes` of tile memory (``SamplingProgram/tileFrames(within:)``):
    /// 1 means a frame does not fit, and frames are best sampled one at a time.
    public func tileFrames(within bytes: Int) -> Int { program.tileFrames(within: bytes) }

    /// Samples the compiled columns at `times` (increasing; at most the cursor's tile) into
    /// the cursor's tile, for ``visit(tileFrame:cursor:_:)``.
    public func sampleTile(_ times: ArraySlice<Double>, cursor: SamplingCursor) {
        if let staticMaps {
            staticMaps.withUnsafeBufferPointer { maps in
                program.sampleTile(times, maps: maps.baseAddress!, mapStride: 0, cursor: cursor)
            }
            return
        }
        cursor.tileShapes = times.map { timeline.shape(at: $0) }
        cursor.tileMaps = zip(times, cursor.tileShapes).map { timeline.timeMaps(at: $0, shape: $1) }
        let layerCount = timeline.layers.count
        var flat: [TimeMap] = []
        flat.reserveCapacity(times.count * layerCount)
        for maps in cursor.tileMaps { flat += maps }
        flat.withUnsafeBufferPointer { maps in
            program.sampleTile(times, maps: maps.baseAddress!, mapStride: layerCount, cursor: cursor)
        }
    }

    /// Visits the frame at `time`: each selected layer in the tree, in drawing order, and its
    /// columns in order. A transition column is visited only while one is in effect, a
    /// particles column only on emitter layers.
    public func visit<Visitor: FrameVisitor>(_ time: Double, cursor: SamplingCursor, _ visitor: inout Visitor) {
        let shape = staticShape ?? timeline.shape(at: time)
        let maps = staticMaps ?? timeline.timeMaps(at: time, shape: shape)
        visit(time, shape: shape, maps: maps, tileFrame: -1, positions: nil, cursor: cursor, &visitor)
    }

    /// Visits the layers at `positions` of the frame's drawing order at `time` (those of them
    /// selected), as ``visit(_:cursor:_:)`` visits them all: the parts of one frame written on
    /// several threads, whose visits one after another are the whole frame's.
    public func visit<Visitor: FrameVisitor>(
        _ time: Double, positions: Range<Int>, cursor: SamplingCursor, _ visitor: inout Visitor
    ) {
        let shape = staticShape ?? timeline.shape(at: time)
        let maps = staticMaps ?? timeline.timeMaps(at: time, shape: shape)
        visit(time, shape: shape, maps: maps, tileFrame: -1, positions: positions, cursor: cursor, &visitor)
    }

    /// The number of layers in the frame's drawing order at `time`, selected or not: what the
    /// parts of a frame (``visit(_:positions:cursor:_:)``) divide.
    public func layerCount(at time: Double) -> Int { (staticShape ?? timeline.shape(at: time)).order.count }

    /// Whether a selected layer comes before position `position` of the drawing order at
    /// `time`: whether a part of a frame starting there follows layers already written.
    public func selectsLayer(before position: Int, at time: Double) -> Bool {
        (staticShape ?? timeline.shape(at: time)).order[..<position].contains { selected[$0] }
    }

    /// Visits frame `tileFrame` of the cursor's tile (``sampleTile(_:cursor:)``), as
    /// ``visit(_:cursor:_:)`` visits a time, reading the compiled columns from the tile.
    public func visit<Visitor: FrameVisitor>(tileFrame: Int, cursor: SamplingCursor, _ visitor: inout Visitor) {
        precondition(tileFrame >= 0 && tileFrame < cursor.tileCount, "frame outside the tile")
        visit(
            cursor.tileTimes[tileFrame], shape: staticShape ?? cursor.tileShapes[tileFrame],
            maps: staticMaps ?? cursor.tileMaps[tileFrame], tileFrame: tileFrame, positions: nil, cursor: cursor,
            &visitor)
    }

    /// The frame's layers and columns (those at `positions` of the drawing order, or all);
    /// compiled columns come from tile frame `tileFrame`, or are sampled now when it is −1.
    @inline(__always)
    private func visit<Visitor: FrameVisitor>(
        _ time: Double, shape: Timeline.TreeShape, maps: [TimeMap], tileFrame: Int, positions: Range<Int>?,
        cursor: SamplingCursor, _ visitor: inout Visitor
    ) {
        var lanes = Lanes()
        for layer in shape.order[positions ?? shape.order.indices] where selected[layer] {
            visitor.beginLayer(layer)
            let map = maps[layer]
            for column in layerColumns[layer] {
                switch columns[column].member {
                case .keyPath(let keyPath):
                    let track = columns[column].track
                    if track >= 0 && tileFrame >= 0 {
                        if let values = program.tileValues(track, frame: tileFrame, cursor: cursor) {
                            if keyPath.component == nil {
                                visitor.lanes(column, keyPath, values)
                            } else {
                                visitor.value(
                                    column, keyPath,
                                    keyPath.extract(from: Value(lanes: values, kind: keyPath.property.kind)))
                            }
                            continue
                        }
                    } else if track >= 0, program.sample(track, at: time, map: map, cursor: cursor, into: &lanes) {
                        if keyPath.component == nil {
                            withUnsafeBytes(of: &lanes) {
                                visitor.lanes(column, keyPath, $0.assumingMemoryBound(to: Double.self).baseAddress!)
                            }
                        } else {
                            visitor.value(
                                column, keyPath, keyPath.extract(from: Value(lanes: lanes, kind: keyPath.property.kind))
                            )
                        }
                        continue
                    }
                    visitor.value(
                        column, keyPath, timeline.presentationValue(layer: layer, keyPath: keyPath, at: time, map: map))
                case .particles:
                    guard timeline.layers[layer].type == .emitter else { continue }
                    visitor.particles(column, timeline.particles(layer: layer, at: time, emissions: emissions))
                case .transition:
                    guard let state = timeline.transitionState(layer: layer, at: time, map: map) else { continue }
                    visitor.transition(column, state)
                }
            }
            visitor.endLayer(layer)
        }
    }
}

/// What a frame of a ``FramePlan`` hands out, layer by layer in drawing order.
public protocol FrameVisitor {
    mutating func beginLayer(_ layer: Int)
    /// A whole property from the compiled program, in lane form: as many lanes as its kind has
    /// (``ValueKind/laneCount``; `Value(lanes:kind:)` reads them). Valid during the call only.
    mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ lanes: UnsafePointer<Double>)
    /// A value read from the timeline (sub-paths, and what the program leaves generic).
    mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value)
    mutating func transition(_ column: Int, _ state: TransitionState)
    mutating func particles(_ column: Int, _ particles: [Particle])
    mutating func endLayer(_ layer: Int)
}
