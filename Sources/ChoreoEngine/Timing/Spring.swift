import Glibc

/// A damped harmonic oscillator in closed form: the curve of `CASpringAnimation`.
///
/// Progress runs from 0 to 1 in seconds of the animation's local time (not normalised to its
/// duration, which only cuts the curve off). Follows WebKit's `SpringSolver.h`: an
/// over-damped spring is treated as critically damped unless `allowsOverdamping` is set.
public struct Spring: Sendable, Equatable, Hashable {
    public var mass: Double = 1
    public var stiffness: Double = 100
    public var damping: Double = 10
    /// In fractions of the from→to distance per second, positive towards the target.
    public var initialVelocity: Double = 0
    public var allowsOverdamping: Bool = false

    public init(
        mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
        allowsOverdamping: Bool = false
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
    }

    /// `CASpringAnimation(perceptualDuration:bounce:)`: damping ratio 1 − bounce (bounce ≥ 0) or
    /// 1 / (1 + bounce) (bounce < 0), response = perceptual duration; sets allowsOverdamping.
    public init(perceptualDuration: Double, bounce: Double, initialVelocity: Double = 0) {
        // The same spring as SwiftUI's `Spring(duration:bounce:)`: one relation for both.
        let spring = SwiftUISpring(duration: perceptualDuration, bounce: bounce)
        stiffness = spring.stiffness
        damping = spring.damping
        mass = spring.mass
        self.initialVelocity = initialVelocity
        allowsOverdamping = true
    }

    /// UIKit's `usingSpringWithDamping:initialSpringVelocity:` for a block of `duration`: mass 1 and
    /// the natural frequency whose envelope decays to 0.001 exactly at `duration`, solved by 12
    /// Newton steps from 5 / duration (semantics reference §3.5).
    public init(uiKitDuration duration: Double, dampingRatio: Double, initialVelocity: Double) {
        let zeta = min(max(dampingRatio, 0.01), 1)
        let d = min(max(duration, 0.01), 10)
        let epsilon = 0.001
        let v = initialVelocity
        var omega = 5 / d
        func envelope(_ w: Double) -> Double {
            if zeta < 1 {
                let wd = w * (1 - zeta * zeta).squareRoot()
                return (zeta * w - v) / wd * exp(-zeta * w * d) - epsilon
            }
            return exp(-w * d) * ((w - v) * d + 1) - epsilon
        }
        for _ in 0..<12 {
            let h = max(1e-6, omega * 1e-6)
            let f = envelope(omega)
            let derivative = (envelope(omega + h) - envelope(omega - h)) / (2 * h)
            guard derivative != 0, derivative.isFinite else { break }
            let next = omega - f / derivative
            guard next.isFinite, next > 0 else { break }
            omega = next
        }
        mass = 1
        stiffness = omega * omega
        damping = 2 * zeta * omega
        self.initialVelocity = initialVelocity
        allowsOverdamping = false
    }

    /// The undamped angular frequency ω0 = √(k/m).
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }
    /// ζ = c / (2√(km)).
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Progress (0 → 1, may overshoot) after `t` seconds.
    @inline(__always)
    public func progress(at t: Double) -> Double {
        1 - displacement(at: t)
    }

    /// Displacement from the target, 1 at t = 0.
    public func displacement(at t: Double) -> Double { Solved(self).displacement(at: t) }

    /// The constants of the closed form, computed once: compiled sampling keeps one per
    /// animation, ``displacement(at:)`` makes one per call; both evaluate the same expressions.
    struct Solved: Sendable {
        enum Regime: Sendable {
            case underdamped, critical, overdamped
        }

        let regime: Regime
        let w0: Double
        let v0: Double
        /// −ζω0, the envelope's exponent per second (underdamped).
        let decay: Double
        /// The damped frequency ωd (underdamped).
        let wd: Double
        /// (ζω0 − v0) / ωd (underdamped).
        let a: Double
        /// Exponents and weights of the two modes (overdamped).
        let r1: Double
        let r2: Double
        let c1: Double
        let c2: Double

        @inline(__always)
        init(_ spring: Spring) {
            w0 = spring.naturalFrequency
            let zeta = spring.dampingRatio
            v0 = spring.initialVelocity
            var wd = 0.0
            var a = 0.0
            var (r1, r2, c1, c2) = (0.0, 0.0, 0.0, 0.0)
            if zeta < 1 {
                regime = .underdamped
                wd = w0 * (1 - zeta * zeta).squareRoot()
                a = (zeta * w0 - v0) / wd
            } else if zeta == 1 || !spring.allowsOverdamping {
                regime = .critical
            } else {
                regime = .overdamped
                let root = (zeta * zeta - 1).squareRoot()
                r1 = -w0 * (zeta - root)
                r2 = -w0 * (zeta + root)
                c2 = (-v0 - r1) / (r2 - r1)
                c1 = 1 - c2
            }
            decay = -zeta * w0
            self.wd = wd
            self.a = a
            (self.r1, self.r2, self.c1, self.c2) = (r1, r2, c1, c2)
        }

        @inline(__always)
        func displacement(at t: Double) -> Double {
            if t <= 0 { return 1 }
            switch regime {
            case .underdamped: return exp(decay * t) * (cos(wd * t) + a * sin(wd * t))
            case .critical: return (1 + (w0 - v0) * t) * exp(-w0 * t)
            case .overdamped: return c1 * exp(r1 * t) + c2 * exp(r2 * t)
            }
        }
    }

    /// The estimated time to rest, `CASpringAnimation.settlingDuration`.
    ///
    /// choreo's rule (Apple's algorithm is private): the time at which the oscillation's envelope
    /// falls below ε = 1/1280 of the distance, the estimator that reproduces both figures in
    /// Apple's documentation (damping 5 → about 2.85 s, damping 15 → just over 1 s).
    public var settlingDuration: Double {
        let epsilon = 1.0 / 1280.0
        let w0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        guard w0 > 0 else { return 0 }
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let a = (zeta * w0 - v0) / wd
            let amplitude = (1 + a * a).squareRoot()
            return max(0, log(amplitude / epsilon) / (zeta * w0))
        }
        // (Over-)damped: step forward until the displacement stays under ε.
        var t = 0.0
        let step = 0.001
        var lastAbove = 0.0
        while t < 60 {
            if abs(displacement(at: t)) >= epsilon { lastAbove = t }
            if t - lastAbove > 1 { break }
            t += step
        }
        return (lastAbove * 1000).rounded(.up) / 1000
    }
}
