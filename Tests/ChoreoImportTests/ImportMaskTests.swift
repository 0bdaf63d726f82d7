import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

/// `layer.mask`, which choreo does not draw: the masked layer is drawn unmasked and the mask
/// is kept out of the tree, said so at the assignment; it never becomes a layer over the
/// canvas (a shape layer's default black fill), even when the code animates it.
@Suite struct ImportMaskTests {
    @Test func anAnimatedMaskIsNotDrawnOverTheCanvas() throws {
        let result = ImportAccessorTests.swift(
            """
            import UIKit
            final class RevealView: UIView {
                func start() {
                    let bar = CALayer()
                    bar.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
                    bar.backgroundColor = UIColor.red.cgColor
                    layer.addSublayer(bar)
                    let reveal = CAShapeLayer()
                    reveal.frame = bar.bounds
                    reveal.path = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 20)).cgPath
                    bar.mask = reveal
                    let grow = CABasicAnimation(keyPath: "path")
                    grow.toValue = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 20)).cgPath
                    grow.duration = 1
                    reveal.add(grow, forKey: "grow")
                }
            }
            """, entry: "RevealView.start")
        let warning = try #require(result.diagnostics.first { $0.message.contains(".mask is not modelled") })
        #expect(warning.severity == .warning)
        #expect(warning.position.line == 11)
        #expect(warning.message.contains("bar is drawn unmasked") && warning.message.contains("reveal is not drawn"))
        #expect(!result.diagnostics.contains { $0.message.contains("imported as a root layer") })
        let layers = ImportAccessorTests.layers(result)
        #expect(layers["reveal"]?["detached"] == .bool(true))
        let timeline = try ImportReplicatorTests.timeline(result)
        let drawn = timeline.shape(at: 0.5).order.map { timeline.layers[$0].id }
        #expect(drawn.contains("bar") && !drawn.contains("reveal"))
    }

    @Test func anObjectiveCMaskIsSaidSoAtItsLine() throws {
        let result = ImportAccessorTests.objc(
            """
            @implementation RingView
            - (void)start {
                CALayer *ring = [CALayer layer];
                ring.frame = CGRectMake(0, 0, 100, 100);
                ring.backgroundColor = [UIColor blueColor].CGColor;
                [self.layer addSublayer:ring];
                CAShapeLayer *hole = [CAShapeLayer layer];
                hole.path = [UIBezierPath bezierPathWithOvalInRect:ring.bounds].CGPath;
                ring.mask = hole;
                CABasicAnimation *fade = [CABasicAnimation animationWithKeyPath:@"opacity"];
                fade.toValue = @0;
                fade.duration = 1;
                [ring addAnimation:fade forKey:@"fade"];
            }
            @end
            """, entry: "RingView.start")
        let warning = try #require(result.diagnostics.first { $0.message.contains(".mask is not modelled") })
        #expect(warning.position.line == 9)
        let timeline = try ImportReplicatorTests.timeline(result)
        let ids = timeline.shape(at: 0.5).order.map { timeline.layers[$0].id }
        #expect(ids.contains("ring") && !ids.contains("hole"))
    }
}
