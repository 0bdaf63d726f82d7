import ChoreoEngine
import ChoreoFormat
import ChoreoImport
import Testing

/// SwiftUI layout as written: stacks with their alignment and spacing, `Spacer`, `padding`,
/// flexible frames, carried into the scene for the engine's layout to place at every state.
struct SwiftUILayoutImportTests {
    static func value(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double = 0) -> Double {
        SwiftUIImportTests.value(timeline, layer, keyPath, time)
    }

    static let card = """
        import SwiftUI

        struct ExpandingCard: View {
            @State private var expanded = false

            var body: some View {
                VStack(alignment: .leading, spacing: 12) {
                    HStack {
                        Circle()
                            .fill(.orange)
                            .frame(width: 44, height: 44)
                        Text("Weekly report")
                        Spacer()
                    }
                    RoundedRectangle(cornerRadius: 12)
                        .fill(.blue)
                        .frame(height: expanded ? 240 : 80)
                }
                .padding()
                .frame(maxWidth: .infinity)
                .onTapGesture {
                    withAnimation(.linear(duration: 0.4)) { expanded.toggle() }
                }
            }
        }

        #Preview {
            ExpandingCard()
        }
        """

    @Test func aCardLaysOutAsSwiftUILaysItOutAtEveryState() throws {
        let result = SwiftUICompositionTests.run(Self.card)
        #expect(SwiftUICompositionTests.errors(result).isEmpty, "\(SwiftUIImportTests.messages(result))")
        let timeline = try ImportChainTests.timeline(result)
        // The window is 393 points wide: the card takes it (maxWidth: .infinity), its content
        // 16 points in from the default padding on each side (the stack's layer is the content's
        // box: nothing is drawn in the padding).
        #expect(Self.value(timeline, "vstack", "bounds.size.width") == 393 - 32)
        #expect(Self.value(timeline, "vstack", "position.x") == 393.0 / 2)
        #expect(Self.value(timeline, "roundedRectangle", "bounds.size.width") == 393 - 32)
        // The header row: the circle at the leading edge, the spacer pushing the text to it.
        #expect(Self.value(timeline, "circle", "position.x") == 22)
        let text = SwiftUIView.textSize("Weekly report", fontSize: 17)
        #expect(abs(Self.value(timeline, "text", "position.x") - (44 + 8 + text.0 / 2)) < 1e-9)
        // The bar below the 44-point header, 12 apart: 80 high, then 240 when tapped (0.5 s),
        // linearly over 0.4 s.
        #expect(Self.value(timeline, "roundedRectangle", "position.y", 0) == 44 + 12 + 40)
        #expect(abs(Self.value(timeline, "roundedRectangle", "bounds.size.height", 0.7) - 160) < 1e-9)
        #expect(Self.value(timeline, "roundedRectangle", "bounds.size.height", 1) == 240)
        // The column is centred in the window: as it grows, its top rises by half the growth.
        let before = Self.value(timeline, "vstack", "position.y", 0)
        let after = Self.value(timeline, "vstack", "position.y", 1)
        #expect(before == 852 / 2 && after == 852 / 2)
        let growth =
            Self.value(timeline, "vstack", "bounds.size.height", 1)
            - Self.value(timeline, "vstack", "bounds.size.height", 0)
        #expect(growth == 160)
    }

    @Test func paddingTakesItsEdgesAndLengths() throws {
        let result = SwiftUICompositionTests.run(
            """
            import SwiftUI
            struct Badge: View {
                @State private var on = false
                var body: some View {
                    HStack(alignment: .top, spacing: 4) {
                        Rectangle().frame(width: 10, height: 30)
                        Rectangle().frame(width: 10, height: 10)
                            .padding(.horizontal, 6)
                            .padding([.top], on ? 20 : 2)
                    }
                    .padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
                    .background(Color.yellow)
                    .onTapGesture { on.toggle() }
                }
            }
            """)
        #expect(SwiftUICompositionTests.errors(result).isEmpty, "\(SwiftUIImportTests.messages(result))")
        let timeline = try ImportChainTests.timeline(result)
        // 2 + 10 + 4 + (6 + 10 + 6) + 4 wide; 1 + 30 + 3 high (the second's 2 + 10 is shorter).
        #expect(Self.value(timeline, "hstack", "bounds.size.width") == 42)
        #expect(Self.value(timeline, "hstack", "bounds.size.height") == 34)
        // Aligned at the top, below its top padding of 2.
        #expect(Self.value(timeline, "rectangle-2", "position.x") == 2 + 10 + 4 + 6 + 5)
        #expect(Self.value(timeline, "rectangle-2", "position.y") == 1 + 2 + 5)
        // Tapped at 0.5 s (no animation): 20 at the top, the stack as tall as the taller child.
        #expect(Self.value(timeline, "rectangle-2", "position.y", 1) == 1 + 20 + 5)
        #expect(Self.value(timeline, "hstack", "bounds.size.height", 1) == 1 + 30 + 3)
    }
}
