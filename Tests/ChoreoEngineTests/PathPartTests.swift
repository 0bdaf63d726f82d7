import Testing

@testable import ChoreoEngine

/// Where a path animation places its layer (``Timeline/pathLocation(leaf:at:)``): the point of
/// its segment at that parameter is the presentation's position, whatever the mode.
@Suite struct PathPartTests {
    @Test(arguments: [CalculationMode.linear, .paced, .cubic])
    func theLocationIsThePresentationsPosition(mode: CalculationMode) throws {
        var path = BezierPath()
        path.move(to: Point(20, 200))
        path.cubic(to: Point(300, 200), control1: Point(20, 60), control2: Point(300, 60))
        path.line(to: Point(200, 300))
        path.quad(to: Point(20, 200), control: Point(60, 330))
        var keyframes = Keyframes()
        keyframes.path = path
        keyframes.calculationMode = mode
        if mode == .linear { keyframes.timingFunctions = [.easeIn, .linear, .easeOut] }
        var animation = Animation(content: .keyframe(PropertyAnimation(keyPath: KeyPath(.position)), keyframes))
        animation.timing.duration = 1.5
        animation.timing.beginTime = 0.2
        animation.timing.repeatCount = 2
        animation.timingFunction = .bezier(UnitBezier(0.42, 0, 0.58, 1))
        let layer = SceneRunnerTests.layer("box", [.position: .point(Point(50, 50))])
        let timeline = try SceneRunner.run(
            Scene(layers: [layer], script: [ScriptEntry(at: 0, actions: [.add(animation, layer: "box")])]))
        let parts = timeline.pathParts(through: 4)
        let part = try #require(parts.first)
        #expect(parts.count == 1 && part.measure.segments.count == 3)
        var located = 0
        for step in 0...200 {
            let time = Double(step) * 4 / 200 + 0.0003
            let map = timeline.timeMap(of: 0, at: time)
            guard
                case .point(let position) = timeline.presentationValue(
                    layer: 0, keyPath: KeyPath(.position), at: time, map: map)
            else {
                Issue.record("no position at \(time)")
                continue
            }
            guard let location = timeline.pathLocation(leaf: part.leaf, at: time) else {
                // Before it begins and after it is removed: the model.
                #expect(position == Point(50, 50), "at \(time)")
                continue
            }
            let point = part.measure.segments[location.segment].point(at: location.parameter)
            #expect((point - position).length < 1e-9, "\(mode) at \(time): \(point), presented \(position)")
            located += 1
        }
        #expect(located > 140)
    }
}
