import Foundation

/// A size field of `/proc/PID/status` (`VmRSS`, `VmHWM`, `RssAnon`, …) in KiB, or nil when the
/// process or the field is not there. For the live tests' and the benchmark's memory figures.
public func processStatusKiB(_ pid: Int32, _ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
}
