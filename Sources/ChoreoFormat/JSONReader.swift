import ChoreoEngine
import ChoreoJSON

/// Typed, path-aware access to a parsed document that collects every problem it meets.
///
/// Each accessor returns `nil` and records a ``FieldError`` naming the JSON path when the
/// value has the wrong type or range, so one pass reports all errors at once.
struct JSONReader {
    private(set) var errors: [FieldError] = []
    /// Stop collecting after this many, so a hostile document cannot make a huge error list.
    static let maximumErrors = 100

    /// Warnings found while reading (`suspicious-unit`), at the time of the script entry being read.
    private(set) var warnings: [Diagnostic] = []
    /// The `at` of the script entry being read (0 for layers).
    var entryTime = 0.0

    mutating func fail(_ path: String, _ message: String, suggestion: String? = nil) {
        guard errors.count < Self.maximumErrors else { return }
        errors.append(.suggesting(path, message, suggestion))
    }

    /// An unknown name at `path`, with the closest of `candidates` when one is near.
    mutating func failUnknown(
        _ path: String, _ message: String, _ name: String, among candidates: some Sequence<String>
    ) {
        fail(path, message, suggestion: Vocabulary.suggestion(for: name, among: candidates))
    }

    /// A `suspicious-unit` warning: a number that is valid but probably in the wrong unit.
    mutating func warnUnit(_ path: String, _ message: String, fix: String) {
        guard warnings.count < Self.maximumErrors else { return }
        warnings.append(.suspiciousUnit(time: entryTime, path: path, message: message, fix: fix))
    }

    /// A duration or delay in seconds: 60 s or more is probably milliseconds.
    mutating func checkSeconds(_ value: Double, _ path: @autoclosure () -> String) {
        guard value >= 60 else { return }
        let field = path().split(separator: ".").last.map(String.init) ?? "duration"
        warnUnit(
            path(), "\(field) is \(Self.format(value)) s: over a minute, probably meant as milliseconds.",
            fix: "Times are in seconds, as in Core Animation and UIKit: \(Self.format(value)) ms is \(value / 1000).")
    }

    /// A duration or delay: seconds from 0 to the longest scene, warned about from a minute on.
    mutating func seconds(_ value: JSONValue, _ path: @autoclosure () -> String) -> Double? {
        guard let n = number(value, path(), min: 0, max: Limits.maxSceneTime) else { return nil }
        checkSeconds(n, path())
        return n
    }

    /// A rotation in radians: beyond a full turn it was probably meant in degrees.
    mutating func checkRadians(_ angle: Double, _ path: String) {
        guard abs(angle) > 2 * Double.pi + 1e-9 else { return }
        warnUnit(
            path, "rotate is \(Self.format(angle)) radians: more than a full turn, probably meant as degrees.",
            fix: "Angles are in radians, as in Core Animation: \(Self.format(angle))° is \(angle * Double.pi / 180).")
    }

    /// An animated rotation of a whole number of 45 or more: radians, so many turns; surely
    /// degrees (a spinner's 2π or 4π is not whole, and is not warned about).
    mutating func checkDegrees(_ angle: Double, _ path: String) {
        guard abs(angle) >= 45, angle == angle.rounded() else { return }
        warnUnit(
            path,
            "a rotation of \(Self.format(angle)) radians is \(Self.format((abs(angle) / (2 * Double.pi) * 10).rounded() / 10)) turns: probably meant as degrees.",
            fix: "Angles are in radians, as in Core Animation: \(Self.format(angle))° is \(angle * Double.pi / 180).")
    }

    /// Renames UIKit / Core Animation spellings to the format's names, keeping the members'
    /// order; both spellings at once is an error.
    mutating func canonical(_ object: JSONObject, _ path: String, aliases: [String: String]) -> JSONObject {
        guard object.members.contains(where: { Self.alias($0.key, in: aliases) != nil }) else { return object }
        var members: [(String, JSONValue)] = []
        for (key, value) in object.members {
            if let name = Self.alias(key, in: aliases) {
                if object[name] != nil {
                    fail("\(path).\(key)", "is another spelling of \(name), which is given too; give one")
                    continue
                }
                members.append((name, value))
            } else {
                members.append((key, value))
            }
        }
        return JSONObject(members)
    }

    /// The name `key` is another spelling of, if it is one: the few aliases are scanned, lengths
    /// first, rather than every key of every object hashed.
    static func alias(_ key: String, in aliases: [String: String]) -> String? {
        let count = key.utf8.count
        for (alias, name) in aliases where alias.utf8.count == count && alias == key { return name }
        return nil
    }

    /// One of an enumeration's names, in the format's spelling or a Core Animation / Swift one.
    mutating func name(_ value: JSONValue, _ path: @autoclosure () -> String, _ names: Vocabulary.Names) -> String? {
        guard let text = string(value, path()) else { return nil }
        if let resolved = names.resolve(text) { return resolved }
        fail(
            path(), "must be \(names.canonical.joined(separator: ", ")), not \"\(text)\"",
            suggestion: names.suggestion(for: text))
        return nil
    }

    mutating func object(_ value: JSONValue, _ path: @autoclosure () -> String) -> JSONObject? {
        guard case .object(let object) = value else {
            fail(path(), "must be an object, not \(value.typeName)")
            return nil
        }
        return object
    }

    mutating func array(_ value: JSONValue, _ path: @autoclosure () -> String) -> [JSONValue]? {
        guard case .array(let array) = value else {
            fail(path(), "must be an array, not \(value.typeName)")
            return nil
        }
        return array
    }

    /// ``object(_:_:)`` that takes the object out of `value` (left `.null`): a caller that
    /// owned the document alone then owns the object alone, and can let its members go.
    mutating func takeObject(_ value: inout JSONValue, _ path: @autoclosure () -> String) -> JSONObject? {
        guard let object = object(value, path()) else { return nil }
        value = .null
        return object
    }

    /// ``array(_:_:)`` that takes the elements out of `value` (left `.null`), so that each can
    /// be let go once decoded (``Swift/Array/take(_:)``).
    mutating func takeArray(_ value: inout JSONValue, _ path: @autoclosure () -> String) -> [JSONValue]? {
        guard let array = array(value, path()) else { return nil }
        value = .null
        return array
    }

    mutating func string(_ value: JSONValue, _ path: @autoclosure () -> String) -> String? {
        guard case .string(let string) = value else {
            fail(path(), "must be a string, not \(value.typeName)")
            return nil
        }
        return string
    }

    mutating func bool(_ value: JSONValue, _ path: @autoclosure () -> String) -> Bool? {
        guard case .bool(let flag) = value else {
            fail(path(), "must be true or false, not \(value.typeName)")
            return nil
        }
        return flag
    }

    mutating func number(
        _ value: JSONValue, _ path: @autoclosure () -> String, min: Double? = nil, max: Double? = nil,
        exclusiveMin: Bool = false
    ) -> Double? {
        guard case .number(let number) = value else {
            fail(path(), "must be a number, not \(value.typeName)")
            return nil
        }
        guard number.isFinite else {
            fail(path(), "must be a finite number (it is beyond the range of a double)")
            return nil
        }
        if let min, exclusiveMin ? number <= min : number < min {
            fail(
                path(),
                "must be \(exclusiveMin ? "greater than" : "at least") \(Self.format(min)), not \(Self.format(number))")
            return nil
        }
        if let max, number > max {
            fail(path(), "must be at most \(Self.format(max)), not \(Self.format(number))")
            return nil
        }
        return number
    }

    mutating func integer(_ value: JSONValue, _ path: @autoclosure () -> String, min: Int, max: Int) -> Int? {
        guard let number = number(value, path()) else { return nil }
        guard number == number.rounded(), number >= Double(min), number <= Double(max) else {
            fail(path(), "must be a whole number from \(min) to \(max)")
            return nil
        }
        return Int(number)
    }

    mutating func numbers(_ value: JSONValue, _ path: @autoclosure () -> String, count: Int? = nil) -> [Double]? {
        guard let array = array(value, path()) else { return nil }
        if let count, array.count != count {
            fail(path(), "must have \(count) numbers, not \(array.count)")
            return nil
        }
        var result: [Double] = []
        for (index, element) in array.enumerated() {
            guard let number = number(element, "\(path())[\(index)]") else { return nil }
            result.append(number)
        }
        return result
    }

    /// Reports members not in `allowed` as unknown fields (a typo must never pass for a scene),
    /// each with the closest allowed name when one is near.
    mutating func rejectUnknown(_ object: JSONObject, _ path: String, allowed: Set<String>) {
        for key in object.keys where !allowed.contains(key) {
            failUnknown("\(path).\(key)", "unknown field", key, among: allowed.sorted())
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension [JSONValue] {
    /// The element at `index`, left `.null` here: decoded one after another this way, a large
    /// document's parts are freed as they are decoded instead of all at the end (a 10,000-layer
    /// scene's parsed document is about 25 MB). An array shared with another owner is copied
    /// once, and then only the copy lets its elements go.
    mutating func take(_ index: Int) -> JSONValue {
        let element = self[index]
        self[index] = .null
        return element
    }
}
