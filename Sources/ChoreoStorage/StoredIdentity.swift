import Foundation

/// Identifiers and timestamps of stored records, the same in every backend.
enum StoredIdentity {
    /// `scn_` and 24 random hex digits.
    static func sceneID() -> String { "scn_" + randomHex() }

    /// `ses_` and 24 random hex digits.
    static func sessionID() -> String { "ses_" + randomHex() }

    private static func randomHex() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<12).map { _ in
            let text = String(UInt8.random(in: 0...255, using: &generator), radix: 16)
            return text.count == 2 ? text : "0" + text
        }.joined()
    }

    /// RFC 3339 UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
