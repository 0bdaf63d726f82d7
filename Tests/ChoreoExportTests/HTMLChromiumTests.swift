import ChoreoEngine
import ChoreoExport
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoRaster

/// Every example's HTML export in headless Chromium (Debian's `chromium`): the page shown at a
/// scene time (`?t=`, which sets every animation's `currentTime` and commits its values) and screenshotted; its
/// stage, the page's top-left canvas rectangle, differs from choreo's frame at that time by a
/// mean of at most 2 levels per channel.
@Suite struct HTMLChromiumTests {
    let scratch = Scratch("choreo-export-html")

    /// Straight RGBA over white, as the page shows a transparent canvas.
    static func overWhite(_ rgba: [UInt8]) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(rgba.count / 4 * 3)
        for i in stride(from: 0, to: rgba.count, by: 4) {
            let alpha = Double(rgba[i + 3]) / 255
            for c in 0..<3 { out.append(Double(rgba[i + c]) * alpha + 255 * (1 - alpha)) }
        }
        return out
    }

    @Test(.enabled(if: Chromium.available), arguments: LottieRlottieTests.exampleNames)
    func chromiumPlaysTheExportAsChoreoDrawsIt(example: String) throws {
        let timeline = try LottieRlottieTests.timeline(example)
        let artifact = try Exporter.export(timeline, options: ExportOptions(format: .html, fps: 30), name: example)
        let page = try scratch.write("\(example).html", String(decoding: artifact.bytes, as: UTF8.self))
        let renderer = FrameRenderer(timeline: timeline)
        let width = renderer.pixelWidth
        let height = renderer.pixelHeight
        let last = artifact.report.duration
        var worst = 0.0
        for time in [0, last * 0.37, last].map(SceneTime.quantize) {
            let shot = try Chromium().screenshot(
                "file://\(page)?t=\(time)", width: max(width, 320), height: max(height, 240))
            guard let browser = CairoCanvas.decodePNG(shot),
                let ours = CairoCanvas.decodePNG(renderer.draw(at: time).png())
            else { throw LiveError("a picture did not decode") }
            #expect(ours.width == width && ours.height == height)
            // The stage is the page's top-left canvas rectangle.
            var cropped: [UInt8] = []
            cropped.reserveCapacity(width * height * 4)
            for y in 0..<height {
                let start = y * browser.width * 4
                cropped += browser.rgba[start..<(start + width * 4)]
            }
            let a = Self.overWhite(cropped)
            let b = Self.overWhite(ours.rgba)
            let mean = zip(a, b).reduce(0.0) { $0 + abs($1.0 - $1.1) } / Double(max(1, a.count))
            if let keep = ProcessInfo.processInfo.environment["CHOREO_KEEP_COMPARISON"] {
                _ = FileManager.default.createFile(
                    atPath: "\(keep)/\(example)-\(time)-browser.png", contents: Data(shot))
            }
            worst = max(worst, mean)
        }
        // Text is placed where Pango sets it (the browser draws the glyphs), the stage is whole
        // pixels and a still is drawn without the compositor: every example within 2 levels.
        let bound = 2.0
        print("html export of \(example): mean difference \(worst) levels at 3 times (bound \(bound))")
        #expect(worst <= bound, "\(example): Chromium's page differs from choreo's frames by a mean of \(worst) levels")
    }
}
