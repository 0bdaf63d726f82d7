/// Keyframe tracks shared by content while a scene runs: `CAKeyframeAnimation`s with the same
/// values, key times, timing functions, calculation mode, rotation mode and spline parameters,
/// compared bit for bit (−0 and 0 apart), get one ``KeyframeTrack``, and so one compiled track
/// in the sampling program. A scene of many layers animated alike (a list of cells with the
/// same bounce) holds one track instead of one per layer.
///
/// Tracks along a path, and values without lanes (booleans, strings, paths), are not shared.
/// Two inputs whose hashes collide keep a track each.
struct KeyframeTracks {
    private struct Entry {
        let keyframes: Keyframes
        let track: KeyframeTrack
    }

    private var byHash: [Int: Entry] = [:]

    /// The track for these keyframes: a shared one when an identical input was seen before.
    mutating func track(for keyframes: Keyframes) -> KeyframeTrack {
        guard let hash = Self.hash(keyframes) else { return KeyframeTrack(keyframes) }
        if let known = byHash[hash] {
            if Self.identical(known.keyframes, keyframes) { return known.track }
            return KeyframeTrack(keyframes)
        }
        let track = KeyframeTrack(keyframes)
        byHash[hash] = Entry(keyframes: keyframes, track: track)
        return track
    }

    /// The hash of everything a track is built from; nil when the input is not shared.
    static func hash(_ keyframes: Keyframes) -> Int? {
        guard keyframes.path == nil else { return nil }
        var hasher = Hasher()
        hasher.combine(keyframes.calculationMode)
        hasher.combine(keyframes.rotationMode)
        hasher.combine(keyframes.values.count)
        for value in keyframes.values {
            guard let lanes = value.lanes else { return nil }
            hasher.combine(value.kind)
            for lane in 0..<value.kind.laneCount { hasher.combine(lanes[lane].bitPattern) }
        }
        for numbers in [keyframes.keyTimes, keyframes.tensionValues, keyframes.continuityValues, keyframes.biasValues] {
            hasher.combine(numbers?.count ?? -1)
            for number in numbers ?? [] { hasher.combine(number.bitPattern) }
        }
        hasher.combine(keyframes.timingFunctions?.count ?? -1)
        for function in keyframes.timingFunctions ?? [] {
            switch function {
            case .bezier(let curve):
                for number in [curve.x1, curve.y1, curve.x2, curve.y2] { hasher.combine(number.bitPattern) }
            case .steps(let count, let position):
                hasher.combine(count)
                hasher.combine(position)
            }
        }
        return hasher.finalize()
    }

    /// Whether two inputs build the same track, bit for bit.
    static func identical(_ a: Keyframes, _ b: Keyframes) -> Bool {
        guard a.path == nil, b.path == nil, a.calculationMode == b.calculationMode, a.rotationMode == b.rotationMode,
            a.values.count == b.values.count
        else { return false }
        for (x, y) in zip(a.values, b.values) {
            guard x.kind == y.kind, let left = x.lanes, let right = y.lanes,
                (0..<x.kind.laneCount).allSatisfy({ left[$0].bitPattern == right[$0].bitPattern })
            else { return false }
        }
        return sameBits(a.keyTimes, b.keyTimes) && sameBits(a.tensionValues, b.tensionValues)
            && sameBits(a.continuityValues, b.continuityValues) && sameBits(a.biasValues, b.biasValues)
            && sameFunctions(a.timingFunctions, b.timingFunctions)
    }

    private static func sameBits(_ a: [Double]?, _ b: [Double]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    }

    private static func sameFunctions(_ a: [TimingFunction]?, _ b: [TimingFunction]?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        guard a.count == b.count else { return false }
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.bezier(let p), .bezier(let q)):
                guard sameBits([p.x1, p.y1, p.x2, p.y2], [q.x1, q.y1, q.x2, q.y2]) else { return false }
            case (.steps(let m, let p), .steps(let n, let q)):
                guard m == n && p == q else { return false }
            default:
                return false
            }
        }
        return true
    }
}
