import Foundation

/// Debian's `chromium`, headless, against a live server: the page's DOM after its scripts ran,
/// or a screenshot.
public struct Chromium: Sendable {
    public static let binary = "/usr/bin/chromium"
    public static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let scratch = Scratch("choreo-chromium")

    public init() {}

    private func run(_ arguments: [String]) throws -> String {
        let (status, out, err) = try runProgram(
            Self.binary,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
                "--user-data-dir=\(scratch.file("profile"))", "--hide-scrollbars", "--force-device-scale-factor=1",
            ] + arguments)
        guard status == 0 else { throw LiveError("chromium exited \(status): \(err.suffix(2000))") }
        return out
    }

    /// The DOM once the page's scripts have run for up to `budget` ms of virtual time.
    public func dom(_ url: String, budget: Int = 8_000) throws -> String {
        try run(["--virtual-time-budget=\(budget)", "--dump-dom", url])
    }

    /// A PNG screenshot of `url` in a `width` × `height` viewport.
    public func screenshot(_ url: String, width: Int, height: Int, budget: Int = 3_000) throws -> [UInt8] {
        let path = scratch.file("shot-\(UUID().uuidString).png")
        _ = try run([
            "--virtual-time-budget=\(budget)", "--window-size=\(width),\(height)", "--screenshot=\(path)", url,
        ])
        guard let data = FileManager.default.contents(atPath: path) else { throw LiveError("no screenshot") }
        return Array(data)
    }
}
