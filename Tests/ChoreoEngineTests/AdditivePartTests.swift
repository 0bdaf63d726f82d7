import Testing

@testable import ChoreoEngine

/// What an additive animation adds on its own (``Timeline/additiveParts(through:)``): at every
/// time, the presentation value less the presentation value without that animation
/// (``Timeline/removingLeaves(_:)``) is the part's keys, eased by their curves.
@Suite struct AdditivePartTests {
    static func timeline() throws -> Timeline {
        let layer = SceneRunnerTests.layer("box", [.position: .point(Point(50, 50)), .opacity: .number(0.2)])
        let actions: [ScriptAction] = [
            // A plain slide beneath.
            .add(
                SceneRunnerTests.basic("position.x", from: .number(50), to: .number(250), duration: 1.5, key: "plain") {
                    $0.timingFunction = .bezier(UnitBezier(0.42, 0, 0.58, 1))
                }, layer: "box"),
            // Begins later and fills backwards: it adds its first value until then.
            .add(
                SceneRunnerTests.basic("position.x", from: .number(-60), to: .number(0), duration: 0.5, key: "late") {
                    $0.content.setAdditive()
                    $0.timing.beginTime = 0.3
                    $0.timing.fillMode = .backwards
                    $0.timingFunction = .bezier(UnitBezier(0.68, -0.55, 0.27, 1.55))
                }, layer: "box"),
            // Cumulative: each pass begins where the one before ended, plus its first value (a jump).
            .add(
                SceneRunnerTests.basic("opacity", from: .number(0.1), to: .number(0.2), duration: 0.25, key: "more") {
                    $0.content.setAdditive()
                    $0.content.setCumulative()
                    $0.timing.repeatCount = 3
                    $0.timingFunction = .bezier(UnitBezier(0.25, 0.1, 0.25, 1))
                }, layer: "box"),
            // A keyframe shake, kept at its end (fill forwards, not removed).
            .add(
                Self.shake(), layer: "box"),
            // Neither gives a part: a spring, and a `byValue` alone (from the model).
            .add(
                Animation(
                    content: .basic(
                        PropertyAnimation(keyPath: KeyPath("position.y")!, additive: true),
                        BasicValues(from: .number(10), to: .number(0)), spring: Spring(damping: 8))), layer: "box"),
            .add(
                SceneRunnerTests.basic("opacity", by: .number(0.1), duration: 1, key: "by") {
                    $0.content.setAdditive()
                }, layer: "box"),
        ]
        return try SceneRunner.run(Scene(layers: [layer], script: [ScriptEntry(at: 0, actions: actions)]))
    }

    static func shake() -> Animation {
        var keyframes = Keyframes()
        keyframes.values = [.number(0), .number(12), .number(-8), .number(4)]
        keyframes.keyTimes = [0, 0.3, 0.7, 1]
        keyframes.timingFunctions = [
            .bezier(UnitBezier(0, 0, 0.58, 1)), .bezier(UnitBezier(0.42, 0, 0.58, 1)), .linear,
        ]
        var animation = Animation(
            content: .keyframe(PropertyAnimation(keyPath: KeyPath("position.y")!, additive: true), keyframes))
        animation.timing.duration = 0.8
        animation.timing.beginTime = 0.45
        animation.timing.fillMode = .forwards
        animation.removedOnCompletion = false
        animation.key = "shake"
        return animation
    }

    /// A part's value at `time` (nil where it adds nothing), its keys eased by their curves.
    static func value(_ part: AdditivePart, at time: Double) -> Double? {
        guard let first = part.times.first, let last = part.times.last, time >= first else { return nil }
        func number(_ index: Int) -> Double {
            if case .number(let n) = part.values[index] { return n }
            return .nan
        }
        if time >= last { return part.addsAfterwards ? number(part.values.count - 1) : nil }
        let index = part.times.lastIndex { $0 <= time }!
        let span = part.times[index + 1] - part.times[index]
        guard span > 0 else { return number(index + 1) }
        let progress = part.curves[index].solve((time - part.times[index]) / span)
        return number(index) + (number(index + 1) - number(index)) * progress
    }

    @Test func partsAreWhatTheirAnimationsAdd() throws {
        let timeline = try Self.timeline()
        let end = 2.0
        let parts = timeline.additiveParts(through: end)
        #expect(parts.map(\.keyPath.description).sorted() == ["opacity", "position.x", "position.y"])
        let late = try #require(parts.first { $0.keyPath.description == "position.x" })
        // A hold of the first value from when it was added, then the curve.
        #expect(late.times.count == 3 && abs(late.times[1] - 0.3) < 1e-9 && late.values[0] == .number(-60))
        #expect(late.curves[0].isIdentity && late.curves[1] == UnitBezier(0.68, -0.55, 0.27, 1.55))
        let more = try #require(parts.first { $0.keyPath.description == "opacity" })
        // Three passes, with a jump between each: two keys at each boundary.
        #expect(more.times.count == 6 && more.times[1] == more.times[2] && more.values[1] != more.values[2])
        let shake = try #require(parts.first { $0.keyPath.description == "position.y" })
        // Its four keys, and its last value held to the end asked for, and after it.
        #expect(shake.addsAfterwards && shake.times.count == 5 && shake.times.last == end)
        #expect(shake.values[3] == .number(4) && shake.values[4] == .number(4))
        for part in parts {
            let without = timeline.removingLeaves([part.leaf])
            var checked = 0
            for step in 0...400 {
                let time = Double(step) * end / 400 + 0.0007
                // Not at an instant where a value changes at once.
                if part.times.contains(where: { abs($0 - time) < 1e-6 }) { continue }
                let map = timeline.timeMap(of: 0, at: time)
                guard
                    case .number(let all) = timeline.presentationValue(
                        layer: 0, keyPath: part.keyPath, at: time, map: map),
                    case .number(let beneath) = without.presentationValue(
                        layer: 0, keyPath: part.keyPath, at: time, map: map)
                else {
                    Issue.record("no value of \(part.keyPath) at \(time)")
                    continue
                }
                let adds = Self.value(part, at: time) ?? 0
                #expect(
                    abs(all - beneath - adds) < 1e-6,
                    "\(part.keyPath) at \(time): adds \(all - beneath), the part \(adds)")
                checked += 1
            }
            #expect(checked > 390)
        }
    }
}
