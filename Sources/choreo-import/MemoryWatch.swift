import Glibc

/// The import's memory budget, watched from a thread of its own: every millisecond it reads
/// the helper's resident memory that no file backs (`/proc/self/statm`'s resident less shared
/// pages, as `ps` counts RSS, opened before the walls go up) and, past the budget, ends the
/// helper with a line on standard error that names the figure and the stage it was at. The
/// parser and evaluator of any language are covered alike, libclang's preprocessor included (a
/// macro that expands to gigabytes); the address-space limit set with it stops what outruns a
/// millisecond.
enum MemoryWatch {
    /// Checks between the reads.
    static let interval = timespec(tv_sec: 0, tv_nsec: 1_000_000)

    /// What the thread reads: set once, before it starts.
    nonisolated(unsafe) static var statm: Int32 = -1
    nonisolated(unsafe) static var budget = 0
    nonisolated(unsafe) static var pageSize = 4096
    /// The stage the helper is at, as a C string the thread can read at any moment (its
    /// pointer is replaced whole; the strings are never freed).
    nonisolated(unsafe) static var stage: UnsafeMutablePointer<CChar>? = nil

    /// Opens `/proc/self/statm` (before the walls: they hide /proc). Nil when it cannot.
    static func open() -> Bool {
        statm = Glibc.open("/proc/self/statm", O_RDONLY | O_CLOEXEC)
        pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        return statm >= 0
    }

    /// Starts watching for `bytes`.
    static func start(budget bytes: Int) {
        guard statm >= 0 else { return }
        budget = bytes
        var thread = pthread_t()
        _ = pthread_create(&thread, nil, { _ in MemoryWatch.run() }, nil)
    }

    /// Says which stage the helper has reached, for the message of a helper stopped by the watch.
    static func enter(_ name: String) { stage = strdup(name) }

    /// Resident bytes that no file backs, now.
    static func residentAnonymous() -> Int? {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = pread(statm, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let fields = buffer[0..<count].split(separator: UInt8(ascii: " ")).prefix(3).map {
            Int(String(decoding: $0, as: UTF8.self)) ?? 0
        }
        guard fields.count == 3 else { return nil }
        return max(0, fields[1] - fields[2]) * pageSize
    }

    private static func run() -> UnsafeMutableRawPointer? {
        var wait = interval
        while true {
            if let used = residentAnonymous(), used > budget {
                let at = stage.map { " while " + String(cString: $0) } ?? ""
                let line = Array(
                    "memory: the import used more than \(budget >> 20) MiB of memory\(at) and was stopped\n".utf8)
                _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
                _exit(5)
            }
            nanosleep(&wait, nil)
        }
    }
}
