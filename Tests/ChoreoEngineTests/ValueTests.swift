import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoEngine

@Suite struct ValueTests {
    static func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
        zip(a.elements, b.elements).allSatisfy { abs($0 - $1) < tolerance }
    }

    @Test func decompositionRoundTrip() {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let t = Transform3D.scale(generator.next(0.2, 3), generator.next(0.2, 3), generator.next(0.2, 3))
                .concatenating(
                    .rotation(generator.next(-3, 3), x: generator.next(-1, 1), y: generator.next(-1, 1), z: 1)
                )
                .concatenating(
                    .translation(generator.next(-100, 100), generator.next(-100, 100), generator.next(-10, 10)))
            let components = TransformComponents(t)!
            #expect(Self.close(components.transform, t, 1e-7))
        }
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 500
        let flipped = Transform3D.rotation(0.7, x: 0, y: 1, z: 0).concatenating(perspective)
        #expect(Self.close(TransformComponents(flipped)!.transform, flipped, 1e-9))
    }

    @Test func transformSubPaths() {
        let rotated = Value.transform(.rotation(0.5, x: 0, y: 0, z: 1))
        #expect(abs(KeyPath("transform.rotation.z")!.extract(from: rotated).number! - 0.5) < 1e-12)
        let scaled = KeyPath("transform.scale")!.insert(.number(2), into: rotated)
        // Scale set, rotation kept.
        #expect(abs(KeyPath("transform.rotation")!.extract(from: scaled).number! - 0.5) < 1e-9)
        #expect(abs(KeyPath("transform.scale.x")!.extract(from: scaled).number! - 2) < 1e-9)
        let moved = KeyPath("transform.translation.x")!.insert(.number(30), into: scaled)
        #expect(KeyPath("transform.translation")!.extract(from: moved) == .size(Point(30, 0)))
        #expect(abs(KeyPath("transform.scale.y")!.extract(from: moved).number! - 2) < 1e-9)
    }

    /// `transform.scale.xy` (and `.yx`) sets the x and y scale, keeps z and the rotation.
    @Test func theXYScaleSubPathSetsBothAxes() throws {
        let base = Value.transform(Transform3D.rotation(0.5, x: 0, y: 0, z: 1).concatenating(.scale(1, 1, 3)))
        for path in ["transform.scale.xy", "transform.scale.yx"] {
            let keyPath = try #require(KeyPath(path))
            let scaled = keyPath.insert(.number(2), into: base)
            #expect(abs(KeyPath("transform.scale.x")!.extract(from: scaled).number! - 2) < 1e-9)
            #expect(abs(KeyPath("transform.scale.y")!.extract(from: scaled).number! - 2) < 1e-9)
            #expect(abs(KeyPath("transform.scale.z")!.extract(from: scaled).number! - 3) < 1e-9)
            #expect(abs(KeyPath("transform.rotation")!.extract(from: scaled).number! - 0.5) < 1e-9)
            #expect(abs(keyPath.extract(from: scaled).number! - 2) < 1e-9)
        }
        let fromIdentity = KeyPath("transform.scale.xy")!.insert(.number(0.5), into: .transform(.identity))
        #expect(fromIdentity == .transform(.scale(0.5, 0.5, 1)))
        #expect(KeyPath("transform.scale.xz") == nil)
    }

    @Test func rotationInterpolatesOnTheShorterArc() {
        let a = Transform3D.identity
        let b = Transform3D.rotation(1.5 * Double.pi, x: 0, y: 0, z: 1)
        let half = Value.interpolate(.transform(a), .transform(b), 0.5)
        #expect(abs(KeyPath("transform.rotation.z")!.extract(from: half).number! - (-Double.pi / 4)) < 1e-9)
    }

    @Test func colourAndRectInterpolation() {
        let c = Value.interpolate(
            .color(Color(red: 1, green: 0, blue: 0, alpha: 1)), .color(Color(red: 0, green: 0, blue: 1, alpha: 0)), 0.25
        )
        #expect(c == .color(Color(red: 0.75, green: 0, blue: 0.25, alpha: 0.75)))
        let r = Value.interpolate(
            .rect(Rect(x: 0, y: 0, width: 100, height: 100)), .rect(Rect(x: 10, y: 0, width: 0, height: 50)), 0.5)
        #expect(r == .rect(Rect(x: 5, y: 0, width: 50, height: 75)))
        #expect(Value.interpolate(.bool(false), .bool(true), 0.49) == .bool(false))
        #expect(Value.interpolate(.bool(false), .bool(true), 0.5) == .bool(true))
    }

    @Test func svgPathsAndArcs() throws {
        let path = try SVGPathParser.parse("M 0 0 L 100 0 Q 150 0 150 50 C 150 100 100 100 100 100 Z")
        #expect(path.elements.count == 5)
        let measure = PathMeasure(try SVGPathParser.parse("M 0 0 h 30 v 40"))
        #expect(abs(measure.totalLength - 70) < 1e-9)
        var circle = BezierPath()
        circle.addArc(center: Point(0, 0), radius: 10, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true)
        // Four cubic quarter-arcs measured by chords: within 0.1% of 2πr.
        #expect(abs(PathMeasure(circle).totalLength - 20 * Double.pi) < 20 * Double.pi * 1e-3)
        // UIKit clockwise (y down): from angle 0 towards π/2 passes through (cos, sin) with y > 0.
        var half = BezierPath()
        half.addArc(center: Point(0, 0), radius: 10, startAngle: 0, endAngle: Double.pi, clockwise: true)
        let middle = PathMeasure(half).segments[0].point(at: 1)
        #expect(abs(middle.x) < 1e-9 && abs(middle.y - 10) < 1e-9)
        #expect(throws: SVGPathParser.Failure.self) { try SVGPathParser.parse("M 0 0 X 3") }
    }
}

extension Value {
    var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }
}

@Suite struct LayerPropertyTests {
    @Test func ordinalsFollowDeclarationOrder() {
        #expect(LayerProperty.allCases.map(\.ordinal) == Array(LayerProperty.allCases.indices))
    }

    /// Arc angles whose difference overflows a double are a full turn in the arc's direction
    /// (found by the fuzzer: the segment count trapped on a NaN sweep).
    @Test func arcAnglesThatOverflow() {
        var path = BezierPath()
        path.move(to: Point(20, 50))
        path.addArc(
            center: Point(35, 50), radius: 15, startAngle: 1.7976931348623157e308, endAngle: -1e300, clockwise: true)
        let cubics = path.elements.filter { if case .cubic = $0 { true } else { false } }
        #expect(cubics.count == 4)
        for case .cubic(let p, let c1, let c2) in path.elements {
            #expect(p.x.isFinite && p.y.isFinite && c1.x.isFinite && c2.y.isFinite)
        }
    }
}
