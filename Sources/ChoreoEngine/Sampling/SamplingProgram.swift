/// Presentation values compiled for sampling many frames: what `CALayer.presentation()`
/// answers, with the per-sample work reduced to arithmetic on flat arrays.
///
/// ``Timeline/presentationValue(layer:keyPath:at:map:)`` resolves everything at every sample:
/// the model value, which animations are attached, their endpoints, and boxes values in the
/// ``Value`` enum. Between two changes of a property (a model value set, an animation added
/// or removed) all of that is constant, so a program splits each requested property's scene
/// time into pieces and resolves each piece once: the model value, and for every attached
/// animation its timing, its endpoints with missing ends already read from the model, its
/// keyframes with their tangents, all in ``Lanes`` form.
///
/// Pieces the arithmetic does not cover are marked generic and the caller samples them through
/// the timeline; the result is the same to the last bit either way (a test checks it):
/// - whole-`transform` animations (they interpolate through a decomposition),
/// - a `transform.*` animation on top of another animation of the transform,
/// - path keyframe animations, and layers whose transform follows a path (`rotationMode`),
/// - booleans, strings and paths.
///
/// Immutable once built, so one program serves every rendering thread.
public final class SamplingProgram: Sendable {
    /// Values of every kind but transforms fit four lanes; ops compute in these.
    typealias SmallLanes = SIMD4<Double>

    /// One compiled (layer, property).
    struct Track: Sendable {
        @Index32 var firstPiece: Int
        @Index32 var pieceCount: Int
        /// The layer whose time map the track's ops run on.
        @Index32 var layer: Int
        /// Where the track's lanes start in a tile row (``SamplingCursor``).
        @Index32 var laneOffset = 0
        let kind: ValueKind
        let generic: Bool
    }

    /// A stretch of scene time over which a property's model value and attached animations stay.
    struct Piece: Sendable {
        @Index32 var firstOp: Int
        @Index32 var opCount: Int
        /// Where the model value's lanes (as many as the track's kind has) start in `modelLanes`.
        @Index32 var modelOffset: Int
        let generic: Bool
    }

    /// Where an animation writes its value in the property.
    enum Target: UInt8, Sendable {
        /// The whole property.
        case whole
        /// Some lanes of it: `position.x`, `bounds.size` and the like.
        case lanes
        /// A `transform.*` part, written into the (constant) model transform decomposed once.
        case transformPart
    }

    /// The timing of one enclosing `CAAnimationGroup`.
    struct GroupTiming: Sendable {
        let timing: MediaTiming
        let easing: Easing
    }

    /// One attached property animation, resolved for a piece.
    ///
    /// Fields are ordered by use: what every sample reads first (the endpoints, the duration,
    /// the indices of its clock and curves), then what only some ops read.
    struct Op: Sendable {
        /// Resolved endpoints of a basic animation. A keyframe animation has no endpoints
        /// here: its `from` holds what one completed iteration adds when `cumulative` (its end
        /// value; a basic animation's is `to`).
        let from: SmallLanes
        let to: SmallLanes
        /// `timing.duration` (the whole timing is in `timings`, read when a clock is computed).
        let duration: Double
        /// Ops with the same timing, groups and time source share a cache slot (their local
        /// times are equal).
        @Index32 var clock: Int
        /// The timeline clock the op's time comes from (an animator's), or −1 for the layer's.
        @Index32 var timeSource: Int
        /// Index into `keyframes`, or −1 for a basic animation.
        @Index32 var keyframes: Int
        /// Index into `springs`, or −1: springs and easings are shared tables (ops of many
        /// layers use a few curves), which keeps an op small and the curves in cache.
        @Index32 var spring: Int
        /// Index into `easings`.
        @Index32 var easing: Int
        let target: Target
        let additive: Bool
        let cumulative: Bool
        /// The `transform.*` part, for ``Target/transformPart``.
        let component: KeyPath.Component
        /// The lanes written, for ``Target/lanes``.
        @Index32 var laneOffset: Int
        @Index32 var laneCount: Int
        /// The model transform of a ``Target/transformPart`` op, in `transformBases`.
        @Index32 var transformBase: Int
        @Index32 var firstGroup: Int
        @Index32 var groupCount: Int
    }

    /// A keyframe animation's values in lane form.
    struct Keyframes: Sendable {
        let mode: CalculationMode
        let firstTime: Int
        let timeCount: Int
        /// Offset of the first value's first lane in `keyValues` (and of its tangents').
        let firstValue: Int
        let valueCount: Int
        /// Lanes a value takes (1–4: as many as its kind has), so that a track of numbers
        /// holds one double a value, not four.
        let laneCount: Int
        /// Index of the first per-segment timing function, count 0 when there are none.
        let firstFunction: Int
        let functionCount: Int
        /// Rects and colours add the Hermite terms in pairs, as ``Value/hermite`` does for them.
        let pairwiseHermite: Bool

        /// The lanes a compiled value of `kind` takes: its own, at most the four of ``SmallLanes``.
        static func laneCount(of kind: ValueKind) -> Int { min(max(kind.laneCount, 1), 4) }
    }

    /// A constant model transform decomposed once, for `transform.*` parts.
    struct TransformBase: Sendable {
        let isIdentity: Bool
        let components: TransformComponents?
        /// The model's value of the part (what an additive part adds to).
        let modelPart: SmallLanes
        let partKind: ValueKind
    }

    let tracks: FrozenBuffer<Track>
    let pieceStarts: FrozenBuffer<Double>
    let pieces: FrozenBuffer<Piece>
    /// The pieces' model values, each in as many lanes as its kind has.
    let modelLanes: FrozenBuffer<Double>
    let ops: FrozenBuffer<Op>
    /// Each op's timing.
    let timings: FrozenBuffer<MediaTiming>
    let groups: FrozenBuffer<GroupTiming>
    let keyframes: FrozenBuffer<Keyframes>
    let keyTimes: FrozenBuffer<Double>
    /// Keyframe values and their tangents, each in its track's ``Keyframes/laneCount`` lanes.
    let keyValues: FrozenBuffer<Double>
    let outTangents: FrozenBuffer<Double>
    let inTangents: FrozenBuffer<Double>
    let segmentFunctions: FrozenBuffer<Easing>
    let transformBases: FrozenBuffer<TransformBase>
    let easings: FrozenBuffer<Easing>
    let springs: FrozenBuffer<Spring.Solved>
    /// Distinct (timing, groups, time source) among the ops.
    let clockCount: Int
    /// The timeline's clocks (``ClockSegment``), for ops driven by an animator or a transition.
    let timeSources: [History<ClockSegment>]
    /// Lanes of one frame of every track: a tile row.
    public let rowLanes: Int
    /// Whether curve values are remembered per frame (``SamplingCursor/CurveEntry``): when ops
    /// share curves, four ops a curve or more on average; when most ops have a curve of their
    /// own the cache would only miss.
    let cachesCurves: Bool
    /// Whether every track samples every time itself: no track or piece is generic, so its
    /// frames never read the timeline's leaves.
    public let isComplete: Bool

    /// The kind of value a track produces.
    public func kind(of track: Int) -> ValueKind { tracks[unchecked: track].kind }

    /// The number of compiled tracks, in request order.
    public var trackCount: Int { tracks.count }

    /// Samples a track at a scene time with its layer's time map.
    ///
    /// Returns `false` when the time falls in a generic piece: then `out` is untouched and the
    /// caller asks ``Timeline/presentationValue(layer:keyPath:at:map:)``.
    @inline(__always)
    public func sample(
        _ trackIndex: Int, at time: Double, map: TimeMap, cursor: SamplingCursor, into out: inout Lanes
    ) -> Bool {
        sample(trackIndex, at: time, map: map, cursor: cursor, cache: cursor.cache(frame: 0), into: &out)
    }

    /// Samples every track at `times` (in increasing order, at most the cursor's
    /// ``SamplingCursor/tileCapacity``) into the cursor's tile: for each frame and track what
    /// ``sample(_:at:map:cursor:into:)`` gives, to the bit, and whether it was sampled.
    ///
    /// Track after track, each over all of the tile's frames: a track's pieces and ops are read
    /// once per tile while they are in cache, where frame after frame reads every track's once
    /// per frame. Layer `l`'s map at tile frame `i` is `maps[i * mapStride + l]` (a stride of 0
    /// when the maps do not change).
    public func sampleTile(
        _ times: ArraySlice<Double>, maps: UnsafePointer<TimeMap>, mapStride: Int, cursor: SamplingCursor
    ) {
        let count = times.count
        precondition(count <= cursor.tileCapacity, "tile larger than the cursor's")
        for (frame, time) in times.enumerated() { cursor.tileTimes[frame] = time }
        cursor.tileCount = count
        let trackCount = tracks.count
        var lanes = Lanes()
        for track in 0..<trackCount {
            let layer = tracks[unchecked: track].layer
            let laneCount = tracks[unchecked: track].kind.laneCount
            var values = cursor.tileValues + tracks[unchecked: track].laneOffset
            var sampled = cursor.tileSampled + track
            if mapStride == 0, count > 0,
                let piece = piece(track, from: cursor.tileTimes[0], to: cursor.tileTimes[count - 1], cursor: cursor)
            {
                samplePiece(piece, of: track, count: count, map: maps[layer], cursor: cursor, values: values)
                for _ in 0..<count {
                    sampled.pointee = 1
                    sampled += trackCount
                }
                continue
            }
            for frame in 0..<count {
                let map = maps[frame * mapStride + layer]
                let cache = cursor.cache(frame: frame)
                if sample(track, at: cursor.tileTimes[frame], map: map, cursor: cursor, cache: cache, into: &lanes) {
                    sampled.pointee = 1
                    Self.store(lanes, count: laneCount, to: values)
                } else {
                    sampled.pointee = 0
                }
                values += rowLanes
                sampled += trackCount
            }
        }
    }

    /// The piece a (non-generic) track is in from `start` to `end`, when it is one compiled
    /// piece throughout; nil otherwise. Moves the track's hint to it.
    @inline(__always)
    private func piece(_ track: Int, from start: Double, to end: Double, cursor: SamplingCursor) -> Int? {
        if tracks[unchecked: track].generic { return nil }
        let low = piece(track, at: start, cursor: cursor)
        let stop = tracks[unchecked: track].firstPiece + tracks[unchecked: track].pieceCount
        guard low + 1 == stop || end < pieceStarts[unchecked: low + 1], !pieces[unchecked: low].generic else {
            return nil
        }
        return low
    }

    /// The last piece of a (non-generic) track starting at or before `time` (the first starts
    /// at −∞): the cursor's hint if it still holds, else a binary search, which moves the hint.
    @inline(__always)
    private func piece(_ track: Int, at time: Double, cursor: SamplingCursor) -> Int {
        let first = tracks[unchecked: track].firstPiece
        let end = first + tracks[unchecked: track].pieceCount
        var low = cursor.pieceHint[track]
        if !(pieceStarts[unchecked: low] <= time && (low + 1 == end || time < pieceStarts[unchecked: low + 1])) {
            low = first
            var high = end
            while high - low > 1 {
                let mid = (low + high) / 2
                if pieceStarts[unchecked: mid] <= time { low = mid } else { high = mid }
            }
            cursor.pieceHint[track] = low
        }
        return low
    }

    /// A track over a whole tile inside one compiled piece: ``sample(_:at:map:cursor:into:)``'s
    /// arithmetic frame after frame, with the piece found and its ops read once.
    @inline(__always)
    private func samplePiece(
        _ piece: Int, of track: Int, count: Int, map: TimeMap, cursor: SamplingCursor,
        values: UnsafeMutablePointer<Double>
    ) {
        let firstOp = pieces[unchecked: piece].firstOp
        let ops = firstOp..<(firstOp + pieces[unchecked: piece].opCount)
        let laneCount = tracks[unchecked: track].kind.laneCount
        var values = values
        if ops.isEmpty {
            for _ in 0..<count {
                values.update(from: modelLanes.pointer(pieces[unchecked: piece].modelOffset), count: laneCount)
                values += rowLanes
            }
        } else if tracks[unchecked: track].kind == .transform {
            for frame in 0..<count {
                let time = cursor.tileTimes[frame]
                var out = Lanes()
                transformPart(
                    firstOp, layerTime: input(firstOp, map.local(time), time),
                    cache: cursor.cache(frame: frame), piece: piece, into: &out)
                Self.store(out, count: 16, to: values)
                values += rowLanes
            }
        } else {
            for frame in 0..<count {
                let time = cursor.tileTimes[frame]
                let layerTime = map.local(time)
                let cache = cursor.cache(frame: frame)
                var value = smallModel(piece, laneCount: laneCount)
                for index in ops {
                    apply(index, layerTime: input(index, layerTime, time), cache: cache, to: &value)
                }
                let raw = UnsafeMutableRawPointer(values)
                switch laneCount {
                case 1: values.pointee = value[0]
                case 2: raw.storeBytes(of: value.lowHalf, as: SIMD2<Double>.self)
                default: raw.storeBytes(of: value, as: SmallLanes.self)
                }
                values += rowLanes
            }
        }
    }

    /// The frames a tile holds within `bytes` of tile memory (at least one, at most 16): a
    /// tile of 16 frames keeps a track's pieces and ops in cache; more gains nothing.
    public func tileFrames(within bytes: Int) -> Int {
        let perFrame = max(SamplingCursor.tileBytes(for: self, tileFrames: 1), 1)
        return min(16, max(1, bytes / perFrame))
    }

    /// The lanes of track `track` at tile frame `frame` (as many as its kind has), or nil when
    /// it was not sampled there.
    @inline(__always)
    public func tileValues(_ track: Int, frame: Int, cursor: SamplingCursor) -> UnsafePointer<Double>? {
        guard cursor.tileSampled[frame &* tracks.count &+ track] != 0 else { return nil }
        return UnsafePointer(cursor.tileValues + (frame &* rowLanes &+ tracks[unchecked: track].laneOffset))
    }

    @inline(__always)
    private static func store(_ lanes: Lanes, count: Int, to values: UnsafeMutablePointer<Double>) {
        let raw = UnsafeMutableRawPointer(values)
        switch count {
        case 1: values.pointee = lanes[0]
        case 2: raw.storeBytes(of: lanes.lowHalf.lowHalf.lowHalf, as: SIMD2<Double>.self)
        case 4: raw.storeBytes(of: lanes.lowHalf.lowHalf, as: SIMD4<Double>.self)
        default: raw.storeBytes(of: lanes, as: Lanes.self)
        }
    }

    /// ``sample(_:at:map:cursor:into:)`` with the clock cache entries of one tile frame.
    @inline(__always)
    private func sample(
        _ trackIndex: Int, at time: Double, map: TimeMap, cursor: SamplingCursor,
        cache: SamplingCursor.FrameCache, into out: inout Lanes
    ) -> Bool {
        if tracks[unchecked: trackIndex].generic { return false }
        let low = piece(trackIndex, at: time, cursor: cursor)
        if pieces[unchecked: low].generic { return false }
        let firstOp = pieces[unchecked: low].firstOp
        let opCount = pieces[unchecked: low].opCount
        if opCount == 0 {
            out = model(low, laneCount: tracks[unchecked: trackIndex].kind.laneCount)
            return true
        }
        let layerTime = map.local(time)
        if tracks[unchecked: trackIndex].kind == .transform {
            // Only a single `transform.*` part over the model transform compiles (see the builder).
            transformPart(
                firstOp, layerTime: input(firstOp, layerTime, time), cache: cache, piece: low, into: &out)
            return true
        }
        var value = smallModel(low, laneCount: tracks[unchecked: trackIndex].kind.laneCount)
        for index in firstOp..<(firstOp + opCount) {
            apply(index, layerTime: input(index, layerTime, time), cache: cache, to: &value)
        }
        out = Lanes(lowHalf: SIMD8(lowHalf: value, highHalf: .zero), highHalf: .zero)
        return true
    }

    /// A piece's model value in ``SmallLanes`` (kinds of at most four lanes; the rest zero).
    @inline(__always)
    private func smallModel(_ piece: Int, laneCount: Int) -> SmallLanes {
        let lanes = modelLanes.pointer(pieces[unchecked: piece].modelOffset)
        switch laneCount {
        case 1: return SmallLanes(lanes[0], 0, 0, 0)
        case 2: return SmallLanes(lanes[0], lanes[1], 0, 0)
        default: return UnsafeRawPointer(lanes).loadUnaligned(as: SmallLanes.self)
        }
    }

    /// A piece's model value in ``Lanes``.
    @inline(__always)
    private func model(_ piece: Int, laneCount: Int) -> Lanes {
        if laneCount == 16 {
            return UnsafeRawPointer(modelLanes.pointer(pieces[unchecked: piece].modelOffset)).loadUnaligned(
                as: Lanes.self)
        }
        return Lanes(lowHalf: SIMD8(lowHalf: smallModel(piece, laneCount: laneCount), highHalf: .zero), highHalf: .zero)
    }

    /// The time an op runs on at a scene time: its layer's, or its clock's.
    @inline(__always)
    private func input(_ index: Int, _ layerTime: Double, _ time: Double) -> Double {
        let source = ops[unchecked: index].timeSource
        return source < 0 ? layerTime : timeSources[source].local(at: time)
    }

    /// Applies one op at a layer-local time (``AnimationLeafBody/applying(_:to:model:)``).
    @inline(__always)
    private func apply(
        _ index: Int, layerTime: Double, cache: SamplingCursor.FrameCache,
        to value: inout SmallLanes
    ) {
        guard let local = localTime(index, layerTime: layerTime, cache: cache) else { return }
        let own = ownValue(index, local: local, cache: cache)
        if ops[unchecked: index].target == .whole {
            value = ops[unchecked: index].additive ? value + own : own
            return
        }
        let offset = ops[unchecked: index].laneOffset
        for lane in 0..<ops[unchecked: index].laneCount {
            value[offset + lane] = ops[unchecked: index].additive ? value[offset + lane] + own[lane] : own[lane]
        }
    }

    /// Applies a `transform.*` op over the piece's model transform (the model itself, read
    /// only then, while the op is not in effect).
    @inline(__always)
    private func transformPart(
        _ index: Int, layerTime: Double, cache: SamplingCursor.FrameCache,
        piece: Int, into value: inout Lanes
    ) {
        guard let local = localTime(index, layerTime: layerTime, cache: cache) else {
            value = model(piece, laneCount: 16)
            return
        }
        let own = ownValue(index, local: local, cache: cache)
        let base = ops[unchecked: index].transformBase
        let part = ops[unchecked: index].additive ? transformBases[unchecked: base].modelPart + own : own
        let component = ops[unchecked: index].component
        if transformBases[unchecked: base].isIdentity && transformBases[unchecked: base].partKind == .number,
            let matrix = Self.identityWithPart(part[0], component)
        {
            value = matrix
            return
        }
        let partValue: Value =
            transformBases[unchecked: base].partKind == .size ? .size(Point(part[0], part[1])) : .number(part[0])
        if transformBases[unchecked: base].isIdentity,
            let matrix = KeyPath.insertTransformIntoIdentity(partValue, component)
        {
            value = Lanes(transform: matrix)
        } else {
            value = Lanes(
                transform: KeyPath.insertTransform(
                    partValue, component, baseIsIdentity: false, base: transformBases[unchecked: base].components))
        }
    }

    /// The lanes of ``KeyPath/insertTransformIntoIdentity(_:_:)`` for the scales and
    /// translations (`CATransform3DMakeScale`, `CATransform3DMakeTranslation`), written
    /// directly; nil for the other parts.
    @inline(__always)
    private static func identityWithPart(_ n: Double, _ component: KeyPath.Component) -> Lanes? {
        switch component {
        case .scale: Lanes(n, 0, 0, 0, 0, n, 0, 0, 0, 0, n, 0, 0, 0, 0, 1)
        case .scaleX: Lanes(n, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        case .scaleXY: Lanes(n, 0, 0, 0, 0, n, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        case .scaleY: Lanes(1, 0, 0, 0, 0, n, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        case .scaleZ: Lanes(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, n, 0, 0, 0, 0, 1)
        case .translationX: Lanes(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, n, 0, 0, 1)
        case .translationY: Lanes(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, n, 0, 1)
        case .translationZ: Lanes(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, n, 1)
        default: nil
        }
    }

    /// ``AnimationLeafBody/localTime(layerTime:)``, once per clock and layer time.
    @inline(__always)
    private func localTime(
        _ index: Int, layerTime: Double, cache: SamplingCursor.FrameCache
    ) -> MediaTiming.Local? {
        let clock = ops[unchecked: index].clock
        let entry = cache.clocks + (clock & cache.clockMask)
        if entry.pointee.clock == clock && entry.pointee.time == layerTime { return entry.pointee.local }
        let local = computeLocalTime(index, layerTime: layerTime)
        entry.pointee = SamplingCursor.ClockEntry(clock: clock, time: layerTime, local: local)
        return local
    }

    private func computeLocalTime(_ index: Int, layerTime: Double) -> MediaTiming.Local? {
        var t = layerTime
        let firstGroup = ops[unchecked: index].firstGroup
        for position in firstGroup..<(firstGroup + ops[unchecked: index].groupCount) {
            guard let local = groups[unchecked: position].timing.localTime(atParentTime: t) else { return nil }
            let duration = groups[unchecked: position].timing.duration
            t =
                groups[unchecked: position].easing.kind == .linear || duration <= 0
                ? local.time
                : duration
                    * groups[unchecked: position].easing.evaluate(
                        local.time / duration, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
        }
        return timings[unchecked: index].localTime(atParentTime: t)
    }

    /// ``AnimationLeafBody/value(at:model:)`` in lane form.
    @inline(__always)
    private func ownValue(_ index: Int, local: MediaTiming.Local, cache: SamplingCursor.FrameCache) -> SmallLanes {
        let duration = ops[unchecked: index].duration
        var result: SmallLanes
        let track = ops[unchecked: index].keyframes
        if track < 0 {
            let progress: Double
            let spring = ops[unchecked: index].spring
            if spring >= 0 && !cachesCurves {
                progress = 1 - springs[unchecked: spring].displacement(at: local.time)
            } else if spring >= 0 {
                // Springs and Bézier curves are remembered per frame by their input: layers
                // animated alike (one `UIView.animate` over many views) evaluate each once.
                let entry = cache.curve(easings.count + spring)
                if entry.pointee.id == easings.count + spring && entry.pointee.input == local.time {
                    progress = entry.pointee.output
                } else {
                    progress = 1 - springs[unchecked: spring].displacement(at: local.time)
                    entry.pointee = SamplingCursor.CurveEntry(
                        id: easings.count + spring, input: local.time, output: progress)
                }
            } else {
                let linear = duration > 0 ? local.time / duration : 1
                progress = ease(ops[unchecked: index].easing, linear, local: local, cache: cache)
            }
            let from = ops[unchecked: index].from
            result = from + (ops[unchecked: index].to - from) * progress
        } else {
            let linear = duration > 0 ? local.time / duration : 1
            result = keyframeValue(
                track, at: ease(ops[unchecked: index].easing, linear, local: local, cache: cache),
                tolerance: local.tolerance)
        }
        if ops[unchecked: index].cumulative && local.iteration > 0 {
            // What one completed iteration adds: the end value (see ``Op``).
            let step = track < 0 ? ops[unchecked: index].to : ops[unchecked: index].from
            result = result + step * local.iteration
        }
        return result
    }

    /// An easing's value at a linear progress (``Easing/evaluate(_:beforeFlag:tolerance:)``),
    /// remembered for the frame when it is a Bézier curve (the flag and tolerance only matter
    /// to steps).
    @inline(__always)
    private func ease(_ easing: Int, _ linear: Double, local: MediaTiming.Local, cache: SamplingCursor.FrameCache)
        -> Double
    {
        guard cachesCurves && easings[unchecked: easing].kind == .bezier else {
            return easings[unchecked: easing].evaluate(linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
        }
        let entry = cache.curve(easing)
        if entry.pointee.id == easing && entry.pointee.input == linear { return entry.pointee.output }
        let output = easings[unchecked: easing].bezier.solve(linear)
        entry.pointee = SamplingCursor.CurveEntry(id: easing, input: linear, output: output)
        return output
    }

    /// ``KeyframeTrack/value(at:)`` for value keyframes, in lane form.
    @inline(__always)
    private func keyframeValue(_ index: Int, at u: Double, tolerance: Double) -> SmallLanes {
        let n = keyframes[unchecked: index].valueCount
        let v = keyframes[unchecked: index].firstValue
        let lanes = keyframes[unchecked: index].laneCount
        /// Value or tangent `i` of the track, its lanes beyond `lanes` zero.
        @inline(__always)
        func load(_ buffer: FrozenBuffer<Double>, _ i: Int) -> SmallLanes {
            let offset = v + i * lanes
            switch lanes {
            case 1: return SmallLanes(buffer[unchecked: offset], 0, 0, 0)
            case 2: return SmallLanes(buffer[unchecked: offset], buffer[unchecked: offset + 1], 0, 0)
            case 3:
                return SmallLanes(
                    buffer[unchecked: offset], buffer[unchecked: offset + 1], buffer[unchecked: offset + 2], 0)
            default:
                return SmallLanes(
                    buffer[unchecked: offset], buffer[unchecked: offset + 1], buffer[unchecked: offset + 2],
                    buffer[unchecked: offset + 3])
            }
        }
        guard n > 1 else { return load(keyValues, 0) }
        let k = keyframes[unchecked: index].firstTime
        let mode = keyframes[unchecked: index].mode
        if mode == .discrete {
            let timeCount = keyframes[unchecked: index].timeCount
            var position = 0
            while position + 1 < timeCount && keyTimes[unchecked: k + position + 1] <= u { position += 1 }
            return load(keyValues, min(position, n - 1))
        }
        let before = u < 0 && keyTimes[unchecked: k] == 0
        let beyond = u > 1 && keyTimes[unchecked: k + n - 1] == 1
        if u < keyTimes[unchecked: k] && !before { return load(keyValues, 0) }
        if u >= keyTimes[unchecked: k + n - 1] && !beyond { return load(keyValues, n - 1) }
        var i = 0
        while i + 1 < n && keyTimes[unchecked: k + i + 1] <= u { i += 1 }
        i = min(i, n - 2)
        let t0 = keyTimes[unchecked: k + i]
        let t1 = keyTimes[unchecked: k + i + 1]
        var s = t1 > t0 ? (u - t0) / (t1 - t0) : 1
        if !(before || beyond) { s = min(max(s, 0), 1) }
        if i < keyframes[unchecked: index].functionCount {
            s = segmentFunctions[unchecked: keyframes[unchecked: index].firstFunction + i].evaluate(
                s, beforeFlag: false, tolerance: t1 > t0 ? tolerance / (t1 - t0) : tolerance)
        }
        let a = load(keyValues, i)
        let b = load(keyValues, i + 1)
        if mode == .cubic {
            if s > 1 { return b + load(inTangents, i + 1) * (s - 1) }
            if s < 0 { return a + load(outTangents, i) * s }
            let (h00, h10, h01, h11) = hermiteBasis(s)
            let ma = load(outTangents, i)
            let mb = load(inTangents, i + 1)
            if keyframes[unchecked: index].pairwiseHermite { return (a * h00 + ma * h10) + (b * h01 + mb * h11) }
            return a * h00 + ma * h10 + b * h01 + mb * h11
        }
        return a + (b - a) * s
    }

    /// The program a builder compiled; the builder's arrays are moved into the program's
    /// buffers one at a time and emptied, and its ops (the largest) are frozen where they were
    /// built, so a large program is not held twice while it is built.
    init(from builder: inout Builder, timeSources: [History<ClockSegment>]) {
        clockCount = builder.clocks.count
        self.timeSources = timeSources
        var offset = 0
        for index in builder.tracks.indices {
            builder.tracks[index].laneOffset = offset
            offset += builder.tracks[index].kind.laneCount
        }
        rowLanes = offset
        cachesCurves = (builder.easings.count + builder.springs.count) * 4 <= builder.ops.count
        isComplete = !builder.tracks.contains { $0.generic } && !builder.pieces.contains { $0.generic }
        Self.checkReferences(builder, timeSourceCount: timeSources.count)
        tracks = builder.tracks.freeze()
        pieceStarts = builder.pieceStarts.freeze()
        pieces = builder.pieces.freeze()
        modelLanes = builder.modelLanes.freeze()
        ops = builder.ops.freeze()
        timings = builder.timings.freeze()
        groups = FrozenBuffer(taking: &builder.groups)
        keyframes = builder.keyframes.freeze()
        keyTimes = builder.keyTimes.freeze()
        keyValues = builder.keyValues.freeze()
        outTangents = builder.outTangents.freeze()
        inTangents = builder.inTangents.freeze()
        segmentFunctions = FrozenBuffer(taking: &builder.segmentFunctions)
        transformBases = FrozenBuffer(taking: &builder.transformBases)
        easings = FrozenBuffer(taking: &builder.easings)
        springs = FrozenBuffer(taking: &builder.springs)
    }

    /// Every index one part of the program holds into another is in range, so sampling reads
    /// them unchecked (``FrozenBuffer/subscript(unchecked:)``).
    private static func checkReferences(_ builder: Builder, timeSourceCount: Int) {
        func within(_ first: Int, _ count: Int, _ total: Int) -> Bool {
            first >= 0 && count >= 0 && first + count <= total
        }
        let ops = builder.ops
        let keyframes = builder.keyframes
        for track in builder.tracks {
            precondition(within(track.firstPiece, track.pieceCount, builder.pieces.count), "track outside the pieces")
            precondition(track.generic || track.pieceCount > 0, "track without pieces")
            for piece in track.firstPiece..<(track.firstPiece + track.pieceCount) where !builder.pieces[piece].generic {
                precondition(
                    within(builder.pieces[piece].modelOffset, track.kind.laneCount, builder.modelLanes.count),
                    "piece outside the model values")
            }
        }
        precondition(builder.timings.count == ops.count, "an op without its timing")
        for piece in builder.pieces {
            precondition(within(piece.firstOp, piece.opCount, ops.count), "piece outside the ops")
        }
        for index in 0..<ops.count {
            let op = ops[index]
            precondition(op.clock >= 0, "op without a clock")
            precondition(op.timeSource < timeSourceCount, "op outside the clocks")
            precondition(op.keyframes < keyframes.count, "op outside the keyframes")
            precondition(
                op.spring < builder.springs.count && (0..<builder.easings.count).contains(op.easing),
                "op outside the curves")
            precondition(op.target != .transformPart || (0..<builder.transformBases.count).contains(op.transformBase))
            precondition(within(op.firstGroup, op.groupCount, builder.groups.count), "op outside the groups")
            precondition(op.target != .lanes || (op.laneOffset >= 0 && op.laneOffset + op.laneCount <= 4))
        }
        for track in keyframes {
            precondition(
                within(track.firstTime, track.timeCount, builder.keyTimes.count), "keyframes outside the times")
            precondition((1...4).contains(track.laneCount), "keyframes of \(track.laneCount) lanes")
            let lanes = track.valueCount * track.laneCount
            precondition(within(track.firstValue, lanes, builder.keyValues.count), "keyframes outside the values")
            precondition(track.firstValue + lanes <= min(builder.outTangents.count, builder.inTangents.count))
            precondition(track.valueCount > 0 && (track.mode == .discrete || track.timeCount >= track.valueCount))
            precondition(
                within(track.firstFunction, track.functionCount, builder.segmentFunctions.count),
                "keyframes outside the functions")
        }
    }

    deinit {
        tracks.free()
        pieceStarts.free()
        pieces.free()
        modelLanes.free()
        ops.free()
        timings.free()
        groups.free()
        keyframes.free()
        keyTimes.free()
        keyValues.free()
        outTangents.free()
        inTangents.free()
        segmentFunctions.free()
        transformBases.free()
        easings.free()
        springs.free()
    }
}
