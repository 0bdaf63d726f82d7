import Dispatch
import Foundation

/// Progress of a long `choreo render` on stderr: frames done of the total, the rate and the
/// time left. On a terminal one line is redrawn at most ten times a second, once the render
/// has taken half a second; with `--progress` elsewhere, a line a second and a last one. The
/// clock read here is the command's own, never the engine's.
struct RenderProgress {
    let total: Int
    let terminal: Bool
    let enabled: Bool
    private let start = DispatchTime.now().uptimeNanoseconds
    private var lastShown: UInt64 = 0
    private var shown = false

    init(total: Int, forced: Bool) {
        self.total = total
        terminal = isatty(STDERR_FILENO) == 1
        enabled = forced || terminal
    }

    private var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// After each piece: `done` frames of ``total``.
    mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let interval: UInt64 = terminal ? 100_000_000 : 1_000_000_000
        guard now - start >= (terminal ? 500_000_000 : 0), now - lastShown >= interval else { return }
        lastShown = now
        show(done)
    }

    /// When the response is written.
    mutating func finish() {
        guard enabled, shown || !terminal else { return }
        show(total)
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private mutating func show(_ done: Int) {
        let seconds = max(elapsed, 1e-9)
        let rate = Double(done) / seconds
        var line = "render: \(done)/\(total) frames, \(Self.format(rate)) frames/s"
        if done < total && rate > 0 {
            line += ", \(Self.format(Double(total - done) / rate)) s left"
        } else if done == total {
            line += ", \(Self.format(seconds)) s"
        }
        let text = terminal ? "\r\u{1B}[K\(line)" : "\(line)\n"
        FileHandle.standardError.write(Data(text.utf8))
        shown = true
    }

    private static func format(_ value: Double) -> String {
        value >= 100 ? String(Int(value.rounded())) : String((value * 10).rounded() / 10)
    }
}
