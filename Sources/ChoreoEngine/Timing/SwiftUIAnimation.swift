/// SwiftUI's `Animation` value: how far a change has gone (its progress, 0 → 1, a spring may
/// overshoot) a time after it began, and when its completion runs (docs/semantics.md,
/// "SwiftUI animations"). `withAnimation(_:_:)`, `.animation(_:value:)` and a `Transaction`
/// carry one.
public indirect enum SwiftUIAnimation: Sendable, Equatable, Hashable {
    /// `linear`, `easeIn`, `easeOut`, `easeInOut` and `timingCurve(_:_:_:_:duration:)`: a cubic
    /// Bézier over `duration` seconds (0.35 unless given, Apple's documentation).
    case curve(TimingFunction, duration: Double)
    /// `spring(duration:bounce:blendDuration:)`, `spring(response:dampingFraction:blendDuration:)`,
    /// `smooth`, `snappy`, `bouncy`, `interactiveSpring`: a spring that retargets, keeping its
    /// velocity, when another spring takes over the same property.
    case spring(SwiftUISpring, blendDuration: Double)
    /// `interpolatingSpring(…)`: a spring whose overlapping animations add up.
    case interpolatingSpring(SwiftUISpring, initialVelocity: Double)
    /// `.delay(_:)`: the animation so far, `delay` seconds later.
    case delayed(Double, SwiftUIAnimation)
    /// `.speed(_:)`: the animation so far, its time run `speed` times as fast (its delay too,
    /// when the delay was written before).
    case sped(Double, SwiftUIAnimation)
    /// `.repeatCount(_:autoreverses:)` (`count` ≥ 1) and `.repeatForever(autoreverses:)` (`nil`):
    /// the animation so far played again; with `autoreverses`, every other play backwards.
    case repeated(count: Int?, autoreverses: Bool, SwiftUIAnimation)

    /// `Animation.default`, what `withAnimation { }` uses: since iOS 17 a spring of response
    /// 0.55 and damping fraction 1 (before, `easeInOut`), as Apple documents it.
    public static let `default` = spring(response: 0.55, dampingFraction: 1, blendDuration: 0)

    /// The default duration of the timing-curve animations.
    public static let defaultCurveDuration = 0.35

    public static func linear(duration: Double = defaultCurveDuration) -> SwiftUIAnimation {
        .curve(.linear, duration: duration)
    }
    public static func easeIn(duration: Double = defaultCurveDuration) -> SwiftUIAnimation {
        .curve(.easeIn, duration: duration)
    }
    public static func easeOut(duration: Double = defaultCurveDuration) -> SwiftUIAnimation {
        .curve(.easeOut, duration: duration)
    }
    public static func easeInOut(duration: Double = defaultCurveDuration) -> SwiftUIAnimation {
        .curve(.easeInEaseOut, duration: duration)
    }
    public static func timingCurve(
        _ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double, duration: Double = defaultCurveDuration
    ) -> SwiftUIAnimation {
        .curve(.bezier(UnitBezier(c0x, c0y, c1x, c1y)), duration: duration)
    }

    /// `spring(response:dampingFraction:blendDuration:)`: defaults 0.5, 0.825, 0.
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0)
        -> SwiftUIAnimation
    {
        .spring(SwiftUISpring(response: response, dampingRatio: dampingFraction), blendDuration: blendDuration)
    }

    /// `spring(duration:bounce:blendDuration:)`: defaults 0.5, 0, 0.
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0)
        -> SwiftUIAnimation
    {
        .spring(SwiftUISpring(duration: duration, bounce: bounce), blendDuration: blendDuration)
    }

    /// `interactiveSpring(response:dampingFraction:blendDuration:)`: defaults 0.15, 0.86, 0.25.
    public static func interactiveSpring(
        response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> SwiftUIAnimation {
        .spring(response: response, dampingFraction: dampingFraction, blendDuration: blendDuration)
    }

    /// `smooth`, `snappy`, `bouncy` (duration 0.5 and bounce 0, 0.15, 0.3, plus `extraBounce`).
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUIAnimation {
        .spring(.smooth(duration: duration, extraBounce: extraBounce), blendDuration: 0)
    }
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUIAnimation {
        .spring(.snappy(duration: duration, extraBounce: extraBounce), blendDuration: 0)
    }
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> SwiftUIAnimation {
        .spring(.bouncy(duration: duration, extraBounce: extraBounce), blendDuration: 0)
    }

    /// `interpolatingSpring(mass:stiffness:damping:initialVelocity:)`: defaults mass 1, initial
    /// velocity 0 (in fractions of the move a second); an over-damped spring stays over-damped.
    public static func interpolatingSpring(
        mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) -> SwiftUIAnimation {
        .interpolatingSpring(
            SwiftUISpring(mass: mass, stiffness: stiffness, damping: damping, allowOverDamping: true),
            initialVelocity: initialVelocity)
    }

    public func delay(_ seconds: Double) -> SwiftUIAnimation { .delayed(seconds, self) }
    public func speed(_ speed: Double) -> SwiftUIAnimation { .sped(speed, self) }
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> SwiftUIAnimation {
        .repeated(count: max(count, 1), autoreverses: autoreverses, self)
    }
    public func repeatForever(autoreverses: Bool = true) -> SwiftUIAnimation {
        .repeated(count: nil, autoreverses: autoreverses, self)
    }

    /// The progress of the change `t` seconds after it began: 0 before, 1 once it is done (a
    /// spring at 1 from its settling on).
    public func progress(at t: Double) -> Double {
        switch self {
        case .curve(let function, let duration):
            guard t > 0 else { return 0 }
            guard duration > 0, t < duration else { return 1 }
            return function.evaluate(t / duration)
        case .spring(let spring, _):
            return springProgress(spring, velocity: 0, at: t)
        case .interpolatingSpring(let spring, let velocity):
            return springProgress(spring, velocity: velocity, at: t)
        case .delayed(let seconds, let base):
            return base.progress(at: t - seconds)
        case .sped(let speed, let base):
            return speed > 0 ? base.progress(at: t * speed) : 0
        case .repeated(let count, let autoreverses, let base):
            let period = base.removedAfter
            guard t > 0, period > 0 else { return base.progress(at: t) }
            let plays = Double(count ?? Int.max)
            let index = (t / period).rounded(.down)
            if index >= plays {
                // Done: the animation is removed and the view shows the new value, also when
                // the last play (an even one, autoreversed) ended at the old one: it jumps.
                return 1
            }
            let local = t - index * period
            let forward = !autoreverses || Int(index) % 2 == 0
            return forward ? base.progress(at: local) : base.progress(at: period - local)
        }
    }

    /// A spring's progress: its value, and 1 once settled.
    private func springProgress(_ spring: SwiftUISpring, velocity: Double, at t: Double) -> Double {
        guard t > 0 else { return 0 }
        if t >= spring.settlingDuration(initialVelocity: velocity) { return 1 }
        return spring.value(target: 1, initialVelocity: velocity, time: t)
    }

    /// `withAnimation(_:completionCriteria:_:completion:)`'s criteria.
    public enum CompletionCriteria: String, Sendable {
        /// The change has reached its value in the eyes of the user: a timing curve at its end, a
        /// spring at its perceptual duration (it may still be in its long tail).
        case logicallyComplete
        /// The animation is gone: a spring once it has settled.
        case removed
    }

    /// When a completion with `criteria` runs, after the change began; `nil` for one that
    /// repeats for ever (its completion never runs).
    public func completion(_ criteria: CompletionCriteria) -> Double? {
        switch self {
        case .curve(_, let duration): return max(duration, 0)
        case .spring(let spring, _):
            return criteria == .logicallyComplete ? spring.duration : spring.settlingDuration()
        case .interpolatingSpring(let spring, let velocity):
            return criteria == .logicallyComplete
                ? spring.duration : spring.settlingDuration(initialVelocity: velocity)
        case .delayed(let seconds, let base):
            return base.completion(criteria).map { $0 + max(seconds, 0) }
        case .sped(let speed, let base):
            guard speed > 0 else { return nil }
            return base.completion(criteria).map { $0 / speed }
        case .repeated(let count, _, let base):
            guard let count else { return nil }
            let last = base.completion(criteria) ?? 0
            return Double(count - 1) * base.removedAfter + last
        }
    }

    /// How long one play lasts: until it is removed.
    var removedAfter: Double { completion(.removed) ?? .infinity }
}
