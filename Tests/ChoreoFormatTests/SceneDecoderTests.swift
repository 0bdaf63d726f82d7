import ChoreoEngine
import ChoreoJSON
import Foundation
import Testing

@testable import ChoreoFormat

@Suite struct SceneDecoderTests {
    static func errors(_ text: String) -> [String] {
        do {
            _ = try SceneDecoder.decode(bytes: Array(text.utf8))
            return []
        } catch {
            if case .invalid(let failure) = error { return failure.errors.map(\.path) }
            return ["malformed"]
        }
    }

    /// The decoder takes layers and actions out of the document one at a time, so a large
    /// document is freed as it is decoded: a taken element is left `null`, and a document the
    /// caller still holds decodes to the same scene and stays whole.
    @Test func theDocumentIsTakenApartAsItIsDecoded() throws {
        var elements: [JSONValue] = [.string("a"), .number(1)]
        #expect(elements.take(0) == .string("a"))
        #expect(elements == [.null, .number(1)])

        let text =
            ##"{"layers":[{"id":"a"},{"id":"b"}],"script":[{"at":0,"do":[{"layer":"a","add":{"type":"basic","keyPath":"opacity","toValue":0,"key":"f"}},{"after":1,"do":[{"layer":"b","add":{"type":"basic","keyPath":"opacity","toValue":0}}]}]}]}"##
        let document = try JSONParser.parse(text)
        let copy = document
        let fromDocument = try SceneDecoder.decode(document).scene
        let fromBytes = try SceneDecoder.decode(bytes: Array(text.utf8)).scene
        #expect(fromDocument == fromBytes)
        #expect(fromDocument.layers.map(\.id) == ["a", "b"] && fromDocument.script[0].actions.count == 2)
        let reparsed = try JSONParser.parse(text)
        #expect(document == copy && document == reparsed)
    }

    @Test func valuesInEveryForm() throws {
        let (scene, name) = try SceneDecoder.decode(
            bytes: Array(
                ##"{"name":"n","layers":[{"id":"a","frame":[10,20,100,50],"backgroundColor":"#FF000080","borderColor":[0,1,0,1],"transform":{"scale":2,"rotate":0.5,"translate":[5,6]},"sublayers":[{"id":"s","type":"shape","path":"M 0 0 L 10 10","strokeEnd":0.5}]}]}"##
                    .utf8))
        #expect(name == "n")
        let layer = scene.layers[0]
        #expect(layer.values[.position] == .point(Point(60, 45)))
        #expect(layer.values[.bounds] == .rect(Rect(x: 0, y: 0, width: 100, height: 50)))
        #expect(layer.values[.backgroundColor] == .color(Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)))
        guard case .transform(let m)? = layer.values[.transform] else {
            Issue.record("no transform")
            return
        }
        #expect(m.m41 == 5 && m.m42 == 6)
        #expect(abs(m.m11 - 2 * cos(0.5)) < 1e-12)
        #expect(layer.sublayers[0].values[.strokeEnd] == .number(0.5))
    }

    @Test func errorsNameTheirPaths() {
        #expect(Self.errors(#"{"layers":[{"id":"a","opacty":1}]}"#) == ["$.layers[0].opacty"])
        #expect(Self.errors(#"{"layers":[{"id":"a"},{"id":"a"}]}"#) == ["$.layers[1].id"])
        #expect(Self.errors(#"{"layers":[{"id":"a","opacity":"1"}]}"#) == ["$.layers[0].opacity"])
        #expect(Self.errors(#"{"layers":[{"id":"a","path":"M 0 0"}]}"#) == ["$.layers[0].path"])
        #expect(Self.errors(#"{"layers":[]}"#) == [])
        #expect(Self.errors(#"{"layers":[],"script":[{"at":-1,"do":[]}]}"#) == ["$.script[0].at"])
        #expect(
            Self.errors(
                #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"transform.scale","duration":-1,"fromValue":[1,2]},"layer":"a"}]}]}"#
            ) == ["$.script[0].do[0].add.fromValue", "$.script[0].do[0].add.duration"])
        #expect(
            Self.errors(
                #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"bounds.size.depth"},"layer":"a"}]}]}"#
            )
                == ["$.script[0].do[0].add.keyPath"])
        #expect(
            Self.errors(#"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"removeAll":"ghost"}]}]}"#)
                == ["$.script[0].do[0].removeAll"])
        #expect(
            Self.errors(
                #"{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"keyframe","keyPath":"opacity","values":[0,1],"keyTimes":[0,0.5,1]},"layer":"a"}]}]}"#
            ) == ["$.script[0].do[0].add.keyTimes"])
        #expect(Self.errors(#"{"layers":[{"id":"a","speed":1e400}]}"#) == ["$.layers[0].speed"])
        #expect(Self.errors(#"{"layers":[{"id":"a","position":[1,-1e999]}]}"#) == ["$.layers[0].position[1]"])
        #expect(Self.errors(#"{"layers":[{"id":"a","transform":{"scale":1e999}}]}"#) == ["$.layers[0].transform.scale"])
    }

    /// A scene's name may not hold control characters: a NUL would cut it in storage.
    @Test func namesWithControlCharactersAreRefused() {
        #expect(Self.errors(#"{"name": "a\u0000b", "layers": []}"#) == ["$.name"])
        #expect(Self.errors(#"{"name": "line\nbreak", "layers": []}"#) == ["$.name"])
        #expect(Self.errors(#"{"name": "émoji 👑", "layers": []}"#).isEmpty)
    }

    @Test func samplingQueryLimits() {
        #expect(throws: ValidationFailure.self) { try SamplingQuery.parse([("fps", "0")]) }
        #expect(throws: ValidationFailure.self) { try SamplingQuery.parse([("bogus", "1")]) }
        #expect(throws: ValidationFailure.self) { try SamplingQuery.parse([("times", "1,x")]) }
        #expect(throws: ValidationFailure.self) { try SamplingQuery.parse([("start", "2"), ("end", "1")]) }
        #expect(throws: ValidationFailure.self) { try SamplingQuery.parse([("properties", "opacity,nope")]) }
        let query = try? SamplingQuery.parse([("times", "0.5, 1"), ("properties", "transform.rotation.z")])
        #expect(query?.times == [0.5, 1])
    }

    @Test func propertyFilterReadsSubPaths() throws {
        let (scene, _) = try SceneDecoder.decode(
            bytes: Array(
                #"{"layers":[{"id":"a","transform":{"rotate":0.25}},{"id":"b"}],"script":[]}"#.utf8))
        let query = try SamplingQuery.parse([
            ("times", "0"), ("layers", "a"), ("properties", "transform.rotation.z,opacity"),
        ])
        let text = String(
            decoding: ResponseEncoder.json(try RenderPlan.make(scene: scene, query: query)), as: UTF8.self)
        #expect(text.contains(#"{"a":{"transform.rotation.z":0.25"#))
        #expect(text.contains(#","opacity":1}}"#))
        #expect(!text.contains("\"b\""))
    }
}
