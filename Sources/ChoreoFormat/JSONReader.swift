import ChoreoJSON

/// Typed, path-aware access to a parsed document that collects every problem it meets.
///
/// Each accessor returns `nil` and records a ``FieldError`` naming the JSON path when the
/// value has the wrong type or range, so one pass reports all errors at once.
struct JSONReader {
    private(set) var errors: [FieldError] = []
    /// Stop collecting after this many, so a hostile document cannot make a huge error list.
    static let maximumErrors = 100

    mutating func fail(_ path: String, _ message: String) {
        if errors.count < Self.maximumErrors { errors.append(FieldError(path: path, message: message)) }
    }

    mutating func object(_ value: JSONValue, _ path: String) -> JSONObject? {
        guard case .object(let object) = value else {
            fail(path, "must be an object, not \(value.typeName)")
            return nil
        }
        return object
    }

    mutating func array(_ value: JSONValue, _ path: String) -> [JSONValue]? {
        guard case .array(let array) = value else {
            fail(path, "must be an array, not \(value.typeName)")
            return nil
        }
        return array
    }

    mutating func string(_ value: JSONValue, _ path: String) -> String? {
        guard case .string(let string) = value else {
            fail(path, "must be a string, not \(value.typeName)")
            return nil
        }
        return string
    }

    mutating func bool(_ value: JSONValue, _ path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            fail(path, "must be true or false, not \(value.typeName)")
            return nil
        }
        return flag
    }

    mutating func number(
        _ value: JSONValue, _ path: String, min: Double? = nil, max: Double? = nil, exclusiveMin: Bool = false
    ) -> Double? {
        guard case .number(let number) = value else {
            fail(path, "must be a number, not \(value.typeName)")
            return nil
        }
        guard number.isFinite else {
            fail(path, "must be a finite number (it is beyond the range of a double)")
            return nil
        }
        if let min, exclusiveMin ? number <= min : number < min {
            fail(
                path,
                "must be \(exclusiveMin ? "greater than" : "at least") \(Self.format(min)), not \(Self.format(number))")
            return nil
        }
        if let max, number > max {
            fail(path, "must be at most \(Self.format(max)), not \(Self.format(number))")
            return nil
        }
        return number
    }

    mutating func integer(_ value: JSONValue, _ path: String, min: Int, max: Int) -> Int? {
        guard let number = number(value, path) else { return nil }
        guard number == number.rounded(), number >= Double(min), number <= Double(max) else {
            fail(path, "must be a whole number from \(min) to \(max)")
            return nil
        }
        return Int(number)
    }

    mutating func numbers(_ value: JSONValue, _ path: String, count: Int? = nil) -> [Double]? {
        guard let array = array(value, path) else { return nil }
        if let count, array.count != count {
            fail(path, "must have \(count) numbers, not \(array.count)")
            return nil
        }
        var result: [Double] = []
        for (index, element) in array.enumerated() {
            guard let number = number(element, "\(path)[\(index)]") else { return nil }
            result.append(number)
        }
        return result
    }

    /// Reports members not in `allowed` as unknown fields (a typo must never pass for a scene).
    mutating func rejectUnknown(_ object: JSONObject, _ path: String, allowed: Set<String>) {
        for key in object.keys where !allowed.contains(key) {
            fail("\(path).\(key)", "unknown field")
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
