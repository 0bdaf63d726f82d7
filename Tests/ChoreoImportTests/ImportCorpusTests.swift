import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoService
import Foundation
import Testing

@testable import ChoreoEngine

/// Real loader code as its authors wrote it (Tests/import-corpus: NVActivityIndicatorView's 33
/// Swift animations, DGActivityIndicatorView's 33 Objective-C ones, MIT): each file imports
/// through the helper with the files it needs beside it (the Swift module's shape and protocol
/// files; the Objective-C headers and base class found from its `#import`s), its scene decodes,
/// runs, and looks like the loader: how many layers move, that they repeat with the source's
/// period (the value at three times a period apart), and that the source's key values are
/// reached. The expectations are stated by hand from each source, with its host of 120 points
/// and size of 80 (docs/import.md).
@Suite struct ImportCorpusTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        /// Layers whose `keyPath` changes.
        var movers: Int
        /// A period every layer repeats with; nil where layers have periods of their own.
        var period: Double?
        var keyPath: String
        /// Values of `keyPath` the source's keyframes name, reached by some layer (of a
        /// `transform` made by `CATransform3DMakeScale`, its x scale, m11).
        var values: [Double]
        var description: String { file }
    }

    static func e(
        _ file: String, _ movers: Int, _ period: Double?, _ keyPath: String, _ values: [Double] = []
    ) -> Expectation {
        Expectation(file: file, movers: movers, period: period, keyPath: keyPath, values: values)
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("import-corpus")

    static let expectations: [Expectation] = [
        // NVActivityIndicatorView (Swift), size 80: circleSize 16 and deltas 32 for the paths.
        e("NVActivityIndicatorAnimationAudioEqualizer.swift", 4, nil, "path"),
        e("NVActivityIndicatorAnimationBallBeat.swift", 3, 0.7, "opacity", [1, 0.2]),
        e("NVActivityIndicatorAnimationBallClipRotate.swift", 1, 0.75, "transform.scale", [1, 0.6]),
        e("NVActivityIndicatorAnimationBallClipRotateMultiple.swift", 2, 1, "transform.scale", [1, 0.6]),
        e("NVActivityIndicatorAnimationBallClipRotatePulse.swift", 2, 1, "transform.scale", [1, 0.3, 0.6]),
        e("NVActivityIndicatorAnimationBallDoubleBounce.swift", 2, 2, "transform.scale", [-1, 0]),
        e("NVActivityIndicatorAnimationBallGridBeat.swift", 9, nil, "opacity", [1, 0.7]),
        e("NVActivityIndicatorAnimationBallGridPulse.swift", 9, nil, "transform.scale", [1, 0.5]),
        e("NVActivityIndicatorAnimationBallPulse.swift", 3, 0.75, "transform.scale", [1, 0.3]),
        e("NVActivityIndicatorAnimationBallPulseRise.swift", 5, 1, "transform.scale", [0.4, 1.1, 0.75]),
        e(
            "NVActivityIndicatorAnimationBallPulseSync.swift", 3, 0.6, "transform.translation.y",
            [0, 41.0 / 3, -41.0 / 3]),
        e("NVActivityIndicatorAnimationBallRotate.swift", 1, 1, "transform.scale", [1, 0.6]),
        e("NVActivityIndicatorAnimationBallRotateChase.swift", 5, 1.5, "position"),
        e("NVActivityIndicatorAnimationBallScale.swift", 1, 1, "opacity", [1, 0]),
        e("NVActivityIndicatorAnimationBallScaleMultiple.swift", 3, 1, "opacity", [0, 1]),
        e("NVActivityIndicatorAnimationBallScaleRipple.swift", 1, 1, "transform.scale", [0.1, 1]),
        e("NVActivityIndicatorAnimationBallScaleRippleMultiple.swift", 3, 1.25, "transform.scale", [0, 1]),
        e("NVActivityIndicatorAnimationBallSpinFadeLoader.swift", 8, 1, "opacity", [1, 0.3]),
        e(
            "NVActivityIndicatorAnimationBallTrianglePath.swift", 3, 2, "transform.translation.x",
            [0, 32, -32, 64, -64]),
        e("NVActivityIndicatorAnimationBallZigZag.swift", 2, 0.7, "transform.translation.x", [0, 32, -32]),
        e("NVActivityIndicatorAnimationBallZigZagDeflect.swift", 2, 1.5, "transform.translation.x", [0, 32, -32]),
        e("NVActivityIndicatorAnimationCircleStrokeSpin.swift", 1, 1.7, "strokeEnd", [0, 1]),
        e("NVActivityIndicatorAnimationCubeTransition.swift", 2, 1.6, "transform.scale", [1, 0.5]),
        e("NVActivityIndicatorAnimationLineScale.swift", 5, 1, "transform.scale.y", [1, 0.4]),
        e("NVActivityIndicatorAnimationLineScaleParty.swift", 4, nil, "transform.scale", [1, 0.5]),
        e("NVActivityIndicatorAnimationLineScalePulseOut.swift", 5, 1, "transform.scale.y", [1, 0.4]),
        e("NVActivityIndicatorAnimationLineScalePulseOutRapid.swift", 5, 0.9, "transform.scale.y", [1, 0.3]),
        e("NVActivityIndicatorAnimationLineSpinFadeLoader.swift", 8, 1.2, "opacity", [1, 0.3]),
        e("NVActivityIndicatorAnimationOrbit.swift", 2, 1.9, "opacity", [0.8, 0.7, 0]),
        e("NVActivityIndicatorAnimationPacman.swift", 1, 0.5, "strokeStart", [0.125, 0]),
        e("NVActivityIndicatorAnimationSemiCircleSpin.swift", 1, 0.6, "transform"),
        e("NVActivityIndicatorAnimationSquareSpin.swift", 1, 3, "transform"),
        e("NVActivityIndicatorAnimationTriangleSkewSpin.swift", 1, 3, "transform"),
        // DGActivityIndicatorView (Objective-C).
        e("DGActivityIndicatorBallBeatAnimation.m", 3, 0.7, "opacity", [1, 0.2]),
        e("DGActivityIndicatorBallClipRotateAnimation.m", 1, 0.75, "transform.scale", [1, 0.6]),
        e("DGActivityIndicatorBallClipRotateMultipleAnimation.m", 2, 1, "transform.scale", [1, 0.6]),
        e("DGActivityIndicatorBallClipRotatePulseAnimation.m", 2, 1, "transform.scale", [1, 0.3, 0.6]),
        e("DGActivityIndicatorBallGridBeatAnimation.m", 9, nil, "opacity", [1, 0.7]),
        e("DGActivityIndicatorBallGridPulseAnimation.m", 9, nil, "transform.scale", [1, 0.5]),
        e("DGActivityIndicatorBallPulseAnimation.m", 3, 0.75, "transform", [1, 0.3]),
        e("DGActivityIndicatorBallPulseSyncAnimation.m", 3, 0.6, "transform.translation.y"),
        e("DGActivityIndicatorBallRotateAnimation.m", 1, 1, "transform.scale", [1, 0.6]),
        e("DGActivityIndicatorBallScaleAnimation.m", 1, 1, "opacity", [1, 0]),
        e("DGActivityIndicatorBallScaleMultipleAnimation.m", 3, 1, "opacity", [0, 1]),
        e("DGActivityIndicatorBallScaleRippleAnimation.m", 1, 1, "transform.scale", [0.1, 1]),
        e("DGActivityIndicatorBallScaleRippleMultipleAnimation.m", 3, 1.25, "transform.scale", [0.1, 1]),
        e("DGActivityIndicatorBallSpinFadeLoader.m", 8, 1, "opacity", [1, 0.3]),
        e("DGActivityIndicatorBallTrianglePathAnimation.m", 3, 2, "transform.translation.x", [0, 32, -32, 64, -64]),
        e("DGActivityIndicatorBallZigZagAnimation.m", 2, 0.7, "transform.translation.x", [0, 32, -32]),
        e("DGActivityIndicatorBallZigZagDeflectAnimation.m", 2, 1.5, "transform.translation.x", [0, 32, -32]),
        e("DGActivityIndicatorCookieTerminatorAnimation.m", 5, nil, "transform"),
        e("DGActivityIndicatorDoubleBounceAnimation.m", 2, 2, "transform", [0, 1]),
        e("DGActivityIndicatorFiveDotsAnimation.m", 5, 1, "transform"),
        e("DGActivityIndicatorLineScaleAnimation.m", 5, 1, "transform.scale.y", [1, 0.4]),
        e("DGActivityIndicatorLineScalePartyAnimation.m", 4, nil, "transform.scale", [1, 0.5]),
        e("DGActivityIndicatorLineScalePulseOutAnimation.m", 5, 1, "transform.scale.y", [1, 0.4]),
        e("DGActivityIndicatorLineScalePulseOutRapidAnimation.m", 5, 0.9, "transform.scale.y", [1, 0.3]),
        e("DGActivityIndicatorNineDotsAnimation.m", 9, nil, "opacity", [0.5, 1]),
        e("DGActivityIndicatorRotatingSandglassAnimation.m", 2, 0.8, "transform"),
        e("DGActivityIndicatorRotatingSquaresAnimation.m", 2, 1.6, "transform"),
        e("DGActivityIndicatorRotatingTrigonAnimation.m", 3, 2, "transform"),
        e("DGActivityIndicatorThreeDotsAnimation.m", 3, 1, "opacity", [0.25, 1]),
        e("DGActivityIndicatorTriangleSkewSpinAnimation.m", 1, 3, "transform"),
        e("DGActivityIndicatorTriplePulseAnimation.m", 4, 1.2, "opacity", [0.8, 0]),
        e("DGActivityIndicatorTripleRingsAnimation.m", 3, 2, "opacity", [1, 0.8]),
        e("DGActivityIndicatorTwoDotsAnimation.m", 2, nil, "transform"),
    ]

    /// The import of one corpus file, through the helper as `choreo import` runs it.
    static func imported(_ file: String) throws -> ImportResult {
        let library = file.hasPrefix("NV") ? "NVActivityIndicatorView" : "DGActivityIndicatorView"
        let url = root.appendingPathComponent("\(library)/Animations/\(file)")
        let source = Array(try Data(contentsOf: url))
        var request = ImportRequest(
            source: source, language: SourceLanguage(fileName: file)!, name: file)
        if library.hasPrefix("NV") {
            for name in ["NVActivityIndicatorShape.swift", "NVActivityIndicatorAnimationDelegate.swift"] {
                request.companions.append(
                    (name, Array(try Data(contentsOf: root.appendingPathComponent("\(library)/\(name)")))))
            }
        } else {
            request.companions = IncludedFiles.find(from: url.path, source: source, skipping: [url.path])
        }
        return try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
    }

    @Test(arguments: expectations)
    func importsRendersAndLooksLikeTheLoader(_ expected: Expectation) throws {
        let result = try Self.imported(expected.file)
        #expect(
            !result.hasErrors, "\(expected.file): \(result.diagnostics.filter { $0.severity == .error }.map(\.message))"
        )
        let scene = try #require(result.scene)
        var writer = JSONWriter()
        writer.value(scene)
        let (decoded, _) = try SceneDecoder.decode(bytes: writer.bytes)
        let timeline = try SceneRunner.run(decoded)
        let keyPath = try #require(KeyPath(expected.keyPath))
        let layers = timeline.layers.indices.filter { !timeline.layers[$0].id.isEmpty }
        func value(_ layer: Int, _ t: Double) -> ChoreoEngine.Value {
            timeline.presentationValue(layer: layer, keyPath: keyPath, at: t, map: timeline.timeMap(of: layer, at: t))
        }
        // Past every loader's stagger; sampled every 5 ms over the window.
        let start = 3.0
        let window = expected.period ?? 4.5
        let times = stride(from: start, through: start + window, by: 0.005).map { $0 }
        let moving = layers.filter { layer in times.contains { value(layer, $0) != value(layer, start) } }
        #expect(
            moving.count == expected.movers,
            "\(expected.file): layers that move: \(moving.map { timeline.layers[$0].id })")
        if let period = expected.period {
            for layer in moving {
                for offset: Double in [0, period / 3, 2 * period / 3] {
                    let t = start + offset
                    let a = value(layer, t)
                    for later in [value(layer, t + period), value(layer, t + 2 * period)] {
                        #expect(
                            Self.close(a, later),
                            "\(expected.file): \(timeline.layers[layer].id) at \(t) and a period later")
                    }
                }
            }
        }
        for key in expected.values {
            let reached = moving.contains { layer in
                times.contains { t in
                    let n: Double
                    switch value(layer, t) {
                    case .number(let number): n = number
                    case .transform(let transform): n = transform.m11
                    default: return false
                    }
                    return abs(n - key) <= 0.02 * Swift.max(1.0, abs(key))
                }
            }
            #expect(reached, "\(expected.file): \(expected.keyPath) never reaches \(key)")
        }
    }

    static func close(_ a: ChoreoEngine.Value, _ b: ChoreoEngine.Value) -> Bool {
        switch (a, b) {
        // Sources written with float literals (`0.7f`) have periods a float's precision off.
        case (.number(let x), .number(let y)): return abs(x - y) < 1e-4
        case (.transform(let x), .transform(let y)):
            return zip(x.elements, y.elements).allSatisfy { abs($0 - $1) < 1e-4 }
        case (.point(let x), .point(let y)): return abs(x.x - y.x) < 1e-4 && abs(x.y - y.y) < 1e-4
        default: return a == b
        }
    }
}
