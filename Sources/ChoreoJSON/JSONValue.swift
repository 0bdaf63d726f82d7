/// A parsed JSON document that keeps the order of object members.
///
/// choreo reads scenes into this type rather than `JSONSerialization`'s dictionaries so that
/// member order survives (responses and error paths follow the client's order), numbers and
/// booleans stay distinct, and duplicate keys can be rejected.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// A one-word name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

/// A JSON object: its members in document order, with lookup by key.
///
/// The members are one array, searched in order: scene objects have a handful of members, and a
/// dictionary per object cost several times their size (a 10,000-layer scene's parsed document
/// took 77 MB). Objects of more than ``indexedAbove`` members also keep an index by key.
public struct JSONObject: Sendable, Equatable {
    public typealias Member = (key: String, value: JSONValue)

    private var entries: [Member] = []
    private var index: [String: Int]?

    /// Objects with more members than this are looked up through an index.
    static let indexedAbove = 16

    public init() {}

    /// Creates an object from ordered members; a later duplicate replaces the earlier value.
    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// An object of members whose keys are known to differ (the parser checks them), kept as given.
    init(distinct members: [Member]) {
        entries = members
        if entries.count > Self.indexedAbove { buildIndex() }
    }

    private mutating func buildIndex() {
        var built: [String: Int] = [:]
        built.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() { built[entry.key] = position }
        index = built
    }

    /// Where `key` is. A key of another length in UTF-8 bytes is passed over without a String
    /// comparison (which checks canonical equivalence, and showed in decoding): JSON compares
    /// names by their code units, and a key that differs in length never matches.
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        let count = key.utf8.count
        return entries.firstIndex { $0.key.utf8.count == count && $0.key == key }
    }

    public subscript(key: String) -> JSONValue? {
        get { position(of: key).map { entries[$0].value } }
        set {
            let existing = position(of: key)
            switch (existing, newValue) {
            case (let position?, let value?): entries[position].value = value
            case (nil, let value?):
                entries.append((key, value))
                if index != nil {
                    index![key] = entries.count - 1
                } else if entries.count > Self.indexedAbove {
                    buildIndex()
                }
            case (let position?, nil):
                entries.remove(at: position)
                if index != nil { buildIndex() }
            case (nil, nil): break
            }
        }
    }

    /// Removes the member `key` and returns its value: taken from an object it alone owns, the
    /// value is then owned by the caller alone.
    public mutating func take(_ key: String) -> JSONValue? {
        guard let value = self[key] else { return nil }
        self[key] = nil
        return value
    }

    /// The member names in the order the document gave them.
    public var keys: [String] { entries.map(\.key) }

    /// The members in document order.
    public var members: [(key: String, value: JSONValue)] { entries }

    public var count: Int { entries.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}
