import Foundation

/// Percent-decodes `text` in place except `%2F`, which stays as it is: decoded, an encoded
/// slash would split a path segment (`/v1/scenes/a%2Fb` routed as `/v1/scenes/a/b`). Query
/// names and values get their slashes back when they are read (``decodedSlashes(_:)``).
func unescapeKeepingSlashes(_ text: UnsafeMutablePointer<CChar>) -> Int {
    let count = strlen(text)
    let bytes = UnsafeMutableRawPointer(text).assumingMemoryBound(to: UInt8.self)
    func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
    var read = 0
    var written = 0
    while read < count {
        if bytes[read] == UInt8(ascii: "%"), read + 2 < count, let high = hex(bytes[read + 1]),
            let low = hex(bytes[read + 2])
        {
            let value = high << 4 | low
            if value != UInt8(ascii: "/") {
                bytes[written] = value
                written += 1
                read += 3
                continue
            }
        }
        bytes[written] = bytes[read]
        written += 1
        read += 1
    }
    bytes[written] = 0
    return written
}

/// A query name or value with the `%2F` the unescape kept as a slash again.
func decodedSlashes(_ text: String) -> String {
    guard text.contains("%2F") || text.contains("%2f") else { return text }
    return text.replacingOccurrences(of: "%2F", with: "/").replacingOccurrences(of: "%2f", with: "/")
}
