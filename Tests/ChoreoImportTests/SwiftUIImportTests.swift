import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoSwiftImport
import Foundation
import Testing

/// SwiftUI views imported: examples/swiftui imports, renders and exports; the motion is the
/// engine's model of SwiftUI (``SwiftUIValueTrack``) to 1e-9; what is not read is said at its line.
@Suite struct SwiftUIImportTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples/swiftui")

    static func run(_ source: String, taps: [(String, Double)] = [], entry: String? = nil) -> ImportResult {
        var options = ImportOptions(entry: entry)
        options.taps = taps.map { (title: $0.0, time: $0.1) }
        return Importer.run(SwiftFrontEnd.lower(source), options: options)
    }

    static func example(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: examples.appendingPathComponent(name)), as: UTF8.self)
    }

    static func messages(_ result: ImportResult) -> [String] {
        result.diagnostics.map { "\($0.position.line):\($0.position.column): \($0.severity.rawValue): \($0.message)" }
    }

    static func hidden(_ timeline: Timeline, _ layer: String, _ time: Double) -> Bool {
        let index = timeline.layerIndex[layer]!
        let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
        return timeline.presentationValue(layer: index, keyPath: KeyPath("hidden")!, at: time, map: maps[index])
            == .bool(true)
    }

    static func value(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double) -> Double {
        let index = timeline.layerIndex[layer]!
        let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
        let value = timeline.presentationValue(layer: index, keyPath: KeyPath(keyPath)!, at: time, map: maps[index])
        guard case .number(let n) = value else { return .nan }
        return n
    }

    static let times = (0..<300).map { SceneTime.quantize(Double($0) * 0.01) }

    @Test(arguments: [
        "SpringToggle.swift", "InterruptedSpring.swift", "PulsingBadge.swift", "LikeHeart.swift",
        "BreathingLoader.swift", "HeroCard.swift",
    ])
    func everyExampleImportsRendersAndExports(file: String) throws {
        let result = Self.run(try Self.example(file))
        #expect(!result.diagnostics.contains { $0.severity == .error }, "\(Self.messages(result))")
        let timeline = try ImportChainTests.timeline(result)
        #expect(!timeline.events.isEmpty, "\(file) animates nothing")
        for format in ExportFormat.allCases {
            let options = ExportOptions(format: format)
            let artifact = try Exporter.export(timeline, options: options, name: file)
            #expect(!artifact.bytes.isEmpty, "\(file) as \(format)")
        }
    }

    @Test func theToggleMovesAsSwiftUIWould() throws {
        let result = Self.run(try Self.example("SpringToggle.swift"))
        // The tap's script entry maps to the view it taps (line 9, the ZStack), as the player links it.
        #expect(result.sourceMap.contains { $0.path == "$.script[0]" && $0.position.line == 9 })
        let timeline = try ImportChainTests.timeline(result)
        // Tapped once by default, at 0.5 s; the knob's offset under the zstack's spring.
        var reference = SwiftUIValueTrack(-28)
        reference.set(28, at: 0.5, animation: .spring(duration: 0.5, bounce: 0.3))
        let largest = Self.times.filter { $0 >= 0.5 }.map {
            abs(Self.value(timeline, "circle", "transform.translation.x", $0) - reference.value(at: $0))
        }.max()!
        #expect(largest < 1e-9)
        #expect(Self.value(timeline, "circle", "transform.translation.x", 0.4) == -28)
    }

    @Test func tapsInterruptTheSpring() throws {
        let result = Self.run(try Self.example("InterruptedSpring.swift"), taps: [("Move", 0.5), ("Move", 0.7)])
        let timeline = try ImportChainTests.timeline(result)
        var reference = SwiftUIValueTrack(0)
        reference.set(-120, at: 0.5, animation: .snappy(duration: 0.6, extraBounce: 0.1))
        reference.set(0, at: 0.7, animation: .snappy(duration: 0.6, extraBounce: 0.1))
        let largest = Self.times.filter { $0 >= 0.7 }.map {
            abs(Self.value(timeline, "roundedRectangle", "transform.translation.y", $0) - reference.value(at: $0))
        }.max()!
        #expect(largest < 1e-9)
        // Still rising just after the second tap: the velocity is kept.
        #expect(
            Self.value(timeline, "roundedRectangle", "transform.translation.y", 0.72)
                < Self.value(timeline, "roundedRectangle", "transform.translation.y", 0.7))
    }

    @Test func aCompletionAfterARepeatForeverIsSaidNeverToRun() throws {
        let timeline = try ImportChainTests.timeline(Self.run(try Self.example("PulsingBadge.swift")))
        #expect(timeline.diagnostics.contains { $0.code == .completionNeverRuns })
        // Tapped at 0.5 s: it fades out over 0.3 s.
        #expect(Self.value(timeline, "circle", "opacity", 0.4) == 1)
        #expect(Self.value(timeline, "circle", "opacity", 0.9) == 0)
    }

    @Test func theHeartPopsOnItsKeyframes() throws {
        let timeline = try ImportChainTests.timeline(Self.run(try Self.example("LikeHeart.swift")))
        let bouncy = SwiftUISpring(duration: 0.5, bounce: 0.3)
        let scale = SwiftUIKeyframeTrack(
            initial: 1,
            [
                .linear(0.8, duration: 0.1), .spring(1.3, duration: 0.3, spring: bouncy),
                .spring(1, duration: nil, spring: bouncy),
            ])
        let degree = Double.pi / 180
        let wobble = SwiftUIKeyframeTrack(
            initial: 0,
            [.cubic(12 * degree, duration: 0.15), .cubic(-8 * degree, duration: 0.15), .cubic(0, duration: 0.2)])
        for time in stride(from: 0.5013, to: 1.5, by: 0.01).map({ SceneTime.quantize($0) }) {
            #expect(abs(Self.value(timeline, "circle", "transform.scale.x", time) - scale.value(at: time - 0.5)) < 1e-9)
            #expect(
                abs(Self.value(timeline, "circle", "transform.rotation.z", time) - wobble.value(at: time - 0.5)) < 1e-9)
        }
    }

    @Test func theLoaderBreathesThroughItsPhases() throws {
        let timeline = try ImportChainTests.timeline(Self.run(try Self.example("BreathingLoader.swift")))
        // Phase 1 (1.4, by the 0.8 s curve) from 0 s, phase 2 (0.9, by the spring) at 0.8 s.
        var track = SwiftUIValueTrack(1)
        track.set(1.4, at: 0, animation: .easeInOut(duration: 0.8))
        #expect(abs(Self.value(timeline, "circle", "transform.scale.x", 0.4) - track.value(at: 0.4)) < 1e-9)
        #expect(abs(Self.value(timeline, "circle", "opacity", 0.8) - 0.6) < 1e-9)
        #expect(timeline.diagnostics.contains { $0.code == .neverSettles })
    }

    @Test func theHeroGrowsOutOfTheThumbnailAndBack() throws {
        let result = Self.run(try Self.example("HeroCard.swift"), taps: [("zstack", 0.5), ("zstack", 2)])
        #expect(!result.diagnostics.contains { $0.severity != .note }, "\(Self.messages(result))")
        let timeline = try ImportChainTests.timeline(result)
        // The detail (inserted) and the thumbnail (removed) share one frame as they move: the
        // spring's value between the thumbnail's frame and the detail's.
        var x = SwiftUIValueTrack(100)
        x.set(196, at: 0.5, animation: .spring(duration: 0.45, bounce: 0.2))
        for time in [0.55, 0.6, 0.7, 0.8] {
            for layer in ["roundedRectangle", "roundedRectangle-2"] {
                #expect(
                    abs(Self.value(timeline, layer, "position.x", time) - x.value(at: time)) < 1e-9, "\(layer) \(time)")
            }
        }
        // The close button scales and fades in; after the change the thumbnail is gone.
        #expect(Self.value(timeline, "circle", "opacity", 0.55) < 1)
        #expect(Self.hidden(timeline, "roundedRectangle-2", 1.9))
        // Tapped again: back.
        #expect(Self.hidden(timeline, "roundedRectangle", 3.5))
        #expect(!Self.hidden(timeline, "roundedRectangle-2", 3.5))
    }

    @Test func aBlurAnimatesIsDrawnAndExported() throws {
        let result = Self.run(
            """
            import SwiftUI

            struct Focus: View {
                @State private var blurred = false
                var body: some View {
                    RoundedRectangle(cornerRadius: 20)
                        .fill(.orange)
                        .frame(width: 120, height: 80)
                        .blur(radius: blurred ? 12 : 0)
                        .animation(.easeInOut(duration: 1), value: blurred)
                        .onTapGesture { blurred.toggle() }
                }
            }
            """)
        #expect(!result.diagnostics.contains { $0.severity == .warning || $0.severity == .error })
        let timeline = try ImportChainTests.timeline(result)
        var reference = SwiftUIValueTrack(0)
        reference.set(12, at: 0.5, animation: .easeInOut(duration: 1))
        #expect(abs(Self.value(timeline, "roundedRectangle", "blurRadius", 1) - reference.value(at: 1)) < 1e-9)
        let css = try Exporter.export(timeline, options: ExportOptions(format: .css), name: "Focus")
        #expect(String(decoding: css.bytes, as: UTF8.self).contains("filter: blur("))
        #expect(css.report.approximated.contains { $0.properties.contains("blurRadius") })
        let lottie = try Exporter.export(timeline, options: ExportOptions(format: .lottie), name: "Focus")
        #expect(lottie.report.dropped.contains { $0.properties.contains("blurRadius") })
    }

    @Test func textIsDrawnAndStacked() throws {
        let result = Self.run(
            """
            import SwiftUI

            struct Ready: View {
                @State private var done = false
                var body: some View {
                    VStack(spacing: 16) {
                        Text("Ready?")
                            .font(.largeTitle.bold())
                            .foregroundStyle(done ? Color.green : Color.primary)
                        RoundedRectangle(cornerRadius: 8)
                            .fill(.blue)
                            .frame(width: 160, height: 8)
                        Button("Go") {
                            withAnimation(.bouncy) { done.toggle() }
                        }
                    }
                }
            }
            """)
        #expect(!result.diagnostics.contains { $0.severity != .note }, "\(Self.messages(result))")
        let timeline = try ImportChainTests.timeline(result)
        let text = try #require(timeline.layerIndex["text"])
        #expect(timeline.layers[text].type == .text)
        #expect(timeline.layers[text].modelValue(.string, at: 0) == .string("Ready?"))
        #expect(timeline.layers[text].modelValue(.fontSize, at: 0) == .number(34))
        // The title, the bar and the button, 16 points apart, each as tall as it is: the text
        // 1.2 em (40.8), the bar 8, the button's title at body size (20.4).
        #expect(Self.value(timeline, "text", "position.y", 0) == 20.4)
        #expect(Self.value(timeline, "roundedRectangle", "position.y", 0) == 40.8 + 16 + 4)
        let button = try #require(timeline.layerIndex["button"])
        #expect(timeline.layers[button].modelValue(.string, at: 0) == .string("Go"))
        // Tapped at 0.5 s, the colour animates by the spring towards green.
        let index = try #require(timeline.layerIndex["text"])
        let maps = timeline.timeMaps(at: 0.6, shape: timeline.shape(at: 0.6))
        let shown = timeline.presentationValue(
            layer: index, keyPath: KeyPath("foregroundColor")!, at: 0.6, map: maps[index])
        guard case .color(let mid) = shown else {
            Issue.record("no colour")
            return
        }
        #expect(mid.green > 0.2 && mid.green < 0.78)
    }

    static let counter = """
        import SwiftUI

        struct Stepper: View {
            @State private var expanded = false
            @State private var level: Double = 0.25
            let side: CGFloat = 80

            var body: some View {
                VStack(spacing: 20) {
                    RoundedRectangle(cornerRadius: 12)
                        .fill(expanded ? Color.orange : .blue)
                        .frame(width: side, height: side)
                        .opacity(level)
                        .rotationEffect(.degrees(expanded ? 90 : 0))
                        .shadow(radius: 2)
                    Circle()
                        .frame(width: 40, height: 40)
                    Button("Grow") {
                        var transaction = Transaction(animation: .linear(duration: 1))
                        transaction.disablesAnimations = true
                        withTransaction(transaction) {
                            expanded.toggle()
                            level += 0.5
                        }
                    }
                }
                .animation(.easeIn(duration: 2), value: expanded)
            }
        }
        """

    @Test func stateTransactionsAndStacksAreRead() throws {
        let result = Self.run(Self.counter, taps: [("Grow", 1)])
        let messages = Self.messages(result)
        // .shadow is said at its line and left out.
        #expect(messages.contains { $0.hasPrefix("15:17: warning: .shadow is not modelled") })
        let timeline = try ImportChainTests.timeline(result)
        // The transaction disables the stack's .animation: linear over 1 s.
        #expect(abs(Self.value(timeline, "roundedRectangle", "opacity", 1.5) - 0.5) < 1e-9)
        #expect(abs(Self.value(timeline, "roundedRectangle", "transform.rotation.z", 1.5) - .pi / 4) < 1e-9)
        // The VStack is as tall as its children: 80 + 20 + 40, the square at its top.
        #expect(Self.value(timeline, "roundedRectangle", "position.y", 0) == 40)
        #expect(Self.value(timeline, "circle", "position.y", 0) == 120)
    }

    @Test func mistakesAreSaidAtTheirLine() {
        let unknown = Self.run(Self.counter, taps: [("Shrink", 1)])
        #expect(unknown.scene == nil)
        #expect(
            Self.messages(unknown).contains {
                $0.contains("no button or tapped view is called \"Shrink\" (there are: \"Grow\")")
            })
        let text = Self.run(
            """
            struct Hello: View {
                var body: some View {
                    Label("Star", systemImage: "star")
                }
            }
            """)
        #expect(text.scene == nil)
        #expect(
            Self.messages(text).contains {
                $0.hasPrefix("2:9: error: Hello's body draws nothing choreo models")
                    && $0.hasSuffix("the first thing left out is Label (3:9)")
            })
    }
}
