import ChoreoFormat
import ChoreoImport
import ChoreoJSON
import ChoreoService
import ChoreoSwiftImport
import Foundation
import Testing

/// The source articles' code, restored in examples/code/, imports to the same timeline as the
/// hand-written scenes in examples/: every frame at 60 fps, and every event (the hand-written
/// scenes name their blocks, code does not: names are left out of the comparison).
@Suite struct ImportEquivalenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Restored source → the example it must match, and the source's names for the example's
    /// layer ids where the article's code names its views otherwise.
    static let pairs: [(source: String, example: String, ids: [String: String])] = [
        ("watering-button.swift", "watering-button", [:]),
        ("watering-button.m", "watering-button", [:]),
        ("overlapping-bounds.m", "overlapping-bounds", ["testView": "box"]),
        ("three-ball-loader.m", "three-ball-loader", ["ball_1": "ball-1", "ball_2": "ball-2", "ball_3": "ball-3"]),
        ("push-animator.swift", "push-animator", [:]),
        ("pan-dismiss.swift", "pan-dismiss", [:]),
        ("push-animator.m", "push-animator", [:]),
        ("pan-dismiss.m", "pan-dismiss", [:]),
    ]

    static func source(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("examples/code/\(name)")))
    }

    /// Frames at 60 fps and events of a scene document.
    static func timeline(_ document: [UInt8], ids: [String: String] = [:]) throws -> (
        frames: [JSONValue], events: [JSONValue], duration: Double
    ) {
        let (scene, _) = try SceneDecoder.decode(bytes: document)
        var query = SamplingQuery()
        query.fps = 60
        let plan = try RenderPlan.make(scene: scene, query: query)
        guard case .object(let response) = try JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
            case .array(let frames)? = response["frames"], case .array(let events)? = response["events"],
            case .number(let duration)? = response["duration"]
        else { throw ImportTestFailure.unexpected("no frames") }
        return (frames.map { renamed($0, ids) }, events.map { renamed(withoutName($0), ids) }, duration)
    }

    /// The value with every layer id (object keys and string values) renamed.
    static func renamed(_ value: JSONValue, _ ids: [String: String]) -> JSONValue {
        guard !ids.isEmpty else { return value }
        switch value {
        case .string(let s): return .string(ids[s] ?? s)
        case .array(let elements): return .array(elements.map { renamed($0, ids) })
        case .object(let object):
            return .object(JSONObject(object.members.map { (ids[$0.key] ?? $0.key, renamed($0.value, ids)) }))
        default: return value
        }
    }

    static func withoutName(_ event: JSONValue) -> JSONValue {
        guard case .object(let object) = event, object["type"] != .string("marker") else { return event }
        return .object(JSONObject(object.members.filter { $0.key != "name" }.map { ($0.key, $0.value) }))
    }

    static func encoded(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(value)
        return writer.bytes
    }

    /// Through the helper process, as `choreo import` and `POST /v1/import` run it.
    @Test(arguments: pairs.map(\.source))
    func importsToTheHandWrittenTimeline(source: String) throws {
        let pair = Self.pairs.first { $0.source == source }!
        let example = pair.example
        let request = ImportRequest(source: try Self.source(source), language: SourceLanguage(fileName: source)!)
        let result = try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
        #expect(!result.hasErrors, "\(result.diagnostics.map { $0.formatted(file: source) })")
        let scene = try #require(result.scene)
        let imported = try Self.timeline(Self.encoded(scene), ids: pair.ids)
        let written = try Self.timeline(
            Array(try Data(contentsOf: Self.root.appendingPathComponent("examples/\(example).json"))))
        #expect(imported.duration == written.duration)
        #expect(imported.frames.count == written.frames.count)
        for (index, (a, b)) in zip(imported.frames, written.frames).enumerated() where a != b {
            Issue.record("\(source): frame \(index) differs:\n\(a)\n\(b)")
            break
        }
        #expect(imported.events == written.events, "\(source): events differ")
        #expect(!result.sourceMap.isEmpty)
    }

    /// The same source gives the same bytes, in process and through the helper.
    @Test func deterministic() throws {
        let text = String(decoding: try Self.source("watering-button.swift"), as: UTF8.self)
        let first = Importer.run(SwiftFrontEnd.lower(text), options: ImportOptions())
        let second = Importer.run(SwiftFrontEnd.lower(text), options: ImportOptions())
        #expect(Self.encoded(first.json) == Self.encoded(second.json))
        let helper = try ImportService.run(
            ImportRequest(source: Array(text.utf8), language: .swift),
            helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
        #expect(Self.encoded(helper.json) == Self.encoded(first.json))
    }
}

enum ImportTestFailure: Error {
    case unexpected(String)
}

/// The server arena (seed 000) runs from its button's action, `startArena`: six nodes fight in
/// turn and the last is crowned. examples/arena-battle.json is one node's battle written by
/// hand with the arena's states (its colours are the product's, not the article's): the first
/// node's geometry (its transform and opacity through the battle group, the transaction's
/// completion and the defeat block) and its battle animation's events are the same.
@Suite struct ServerArenaImportTests {
    static func frames(_ document: [UInt8], layer: String, until end: Double) throws -> (
        frames: [JSONValue], events: [JSONValue]
    ) {
        let (scene, _) = try SceneDecoder.decode(bytes: document)
        var query = SamplingQuery()
        query.times = (0...Int(end * 60)).map { Double($0) / 60 }
        let plan = try RenderPlan.make(scene: scene, query: query)
        guard case .object(let response) = try JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
            case .array(let frames)? = response["frames"], case .array(let events)? = response["events"]
        else { throw ImportTestFailure.unexpected("no frames") }
        let geometry: [JSONValue] = frames.map { frame in
            guard case .object(let f) = frame, case .object(let layers)? = f["layers"],
                case .object(let values)? = layers[layer]
            else { return .null }
            return .object(
                JSONObject([("transform", values["transform"] ?? .null), ("opacity", values["opacity"] ?? .null)]))
        }
        let battle = events.compactMap { event -> JSONValue? in
            guard case .object(let e) = event, e["layer"] == .string(layer), e["key"] == .string("battleAnimation")
            else {
                return nil
            }
            return .object(JSONObject([("time", e["time"] ?? .null), ("type", e["type"] ?? .null)]))
        }
        return (geometry, battle)
    }

    @Test func theFirstBattleIsTheHandWrittenOne() throws {
        var request = ImportRequest(
            source: try ImportEquivalenceTests.source("server-arena.m"), language: .objc,
            entry: "ViewController.startArena")
        request.name = "server-arena.m"
        let result = try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
        #expect(!result.hasErrors, "\(result.diagnostics.map { $0.formatted(file: "server-arena.m") })")
        let scene = try #require(result.scene)
        // Six nodes, named after the array that holds them, and the confetti emitter.
        guard case .object(let document) = scene, case .array(let layers)? = document["layers"] else {
            throw ImportTestFailure.unexpected("no layers")
        }
        let ids = layers.compactMap { layer -> String? in
            if case .object(let l) = layer, case .string(let id)? = l["id"] { return id }
            return nil
        }
        #expect((0..<6).allSatisfy { ids.contains("nodeViews[\($0)]") })
        #expect(ids.contains("emitter"))
        let imported = try Self.frames(ImportEquivalenceTests.encoded(scene), layer: "nodeViews[0]", until: 1.1)
        let written = try Self.frames(
            Array(
                try Data(contentsOf: ImportEquivalenceTests.root.appendingPathComponent("examples/arena-battle.json"))),
            layer: "web-server-01", until: 1.1)
        #expect(imported.frames.count == written.frames.count)
        for (index, (a, b)) in zip(imported.frames, written.frames).enumerated() where a != b {
            Issue.record("frame \(index) differs:\n\(a)\n\(b)")
            break
        }
        #expect(!imported.events.isEmpty)
        #expect(imported.events == written.events)
    }

    /// The values of `properties` of the layers named (imported name → hand-written name), at
    /// 60 frames a second for `length` seconds from `start`, and their events with times from
    /// `start` — each layer under its hand-written name.
    static func track(
        _ document: [UInt8], start: Double, length: Double, layers: [String: String], properties: [String]
    ) throws -> (frames: [JSONValue], events: [JSONValue]) {
        let (scene, _) = try SceneDecoder.decode(bytes: document)
        var query = SamplingQuery()
        query.times = (0...Int(length * 60)).map { start + Double($0) / 60 }
        let plan = try RenderPlan.make(scene: scene, query: query)
        guard case .object(let response) = try JSONParser.parse(ResponseEncoder.json(plan, threads: 1)),
            case .array(let frames)? = response["frames"], case .array(let events)? = response["events"]
        else { throw ImportTestFailure.unexpected("no frames") }
        let names = layers.sorted { $0.value < $1.value }
        let values: [JSONValue] = frames.map { frame in
            guard case .object(let f) = frame, case .object(let all)? = f["layers"] else { return .null }
            return .object(
                JSONObject(
                    names.flatMap { source, shown -> [(String, JSONValue)] in
                        guard case .object(let layer)? = all[source] else { return [(shown, .null)] }
                        return properties.map { ("\(shown).\($0)", layer[$0] ?? .null) }
                    }))
        }
        let kept = events.compactMap { event -> JSONValue? in
            // The hand-written scene changes colours by state (its colours are the product's),
            // the code by animating them: those are not compared.
            guard case .object(let e) = event, case .string(let layer)? = e["layer"], let shown = layers[layer],
                case .number(let time)? = e["time"], time >= start - 1e-9, e["type"] != .string("stateChanged"),
                e["key"] != .string("borderColor"), e["key"] != .string("backgroundColor")
            else { return nil }
            let relative = ((time - start) * 1e6).rounded() / 1e6
            return .object(
                JSONObject([
                    ("time", .number(relative)), ("type", e["type"] ?? .null), ("layer", .string(shown)),
                    ("key", e["key"] ?? .null),
                ]))
        }
        return (values, kept)
    }

    /// The last node is crowned after its battle and defeat block: its transform and opacity,
    /// the crown's (hidden, dropping on a spring), the bounce's and the confetti's events are
    /// those of examples/code/server-arena-champion.json, written by hand, 6 s later (the sixth
    /// battle; beside the code rather than among the examples, which are all exported and drawn:
    /// its confetti is an emitter, which the exports drop).
    @Test func theChampionIsTheHandWrittenOne() throws {
        var request = ImportRequest(
            source: try ImportEquivalenceTests.source("server-arena.m"), language: .objc,
            entry: "ViewController.startArena")
        request.name = "server-arena.m"
        let result = try ImportService.run(request, helpers: ImportHelpers(path: ImportHelpers.besideExecutable()))
        let scene = try #require(result.scene)
        let properties = ["transform", "opacity", "hidden"]
        let imported = try Self.track(
            ImportEquivalenceTests.encoded(scene), start: 6, length: 3.2,
            layers: ["nodeViews[5]": "node", "crownLabel-6": "crown", "emitter": "confetti"], properties: properties)
        let written = try Self.track(
            Array(
                try Data(
                    contentsOf: ImportEquivalenceTests.root.appendingPathComponent(
                        "examples/code/server-arena-champion.json"))),
            start: 0, length: 3.2, layers: ["gateway-server-01": "node", "crown": "crown", "confetti": "confetti"],
            properties: properties)
        #expect(imported.frames.count == written.frames.count)
        // Equal to 1e-9: the imported battle runs 6 s into the scene, so its local times are
        // the same up to the rounding of 6 + t.
        func near(_ a: JSONValue, _ b: JSONValue) -> Bool {
            switch (a, b) {
            case (.number(let x), .number(let y)): return abs(x - y) <= 1e-9
            case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy { near($0, $1) }
            case (.object(let x), .object(let y)):
                return x.keys == y.keys && x.keys.allSatisfy { near(x[$0]!, y[$0]!) }
            default: return a == b
            }
        }
        for (index, (a, b)) in zip(imported.frames, written.frames).enumerated() where !near(a, b) {
            Issue.record("frame \(index) differs:\n\(a)\n\(b)")
            break
        }
        // The bounce, the crown's animations and the confetti's coming and going.
        let keys = written.events.compactMap { event -> String? in
            if case .object(let e) = event, case .string(let key)? = e["key"] { return key }
            return nil
        }
        #expect(keys.contains("championBounce") && keys.contains("battleAnimation"))
        #expect(
            written.events.contains { event in
                if case .object(let e) = event { return e["type"] == .string("layerAdded") }
                return false
            })
        #expect(imported.events == written.events)
    }
}
