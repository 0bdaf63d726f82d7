import Glibc

/// SwiftUI's `Spring` (iOS 17): one damped harmonic oscillator described three ways — a
/// perceptual `duration` and `bounce` (WWDC23 "Animate with springs"), a `response` and
/// damping ratio (`Animation.spring(response:dampingFraction:)`), or `mass`, `stiffness` and
/// `damping` (`interpolatingSpring(mass:stiffness:damping:)`) — with the conversions between
/// them and the value and velocity of a spring at a time (docs/semantics.md, "SwiftUI springs").
///
/// The relations: ω₀ = 2π / duration (so `stiffness` = (2π / duration)² × `mass`); the damping
/// ratio ζ is 1 − `bounce` for a bounce of 0 or more and 1 / (1 + `bounce`) below 0 (over-damped);
/// `damping` = 4π ζ `mass` / duration. `response` is `duration`.
public struct SwiftUISpring: Sendable, Equatable, Hashable {
    public var mass: Double
    public var stiffness: Double
    public var damping: Double

    /// `Spring(mass:stiffness:damping:allowOverDamping:)`: without `allowOverDamping`, a spring
    /// whose damping would over-damp it is critically damped instead (Apple's documentation).
    public init(mass: Double = 1, stiffness: Double, damping: Double, allowOverDamping: Bool = false) {
        self.mass = mass
        self.stiffness = stiffness
        let critical = 2 * (stiffness * mass).squareRoot()
        self.damping = allowOverDamping ? damping : min(damping, critical)
    }

    /// `Spring(duration:bounce:)`, defaults 0.5 s and 0: a bounce of 0 is critically damped, up
    /// to 1 (undamped), down to −1 (over-damped).
    public init(duration: Double = 0.5, bounce: Double = 0) {
        self.init(response: duration, dampingRatio: Self.dampingRatio(bounce: bounce))
    }

    /// `Spring(response:dampingRatio:)`, and `Animation.spring(response:dampingFraction:)`'s
    /// spring: ω₀ = 2π / response, ζ = the ratio; mass 1.
    public init(response: Double, dampingRatio: Double) {
        mass = 1
        stiffness = pow(2 * Double.pi / response, 2)
        damping = 4 * Double.pi * dampingRatio / response
    }

    /// ζ for a bounce.
    public static func dampingRatio(bounce: Double) -> Double {
        bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
    }

    /// The presets' own bounces, by name: `smooth` 0, `snappy` 0.15, `bouncy` 0.3 (Apple's
    /// documentation of each); `extraBounce` adds to them.
    public static let presetBounces: [String: Double] = ["smooth": 0, "snappy": 0.15, "bouncy": 0.3]

    /// `Spring.smooth(duration:extraBounce:)`: bounce 0 plus the extra.
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUISpring {
        SwiftUISpring(duration: duration, bounce: presetBounces["smooth"]! + extraBounce)
    }

    /// `Spring.snappy(duration:extraBounce:)`: bounce 0.15 plus the extra.
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUISpring {
        SwiftUISpring(duration: duration, bounce: presetBounces["snappy"]! + extraBounce)
    }

    /// `Spring.bouncy(duration:extraBounce:)`: bounce 0.3 plus the extra.
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUISpring {
        SwiftUISpring(duration: duration, bounce: presetBounces["bouncy"]! + extraBounce)
    }

    /// ω₀ = √(stiffness / mass).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// The perceptual duration, 2π / ω₀.
    public var duration: Double { 2 * Double.pi / naturalFrequency }

    /// `response`: the same as ``duration``.
    public var response: Double { duration }

    /// ζ = damping / (2 √(stiffness × mass)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// 1 − ζ for ζ ≤ 1, 1 / ζ − 1 above (the inverse of ``dampingRatio(bounce:)``).
    public var bounce: Double {
        let ratio = dampingRatio
        return ratio <= 1 ? 1 - ratio : 1 / ratio - 1
    }

    /// `value(target:initialVelocity:time:)`: where a spring that starts at 0 moving at
    /// `initialVelocity` (units a second) is after `time` seconds, towards `target`.
    public func value(target: Double, initialVelocity: Double = 0, time: Double) -> Double {
        target + offset(-target, initialVelocity, time).position
    }

    /// `velocity(target:initialVelocity:time:)`: its velocity then, in units a second.
    public func velocity(target: Double, initialVelocity: Double = 0, time: Double) -> Double {
        offset(-target, initialVelocity, time).velocity
    }

    /// The offset from the rest position and its rate after `t` seconds, from `y0` moving at
    /// `v0`: y″ + 2ζω₀y′ + ω₀²y = 0 in closed form.
    func offset(_ y0: Double, _ v0: Double, _ t: Double) -> (position: Double, velocity: Double) {
        guard t > 0 else { return (y0, v0) }
        let w = naturalFrequency
        let zeta = dampingRatio
        if zeta < 1 {
            let wd = w * (1 - zeta * zeta).squareRoot()
            let b = (v0 + zeta * w * y0) / wd
            let envelope = exp(-zeta * w * t)
            let (c, s) = (cos(wd * t), sin(wd * t))
            let position = envelope * (y0 * c + b * s)
            let velocity = envelope * ((b * wd - zeta * w * y0) * c - (y0 * wd + zeta * w * b) * s)
            return (position, velocity)
        }
        if zeta == 1 {
            let b = v0 + w * y0
            let envelope = exp(-w * t)
            return (envelope * (y0 + b * t), envelope * (b - w * (y0 + b * t)))
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w * (zeta - root)
        let r2 = -w * (zeta + root)
        let c2 = (v0 - r1 * y0) / (r2 - r1)
        let c1 = y0 - c2
        let (e1, e2) = (exp(r1 * t), exp(r2 * t))
        return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
    }

    /// `settlingDuration` for a move of `target` from rest: the time after which the offset
    /// stays within ε = 1/1280 of the move (choreo's rule: Apple's estimator is private; the
    /// same ε as ``Spring/settlingDuration``), found on the envelope, to 1 ms.
    public func settlingDuration(target: Double = 1, initialVelocity: Double = 0) -> Double {
        let epsilon = abs(target) / 1280
        guard epsilon > 0 else { return 0 }
        // The offset's bound at t: the envelope (under-damped) or the offset itself, which
        // decreases monotonically once it last crosses the bound.
        func bound(_ t: Double) -> Double {
            let w = naturalFrequency
            let zeta = dampingRatio
            if zeta < 1 {
                let wd = w * (1 - zeta * zeta).squareRoot()
                let y0 = -target
                let b = (initialVelocity + zeta * w * y0) / wd
                return exp(-zeta * w * t) * (y0 * y0 + b * b).squareRoot()
            }
            return abs(offset(-target, initialVelocity, t).position)
        }
        var high = duration
        var steps = 0
        while bound(high) > epsilon, steps < 64 {
            high *= 2
            steps += 1
        }
        var low = 0.0
        for _ in 0..<64 where high - low > 1e-3 {
            let middle = (low + high) / 2
            if bound(middle) > epsilon { low = middle } else { high = middle }
        }
        return high
    }
}
