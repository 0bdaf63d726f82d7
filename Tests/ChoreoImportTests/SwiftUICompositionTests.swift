import ChoreoEngine
import ChoreoImport
import ChoreoJSON
import ChoreoSwiftImport
import Testing

/// SwiftUI files as they are written: the preview is the entry, custom views and `ForEach` are
/// read as SwiftUI evaluates them, a shape that sets no colour is drawn in the foreground style,
/// and values are computed from what the view is given.
@Suite struct SwiftUICompositionTests {
    static func run(_ source: String, entry: String? = nil) -> ImportResult {
        SwiftUIImportTests.run(source, entry: entry)
    }

    static func errors(_ result: ImportResult) -> [String] {
        SwiftUIImportTests.messages(result).filter { $0.contains("error") }
    }

    static func color(_ timeline: Timeline, _ layer: String, _ keyPath: String = "backgroundColor") -> Color? {
        let index = timeline.layerIndex[layer]!
        let maps = timeline.timeMaps(at: 0, shape: timeline.shape(at: 0))
        if case .color(let c) = timeline.presentationValue(
            layer: index, keyPath: KeyPath(keyPath)!, at: 0, map: maps[index])
        {
            return c
        }
        return nil
    }

    @Test func thePreviewNamesTheViewAndItsArguments() throws {
        let result = Self.run(
            """
            import SwiftUI

            struct Badge: View {
                var side: CGFloat = 10
                var body: some View { Rectangle().fill(.red).frame(width: side, height: side) }
            }

            struct Screen: View {
                var body: some View { Circle().fill(.blue).frame(width: 5, height: 5) }
            }

            #Preview {
                NavigationStack { Badge(side: 40) }
                    .preferredColorScheme(.dark)
            }
            """)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        let timeline = try ImportChainTests.timeline(result)
        #expect(timeline.layerIndex["rectangle"] != nil)
        #expect(timeline.layerIndex["circle"] == nil)
        #expect(SwiftUIImportTests.value(timeline, "rectangle", "bounds.size.width", 0) == 40)
    }

    @Test func aPreviewProviderIsReadAsThePreview() throws {
        let result = Self.run(
            """
            import SwiftUI
            struct First: View { var body: some View { Circle().fill(.red) } }
            struct Second: View {
                let side: CGFloat
                var body: some View { Capsule().fill(.green).frame(width: side, height: 20) }
            }
            struct Second_Previews: PreviewProvider {
                static var previews: some View { Second(side: 64) }
            }
            """)
        let timeline = try ImportChainTests.timeline(result)
        #expect(SwiftUIImportTests.value(timeline, "capsule", "bounds.size.width", 0) == 64)
    }

    @Test func aShapeWithoutAColourIsDrawnInTheForegroundStyle() throws {
        let result = Self.run(
            """
            import SwiftUI
            struct Shapes: View {
                var body: some View {
                    ZStack {
                        Circle().frame(width: 50, height: 50)
                        VStack {
                            Rectangle().frame(width: 30, height: 30)
                            Text("Hi")
                        }
                        .foregroundStyle(.red)
                        Capsule().fill(LinearGradient(colors: [.green, .blue], startPoint: .top, endPoint: .bottom))
                            .frame(width: 60, height: 20)
                    }
                }
            }
            """)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        let timeline = try ImportChainTests.timeline(result)
        // Black (SwiftUI's primary, light appearance); the VStack's red; a gradient's first colour.
        #expect(Self.color(timeline, "circle") == Color(red: 0, green: 0, blue: 0, alpha: 1))
        let red = try #require(Self.color(timeline, "rectangle"))
        #expect(abs(red.red - 1) < 1e-9 && abs(red.green - 59 / 255) < 1e-9)
        let text = try #require(Self.color(timeline, "text", "foregroundColor"))
        #expect(abs(text.red - 1) < 1e-9)
        let green = try #require(Self.color(timeline, "capsule"))
        #expect(abs(green.green - 199 / 255) < 1e-9)
    }

    @Test func forEachAndCustomViewsAreEvaluatedWithTheirValues() throws {
        let result = Self.run(
            """
            import SwiftUI

            struct Dot: View {
                let index: Int
                @Binding var on: Bool
                var body: some View {
                    Circle()
                        .fill(.blue)
                        .frame(width: 20, height: 20)
                        .scaleEffect(on ? 1.5 : 1)
                        .offset(x: CGFloat(index) * 30 - 60, y: min(CGFloat(index), 2) * 10)
                }
            }

            struct Dots: View {
                @State private var on = false
                var body: some View {
                    ZStack {
                        ForEach(0..<5) { i in
                            Dot(index: i, on: $on)
                        }
                        row
                    }
                    .animation(.easeInOut(duration: 1), value: on)
                    .onTapGesture { on.toggle() }
                }

                var row: some View {
                    ForEach(Array([10.0, 20.0].enumerated()), id: \\.offset) { item in
                        Rectangle().frame(width: item.element, height: 4).offset(y: CGFloat(item.offset) * 8 + 100)
                    }
                }
            }

            #Preview { Dots() }
            """)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        let timeline = try ImportChainTests.timeline(result)
        for i in 0..<5 {
            let id = i == 0 ? "circle" : "circle-\(i + 1)"
            #expect(SwiftUIImportTests.value(timeline, id, "transform.translation.x", 0) == Double(i) * 30 - 60)
            #expect(SwiftUIImportTests.value(timeline, id, "transform.translation.y", 0) == Double(min(i, 2)) * 10)
            // Tapped at 0.5 s; easeInOut's curve (0.42, 0, 0.58, 1) is symmetric, so half way
            // through its second the scale is half way: 1.25.
            #expect(abs(SwiftUIImportTests.value(timeline, id, "transform.scale.x", 1) - 1.25) < 1e-9)
            #expect(SwiftUIImportTests.value(timeline, id, "transform.scale.x", 1.5) == 1.5)
        }
        #expect(SwiftUIImportTests.value(timeline, "rectangle", "bounds.size.width", 0) == 10)
        #expect(SwiftUIImportTests.value(timeline, "rectangle-2", "bounds.size.width", 0) == 20)
        #expect(SwiftUIImportTests.value(timeline, "rectangle-2", "transform.translation.y", 0) == 108)
    }

    @Test func aViewBuilderMethodAndFunctionsOfNumbersAreRead() throws {
        let result = Self.run(
            """
            import SwiftUI
            struct Ring: View {
                let count = 4
                var body: some View {
                    ZStack {
                        ForEach(0..<count, id: \\.self) { i in
                            bar(at: i)
                        }
                    }
                }
                @ViewBuilder
                func bar(at i: Int) -> some View {
                    Capsule()
                        .frame(width: 6, height: 20)
                        .offset(x: sin(Double(i) * .pi / 2) * 50, y: -cos(Double(i) * .pi / 2) * 50)
                        .opacity(max(0.25, Double(i) / 3))
                }
            }
            """)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        let timeline = try ImportChainTests.timeline(result)
        #expect(abs(SwiftUIImportTests.value(timeline, "capsule-2", "transform.translation.x", 0) - 50) < 1e-12)
        #expect(abs(SwiftUIImportTests.value(timeline, "capsule-3", "transform.translation.y", 0) - 50) < 1e-12)
        #expect(SwiftUIImportTests.value(timeline, "capsule", "opacity", 0) == 0.25)
        #expect(SwiftUIImportTests.value(timeline, "capsule-4", "opacity", 0) == 1)
    }

    @Test func aSceneThatWouldShowLessThanTheCodeIsRefusedAtTheFirstThingLeftOut() {
        let empty = Self.run(
            """
            import SwiftUI
            struct Home: View {
                var body: some View {
                    TabView {
                        Circle()
                    }
                }
            }
            """)
        #expect(empty.scene == nil)
        #expect(
            SwiftUIImportTests.messages(empty).contains {
                $0.hasPrefix("3:9: error: Home's body draws nothing choreo models")
                    && $0.hasSuffix("the first thing left out is the view TabView (4:9)")
            }, "\(SwiftUIImportTests.messages(empty))")
        let still = Self.run(
            """
            import SwiftUI
            struct Spinner: View {
                @State private var angle = 0.0
                var body: some View {
                    Circle()
                        .frame(width: 40, height: 40)
                        .rotationEffect(.degrees(angle))
                        .task { angle = 360 }
                        .animation(.linear(duration: 1).repeatForever(autoreverses: false), value: angle)
                }
            }
            """)
        #expect(still.scene == nil)
        #expect(
            SwiftUIImportTests.messages(still).contains {
                $0.hasPrefix("9:13: error: Spinner animates here but nothing choreo reads changes its state")
                    && $0.hasSuffix("the first thing left out is .task (8:13)")
            }, "\(SwiftUIImportTests.messages(still))")
    }

    @Test func imagesArePlaceholdersAndOwnMethodsRunAsActions() throws {
        let result = Self.run(
            """
            import SwiftUI
            struct Like: View {
                @State private var liked = false
                var body: some View {
                    Image(systemName: "heart.fill")
                        .font(.system(size: 50))
                        .foregroundStyle(.pink)
                        .scaleEffect(liked ? 1.3 : 1)
                        .onTapGesture { self.like(by: 1) }
                }
                func like(by step: Int) {
                    withAnimation(.easeInOut(duration: 0.4)) { self.liked.toggle() }
                }
            }
            """)
        #expect(Self.errors(result).isEmpty, "\(Self.errors(result))")
        #expect(
            SwiftUIImportTests.messages(result).contains {
                $0.contains("note: Image(systemName:) is drawn as a placeholder")
            })
        let timeline = try ImportChainTests.timeline(result)
        // 50 points of font: a line of 60.
        #expect(SwiftUIImportTests.value(timeline, "image", "bounds.size.width", 0) == 60)
        // Tapped at 0.5 s; half way through easeInOut's 0.4 s (a symmetric curve), half way.
        #expect(abs(SwiftUIImportTests.value(timeline, "image", "transform.scale.x", 0.7) - 1.15) < 1e-9)
    }
}
