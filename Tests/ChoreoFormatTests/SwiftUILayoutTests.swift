import ChoreoEngine
import ChoreoFormat
import Testing

/// SwiftUI's layout in the engine: stacks share out what they are offered least flexible child
/// first, frames and padding wrap the view in the order written, and a state change that moves
/// a view's siblings animates them with the change's transaction (docs/semantics.md, "SwiftUI
/// layout").
struct SwiftUILayoutTests {
    static func timeline(_ views: String, state: String = #"{"wide": false}"#, script: String = "[]") throws
        -> Timeline
    {
        try ScriptTests.timeline(
            """
            {"canvas": {"width": 400, "height": 300},
             "swiftui": {"state": \(state), "views": [\(views)]},
             "script": \(script)}
            """)
    }

    static func number(_ timeline: Timeline, _ layer: String, _ keyPath: String, _ time: Double = 0) -> Double {
        ScriptTests.number(timeline, layer, keyPath, time)
    }

    /// `HStack { Rectangle().frame(width: 50); Spacer(); Circle().frame(width: 40, height: 40) }`
    /// in a 400-point window: the rectangle and the circle at its edges, the spacer between.
    @Test func aSpacerTakesWhatTheFixedViewsLeave() throws {
        let timeline = try Self.timeline(
            """
            {"id": "row", "shape": "hstack", "children": [
              {"id": "bar", "shape": "rectangle", "modifiers": [{"frame": {"width": 50}}]},
              {"id": "gap", "shape": "spacer"},
              {"id": "dot", "shape": "circle", "modifiers": [{"frame": {"width": 40, "height": 40}}]}]}
            """)
        // The stack is offered the window and takes it across (the spacer is as wide as it can be).
        #expect(Self.number(timeline, "row", "bounds.size.width") == 400)
        // The bar is offered the whole height; the stack is as tall as its tallest child.
        #expect(Self.number(timeline, "row", "bounds.size.height") == 300)
        #expect(Self.number(timeline, "bar", "position.x") == 25)
        #expect(Self.number(timeline, "dot", "position.x") == 380)
        #expect(Self.number(timeline, "dot", "position.y") == 150)
        // The spacer: 400 - 50 - 40 - 2 × 8 of spacing.
        #expect(Self.number(timeline, "gap", "bounds.size.width") == 294)
    }

    /// `VStack(alignment: .leading, spacing: 10) { Text("Title"); Text("A longer line") }
    /// .padding()`: the texts at the stack's leading edge, the stack 16 points in from its
    /// padding, the whole centred in the window.
    @Test func paddingAndAlignmentPlaceTheContent() throws {
        let timeline = try Self.timeline(
            """
            {"id": "column", "shape": "vstack", "alignment": "leading", "spacing": 10,
             "modifiers": [{"padding": 16}, {"background": "#FFCC00"}], "children": [
              {"id": "title", "shape": "text", "text": "Title"},
              {"id": "line", "shape": "text", "text": "A longer line"}]}
            """)
        // Texts: 0.6 em a character, 1.2 em a line, 17 points.
        let title = SwiftUIView.textSize("Title", fontSize: 17)
        let line = SwiftUIView.textSize("A longer line", fontSize: 17)
        // The background is drawn around the padding: the layer is the padded box.
        let width = line.0 + 32
        let height = title.1 + 10 + line.1 + 32
        #expect(abs(Self.number(timeline, "column", "bounds.size.width") - width) < 1e-9)
        #expect(abs(Self.number(timeline, "column", "bounds.size.height") - height) < 1e-9)
        #expect(abs(Self.number(timeline, "column", "position.x") - 200) < 1e-9)
        // Leading: the title's left edge is the longer line's, 16 points in.
        #expect(abs(Self.number(timeline, "title", "position.x") - (16 + title.0 / 2)) < 1e-9)
        #expect(abs(Self.number(timeline, "line", "position.x") - (16 + line.0 / 2)) < 1e-9)
        #expect(abs(Self.number(timeline, "line", "position.y") - (16 + title.1 + 10 + line.1 / 2)) < 1e-9)
    }

    /// `.frame(maxWidth: .infinity, alignment: .trailing)` takes the width it is offered and
    /// puts its content at the trailing edge; `.frame(minHeight: 100)` a minimum under a
    /// smaller child (Apple's documentation of the flexible frame).
    @Test func aFlexibleFrameTakesWhatItsConstraintsAllow() throws {
        let timeline = try Self.timeline(
            """
            {"id": "column", "shape": "vstack", "spacing": 0, "children": [
              {"id": "price", "shape": "text", "text": "9",
               "modifiers": [{"frame": {"maxWidth": "infinity", "alignment": "trailing"}}]},
              {"id": "block", "shape": "rectangle",
               "modifiers": [{"frame": {"width": 20, "height": 20}}, {"frame": {"minHeight": 100}}]}]}
            """)
        let digit = SwiftUIView.textSize("9", fontSize: 17)
        #expect(Self.number(timeline, "column", "bounds.size.width") == 400)
        #expect(abs(Self.number(timeline, "price", "position.x") - (400 - digit.0 / 2)) < 1e-9)
        // The block's frame is 100 high, the 20-point square centred in it.
        #expect(abs(Self.number(timeline, "column", "bounds.size.height") - (digit.1 + 100)) < 1e-9)
        #expect(abs(Self.number(timeline, "block", "position.y") - (digit.1 + 50)) < 1e-9)
        #expect(Self.number(timeline, "block", "bounds.size.height") == 20)
    }

    /// A state change that widens one view moves its siblings: each moves with the change's
    /// animation, as SwiftUI animates the frames a layout gives.
    @Test func aChangedLayoutAnimatesWithTheTransaction() throws {
        let timeline = try Self.timeline(
            """
            {"id": "row", "shape": "hstack", "spacing": 0, "children": [
              {"id": "grow", "shape": "rectangle",
               "modifiers": [{"frame": {"width": {"if": "wide", "then": 200, "else": 100}, "height": 50}}]},
              {"id": "next", "shape": "rectangle", "modifiers": [{"frame": {"width": 100, "height": 50}}]}]}
            """,
            script: #"[{"at": 1, "do": [{"withAnimation": {"linear": {"duration": 1}}, "state": {"wide": true}}]}]"#)
        // Before: the row is 200 wide, centred: its children at 50 and 150 in it.
        #expect(Self.number(timeline, "row", "bounds.size.width", 0.5) == 200)
        #expect(Self.number(timeline, "next", "position.x", 0.5) == 150)
        // After: 300 wide; the second child at 250. Half way, linear: half way there.
        #expect(Self.number(timeline, "next", "position.x", 2.5) == 250)
        #expect(abs(Self.number(timeline, "next", "position.x", 1.5) - 200) < 1e-9)
        #expect(abs(Self.number(timeline, "row", "bounds.size.width", 1.5) - 250) < 1e-9)
        #expect(abs(Self.number(timeline, "grow", "bounds.size.width", 1.5) - 150) < 1e-9)
    }

    /// A view an `if` removes leaves its place in the stack to the others.
    @Test func aRemovedViewLeavesItsPlace() throws {
        let timeline = try Self.timeline(
            """
            {"id": "column", "shape": "vstack", "spacing": 10, "children": [
              {"id": "first", "shape": "rectangle", "if": "!wide", "modifiers": [{"frame": {"width": 50, "height": 50}}]},
              {"id": "second", "shape": "rectangle", "modifiers": [{"frame": {"width": 50, "height": 50}}]}]}
            """,
            script: #"[{"at": 1, "do": [{"state": {"wide": true}}]}]"#)
        #expect(Self.number(timeline, "column", "bounds.size.height", 0.5) == 110)
        #expect(Self.number(timeline, "second", "position.y", 0.5) == 85)
        #expect(Self.number(timeline, "column", "bounds.size.height", 1.5) == 50)
        #expect(Self.number(timeline, "second", "position.y", 1.5) == 25)
    }

    /// What the layout fields do not allow is refused with their path.
    @Test func misplacedLayoutFieldsAreRefused() {
        let errors = SwiftUISceneTests.errors(
            """
            {"canvas": {"width": 400, "height": 300}, "swiftui": {"state": {}, "views": [
              {"id": "a", "shape": "circle", "spacing": 4},
              {"id": "b", "shape": "vstack", "alignment": "top"},
              {"id": "c", "shape": "rectangle", "modifiers": [{"frame": {"width": 10, "maxWidth": 20}}]},
              {"id": "d", "shape": "rectangle", "modifiers": [{"padding": {"left": 4}}]}]}}
            """)
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[0].spacing:") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[1].alignment:") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[2].modifiers[0].frame:") }, "\(errors)")
        #expect(errors.contains { $0.hasPrefix("$.swiftui.views[3].modifiers[0].padding") }, "\(errors)")
    }
}
