import ChoreoFormat
import ChoreoJSON
import Testing

@testable import ChoreoEngine

/// A `CAAnimationGroup`'s members without a duration of their own run for the group's duration
/// (Apple's CAAnimationGroup reference, Listing 1; docs/semantics.md), not the transaction's 0.25 s.
@Suite struct GroupMemberDurationTests {
    static func opacity(_ scene: String, at t: Double) throws -> Double {
        let (decoded, _) = try SceneDecoder.decode(bytes: Array(scene.utf8))
        let timeline = try SceneRunner.run(decoded)
        let index = timeline.layerIndex["a"]!
        let value = timeline.presentationValue(
            layer: index, keyPath: KeyPath("opacity")!, at: t, map: timeline.timeMap(of: index, at: t))
        guard case .number(let n) = value else { throw GroupTestFailure.notANumber }
        return n
    }

    enum GroupTestFailure: Error { case notANumber }

    static func scene(_ add: String) -> String {
        #"{"layers": [{"id": "a", "opacity": 1}], "script": [{"at": 0, "do": [{"add": "# + add + #", "layer": "a"}]}]}"#
    }

    @Test func aMemberWithoutADurationRunsForTheGroups() throws {
        let group =
            #"{"type": "group", "duration": 2, "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0}]}"#
        #expect(abs(try Self.opacity(Self.scene(group), at: 0.25) - 0.875) < 1e-12)
        #expect(abs(try Self.opacity(Self.scene(group), at: 1) - 0.5) < 1e-12)
        #expect(abs(try Self.opacity(Self.scene(group), at: 1.5) - 0.25) < 1e-12)
    }

    @Test func anExplicitZeroAndANestedGroupTakeTheirGroups() throws {
        let nested = #"""
            {"type": "group", "duration": 4, "animations": [{"type": "group", "animations": [
              {"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 0}]}]}
            """#
        #expect(abs(try Self.opacity(Self.scene(nested), at: 1) - 0.75) < 1e-12)
    }

    @Test func aMemberWithItsOwnDurationKeepsIt() throws {
        let group =
            #"{"type": "group", "duration": 2, "animations": [{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0, "duration": 0.5}]}"#
        #expect(abs(try Self.opacity(Self.scene(group), at: 0.25) - 0.5) < 1e-12)
        #expect(try Self.opacity(Self.scene(group), at: 1) == 1)
    }

    @Test func anAnimationOutsideAGroupStillTakesTheTransactions() throws {
        let alone = #"{"type": "basic", "keyPath": "opacity", "fromValue": 1, "toValue": 0}"#
        #expect(abs(try Self.opacity(Self.scene(alone), at: 0.125) - 0.5) < 1e-12)
    }
}
