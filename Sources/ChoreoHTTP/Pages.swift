/// The pages built into the binary: real `.html`, `.js` and `.css` files in `Pages/`, embedded
/// at build time (SwiftPM's `embedInCode`), served same-origin with no CDN and no front-end
/// build step: the player at `/`, the wallboard at `/arena`, their files under `/pages/`.
enum Pages {
    /// A file by its name under `/pages/`, with its media type.
    static func asset(_ name: String) -> (type: String, bytes: [UInt8])? {
        switch name {
        case "player.js": ("text/javascript; charset=utf-8", PackageResources.player_js)
        case "player.css": ("text/css; charset=utf-8", PackageResources.player_css)
        case "wallboard.js": ("text/javascript; charset=utf-8", PackageResources.wallboard_js)
        case "wallboard.css": ("text/css; charset=utf-8", PackageResources.wallboard_css)
        default: nil
        }
    }

    static var player: [UInt8] { PackageResources.player_html }
    static var wallboard: [UInt8] { PackageResources.wallboard_html }

    /// Scripts, styles and images from this origin only (frames arrive as blob: URLs), and
    /// framed by this origin's pages only (no clickjacking).
    static let policy = "default-src 'self'; img-src 'self' blob: data:; frame-ancestors 'self'"

    static func response(_ type: String, _ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                ("Content-Type", type), ("Cache-Control", "no-cache"), ("Content-Security-Policy", policy),
                ("X-Content-Type-Options", "nosniff"),
            ],
            body: .bytes(bytes))
    }
}
