/// One `KeyframeTrack` of SwiftUI's `keyframeAnimator`: keyframes played one after another
/// from the track's initial value, each from where the one before it ended (docs/semantics.md,
/// "SwiftUI keyframes").
public struct SwiftUIKeyframeTrack: Sendable, Equatable {
    public enum Keyframe: Sendable, Equatable {
        /// `LinearKeyframe(_:duration:timingCurve:)`: straight to the value over the duration,
        /// eased by the curve (linear unless given).
        case linear(Double, duration: Double, curve: TimingFunction = .linear)
        /// `SpringKeyframe(_:duration:spring:startVelocity:)`: a spring towards the value, from
        /// the velocity the motion has (or `startVelocity`); cut off when its duration ends
        /// (the spring's perceptual duration when none is given).
        case spring(Double, duration: Double?, spring: SwiftUISpring = SwiftUISpring(), startVelocity: Double? = nil)
        /// `CubicKeyframe(_:duration:startVelocity:endVelocity:)`: a cubic (Hermite) curve to
        /// the value; velocities not given are the Catmull-Rom ones (``velocities``).
        case cubic(Double, duration: Double, startVelocity: Double? = nil, endVelocity: Double? = nil)
        /// `MoveKeyframe(_:)`: the value at once.
        case move(Double)

        var target: Double {
            switch self {
            case .linear(let v, _, _), .spring(let v, _, _, _), .cubic(let v, _, _, _), .move(let v): v
            }
        }

        var duration: Double {
            switch self {
            case .linear(_, let d, _), .cubic(_, let d, _, _): max(d, 0)
            case .spring(_, let d, let spring, _): max(d ?? spring.duration, 0)
            case .move: 0
            }
        }
    }

    public let initial: Double
    public let keyframes: [Keyframe]

    public init(initial: Double, _ keyframes: [Keyframe]) {
        self.initial = initial
        self.keyframes = keyframes
    }

    /// The track's length: its keyframes' durations added up.
    public var duration: Double { keyframes.reduce(0) { $0 + $1.duration } }

    /// The value `t` seconds into the track (the initial value before, the last value after).
    public func value(at t: Double) -> Double { state(at: t).value }

    /// The velocity then, units a second.
    public func velocity(at t: Double) -> Double { state(at: t).velocity }

    /// Where each keyframe begins: its start time, value and velocity (the motion so far).
    func state(at t: Double) -> (value: Double, velocity: Double) {
        var start = 0.0
        var value = initial
        var velocity = 0.0
        let cubicVelocities = velocities
        for (index, keyframe) in keyframes.enumerated() {
            let duration = keyframe.duration
            let local = t - start
            // Before this keyframe begins: where the one before it ended (a move takes effect at
            // its very time).
            if local < 0 || (local == 0 && duration > 0) { return (value, velocity) }
            if local < duration { return segment(keyframe, index, from: value, velocity, at: local, cubicVelocities) }
            (value, velocity) = segment(keyframe, index, from: value, velocity, at: duration, cubicVelocities)
            start += duration
        }
        return (value, velocity)
    }

    /// A keyframe's value and velocity `t` seconds in, from `value` moving at `velocity`.
    private func segment(
        _ keyframe: Keyframe, _ index: Int, from value: Double, _ velocity: Double, at t: Double,
        _ cubicVelocities: [Double]
    ) -> (Double, Double) {
        switch keyframe {
        case .move(let target):
            return (target, 0)
        case .linear(let target, let duration, let curve):
            guard duration > 0 else { return (target, 0) }
            let at = min(t, duration)
            let h = min(1e-6, duration / 4)
            let (ahead, behind) = (min(at + h, duration), max(at - h, 0))
            let rate = (curve.evaluate(ahead / duration) - curve.evaluate(behind / duration)) / (ahead - behind)
            return (value + (target - value) * curve.evaluate(at / duration), (target - value) * rate)
        case .spring(let target, _, let spring, let startVelocity):
            let v0 = startVelocity ?? velocity
            let distance = target - value
            return (
                value + spring.value(target: distance, initialVelocity: v0, time: t),
                spring.velocity(target: distance, initialVelocity: v0, time: t)
            )
        case .cubic(let target, let duration, let startVelocity, let endVelocity):
            guard duration > 0 else { return (target, 0) }
            let m0 = startVelocity ?? cubicVelocities[index]
            let m1 = endVelocity ?? cubicVelocities[index + 1]
            let s = min(max(t / duration, 0), 1)
            let (s2, s3) = (s * s, s * s * s)
            let h00 = 2 * s3 - 3 * s2 + 1
            let h10 = s3 - 2 * s2 + s
            let h01 = -2 * s3 + 3 * s2
            let h11 = s3 - s2
            let position = h00 * value + h10 * duration * m0 + h01 * target + h11 * duration * m1
            let d00 = 6 * s2 - 6 * s
            let d10 = 3 * s2 - 4 * s + 1
            let d01 = -6 * s2 + 6 * s
            let d11 = 3 * s2 - 2 * s
            let rate = (d00 * value + d01 * target) / duration + d10 * m0 + d11 * m1
            return (position, rate)
        }
    }

    /// The velocity at each keyframe boundary (index i: where keyframe i begins; the last: where
    /// the track ends) that a cubic keyframe uses when it is not given one: Catmull-Rom, the
    /// change across the two neighbouring boundaries over the time between them; 0 at the
    /// track's start and end (it starts from rest and comes to rest).
    var velocities: [Double] {
        var times = [0.0]
        var values = [initial]
        for keyframe in keyframes {
            times.append(times.last! + keyframe.duration)
            values.append(keyframe.target)
        }
        var result = [Double](repeating: 0, count: times.count)
        if times.count >= 3 {
            for i in 1..<(times.count - 1) where times[i + 1] > times[i - 1] {
                result[i] = (values[i + 1] - values[i - 1]) / (times[i + 1] - times[i - 1])
            }
        }
        return result
    }
}
