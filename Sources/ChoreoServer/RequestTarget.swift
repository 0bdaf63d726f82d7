import ChoreoHTTP
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

/// Query parameters a request may carry. libmicrohttpd keeps each in its connection's memory
/// pool (`Options.connectionMemoryLimit`): about a thousand exhaust it, and it then cannot even
/// send its own error, so the client would wait for the head deadline. A request with more has
/// its query cut off before libmicrohttpd parses it (``cutOverlongQuery(_:)``) and is answered
/// 400 (``overlongQueryAnswer()``).
let maxQueryParameters = 256

/// Cuts the query off a request target with more than ``maxQueryParameters`` parameters, in
/// place: libmicrohttpd's URI log callback sees the target, NUL-terminated, before it parses the
/// query. True when it did.
func cutOverlongQuery(_ target: UnsafeMutablePointer<CChar>) -> Bool {
    guard let mark = strchr(target, Int32(UInt8(ascii: "?"))) else { return false }
    var count = 1
    var cursor = mark + 1
    while cursor.pointee != 0 {
        if cursor.pointee == CChar(UInt8(ascii: "&")) { count += 1 }
        cursor += 1
    }
    guard count > maxQueryParameters else { return false }
    (mark + 1).pointee = 0
    return true
}

/// The request context the URI log callback returns for a request whose query it cut off (the
/// first access-handler call finds it in place of a request's state).
let overlongQueryMark = UInt(1)

/// The answer to a request whose query was cut off.
func overlongQueryAnswer() -> HTTPResponse {
    Problem.overlongQuery(maxParameters: maxQueryParameters).response
}

/// The request target before libmicrohttpd parses its query: one with too many parameters is
/// cut off there (``cutOverlongQuery(_:)``) and its request marked.
let uriLogged:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        _, target, _ in
        guard let target, cutOverlongQuery(UnsafeMutablePointer(mutating: target)) else { return nil }
        return UnsafeMutableRawPointer(bitPattern: overlongQueryMark)
    }
