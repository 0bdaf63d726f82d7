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
        ("overlapping-bounds.m", "overlapping-bounds", ["testView": "box"]),
        ("three-ball-loader.m", "three-ball-loader", ["ball_1": "ball-1", "ball_2": "ball-2", "ball_3": "ball-3"]),
        ("push-animator.swift", "push-animator", [:]),
        ("pan-dismiss.swift", "pan-dismiss", [:]),
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
