import ChoreoEngine
import Foundation
import Testing

/// SwiftUI's `Spring` against Apple's documented figures and the relation docs/semantics.md
/// states, to 1e-9, and its value and velocity against the equation of motion integrated
/// step by step (an independent computation).
@Suite struct SwiftUISpringTests {
    @Test func applesDocumentedConversions() {
        // Spring's overview: Spring(duration: 0.5, bounce: 0.3) is (mass 1.0, stiffness 157.9, damping 17.6).
        let spring = SwiftUISpring(duration: 0.5, bounce: 0.3)
        #expect(spring.mass == 1)
        #expect(abs(spring.stiffness - pow(4 * Double.pi, 2)) < 1e-9)
        #expect(abs(spring.damping - 4 * Double.pi * 0.7 / 0.5) < 1e-9)
        #expect((spring.stiffness * 10).rounded() / 10 == 157.9)
        #expect((spring.damping * 10).rounded() / 10 == 17.6)
        // …and Spring(mass: 1, stiffness: 100, damping: 10) is (duration 0.63, bounce 0.5).
        let other = SwiftUISpring(mass: 1, stiffness: 100, damping: 10)
        #expect(abs(other.duration - 2 * Double.pi / 10) < 1e-9)
        #expect((other.duration * 100).rounded() / 100 == 0.63)
        #expect(abs(other.bounce - 0.5) < 1e-9)
    }

    @Test func durationAndBounceRoundTrip() {
        for duration in stride(from: 0.1, through: 2.0, by: 0.1) {
            for bounce in stride(from: -0.9, through: 0.95, by: 0.05) {
                let spring = SwiftUISpring(duration: duration, bounce: bounce)
                #expect(abs(spring.duration - duration) < 1e-9)
                #expect(abs(spring.bounce - bounce) < 1e-9, "duration \(duration), bounce \(bounce)")
                let again = SwiftUISpring(
                    mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping, allowOverDamping: true)
                #expect(abs(again.bounce - bounce) < 1e-9)
                // response and damping ratio describe the same spring.
                let response = SwiftUISpring(response: duration, dampingRatio: spring.dampingRatio)
                #expect(abs(response.stiffness - spring.stiffness) < 1e-9 * spring.stiffness)
                #expect(abs(response.damping - spring.damping) < 1e-9 * max(1, spring.damping))
            }
        }
    }

    @Test func presetsAndOverDamping() {
        #expect(abs(SwiftUISpring.smooth().bounce) < 1e-12)
        #expect(abs(SwiftUISpring.snappy().bounce - 0.15) < 1e-12)
        #expect(abs(SwiftUISpring.bouncy().bounce - 0.3) < 1e-12)
        #expect(abs(SwiftUISpring.bouncy(duration: 0.8, extraBounce: 0.1).bounce - 0.4) < 1e-12)
        #expect(abs(SwiftUISpring().duration - 0.5) < 1e-12)
        // Without allowOverDamping a spring that would over-damp is critically damped.
        let clamped = SwiftUISpring(mass: 1, stiffness: 100, damping: 50)
        #expect(abs(clamped.dampingRatio - 1) < 1e-12)
        let over = SwiftUISpring(mass: 1, stiffness: 100, damping: 50, allowOverDamping: true)
        #expect(abs(over.dampingRatio - 2.5) < 1e-12)
    }

    /// y'' = −(k y + c y') / m from y(0) = −target, y'(0) = v0, by classical Runge–Kutta.
    static func integrated(_ spring: SwiftUISpring, target: Double, velocity: Double, time: Double)
        -> (value: Double, velocity: Double)
    {
        let steps = 100_000
        let h = time / Double(steps)
        var y = -target
        var v = velocity
        func a(_ y: Double, _ v: Double) -> Double { -(spring.stiffness * y + spring.damping * v) / spring.mass }
        for _ in 0..<steps {
            let (k1y, k1v) = (v, a(y, v))
            let (k2y, k2v) = (v + h / 2 * k1v, a(y + h / 2 * k1y, v + h / 2 * k1v))
            let (k3y, k3v) = (v + h / 2 * k2v, a(y + h / 2 * k2y, v + h / 2 * k2v))
            let (k4y, k4v) = (v + h * k3v, a(y + h * k3y, v + h * k3v))
            y += h / 6 * (k1y + 2 * k2y + 2 * k3y + k4y)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return (target + y, v)
    }

    @Test func valueAndVelocityFollowTheEquationOfMotion() {
        let springs = [
            SwiftUISpring(duration: 0.5, bounce: 0.3), SwiftUISpring(duration: 0.8, bounce: 0),
            SwiftUISpring(duration: 0.4, bounce: -0.5), SwiftUISpring(response: 0.55, dampingRatio: 0.825),
            SwiftUISpring(mass: 2, stiffness: 300, damping: 12),
        ]
        for spring in springs {
            for (target, velocity) in [(1.0, 0.0), (100.0, -250.0), (-40.0, 80.0)] {
                for time in [0.05, 0.2, 0.5, 1.3] {
                    let expected = Self.integrated(spring, target: target, velocity: velocity, time: time)
                    let value = spring.value(target: target, initialVelocity: velocity, time: time)
                    let rate = spring.velocity(target: target, initialVelocity: velocity, time: time)
                    #expect(abs(value - expected.value) < 1e-9 * max(1, abs(target)), "\(spring) at \(time)")
                    #expect(abs(rate - expected.velocity) < 1e-9 * max(1, abs(target)) * 10, "\(spring) at \(time)")
                }
            }
            #expect(spring.value(target: 1, time: 0) == 0)
            #expect(abs(spring.value(target: 1, time: 60) - 1) < 1e-9)
        }
    }

    /// The vectors of docs/semantics.md ("SwiftUI springs"), to 1e-9.
    @Test func theDocumentedVectors() {
        let vectors: [(SwiftUISpring, Double, Double, [(Double, Double)])] = [
            (
                SwiftUISpring(duration: 0.5, bounce: 0.3), 1, 0,
                [(0.1, 0.423302123075), (0.25, 0.984087490971), (0.5, 1.014498421616)]
            ),
            (
                SwiftUISpring(duration: 0.5, bounce: 0), 1, 0,
                [(0.1, 0.357739556470), (0.25, 0.821025553586), (0.5, 0.986399068534)]
            ),
            (
                SwiftUISpring(duration: 0.8, bounce: -0.5), 1, 0,
                [(0.1, 0.131232488631), (0.25, 0.363449972348), (0.5, 0.623835802267)]
            ),
            (
                SwiftUISpring(mass: 1, stiffness: 100, damping: 10), 100, -250,
                [(0.1, 20.692304782962), (0.2, 74.460572743753), (0.5, 109.657617177816)]
            ),
        ]
        for (spring, target, velocity, points) in vectors {
            for (time, expected) in points {
                #expect(abs(spring.value(target: target, initialVelocity: velocity, time: time) - expected) < 1e-9)
            }
        }
    }

    @Test func settlingDurationIsWhereTheMoveStaysWithinItsBound() {
        for spring in [SwiftUISpring(duration: 0.5, bounce: 0.3), SwiftUISpring(duration: 1, bounce: 0)] {
            let settle = spring.settlingDuration()
            #expect(settle > 0)
            // Past it the value stays within 1/1280 of the target; some time before it, it did not.
            for t in stride(from: settle, through: settle + 2, by: 0.01) {
                #expect(abs(spring.value(target: 1, time: t) - 1) <= 1.0 / 1280 + 1e-12)
            }
            let before = stride(from: 0, to: settle - 0.002, by: 0.001).contains {
                abs(spring.value(target: 1, time: $0) - 1) > 1.0 / 1280
            }
            #expect(before)
        }
    }
}
