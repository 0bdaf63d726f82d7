import ChoreoJSON
import ChoreoSwiftImport
import Testing

@testable import ChoreoImport

/// Core Graphics' `CGMutablePath` as Swift spells its methods builds the same path as
/// `UIBezierPath` does.
@Suite struct CoreGraphicsPathTests {
    @Test func aMutablePathBuildsWithSwiftsMethodNames() throws {
        let result = Importer.run(
            SwiftFrontEnd.lower(
                """
                import UIKit
                let line = CAShapeLayer()
                line.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
                line.strokeColor = UIColor.red.cgColor
                line.path = {
                    let path = CGMutablePath()
                    path.move(to: CGPoint(x: 10, y: 10))
                    path.addLine(to: CGPoint(x: 90, y: 10))
                    path.addQuadCurve(to: CGPoint(x: 90, y: 90), control: CGPoint(x: 100, y: 50))
                    path.addCurve(to: CGPoint(x: 10, y: 90), control1: CGPoint(x: 60, y: 100), control2: CGPoint(x: 40, y: 100))
                    path.closeSubpath()
                    path.addRect(CGRect(x: 40, y: 40, width: 20, height: 20))
                    return path
                }()
                view.layer.addSublayer(line)
                let draw = CABasicAnimation(keyPath: "strokeEnd")
                draw.fromValue = 0
                draw.toValue = 1
                line.add(draw, forKey: nil)
                """), options: ImportOptions())
        let scene = try #require(result.scene, "\(result.diagnostics.map(\.message))")
        let text = sceneText(scene)
        #expect(
            text.contains(
                #""path":[{"move":[10,10]},{"line":[90,10]},{"quad":[[100,50],[90,90]]},{"cubic":[[60,100],[40,100],[10,90]]},"close",{"move":[40,40]},{"line":[60,40]},{"line":[60,60]},{"line":[40,60]},"close"]"#
            ), "\(text)")
    }
}
