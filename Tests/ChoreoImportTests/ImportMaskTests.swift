import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Testing

/// `layer.mask`: the mask is the layer's `mask` in the scene, out of the tree; it never becomes
/// a layer over the canvas (a shape layer's default black fill), even when the code animates
/// it. A mask that draws what choreo does not model (a gradient) is left out, said so.
@Suite struct ImportMaskTests {
    @Test func anAnimatedMaskIsTheLayersMaskNotALayerOverTheCanvas() throws {
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
        #expect(!result.diagnostics.contains { $0.severity != .note })
        #expect(!result.diagnostics.contains { $0.message.contains("imported as a root layer") })
        let layers = ImportAccessorTests.layers(result)
        guard case .object(let mask)? = layers["bar"]?["mask"] else {
            Issue.record("no mask: \(result.diagnostics)")
            return
        }
        #expect(mask["id"] == .string("reveal") && mask["type"] == .string("shape"))
        let timeline = try ImportReplicatorTests.timeline(result)
        let drawn = timeline.shape(at: 0.5).order.map { timeline.layers[$0].id }
        #expect(drawn.contains("bar") && !drawn.contains("reveal"))
        #expect(timeline.layers[timeline.layerIndex["bar"]!].mask == timeline.layerIndex["reveal"])
    }

    @Test func aGradientMaskIsLeftOutAndSaidSo() throws {
        let result = ImportAccessorTests.swift(
            """
            import UIKit
            final class ShimmerView: UIView {
                func start() {
                    let label = CALayer()
                    label.frame = CGRect(x: 0, y: 0, width: 100, height: 20)
                    label.backgroundColor = UIColor.gray.cgColor
                    layer.addSublayer(label)
                    let gradient = CAGradientLayer()
                    gradient.frame = label.bounds
                    gradient.colors = [UIColor.clear.cgColor, UIColor.black.cgColor, UIColor.clear.cgColor]
                    label.mask = gradient
                    let slide = CABasicAnimation(keyPath: "position.x")
                    slide.byValue = 100
                    slide.duration = 1
                    gradient.add(slide, forKey: "slide")
                }
            }
            """, entry: "ShimmerView.start")
        let warning = try #require(result.diagnostics.first { $0.message.contains("the mask of label") })
        #expect(warning.severity == .warning && warning.position.line == 11)
        #expect(warning.message.contains("label is drawn unmasked"))
        let layers = ImportAccessorTests.layers(result)
        #expect(layers["label"]?["mask"] == nil)
        #expect(layers["gradient"]?["detached"] == .bool(true))
        let timeline = try ImportReplicatorTests.timeline(result)
        #expect(!timeline.shape(at: 0.5).order.contains(timeline.layerIndex["gradient"]!))
    }

    @Test func anObjectiveCMaskIsTheLayersMask() throws {
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
        guard case .object(let mask)? = ImportAccessorTests.layers(result)["ring"]?["mask"] else {
            Issue.record("no mask: \(result.diagnostics)")
            return
        }
        #expect(mask["id"] == .string("hole"))
        let timeline = try ImportReplicatorTests.timeline(result)
        let ids = timeline.shape(at: 0.5).order.map { timeline.layers[$0].id }
        #expect(ids.contains("ring") && !ids.contains("hole"))
    }
}
