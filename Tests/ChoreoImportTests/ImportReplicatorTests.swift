import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Glibc
import Testing

/// `CAReplicatorLayer` from code: the classic spinner (a dot, 15 instances turned 2π/15 apart,
/// 1/15 s between them, a fade repeating for ever) in Swift and in Objective-C, carried into a
/// replicator layer whose copies the run draws.
@Suite struct ImportReplicatorTests {
    static let swiftSpinner = """
        import UIKit

        final class SpinnerView: UIView {
            let replicator = CAReplicatorLayer()
            let dot = CALayer()

            func startAnimating() {
                replicator.frame = bounds
                dot.frame = CGRect(x: bounds.midX - 4, y: 8, width: 8, height: 8)
                dot.cornerRadius = 4
                dot.backgroundColor = UIColor.systemBlue.cgColor
                replicator.addSublayer(dot)
                let count = 15
                replicator.instanceCount = count
                replicator.instanceTransform = CATransform3DMakeRotation(2 * .pi / CGFloat(count), 0, 0, 1)
                replicator.instanceDelay = 1.0 / Double(count)
                replicator.instanceAlphaOffset = -0.05
                layer.addSublayer(replicator)
                let fade = CABasicAnimation(keyPath: "opacity")
                fade.fromValue = 1
                fade.toValue = 0
                fade.duration = 1
                fade.repeatCount = .infinity
                dot.add(fade, forKey: "fade")
            }
        }
        """

    static let objcSpinner = """
        @interface SpinnerView : UIView
        @property (nonatomic, strong) CAReplicatorLayer *replicatorLayer;
        @end

        @implementation SpinnerView
        - (void)startAnimating {
            self.replicatorLayer = [CAReplicatorLayer layer];
            self.replicatorLayer.frame = self.bounds;
            CALayer *dot = [CALayer layer];
            dot.frame = CGRectMake(CGRectGetMidX(self.bounds) - 4, 8, 8, 8);
            dot.cornerRadius = 4;
            dot.backgroundColor = [UIColor systemBlueColor].CGColor;
            [self.replicatorLayer addSublayer:dot];
            self.replicatorLayer.instanceCount = 15;
            self.replicatorLayer.instanceTransform = CATransform3DMakeRotation(2 * M_PI / 15, 0, 0, 1);
            self.replicatorLayer.instanceDelay = 1.0 / 15;
            self.replicatorLayer.instanceAlphaOffset = -0.05;
            [self.layer addSublayer:self.replicatorLayer];
            CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"transform.scale"];
            fade.fromValue = @1;
            fade.toValue = @0.1;
            fade.duration = 1;
            fade.repeatCount = HUGE_VALF;
            [dot addAnimation:fade forKey:@"fade"];
        }
        @end
        """

    static func timeline(_ result: ImportResult) throws -> Timeline {
        try SceneRunner.run(try SceneDecoder.decode(try #require(result.scene)).scene)
    }

    static func value(_ timeline: Timeline, _ id: String, _ keyPath: String, _ t: Double) throws -> ChoreoEngine.Value {
        let index = try #require(timeline.layerIndex[id])
        let maps = timeline.timeMaps(at: t, shape: timeline.shape(at: t))
        return timeline.presentationValue(layer: index, keyPath: KeyPath(keyPath)!, at: t, map: maps[index])
    }

    /// The replicator's properties as the code sets them, and 14 copies of the dot.
    static func checkSpinner(_ result: ImportResult, replicator: String, dot: String) throws -> Timeline {
        #expect(!result.diagnostics.contains { $0.severity == .error })
        #expect(!result.diagnostics.contains { $0.message.contains("instance") && $0.message.contains("not modelled") })
        let layers = ImportAccessorTests.layers(result)
        #expect(layers[replicator]?["type"] == .string("replicator"))
        let timeline = try Self.timeline(result)
        let ids = timeline.shape(at: 2).order.map { timeline.layers[$0].id }
        #expect(ids.filter { $0.hasPrefix("\(dot)#") }.count == 14)
        #expect(try Self.value(timeline, replicator, "instanceCount", 2) == .number(15))
        guard case .number(let delay) = try Self.value(timeline, replicator, "instanceDelay", 2) else {
            Issue.record("no delay")
            return timeline
        }
        #expect(abs(delay - 1.0 / 15) < 1e-12)
        let rotation = try Self.value(timeline, "\(dot)#3", "transform.rotation.z", 2)
        guard case .number(let turn) = rotation else {
            Issue.record("no rotation")
            return timeline
        }
        #expect(abs(turn - 3 * 2 * Double.pi / 15) < 1e-9)
        guard case .color(let color) = try Self.value(timeline, "\(dot)#4", "backgroundColor", 2) else {
            Issue.record("no colour")
            return timeline
        }
        #expect(abs(color.alpha - 0.8) < 1e-12)
        return timeline
    }

    @Test func aSwiftSpinnerIsAReplicatorWithItsCopies() throws {
        let result = ImportAccessorTests.swift(Self.swiftSpinner, entry: "SpinnerView.startAnimating")
        let timeline = try Self.checkSpinner(result, replicator: "replicator", dot: "dot")
        // Copy 3 fades 0.2 s after the dot: at 2.5 s it is 0.3 s into its pass.
        guard case .number(let opacity) = try Self.value(timeline, "dot#3", "opacity", 2.5) else {
            Issue.record("no opacity")
            return
        }
        #expect(abs(opacity - 0.7) < 1e-9)
    }

    @Test func anObjectiveCSpinnerIsAReplicatorWithItsCopies() throws {
        let result = ImportAccessorTests.objc(Self.objcSpinner, entry: "SpinnerView.startAnimating")
        let timeline = try Self.checkSpinner(result, replicator: "replicatorLayer", dot: "dot")
        // Copy 3 scales 0.2 s after the dot: at 2.5 s it is 0.3 s into its pass, 1 − 0.9 × 0.3.
        guard case .number(let scale) = try Self.value(timeline, "dot#3", "transform.scale.x", 2.5) else {
            Issue.record("no scale")
            return
        }
        #expect(abs(scale - 0.73) < 1e-9)
    }
}
