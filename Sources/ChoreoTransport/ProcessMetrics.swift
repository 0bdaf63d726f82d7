import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's own figures for `/metrics`, as Prometheus's client libraries name them
/// (`process_*`), and `choreo_build_info`: what a dashboard shows beside choreo's own.
public enum ProcessMetrics {
    /// choreo's version, as `choreo --version` prints it.
    public static let version = "0.1.0"

    /// When this process started serving, Unix seconds (read by ``markStart()`` when the
    /// application is made).
    static let started: Double = {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }()

    /// Reads the start time now (the application calls it when it is made).
    package static func markStart() { _ = started }

    /// The exposition text.
    package static func render() -> String {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        var lines = [
            "# HELP choreo_build_info choreo's version (always 1).", "# TYPE choreo_build_info gauge",
            "choreo_build_info{version=\"\(version)\"} 1",
            "# HELP process_cpu_seconds_total User and system CPU time spent, seconds.",
            "# TYPE process_cpu_seconds_total counter", "process_cpu_seconds_total \(cpu)",
            "# HELP process_start_time_seconds When the process started, Unix seconds.",
            "# TYPE process_start_time_seconds gauge", "process_start_time_seconds \(started)",
        ]
        if let resident = residentBytes() {
            lines += [
                "# HELP process_resident_memory_bytes Resident memory, bytes.",
                "# TYPE process_resident_memory_bytes gauge", "process_resident_memory_bytes \(resident)",
            ]
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            lines += [
                "# HELP process_max_fds The most file descriptors the process may open.",
                "# TYPE process_max_fds gauge", "process_max_fds \(limit.rlim_cur)",
            ]
        }
        if let open = openFileDescriptors() {
            lines += [
                "# HELP process_open_fds Open file descriptors.", "# TYPE process_open_fds gauge",
                "process_open_fds \(open)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Resident pages from `/proc/self/statm`, in bytes.
    package static func residentBytes() -> Int? {
        guard let file = fopen("/proc/self/statm", "r") else { return nil }
        defer { fclose(file) }
        var size = 0
        var resident = 0
        guard fscanf_pair(file, &size, &resident) else { return nil }
        return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Reads two numbers from a file (`fscanf` is variadic, which Swift cannot call).
    private static func fscanf_pair(_ file: UnsafeMutablePointer<FILE>, _ a: inout Int, _ b: inout Int) -> Bool {
        var buffer = [CChar](repeating: 0, count: 128)
        guard fgets(&buffer, 128, file) != nil else { return false }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard fields.count >= 2 else { return false }
        a = fields[0]
        b = fields[1]
        return true
    }

    /// The entries of `/proc/self/fd`, less the one the count opens.
    package static func openFileDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { count += 1 }
        }
        return max(0, count - 1)
    }
}
