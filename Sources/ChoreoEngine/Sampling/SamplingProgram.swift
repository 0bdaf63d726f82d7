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
        let kind: ValueKind
        let firstPiece: Int
        let pieceCount: Int
        let generic: Bool
    }

    /// A stretch of scene time over which a property's model value and attached animations stay.
    struct Piece: Sendable {
        let model: Lanes
        /// The first four lanes of `model`, where ops on non-transform properties work.
        let smallModel: SmallLanes
        let firstOp: Int
        let opCount: Int
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
    /// Fields are ordered by use: what every sample reads first, then the curve, and last the
    /// timing, read only when the op's clock has not been computed for this layer time yet.
    struct Op: Sendable {
        /// Ops with the same timing, groups and time source share a cache slot (their local
        /// times are equal).
        let clock: Int
        /// The timeline clock the op's time comes from (an animator's), or −1 for the layer's.
        let timeSource: Int
        /// Index into `keyframes`, or −1 for a basic animation.
        let keyframes: Int
        let target: Target
        let additive: Bool
        let cumulative: Bool
        /// The lanes written, for ``Target/lanes``.
        let laneOffset: Int
        let laneCount: Int
        /// The `transform.*` part and its model transform, for ``Target/transformPart``.
        let component: KeyPath.Component
        let transformBase: Int
        /// Resolved endpoints of a basic animation.
        let from: SmallLanes
        let to: SmallLanes
        /// What one completed iteration adds when `cumulative` (the end value).
        let cumulativeStep: SmallLanes
        let spring: Spring.Solved?
        let easing: Easing
        let timing: MediaTiming
        let firstGroup: Int
        let groupCount: Int
    }

    /// A keyframe animation's values in lane form.
    struct Keyframes: Sendable {
        let mode: CalculationMode
        let firstTime: Int
        let timeCount: Int
        let firstValue: Int
        let valueCount: Int
        /// Index of the first per-segment timing function, count 0 when there are none.
        let firstFunction: Int
        let functionCount: Int
        /// Rects and colours add the Hermite terms in pairs, as ``Value/hermite`` does for them.
        let pairwiseHermite: Bool
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
    let ops: FrozenBuffer<Op>
    let groups: FrozenBuffer<GroupTiming>
    let keyframes: FrozenBuffer<Keyframes>
    let keyTimes: FrozenBuffer<Double>
    let keyValues: FrozenBuffer<SmallLanes>
    let outTangents: FrozenBuffer<SmallLanes>
    let inTangents: FrozenBuffer<SmallLanes>
    let segmentFunctions: FrozenBuffer<Easing>
    let transformBases: FrozenBuffer<TransformBase>
    /// Distinct (timing, groups, time source) among the ops.
    let clockCount: Int
    /// The timeline's clocks (``ClockSegment``), for ops driven by an animator or a transition.
    let timeSources: [History<ClockSegment>]

    /// The kind of value a track produces.
    public func kind(of track: Int) -> ValueKind { tracks[track].kind }

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
        if tracks[trackIndex].generic { return false }
        // The last piece starting at or before `time` (the first starts at −∞): the hint if it
        // still holds, else a binary search.
        let first = tracks[trackIndex].firstPiece
        let end = first + tracks[trackIndex].pieceCount
        var low = cursor.pieceHint[trackIndex]
        if !(pieceStarts[low] <= time && (low + 1 == end || time < pieceStarts[low + 1])) {
            low = first
            var high = end
            while high - low > 1 {
                let mid = (low + high) / 2
                if pieceStarts[mid] <= time { low = mid } else { high = mid }
            }
            cursor.pieceHint[trackIndex] = low
        }
        if pieces[low].generic { return false }
        let firstOp = pieces[low].firstOp
        let opCount = pieces[low].opCount
        if opCount == 0 {
            out = pieces[low].model
            return true
        }
        let layerTime = map.local(time)
        if tracks[trackIndex].kind == .transform {
            // Only a single `transform.*` part over the model transform compiles (see the builder).
            out = pieces[low].model
            transformPart(firstOp, layerTime: input(firstOp, layerTime, time), cursor: cursor, into: &out)
            return true
        }
        var value = pieces[low].smallModel
        for index in firstOp..<(firstOp + opCount) {
            apply(index, layerTime: input(index, layerTime, time), cursor: cursor, to: &value)
        }
        out = Lanes(lowHalf: SIMD8(lowHalf: value, highHalf: .zero), highHalf: .zero)
        return true
    }

    /// The time an op runs on at a scene time: its layer's, or its clock's.
    @inline(__always)
    private func input(_ index: Int, _ layerTime: Double, _ time: Double) -> Double {
        let source = ops[index].timeSource
        return source < 0 ? layerTime : timeSources[source].local(at: time)
    }

    /// Applies one op at a layer-local time (``AnimationLeafBody/applying(_:to:model:)``).
    @inline(__always)
    private func apply(_ index: Int, layerTime: Double, cursor: SamplingCursor, to value: inout SmallLanes) {
        guard let local = localTime(index, layerTime: layerTime, cursor: cursor) else { return }
        let own = ownValue(index, local: local)
        if ops[index].target == .whole {
            value = ops[index].additive ? value + own : own
            return
        }
        let offset = ops[index].laneOffset
        for lane in 0..<ops[index].laneCount {
            value[offset + lane] = ops[index].additive ? value[offset + lane] + own[lane] : own[lane]
        }
    }

    /// Applies a `transform.*` op over the piece's model transform.
    @inline(__always)
    private func transformPart(_ index: Int, layerTime: Double, cursor: SamplingCursor, into value: inout Lanes) {
        guard let local = localTime(index, layerTime: layerTime, cursor: cursor) else { return }
        let own = ownValue(index, local: local)
        let base = ops[index].transformBase
        let part = ops[index].additive ? transformBases[base].modelPart + own : own
        let partValue: Value =
            transformBases[base].partKind == .size ? .size(Point(part[0], part[1])) : .number(part[0])
        let component = ops[index].component
        if transformBases[base].isIdentity, let matrix = KeyPath.insertTransformIntoIdentity(partValue, component) {
            value = Lanes(transform: matrix)
        } else {
            value = Lanes(
                transform: KeyPath.insertTransform(
                    partValue, component, baseIsIdentity: false, base: transformBases[base].components))
        }
    }

    /// ``AnimationLeafBody/localTime(layerTime:)``, once per clock and layer time.
    @inline(__always)
    private func localTime(_ index: Int, layerTime: Double, cursor: SamplingCursor) -> MediaTiming.Local? {
        let clock = ops[index].clock
        if cursor.clockTime[clock] == layerTime { return cursor.clockLocal[clock] }
        let local = computeLocalTime(index, layerTime: layerTime)
        cursor.clockTime[clock] = layerTime
        cursor.clockLocal[clock] = local
        return local
    }

    private func computeLocalTime(_ index: Int, layerTime: Double) -> MediaTiming.Local? {
        var t = layerTime
        let firstGroup = ops[index].firstGroup
        for position in firstGroup..<(firstGroup + ops[index].groupCount) {
            guard let local = groups[position].timing.localTime(atParentTime: t) else { return nil }
            let duration = groups[position].timing.duration
            t =
                groups[position].easing.kind == .linear || duration <= 0
                ? local.time
                : duration
                    * groups[position].easing.evaluate(
                        local.time / duration, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
        }
        return ops[index].timing.localTime(atParentTime: t)
    }

    /// ``AnimationLeafBody/value(at:model:)`` in lane form.
    @inline(__always)
    private func ownValue(_ index: Int, local: MediaTiming.Local) -> SmallLanes {
        let duration = ops[index].timing.duration
        var result: SmallLanes
        let track = ops[index].keyframes
        if track < 0 {
            let progress: Double
            if let spring = ops[index].spring {
                progress = 1 - spring.displacement(at: local.time)
            } else {
                let linear = duration > 0 ? local.time / duration : 1
                progress = ops[index].easing.evaluate(
                    linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance)
            }
            let from = ops[index].from
            result = from + (ops[index].to - from) * progress
        } else {
            let linear = duration > 0 ? local.time / duration : 1
            result = keyframeValue(
                track, at: ops[index].easing.evaluate(linear, beforeFlag: local.beforeFlag, tolerance: local.tolerance),
                tolerance: local.tolerance)
        }
        if ops[index].cumulative && local.iteration > 0 {
            result = result + ops[index].cumulativeStep * local.iteration
        }
        return result
    }

    /// ``KeyframeTrack/value(at:)`` for value keyframes, in lane form.
    @inline(__always)
    private func keyframeValue(_ index: Int, at u: Double, tolerance: Double) -> SmallLanes {
        let n = keyframes[index].valueCount
        let v = keyframes[index].firstValue
        guard n > 1 else { return keyValues[v] }
        let k = keyframes[index].firstTime
        let mode = keyframes[index].mode
        if mode == .discrete {
            let timeCount = keyframes[index].timeCount
            var position = 0
            while position + 1 < timeCount && keyTimes[k + position + 1] <= u { position += 1 }
            return keyValues[v + min(position, n - 1)]
        }
        let before = u < 0 && keyTimes[k] == 0
        let beyond = u > 1 && keyTimes[k + n - 1] == 1
        if u < keyTimes[k] && !before { return keyValues[v] }
        if u >= keyTimes[k + n - 1] && !beyond { return keyValues[v + n - 1] }
        var i = 0
        while i + 1 < n && keyTimes[k + i + 1] <= u { i += 1 }
        i = min(i, n - 2)
        let t0 = keyTimes[k + i]
        let t1 = keyTimes[k + i + 1]
        var s = t1 > t0 ? (u - t0) / (t1 - t0) : 1
        if !(before || beyond) { s = min(max(s, 0), 1) }
        if i < keyframes[index].functionCount {
            s = segmentFunctions[keyframes[index].firstFunction + i].evaluate(
                s, beforeFlag: false, tolerance: t1 > t0 ? tolerance / (t1 - t0) : tolerance)
        }
        let a = keyValues[v + i]
        let b = keyValues[v + i + 1]
        if mode == .cubic {
            if s > 1 { return b + inTangents[v + i + 1] * (s - 1) }
            if s < 0 { return a + outTangents[v + i] * s }
            let s2 = s * s
            let s3 = s2 * s
            let h00 = 2 * s3 - 3 * s2 + 1
            let h10 = s3 - 2 * s2 + s
            let h01 = -2 * s3 + 3 * s2
            let h11 = s3 - s2
            let ma = outTangents[v + i]
            let mb = inTangents[v + i + 1]
            if keyframes[index].pairwiseHermite { return (a * h00 + ma * h10) + (b * h01 + mb * h11) }
            return a * h00 + ma * h10 + b * h01 + mb * h11
        }
        return a + (b - a) * s
    }

    init(
        tracks: [Track], pieceStarts: [Double], pieces: [Piece], ops: [Op], groups: [GroupTiming],
        keyframes: [Keyframes], keyTimes: [Double], keyValues: [SmallLanes], outTangents: [SmallLanes],
        inTangents: [SmallLanes],
        segmentFunctions: [Easing], transformBases: [TransformBase], clockCount: Int,
        timeSources: [History<ClockSegment>]
    ) {
        self.clockCount = clockCount
        self.timeSources = timeSources
        self.tracks = FrozenBuffer(tracks)
        self.pieceStarts = FrozenBuffer(pieceStarts)
        self.pieces = FrozenBuffer(pieces)
        self.ops = FrozenBuffer(ops)
        self.groups = FrozenBuffer(groups)
        self.keyframes = FrozenBuffer(keyframes)
        self.keyTimes = FrozenBuffer(keyTimes)
        self.keyValues = FrozenBuffer(keyValues)
        self.outTangents = FrozenBuffer(outTangents)
        self.inTangents = FrozenBuffer(inTangents)
        self.segmentFunctions = FrozenBuffer(segmentFunctions)
        self.transformBases = FrozenBuffer(transformBases)
    }

    deinit {
        tracks.free()
        pieceStarts.free()
        pieces.free()
        ops.free()
        groups.free()
        keyframes.free()
        keyTimes.free()
        keyValues.free()
        outTangents.free()
        inTangents.free()
        segmentFunctions.free()
        transformBases.free()
    }
}
