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

    /// Strings are read as their bytes say: ASCII runs, raw UTF-8 (two, three and four bytes)
    /// between escapes, and bytes that are not UTF-8 refused where they start.
    @Test func stringsKeepTheirUTF8AndRefuseWhatIsNot() throws {
        let text = #"["plain", "é, 日本, 🦆", "a\"b\nc", "\u00e9é\t😀x", ""]"#
        #expect(
            try JSONParser.parse(text)
                == .array([.string("plain"), .string("é, 日本, 🦆"), .string("a\"b\nc"), .string("éé\t😀x"), .string("")]))
        for bad: [UInt8] in [[0xFF], [0x80], [0xE2, 0x82], [0xC3, 0x28], [0x61, 0xED, 0xA0, 0x80]] {
            let document = Array(#"["ok", "x"#.utf8) + bad + Array(#"y"]"#.utf8)
            do {
                _ = try JSONParser.parse(document)
                Issue.record("\(bad) parsed")
            } catch {
                #expect(error.reason.contains("invalid UTF-8"), "\(bad): \(error)")
                #expect(error.line == 1 && error.column == 9, "\(bad): \(error)")
            }
        }
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

    /// Objects past ``JSONObject/indexedAbove`` members are looked up through an index: every
    /// member is found, order is kept, a late duplicate is found where it is, and members set
    /// and removed afterwards stay consistent.
    /// `take` removes a member and returns it; the others keep their order and lookups, in
    /// small objects and in indexed ones.
    @Test(arguments: [3, 40]) func takingAMemberLeavesTheOthersInOrder(count: Int) throws {
        let keys = (0..<count).map { "k\($0)" }
        var object = JSONObject(keys.enumerated().map { ($1, JSONValue.number(Double($0))) })
        #expect(object.take("k1") == .number(1))
        #expect(object.take("k1") == nil)
        #expect(object.keys == keys.filter { $0 != "k1" })
        #expect(object["k2"] == .number(2) && object["k0"] == .number(0))
    }

    @Test func largeObjectsKeepOrderAndFindDuplicates() throws {
        let members = (0..<40).map { #""k\#($0)": \#($0)"# }
        guard case .object(var object) = try JSONParser.parse("{" + members.joined(separator: ", ") + "}") else {
            Issue.record("not an object")
            return
        }
        #expect(object.keys == (0..<40).map { "k\($0)" })
        #expect((0..<40).allSatisfy { object["k\($0)"] == .number(Double($0)) })
        #expect(object["k40"] == nil)
        object["k3"] = nil
        object["new"] = .bool(true)
        #expect(
            object.count == 40 && object["k39"] == .number(39) && object["new"] == .bool(true) && object["k3"] == nil)
        #expect(object.keys.last == "new" && !object.keys.contains("k3"))
        let duplicated = "{" + members.joined(separator: ", ") + #", "k30": 1}"#
        do {
            _ = try JSONParser.parse(duplicated)
            Issue.record("a duplicate key parsed")
        } catch {
            #expect(error.column == duplicated.count - 8 && error.reason.contains("duplicate key \"k30\""), "\(error)")
        }
        let small = try JSONParser.parse(#"{"a": 1, "b": 2}"#)
        let same = try JSONParser.parse(#"{"a": 1, "b": 2}"#)
        let reordered = try JSONParser.parse(#"{"b": 2, "a": 1}"#)
        #expect(small == same && small != reordered)
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

/// `precision`: values rounded to significant digits, written in their shortest form.
@Suite struct SignificantDigitsTests {
    func written(_ value: Double, _ digits: Int) -> String {
        var writer = JSONWriter()
        writer.significantDigits = digits
        writer.number(value)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func roundsToDigits() {
        #expect(written(0.123456789, 4) == "0.1235")
        #expect(written(-0.123456789, 4) == "-0.1235")
        #expect(written(123456.789, 3) == "123000")
        #expect(written(1.0 / 3.0, 6) == "0.333333")
        #expect(written(2.0 / 3.0, 1) == "0.7")
        #expect(written(9.99999, 3) == "10")
        #expect(written(0.000123456, 2) == "0.00012")
        #expect(written(12.5, 2) == "13")
        #expect(written(375, 2) == "380")
        #expect(written(0, 3) == "0")
        // Decimal rounding: 0.125 is 0.13 to two digits, though its double is just below.
        #expect(written(0.125, 2) == "0.13")
        #expect(written(99.96, 3) == "100")
        #expect(written(0.1 + 0.2, 17) == "0.30000000000000004")
        #expect(written(0.1 + 0.2, 16) == "0.3")
        #expect(written(1.234567e25, 3) == "1.23e+25")
        #expect(written(-1.235567e-25, 3) == "-1.24e-25")
        #expect(written(.infinity, 3) == "null")
    }

    /// Whatever the value, the output has at most the digits asked for.
    @Test func neverMoreDigitsThanAsked() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...15, using: &generator)
            let magnitude = Double.random(in: -300...300, using: &generator)
            let value = Double.random(in: 1...10, using: &generator) * Double("1e\(Int(magnitude))")!
            let text = written(value, digits)
            let mantissa = text.split(separator: "e").first!.filter { $0.isNumber }
            let significant = mantissa.drop { $0 == "0" }
            let trimmed = significant.reversed().drop { $0 == "0" }
            #expect(trimmed.count <= digits, "\(value) at \(digits) digits: \(text)")
            #expect(abs(Double(text)! - value) <= abs(value) * 0.52 * pow10(1 - digits))
        }
    }

    func pow10(_ e: Int) -> Double { Double("1e\(e)")! }
}
