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

/// The processes whose parent is `pid` (from `/proc/*/stat`), running or not yet reaped.
public func childProcesses(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry -> Int32? in
        guard let child = Int32(entry),
            let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
            let close = stat.range(of: ")", options: .backwards)
        else { return nil }
        // After the command's closing parenthesis: the state, then the parent's id.
        let fields = stat[close.upperBound...].split(separator: " ")
        return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
    }
}
