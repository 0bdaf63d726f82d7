/// Building a ``SamplingProgram`` from a recorded ``Timeline``.
extension SamplingProgram {
    /// Compiles the given (layer, property) pairs of a timeline; tracks keep the request order.
    public convenience init(timeline: Timeline, requests: [(layer: Int, property: LayerProperty)]) {
        var builder = Builder(timeline: timeline)
        builder.reserve(for: requests)
        for request in requests { builder.addTrack(layer: request.layer, property: request.property) }
        self.init(from: &builder, timeSources: timeline.clocks)
    }

    /// Accumulates the flat arrays while tracks are compiled.
    struct Builder {
        let timeline: Timeline
        /// The program's arrays of one entry per track, piece or model lane, frozen in place
        /// (``GrowableBuffer``) like the ops: at 10,000 layers each is up to 1.7 MB, which a copy
        /// when frozen would hold twice at the compile's peak.
        let tracks = GrowableBuffer<Track>()
        let pieceStarts = GrowableBuffer<Double>()
        let pieces = GrowableBuffer<Piece>()
        /// The non-generic pieces' model values, each in as many lanes as its kind has, each
        /// distinct value once.
        let modelLanes = GrowableBuffer<Double>()
        /// Offsets in `modelLanes` by the hash of the lanes' bit patterns (see ``modelOffset``).
        var modelOffsets: [Int: Int] = [:]
        /// Frozen in place (``GrowableBuffer``): the largest array of a large program.
        let ops = GrowableBuffer<Op>()
        /// One per op, frozen in place too.
        let timings = GrowableBuffer<MediaTiming>()
        var groups: [GroupTiming] = []
        let keyframes = GrowableBuffer<Keyframes>()
        /// Compiled keyframe tracks by identity, so leaves sharing one share its lanes.
        var keyframeIndex: [ObjectIdentifier: Int] = [:]
        /// A keyframe track's times, values and tangents: frozen in place too (a program of
        /// 10,000 tracks of their own holds 1.3 MB in each of the last three).
        let keyTimes = GrowableBuffer<Double>()
        let keyValues = GrowableBuffer<Double>()
        let outTangents = GrowableBuffer<Double>()
        let inTangents = GrowableBuffer<Double>()
        var segmentFunctions: [Easing] = []
        var transformBases: [TransformBase] = []
        var transformBaseIndex: [TransformBaseKey: Int] = [:]
        var easings: [Easing] = []
        var easingIndex: [TimingFunction: Int] = [:]
        var springs: [Spring.Solved] = []
        var springIndex: [Spring: Int] = [:]
        /// Clock numbers by timing and group timings.
        var clocks: [ClockKey: Int] = [:]

        /// A transform base's inputs as bit patterns: equal keys make identical bases.
        struct TransformBaseKey: Hashable {
            let matrix: SIMD16<UInt64>
            let part: SIMD4<UInt64>
            let partKind: ValueKind
        }

        struct ClockKey: Hashable {
            let timings: [MediaTiming]
            let functions: [TimingFunction]
            let source: Int
        }

        init(timeline: Timeline) { self.timeline = timeline }

        /// Reserves the flat arrays from bounds read off the timeline: a track has at most one
        /// piece per model change and per attach and detach of its leaves, plus the one before
        /// them all; a leaf usually makes one op, a distinct keyframe track one compiled track.
        /// Grown by doubling instead, a 10,000-layer program's arrays held up to three times
        /// their size while it was built. Model lanes and transform bases are not reserved:
        /// pieces and ops with equal values share them, so a bound would mostly go unused.
        mutating func reserve(for requests: [(layer: Int, property: LayerProperty)]) {
            var pieceBound = 0
            var leafCount = 0
            var keyframeTracks = 0
            var keyTimeBound = 0
            var keyValueBound = 0
            var functionBound = 0
            // A track shared by several leaves is compiled once (``compileKeyframes(_:)``).
            var seenTracks = Set<ObjectIdentifier>()
            for (layer, property) in requests {
                let track = timeline.layers[layer]
                let leaves = track.leavesByProperty[property.ordinal] ?? []
                let bound = 1 + 2 * leaves.count + (track.model[property.ordinal]?.times.count ?? 0)
                pieceBound += bound
                leafCount += leaves.count
                for index in leaves {
                    let body = timeline.leaves[index].body
                    guard case .keyframes(let keyframes) = body.curve,
                        case .values(let values) = keyframes.source,
                        seenTracks.insert(ObjectIdentifier(keyframes)).inserted
                    else { continue }
                    keyframeTracks += 1
                    keyTimeBound += keyframes.keyTimes.count
                    keyValueBound += values.count * (values.first.map { Keyframes.laneCount(of: $0.kind) } ?? 1)
                    functionBound += keyframes.segmentFunctions?.count ?? 0
                }
            }
            tracks.reserveCapacity(requests.count)
            pieceStarts.reserveCapacity(pieceBound)
            pieces.reserveCapacity(pieceBound)
            ops.reserveCapacity(leafCount)
            timings.reserveCapacity(leafCount)
            keyframes.reserveCapacity(keyframeTracks)
            keyTimes.reserveCapacity(keyTimeBound)
            keyValues.reserveCapacity(keyValueBound)
            outTangents.reserveCapacity(keyValueBound)
            inTangents.reserveCapacity(keyValueBound)
            segmentFunctions.reserveCapacity(functionBound)
        }

        mutating func addTrack(layer: Int, property: LayerProperty) {
            let kind = property.kind
            let layerTrack = timeline.layers[layer]
            let leafIndices = layerTrack.leavesByProperty[property.ordinal] ?? []
            // A path animation with rotationMode turns the transform from outside its own leaves.
            // A replicator's copy, and a colour below a replicator, are derived at each time.
            if kind.laneCount == 0 || (property == .transform && layerTrack.hasPathRotation)
                || layerTrack.replica != nil || (layerTrack.underReplicator && kind == .color)
            {
                tracks.append(Track(firstPiece: pieces.count, pieceCount: 0, layer: layer, kind: kind, generic: true))
                return
            }
            // Piece boundaries: every model change and every attach and detach of a leaf.
            var boundaries: [Double] = []
            if let history = layerTrack.model[property.ordinal] { boundaries += history.times }
            for index in leafIndices {
                let leaf = timeline.leaves[index]
                boundaries.append(leaf.addedAt)
                if leaf.removedAt.isFinite { boundaries.append(leaf.removedAt) }
            }
            let starts = [-Double.infinity] + Array(Set(boundaries)).sorted()
            let firstPiece = pieces.count
            // Sweep the boundaries in order, keeping the leaves attached at each (in the order
            // added), so a property with thousands of animations compiles in one pass.
            let byAdded = leafIndices.sorted { timeline.leaves[$0].addedAt < timeline.leaves[$1].addedAt }
            let byRemoved = leafIndices.sorted { timeline.leaves[$0].removedAt < timeline.leaves[$1].removedAt }
            var nextAdded = 0
            var nextRemoved = 0
            var attached: [Int] = []
            for start in starts {
                while nextAdded < byAdded.count && timeline.leaves[byAdded[nextAdded]].addedAt <= start {
                    let index = byAdded[nextAdded]
                    if timeline.leaves[index].removedAt > start {
                        attached.insert(index, at: attached.firstIndex { $0 > index } ?? attached.count)
                    }
                    nextAdded += 1
                }
                while nextRemoved < byRemoved.count && timeline.leaves[byRemoved[nextRemoved]].removedAt <= start {
                    let index = byRemoved[nextRemoved]
                    if let position = attached.firstIndex(of: index) { attached.remove(at: position) }
                    nextRemoved += 1
                }
                pieceStarts.append(start)
                let (firstOp, opCount, model) = compilePiece(
                    layer: layer, property: property, at: start, attached: attached)
                pieces.append(
                    Piece(
                        firstOp: firstOp, opCount: opCount,
                        modelOffset: model.map { modelOffset($0, laneCount: kind.laneCount) } ?? 0,
                        generic: model == nil))
            }
            tracks.append(
                Track(firstPiece: firstPiece, pieceCount: starts.count, layer: layer, kind: kind, generic: false))
        }

        /// Where a piece's model value lies in `modelLanes`: pieces with the same value (an
        /// identity transform, the default bounds, an opacity of 1: most of a large scene's
        /// pieces) share one copy, compared bit for bit. Two values whose hashes collide keep a
        /// copy each.
        private mutating func modelOffset(_ model: Lanes, laneCount: Int) -> Int {
            var hasher = Hasher()
            hasher.combine(laneCount)
            for lane in 0..<laneCount { hasher.combine(model[lane].bitPattern) }
            let hash = hasher.finalize()
            if let offset = modelOffsets[hash], offset + laneCount <= modelLanes.count,
                (0..<laneCount).allSatisfy({ modelLanes[offset + $0].bitPattern == model[$0].bitPattern })
            {
                return offset
            }
            let offset = modelLanes.count
            for lane in 0..<laneCount { modelLanes.append(model[lane]) }
            if modelOffsets[hash] == nil { modelOffsets[hash] = offset }
            return offset
        }

        /// The model value and attached leaves (in the order added) at the start of a piece,
        /// resolved: its ops, and its model value (nil when the piece is generic).
        private mutating func compilePiece(layer: Int, property: LayerProperty, at start: Double, attached: [Int])
            -> (firstOp: Int, opCount: Int, model: Lanes?)
        {
            let model = timeline.layers[layer].modelValue(property, at: start)
            let firstOp = ops.count
            guard let modelLanes = model.lanes else { return (firstOp, 0, nil) }
            var valueIsModel = true
            for index in attached {
                let leaf = timeline.leaves[index]
                guard let op = compileOp(leaf.body, model: model, valueIsModel: valueIsModel) else {
                    ops.removeLast(from: firstOp)
                    timings.removeLast(from: firstOp)
                    return (firstOp, 0, nil)
                }
                ops.append(op)
                timings.append(leaf.body.timing)
                valueIsModel = false
            }
            return (firstOp, ops.count - firstOp, modelLanes)
        }

        /// One leaf resolved against a constant model value; `nil` when it needs the generic path.
        private mutating func compileOp(_ body: AnimationLeafBody, model: Value, valueIsModel: Bool) -> Op? {
            let keyPath = body.keyPath
            let target: Target
            var laneRange = (offset: 0, count: 0)
            var transformBase = -1
            switch (keyPath.property.kind, keyPath.component) {
            case (.transform, nil):
                return nil
            case (.transform, let component?):
                // The part is written into the transform beneath it, constant only if nothing
                // animated it first.
                guard valueIsModel, case .transform(let matrix) = model,
                    let modelPart = keyPath.extract(from: model).lanes
                else { return nil }
                // One base per distinct model transform and part (compared bit for bit): a
                // scene's layers mostly share the identity.
                let baseKey = TransformBaseKey(
                    matrix: Lanes(transform: matrix).bitPatterns, part: Self.small(modelPart).bitPatterns,
                    partKind: component.kind)
                if let known = transformBaseIndex[baseKey] {
                    transformBase = known
                } else {
                    transformBases.append(
                        TransformBase(
                            isIdentity: matrix.isIdentity, components: TransformComponents(matrix),
                            modelPart: Self.small(modelPart),
                            partKind: component.kind))
                    transformBase = transformBases.count - 1
                    transformBaseIndex[baseKey] = transformBase
                }
                target = .transformPart
            case (_, nil):
                target = .whole
            case (_, let component?):
                guard let lanes = Self.lanes(of: component) else { return nil }
                laneRange = lanes
                target = .lanes
            }
            let partModel = keyPath.extract(from: model)
            var from = SmallLanes()
            var to = SmallLanes()
            var spring = -1
            var keyframeTrack = -1
            switch body.curve {
            case .basic(let values, let basicSpring):
                let (start, end) = body.endpoints(values, model: partModel)
                guard let startLanes = start.lanes, let endLanes = end.lanes else { return nil }
                from = Self.small(startLanes)
                to = Self.small(endLanes)
                if let basicSpring {
                    spring = springIndex[basicSpring] ?? springs.count
                    if spring == springs.count {
                        springs.append(Spring.Solved(basicSpring))
                        springIndex[basicSpring] = spring
                    }
                }
            case .keyframes(let track):
                guard let compiled = compileKeyframes(track), let end = track.value(at: 1).lanes else { return nil }
                keyframeTrack = compiled
                // A keyframe op has no endpoints: its `from` holds the cumulative step.
                if body.cumulative { from = Self.small(end) }
            }
            let clockKey = ClockKey(
                timings: body.groups.map(\.timing) + [body.timing], functions: body.groups.map(\.timingFunction),
                source: body.clock)
            let clock = clocks[clockKey] ?? clocks.count
            clocks[clockKey] = clock
            let firstGroup = groups.count
            groups += body.groups.map { GroupTiming(timing: $0.timing, easing: Easing($0.timingFunction)) }
            return Op(
                from: from, to: to, duration: body.timing.duration, clock: clock, timeSource: body.clock,
                keyframes: keyframeTrack, spring: spring, easing: easing(body.timingFunction), target: target,
                additive: body.additive, cumulative: body.cumulative, component: keyPath.component ?? .x,
                laneOffset: laneRange.offset,
                laneCount: laneRange.count, transformBase: transformBase, firstGroup: firstGroup,
                groupCount: body.groups.count)
        }

        /// The shared easing of a timing function.
        private mutating func easing(_ function: TimingFunction) -> Int {
            if let known = easingIndex[function] { return known }
            easings.append(Easing(function))
            easingIndex[function] = easings.count - 1
            return easings.count - 1
        }

        /// A value keyframe track in lane form (shared between leaves); `nil` for paths.
        private mutating func compileKeyframes(_ track: KeyframeTrack) -> Int? {
            if let known = keyframeIndex[ObjectIdentifier(track)] { return known }
            guard case .values(let values) = track.source, !values.isEmpty else { return nil }
            // Interpolation reads a time for every value (the timeline's track pairs them up).
            guard track.mode == .discrete || track.keyTimes.count >= values.count else { return nil }
            let lanes = values.compactMap(\.lanes).map(Self.small)
            guard lanes.count == values.count else { return nil }
            let cubic = track.mode == .cubic && values.count >= 2
            let outs = cubic ? track.outTangents.compactMap(\.lanes).map(Self.small) : []
            let ins = cubic ? track.inTangents.compactMap(\.lanes).map(Self.small) : []
            if cubic && (outs.count != values.count || ins.count != values.count) { return nil }
            let functions = track.segmentFunctions ?? []
            let kind = values[0].kind
            let laneCount = Keyframes.laneCount(of: kind)
            keyframes.append(
                Keyframes(
                    mode: track.mode, firstTime: keyTimes.count, timeCount: track.keyTimes.count,
                    firstValue: keyValues.count, valueCount: values.count, laneCount: laneCount,
                    firstFunction: segmentFunctions.count, functionCount: functions.count,
                    pairwiseHermite: kind == .rect || kind == .color))
            keyTimes.append(contentsOf: track.keyTimes)
            /// Each value's first `laneCount` lanes (the others are zero).
            func append(_ values: [SmallLanes], to buffer: GrowableBuffer<Double>) {
                for value in values {
                    for lane in 0..<laneCount { buffer.append(value[lane]) }
                }
            }
            append(lanes, to: keyValues)
            // Tangents are indexed like values; non-cubic tracks pad with zeros to keep one offset.
            if cubic {
                append(outs, to: outTangents)
                append(ins, to: inTangents)
            } else {
                let zeros = Array(repeating: 0.0, count: values.count * laneCount)
                outTangents.append(contentsOf: zeros)
                inTangents.append(contentsOf: zeros)
            }
            segmentFunctions += functions.map(Easing.init)
            keyframeIndex[ObjectIdentifier(track)] = keyframes.count - 1
            return keyframes.count - 1
        }

        /// The first four lanes, all a non-transform value uses.
        private static func small(_ lanes: Lanes) -> SmallLanes { lanes.lowHalf.lowHalf }

        /// The lanes a point, size or rect sub-path covers.
        private static func lanes(of component: KeyPath.Component) -> (offset: Int, count: Int)? {
            switch component {
            case .x, .width, .originX: (0, 1)
            case .y, .height, .originY: (1, 1)
            case .origin: (0, 2)
            case .size: (2, 2)
            case .sizeWidth: (2, 1)
            case .sizeHeight: (3, 1)
            default: nil
            }
        }
    }
}
