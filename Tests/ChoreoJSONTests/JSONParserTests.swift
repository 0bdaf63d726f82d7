import Testing

@testable import ChoreoJSON

@Suite struct JSONParserTests {
    @Test func parsesAndKeepsMemberOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": [true, null, "x\n\u00e9\ud83d\ude00"], "c": -1.5e2}"#)
        guard case .object(let object) = value else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["c"] == .number(-150))
        #expect(object["a"] == .array([.bool(true), .null, .string("x\né😀")]))
    }

    @Test(arguments: [
        ("{\"a\": }", 1, 7), ("[1,\n 2,\n ]", 3, 2), ("{\"a\":1,\"a\":2}", 1, 8), ("[NaN]", 1, 2), ("[01]", 1, 2),
        ("\"abc", 1, 5), ("[1] x", 1, 5), ("{\"a\" 1}", 1, 6),
    ])
    func reportsLineAndColumn(text: String, line: Int, column: Int) {
        do {
            _ = try JSONParser.parse(text)
            Issue.record("\(text) parsed")
        } catch {
            #expect(error.line == line && error.column == column, "\(text): \(error)")
        }
    }

    @Test func hugeNumbersReadAsInfinity() throws {
        #expect(try JSONParser.parse("[1e999, -1e999]") == .array([.number(.infinity), .number(-.infinity)]))
    }

    @Test func rejectsDeepNesting() {
        let deep = String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect((try? JSONParser.parse(fine)) != nil)
    }

    @Test func writerIsDeterministicAndRoundTrips() throws {
        var writer = JSONWriter()
        writer.value(
            .array([.number(1), .number(-0.0), .number(0.1), .number(1e-7), .number(123456789012), .string("q\"\u{1}")])
        )
        #expect(writer.text == #"[1,0,0.1,1e-07,123456789012,"q\"\u0001"]"#)
        let reparsed = try JSONParser.parse(writer.bytes)
        #expect(
            reparsed
                == .array([
                    .number(1), .number(0), .number(0.1), .number(1e-7), .number(123456789012), .string("q\"\u{1}"),
                ]))
    }
}
