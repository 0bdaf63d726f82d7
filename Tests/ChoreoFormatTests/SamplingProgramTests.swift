import ChoreoFormat
import ChoreoJSON
import ChoreoTestSupport
import Foundation
import Testing

@testable import ChoreoEngine

/// The compiled sampler must give the generic path's values to the last bit, for every kind of
/// animation and timing it compiles, and leave to the generic path only what it says it does.
extension SIMD16 where Scalar == Double {
    fileprivate func bitPatterns(_ width: Int) -> [UInt64] { (0..<width).map { self[$0].bitPattern } }
}

struct SamplingProgramTests {
    /// Layers and actions at 0 run and compiled for their position, transform and opacity.
    static func compiled(layers: [String], actions: [String]) throws -> (
        Timeline, [(layer: Int, property: LayerProperty)], SamplingProgram
    ) {
        let text =
            #"{"layers": [\#(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\#(actions.joined(separator: ","))]}]}"#
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(text.utf8)).scene)
        let properties: [LayerProperty] = [.position, .transform, .opacity]
        let requests = timeline.layers.indices.flatMap { layer in properties.map { (layer: layer, property: $0) } }
        return (timeline, requests, SamplingProgram(timeline: timeline, requests: requests))
    }

    /// A track sampled by the program at `time`, and whether it equals the generic path's value
    /// to the bit.
    static func sampled(
        _ program: SamplingProgram, _ timeline: Timeline, track: Int, layer: Int, property: LayerProperty,
        at time: Double, maps: [TimeMap], cursor: SamplingCursor
    ) -> (lanes: Lanes, same: Bool) {
        var lanes = Lanes()
        guard program.sample(track, at: time, map: maps[layer], cursor: cursor, into: &lanes) else {
            return (lanes, false)
        }
        let expected = timeline.presentationValue(layer: layer, keyPath: KeyPath(property), at: time, map: maps[layer])
        let width = property.kind.laneCount
        return (lanes, expected.lanes.map { lanes.bitPatterns(width) == $0.bitPatterns(width) } ?? false)
    }

    /// SplitMix64: the same scenes on every run.
    typealias Generator = SplitMix64

    /// A key path and a generator of values of its kind, as scene JSON.
    static let targets: [(keyPath: String, value: @Sendable (inout Generator) -> String)] = [
        ("opacity", { "\($0.number(0, 1))" }),
        ("position", { "[\($0.number(-100, 300)), \($0.number(-100, 300))]" }),
        ("position.x", { "\($0.number(-100, 300))" }),
        ("position.y", { "\($0.number(-100, 300))" }),
        ("bounds", { "[0, 0, \($0.number(1, 200)), \($0.number(1, 200))]" }),
        ("bounds.size.width", { "\($0.number(1, 200))" }),
        ("bounds.size", { "[\($0.number(1, 200)), \($0.number(1, 200))]" }),
        ("backgroundColor", { "[\($0.number(0, 1)), \($0.number(0, 1)), \($0.number(0, 1)), \($0.number(0, 1))]" }),
        ("cornerRadius", { "\($0.number(0, 40))" }),
        ("transform.scale", { "\($0.number(0.1, 2))" }),
        ("transform.rotation.z", { "\($0.number(-3, 3))" }),
        ("transform.translation.x", { "\($0.number(-50, 50))" }),
        ("transform", { "{\"scale\": [\($0.number(0.5, 2)), \($0.number(0.5, 2)), 1]}" }),
    ]

    static func timing(_ g: inout Generator) -> String {
        // Half the durations divide the 1/20 s sampling grid, so loops are sampled on their boundaries.
        let duration = g.chance(50) ? g.pick([0.1, 0.2, 0.25, 0.3, 0.5]) : g.number(0.1, 2)
        var fields = ["\"duration\": \(duration)"]
        if g.chance(30) { fields.append("\"beginTime\": \(g.number(0, 1))") }
        if g.chance(25) { fields.append("\"repeatCount\": \(g.pick(["1.5", "2", "3", "\"infinity\""]))") }
        if g.chance(25) { fields.append("\"autoreverses\": true") }
        if g.chance(20) { fields.append("\"speed\": \(g.pick(["0.5", "2", "-1", "-2", "-0.5"]))") }
        if g.chance(15) { fields.append("\"timeOffset\": \(g.number(0, 1))") }
        if g.chance(40) { fields.append("\"fillMode\": \"\(g.pick(["forwards", "backwards", "both"]))\"") }
        if g.chance(30) { fields.append("\"removedOnCompletion\": false") }
        let functions = [
            "\"linear\"", "\"easeIn\"", "\"easeOut\"", "\"easeInEaseOut\"", "[0.3, -0.4, 0.6, 1.5]",
            "[0.2, 2.0, 0.8, 2.0]",
            "{\"steps\": 4, \"position\": \"start\"}", "{\"steps\": 3, \"position\": \"end\"}",
        ]
        if g.chance(60) { fields.append("\"timingFunction\": \(g.pick(functions))") }
        return fields.joined(separator: ", ")
    }

    static func propertyAnimation(_ g: inout Generator) -> String {
        let target = g.pick(targets)
        var fields = ["\"keyPath\": \"\(target.keyPath)\"", timing(&g)]
        if g.chance(25) { fields.append("\"additive\": true") }
        if g.chance(20) { fields.append("\"cumulative\": true") }
        switch g.below(3) {
        case 0:
            fields.insert("\"type\": \"basic\"", at: 0)
            // Any of the six valid from/to/by combinations, or none (the captured value).
            let combination = g.below(7)
            if combination & 1 != 0 { fields.append("\"fromValue\": \(target.value(&g))") }
            if combination & 2 != 0 { fields.append("\"toValue\": \(target.value(&g))") }
            if combination & 4 != 0 { fields.append("\"byValue\": \(target.value(&g))") }
        case 1:
            fields.insert("\"type\": \"keyframe\"", at: 0)
            let count = 2 + g.below(4)
            let values = (0..<count).map { _ in target.value(&g) }
            fields.append("\"values\": [\(values.joined(separator: ", "))]")
            let mode = g.pick(["linear", "discrete", "paced", "cubic", "cubicPaced"])
            fields.append("\"calculationMode\": \"\(mode)\"")
            if mode == "cubic" && g.chance(50) {
                fields.append(
                    "\"tensionValues\": [\((0..<count).map { _ in "\(g.number(-1, 1))" }.joined(separator: ", "))]")
            }
            if (mode == "linear" || mode == "cubic") && g.chance(50) {
                var times = (0..<count).map { _ in g.number(0, 1) }.sorted()
                times[0] = 0
                times[count - 1] = 1
                fields.append("\"keyTimes\": [\(times.map { "\($0)" }.joined(separator: ", "))]")
                // Steps that start with a jump, and overshooting curves, on any segment (the first included).
                let segment = ["\"easeIn\"", "{\"steps\": 4, \"position\": \"start\"}", "[0.2, 2.0, 0.8, 2.0]"]
                fields.append(
                    "\"timingFunctions\": [\((1..<count).map { _ in g.pick(segment) }.joined(separator: ", "))]")
            }
        default:
            fields.insert("\"type\": \"spring\"", at: 0)
            fields.append("\"fromValue\": \(target.value(&g)), \"toValue\": \(target.value(&g))")
            fields.append("\"damping\": \(g.number(2, 30)), \"stiffness\": \(g.number(50, 300))")
            if g.chance(30) { fields.append("\"initialVelocity\": \(g.number(-5, 5))") }
            if g.chance(30) { fields.append("\"allowsOverdamping\": true") }
        }
        return "{\(fields.joined(separator: ", "))}"
    }

    static func scene(seed: UInt64) -> String {
        var g = Generator(seed: seed)
        let layerCount = 3 + g.below(3)
        var layers: [String] = []
        for index in 0..<layerCount {
            var fields = ["\"id\": \"l\(index)\"", "\"position\": [\(g.number(0, 100)), \(g.number(0, 100))]"]
            if g.chance(40) { fields.append("\"transform\": {\"rotate\": \(g.number(-1, 1)), \"scale\": 1.5}") }
            if g.chance(30) { fields.append("\"speed\": \(g.pick(["0.5", "2"]))") }
            layers.append("{\(fields.joined(separator: ", "))}")
        }
        var entries: [String] = []
        var time = 0.0
        var declaredAnimator = false
        var declaredTransition = false
        for _ in 0..<(3 + g.below(4)) {
            var actions: [String] = []
            for _ in 0..<(1 + g.below(4)) {
                let layer = "l\(g.below(layerCount))"
                switch g.below(13) {
                case 10:
                    // A property animator, or a call on one (some calls UIKit refuses: such
                    // scenes fail to run and are counted apart).
                    let id = "a0"
                    if !declaredAnimator || g.chance(20) {
                        declaredAnimator = true
                        let curve = g.pick(["\"linear\"", "\"easeIn\"", "\"easeInOut\""])
                        let target = g.pick(targets.filter { !$0.keyPath.contains(".") })
                        actions.append(
                            "{\"propertyAnimator\": {\"id\": \"\(id)\", \"duration\": \(g.number(0.2, 2)), \"curve\": \(curve), \"start\": \(g.chance(50)), \"changes\": {\"\(layer)\": {\"\(target.keyPath)\": \(target.value(&g))}}}}"
                        )
                    } else {
                        let call = g.pick([
                            "{\"fractionComplete\": \(g.number(0, 1))}", "{\"pauseAnimation\": {}}",
                            "{\"startAnimation\": {}}", "{\"isReversed\": \(g.chance(50))}",
                            "{\"continueAnimation\": {\"timingParameters\": {\"curve\": \"easeOut\"}, \"durationFactor\": 0.5}}",
                        ])
                        actions.append("\(call.dropLast()), \"animator\": \"\(id)\"}")
                    }
                case 11 where !declaredTransition:
                    // An interactive transition whose animations run on the interaction's clock.
                    declaredTransition = true
                    actions.append(
                        "{\"beginTransition\": {\"id\": \"t0\", \"operation\": \"push\", \"from\": \"l0\", \"to\": \"\(layer)\", \"container\": \"l1\", \"duration\": \(g.number(0.2, 2)), \"interactive\": {\"completionCurve\": \"easeInOut\", \"completionSpeed\": \(g.pick(["1", "2"]))}, \"animateTransition\": [{\"animate\": {\"duration\": 1, \"changes\": {\"\(layer)\": {\"opacity\": \(g.number(0, 1))}}}}]}}"
                    )
                case 12 where declaredTransition:
                    let call = g.pick([
                        "{\"updateInteractiveTransition\": \(g.number(0, 1))}", "{\"finishInteractiveTransition\": {}}",
                        "{\"cancelInteractiveTransition\": {}}", "{\"pauseInteractiveTransition\": {}}",
                    ])
                    actions.append("\(call.dropLast()), \"transition\": \"t0\"}")
                case 11, 12:
                    actions.append("{\"mark\": \"m\"}")
                case 0...5:
                    let key = g.chance(50) ? ", \"key\": \"k\(g.below(3))\"" : ""
                    var animation = propertyAnimation(&g)
                    animation.removeLast()
                    actions.append("{\"add\": \(animation)\(key)}, \"layer\": \"\(layer)\"}")
                case 6:
                    let children = (0..<(1 + g.below(3))).map { _ in propertyAnimation(&g) }
                    actions.append(
                        "{\"add\": {\"type\": \"group\", \(timing(&g)), \"animations\": [\(children.joined(separator: ", "))]}, \"layer\": \"\(layer)\"}"
                    )
                case 7:
                    let target = g.pick(targets.filter { !$0.keyPath.contains(".") })
                    actions.append("{\"set\": {\"\(layer)\": {\"\(target.keyPath)\": \(target.value(&g))}}}")
                case 8:
                    actions.append("{\"remove\": \"k\(g.below(3))\", \"layer\": \"\(layer)\"}")
                default:
                    actions.append(
                        "{\"set\": {\"\(layer)\": {\"speed\": \(g.pick(["0", "1", "0.5"])), \"timeOffset\": \(g.number(0, 1))}}}"
                    )
                }
            }
            entries.append("{\"at\": \(time), \"do\": [\(actions.joined(separator: ", "))]}")
            time += g.number(0, 1.5)
        }
        return "{\"layers\": [\(layers.joined(separator: ", "))], \"script\": [\(entries.joined(separator: ", "))]}"
    }

    static let properties: [LayerProperty] = [
        .opacity, .position, .bounds, .backgroundColor, .cornerRadius, .transform, .anchorPoint,
    ]

    @Test func compiledSamplesEqualTheGenericPathToTheLastBit() throws {
        var compiled = 0
        var generic = 0
        var clocked = 0
        var scenes = 0
        var refused = 0
        for seed in 1...160 as ClosedRange<UInt64> {
            let text = Self.scene(seed: seed)
            // A call on an animator or transition the scene never makes, or one UIKit refuses
            // at run time, makes a scene fail: those are counted apart.
            guard let scene = try? SceneDecoder.decode(bytes: Array(text.utf8)).scene,
                let timeline = try? SceneRunner.run(scene, horizon: 20)
            else {
                refused += 1
                continue
            }
            scenes += 1
            var requests: [(layer: Int, property: LayerProperty)] = []
            for layer in timeline.layers.indices {
                for property in Self.properties { requests.append((layer, property)) }
            }
            let program = SamplingProgram(timeline: timeline, requests: requests)
            let cursor = SamplingCursor(for: program)
            // Regular frames, then the instants where things change (hint misses and boundaries).
            var times = stride(from: -0.5, through: 6, by: 1.0 / 60).map { SceneTime.quantize($0) }
            times += (0...120).map { SceneTime.quantize(Double($0) / 20) }
            times += timeline.events.map(\.time) + timeline.animations.flatMap { [$0.addedAt, $0.removedAt] }
            times = times.filter(\.isFinite)
            for time in times {
                let shape = timeline.shape(at: time)
                let maps = timeline.timeMaps(at: time, shape: shape)
                for (track, request) in requests.enumerated() {
                    let expected = timeline.presentationValue(
                        layer: request.layer, keyPath: KeyPath(request.property), at: time, map: maps[request.layer])
                    if case .number(let n) = expected { #expect(!n.isNaN, "seed \(seed): NaN at \(time)") }
                    var lanes = Lanes()
                    if program.sample(track, at: time, map: maps[request.layer], cursor: cursor, into: &lanes) {
                        compiled += 1
                        if timeline.animations.contains(where: {
                            $0.layer == request.layer && $0.clock >= 0 && $0.keyPath?.property == request.property
                                && $0.addedAt <= time && time < $0.removedAt
                        }) {
                            clocked += 1
                        }
                        // Bit patterns: NaN must match NaN, and −0 must stay −0.
                        let width = request.property.kind.laneCount
                        let same = expected.lanes.map { lanes.bitPatterns(width) == $0.bitPatterns(width) } ?? false
                        #expect(
                            same,
                            "seed \(seed), layer \(request.layer), \(request.property) at \(time): \(lanes) ≠ \(expected)"
                        )
                        if !same { return }
                    } else {
                        generic += 1
                    }
                }
            }
        }
        // The scenes must really exercise the compiled path, the generic one for what it keeps,
        // and clocks (animators and interactive transitions).
        #expect(scenes >= 100 && scenes + refused == 160, "\(scenes) scenes ran, \(refused) refused")
        #expect(clocked > 100)
        #expect(compiled > 20 * generic)
        #expect(generic > 0)
    }

    /// Layers animated alike share their curves' values within a frame (the curve cache): the
    /// values stay those of the generic path to the bit, whether two layers' inputs are equal
    /// (the same duration and start) or differ (other durations, later starts, other curves).
    @Test func sharedCurvesGiveTheGenericValues() throws {
        let curves = [#""easeInEaseOut""#, #""easeIn""#, #"[0.3, 0.1, 0.2, 1]"#]
        var layers: [String] = []
        var actions: [String] = []
        for index in 0..<48 {
            layers.append(#"{"id": "l\#(index)", "position": [\#(index), 0]}"#)
            let duration = [1, 1, 2, 0.75][index % 4]
            let curve = curves[index % 3]
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 300, "duration": \#(duration), "timingFunction": \#(curve), "beginTime": \#(Double(index % 5) / 10)}}"#
            )
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "damping": \#(index % 2 == 0 ? 5 : 9), "duration": \#(duration)}}"#
            )
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "duration": \#(duration), "timingFunction": \#(curve)}}"#
            )
        }
        let (timeline, requests, program) = try Self.compiled(layers: layers, actions: actions)
        #expect(program.cachesCurves)
        let cursor = SamplingCursor(for: program)
        var compared = 0
        for frame in 0..<180 {
            let time = SceneTime.quantize(Double(frame) / 60)
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            for (track, request) in requests.enumerated() {
                var lanes = Lanes()
                #expect(program.sample(track, at: time, map: maps[request.layer], cursor: cursor, into: &lanes))
                let expected = timeline.presentationValue(
                    layer: request.layer, keyPath: KeyPath(request.property), at: time, map: maps[request.layer])
                let width = request.property.kind.laneCount
                let same = expected.lanes.map { lanes.bitPatterns(width) == $0.bitPatterns(width) } ?? false
                #expect(same, "layer \(request.layer), \(request.property) at \(time)")
                if !same { return }
                compared += 1
            }
        }
        #expect(compared == 180 * 48 * 3)
    }

    /// Pieces with equal model values share one copy of their lanes, and ops on equal model
    /// transforms one transform base; values that differ only in a zero's sign stay apart, and
    /// every sample is still the generic path's to the bit.
    @Test func equalModelValuesShareTheirLanes() throws {
        var layers: [String] = []
        var actions: [String] = []
        for index in 0..<40 {
            let x = index % 2 == 0 ? "0" : "-0"
            layers.append(#"{"id": "l\#(index)", "position": [\#(x), 5], "opacity": 0.5}"#)
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "basic", "keyPath": "position.y", "fromValue": 0, "toValue": 300, "duration": \#(1 + index % 3)}}"#
            )
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "damping": 5, "duration": 2}}"#
            )
        }
        let (timeline, requests, program) = try Self.compiled(layers: layers, actions: actions)
        // Distinct model values: two positions, (0, 5) and (−0, 5), an opacity and the identity.
        #expect(program.modelLanes.count == 2 + 2 + 1 + 16)
        #expect(program.pieces.count > 100)
        #expect(program.transformBases.count == 1)
        let cursor = SamplingCursor(for: program)
        for time in [0, 0.5, 1.5, 2.5] {
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            for (track, request) in requests.enumerated() {
                let (lanes, same) = Self.sampled(
                    program, timeline, track: track, layer: request.layer, property: request.property, at: time,
                    maps: maps, cursor: cursor)
                #expect(same)
                if request.property == .position {
                    #expect(lanes[0].sign == (request.layer % 2 == 0 ? .plus : .minus))
                }
            }
        }
    }

    /// Keyframe animations with identical inputs, compared bit for bit, share one track in the
    /// timeline and one compiled track; a list that differs in a zero's sign, a key time or a
    /// timing function has its own, and every sample is still the generic path's to the bit.
    @Test func identicalKeyframeListsShareOneTrack() throws {
        let variants = [
            #""values": [0, 1, 0.3, 1], "calculationMode": "cubic""#,
            #""values": [-0, 1, 0.3, 1], "calculationMode": "cubic""#,
            #""values": [0, 1, 0.3, 1], "keyTimes": [0, 0.2, 0.5, 1]"#,
            #""values": [0, 1, 0.3, 1], "timingFunctions": ["easeIn", "easeOut", "linear"]"#,
        ]
        var layers: [String] = []
        var actions: [String] = []
        for index in 0..<40 {
            layers.append(#"{"id": "l\#(index)"}"#)
            actions.append(
                #"{"layer": "l\#(index)", "add": {"type": "keyframe", "keyPath": "opacity", \#(variants[index % 4]), "duration": 2}}"#
            )
        }
        let text =
            #"{"layers": [\#(layers.joined(separator: ","))], "script": [{"at": 0, "do": [\#(actions.joined(separator: ","))]}]}"#
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(text.utf8)).scene)
        var tracks: [ObjectIdentifier] = []
        for leaf in timeline.leaves {
            guard case .keyframes(let track) = leaf.body.curve else {
                Issue.record("not a keyframe leaf")
                return
            }
            tracks.append(ObjectIdentifier(track))
        }
        #expect(Set(tracks).count == 4)
        #expect(tracks[0] == tracks[4] && tracks[1] == tracks[5] && tracks[0] != tracks[1])
        let requests = timeline.layers.indices.map { (layer: $0, property: LayerProperty.opacity) }
        let program = SamplingProgram(timeline: timeline, requests: requests)
        #expect(program.keyframes.count == 4)
        let cursor = SamplingCursor(for: program)
        for time in [0, 0.05, 0.5, 1.2, 1.999] {
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            for (track, request) in requests.enumerated() {
                #expect(
                    Self.sampled(
                        program, timeline, track: track, layer: request.layer, property: .opacity, at: time,
                        maps: maps, cursor: cursor
                    ).same)
            }
        }
    }

    /// A compiled keyframe track keeps its values and tangents in as many lanes as their kind
    /// has (a number one double, a point two, a colour four), not four each, and samples the
    /// generic path's values to the bit.
    @Test func keyframeValuesTakeTheirKindsLanes() throws {
        let animations = [
            #""keyPath": "opacity", "values": [0, 1, 0.3, 1], "calculationMode": "cubic""#,
            #""keyPath": "position", "values": [[0, 0], [10, 5], [3, 8], [10, 10]], "calculationMode": "cubic""#,
            #""keyPath": "backgroundColor", "values": [[0, 0, 0, 1], [1, 0.5, 0, 1], [0, 1, 0, 0.5], [1, 1, 1, 1]]"#,
        ]
        let actions = animations.map { #"{"layer": "l", "add": {"type": "keyframe", \#($0), "duration": 2}}"# }
        let text =
            #"{"layers": [{"id": "l"}], "script": [{"at": 0, "do": [\#(actions.joined(separator: ","))]}]}"#
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: Array(text.utf8)).scene)
        let properties: [LayerProperty] = [.opacity, .position, .backgroundColor]
        let requests = properties.map { (layer: 0, property: $0) }
        let program = SamplingProgram(timeline: timeline, requests: requests)
        #expect(program.keyframes.count == 3)
        #expect((0..<3).map { program.keyframes[$0].laneCount }.sorted() == [1, 2, 4])
        #expect(program.keyValues.count == 4 * (1 + 2 + 4))
        #expect(
            program.outTangents.count == program.keyValues.count && program.inTangents.count == program.keyValues.count)
        let cursor = SamplingCursor(for: program)
        for time in [-0.5, 0, 0.05, 0.5, 0.7, 1.2, 1.999, 2.5] {
            let maps = timeline.timeMaps(at: time, shape: timeline.shape(at: time))
            for (track, property) in properties.enumerated() {
                #expect(
                    Self.sampled(
                        program, timeline, track: track, layer: 0, property: property, at: time, maps: maps,
                        cursor: cursor
                    ).same, "\(property) at \(time)")
            }
        }
    }

    /// Tiles (a track over several frames at once, ``FramePlan/sampleTile(_:cursor:)``) give
    /// what frames sampled one at a time give, to the bit, whether a tile lies in one piece or
    /// crosses boundaries, and whether layer time maps change within it.
    @Test func tilesEqualFramesSampledOneAtATime() throws {
        var scenes = 0
        var compared = 0
        var fromTiles = 0
        for seed in 1...160 as ClosedRange<UInt64> {
            guard let scene = try? SceneDecoder.decode(bytes: Array(Self.scene(seed: seed).utf8)).scene,
                let timeline = try? SceneRunner.run(scene, horizon: 20)
            else { continue }
            scenes += 1
            let members = Self.properties.map { FramePlan.Column.Member.keyPath(KeyPath($0)) }
            let plan = FramePlan(
                timeline: timeline, times: [], selected: timeline.layers.map { _ in true },
                columns: timeline.layers.map { _ in members })
            var times = stride(from: -0.5, through: 6, by: 1.0 / 60).map { SceneTime.quantize($0) }
            times += timeline.events.map(\.time).filter(\.isFinite)
            times = Array(Set(times)).sorted()
            let direct = plan.makeCursor()
            // 7 frames a tile: tiles that start and end anywhere relative to the pieces.
            let tiled = plan.makeCursor(tileFrames: 7)
            for start in stride(from: 0, to: times.count, by: 7) {
                let tile = times[start..<min(start + 7, times.count)]
                plan.sampleTile(tile, cursor: tiled)
                for (frame, time) in tile.enumerated() {
                    var expected = BitCollector()
                    plan.visit(time, cursor: direct, &expected)
                    var actual = BitCollector()
                    plan.visit(tileFrame: frame, cursor: tiled, &actual)
                    let same = actual.bits == expected.bits
                    #expect(same, "seed \(seed): the tile differs at \(time)")
                    if !same { return }
                    compared += 1
                    fromTiles += actual.lanes
                }
            }
        }
        #expect(scenes >= 100)
        #expect(compared > 10_000 && fromTiles > 100_000, "\(compared) frames, \(fromTiles) compiled values")
    }

    /// A render's plan that the program samples whole lets go of the timeline's leaves (about
    /// 10 MB for 10,000 layers) when asked (`RenderService.plan` asks) and writes the same
    /// bytes. Sub-paths, generic pieces and pictures read the timeline, so theirs are kept, and
    /// a plan not asked keeps them (the fuzzer draws pictures from a JSON plan's timeline).
    @Test func aPlanSampledWholeLetsGoOfItsLeaves() throws {
        let plain = """
            {"layers": [{"id": "a"}, {"id": "b"}],
             "script": [{"at": 0, "do": [
               {"add": {"type": "basic", "keyPath": "position", "toValue": [10, 20], "duration": 1}, "layer": "a"},
               {"add": {"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1}, "layer": "b"},
               {"add": {"type": "keyframe", "keyPath": "opacity", "values": [0, 1, 0.5], "duration": 2}, "layer": "b"}]}]}
            """
        let generic = plain.replacingOccurrences(
            of: #"{"type": "basic", "keyPath": "position", "toValue": [10, 20], "duration": 1}"#,
            with: #"{"type": "basic", "keyPath": "transform", "toValue": {"scale": [2, 2, 1]}, "duration": 1}"#)
        func scene(_ text: String) throws -> Scene { try SceneDecoder.decode(bytes: Array(text.utf8)).scene }
        func query(_ configure: (inout SamplingQuery) -> Void = { _ in }) -> SamplingQuery {
            var query = SamplingQuery()
            query.fps = 10
            configure(&query)
            return query
        }

        let whole = try RenderPlan.make(scene: try scene(plain), query: query(), releasingLeaves: true)
        #expect(whole.timeline.leavesReleased && whole.timeline.leaves.isEmpty)
        let kept = try RenderPlan.make(scene: try scene(plain), query: query())
        #expect(!kept.timeline.leavesReleased && kept.timeline.leaves.count == 3)
        #expect(ResponseEncoder.json(whole) == ResponseEncoder.json(kept))
        let ndjson = try RenderPlan.make(
            scene: try scene(plain), query: query { $0.format = .ndjson }, releasingLeaves: true)
        #expect(ndjson.timeline.leavesReleased)

        // Sub-paths are extracted from their whole property's compiled track: the plan needs no
        // leaves, and each value is the timeline's, to the bit.
        let subPaths = query { $0.properties = ["position.x", "opacity"] }
        let extracted = try RenderPlan.make(scene: try scene(plain), query: subPaths, releasingLeaves: true)
        #expect(extracted.timeline.leavesReleased)
        let reference = try SceneRunner.run(try scene(plain))
        guard case .object(let document) = try JSONParser.parse(ResponseEncoder.json(extracted)),
            case .array(let frames)? = document["frames"]
        else { throw CancellationError() }
        var compared = 0
        for case .object(let frame) in frames {
            guard case .number(let time)? = frame["time"], case .object(let layers)? = frame["layers"] else { continue }
            let maps = reference.timeMaps(at: time, shape: reference.shape(at: time))
            for (id, value) in layers.members {
                guard case .object(let columns) = value, case .number(let x)? = columns["position.x"],
                    let index = reference.layerIndex[id]
                else { continue }
                let expected = reference.presentationValue(
                    layer: index, keyPath: KeyPath("position.x")!, at: time, map: maps[index])
                #expect(Value.number(x) == expected, "\(id) at \(time)")
                compared += 1
            }
        }
        #expect(compared > 0)
        let picture = query {
            $0.format = .png
            $0.times = [0.5]
        }
        for (text, query) in [(generic, query()), (plain, picture)] {
            let plan = try RenderPlan.make(scene: try scene(text), query: query, releasingLeaves: true)
            #expect(!plan.timeline.leavesReleased && plan.timeline.leaves.count == 3)
            if query.format == .json {
                let reference = try RenderPlan.make(timeline: try SceneRunner.run(try scene(text)), query: query)
                #expect(ResponseEncoder.json(plan) == ResponseEncoder.json(reference))
            }
        }
    }

    @Test func wholeTransformAnimationsAndPathsStayGeneric() throws {
        let text = """
            {"layers": [{"id": "a"}, {"id": "b"}],
             "script": [{"at": 0, "do": [
               {"add": {"type": "basic", "keyPath": "transform", "toValue": {"scale": [2, 2, 1]}, "duration": 1}, "layer": "a"},
               {"add": {"type": "keyframe", "keyPath": "position", "path": "M0 0 L100 0", "duration": 1}, "layer": "b"},
               {"add": {"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}, "layer": "b"}]}]}
            """
        let (scene, _) = try SceneDecoder.decode(bytes: Array(text.utf8))
        let timeline = try SceneRunner.run(scene)
        let program = SamplingProgram(
            timeline: timeline, requests: [(0, .transform), (1, .position), (1, .opacity)])
        let cursor = SamplingCursor(for: program)
        var lanes = Lanes()
        #expect(!program.sample(0, at: 0.5, map: .identity, cursor: cursor, into: &lanes))
        #expect(!program.sample(1, at: 0.5, map: .identity, cursor: cursor, into: &lanes))
        #expect(program.sample(2, at: 0.5, map: .identity, cursor: cursor, into: &lanes))
        #expect(lanes[0] == 0.5)
        // Before and after the animation the transform track has no ops and compiles.
        #expect(program.sample(0, at: 2, map: .identity, cursor: cursor, into: &lanes))
        #expect(lanes == Value.transform(.identity).lanes)
    }
}

/// Every value a frame hands out, as bit patterns (NaN and −0 compared exactly).
private struct BitCollector: FrameVisitor {
    var bits: [UInt64] = []
    var lanes = 0

    mutating func beginLayer(_ layer: Int) { bits.append(UInt64(layer)) }

    mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ lanes: UnsafePointer<Double>) {
        self.lanes += 1
        bits.append(UInt64(column))
        for lane in 0..<keyPath.property.kind.laneCount { bits.append(lanes[lane].bitPattern) }
    }

    mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value) {
        bits.append(UInt64(column))
        for lane in 0..<keyPath.property.kind.laneCount { bits.append((value.lanes?[lane] ?? 0).bitPattern) }
    }

    mutating func transition(_ column: Int, _ state: TransitionState) {}
    mutating func particles(_ column: Int, _ particles: [Particle]) {}
    mutating func endLayer(_ layer: Int) {}
}

extension SplitMix64 {
    /// A number in `low…high` to three decimals, as a scene would write it.
    mutating func number(_ low: Double, _ high: Double) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return ((low + (high - low) * unit) * 1000).rounded() / 1000
    }

    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
