import Foundation

/// A command-line failure: printed to stderr as one line, with a non-zero exit status.
struct CLIError: Error {
    let message: String
    var status: Int32 = 2
}

/// Parsed `--name value` options and positional arguments.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of each valued option, in order (for repeatable ones); `options` keeps the last.
    var repeated: [String: [String]] = [:]
    var flags: Set<String> = []

    /// Parses `arguments`, knowing which options take a value.
    init(_ arguments: [String], valued: Set<String>, flags known: Set<String>) throws(CLIError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument.hasPrefix("--") && argument != "-" {
                var name = String(argument.dropFirst(2))
                var inlineValue: String?
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                if valued.contains(name) {
                    if let inlineValue {
                        options[name] = inlineValue
                    } else {
                        index += 1
                        guard index < arguments.count else { throw CLIError(message: "--\(name) needs a value") }
                        options[name] = arguments[index]
                    }
                    repeated[name, default: []].append(options[name]!)
                } else if known.contains(name) {
                    flags.insert(name)
                } else {
                    throw CLIError(message: "unknown option --\(name) (see --help)")
                }
            } else {
                positional.append(argument)
            }
            index += 1
        }
    }
}

enum Output {
    static func write(_ bytes: [UInt8], to handle: FileHandle = .standardOutput) {
        handle.write(Data(bytes))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// One JSON log line to stderr in one write(2): lines from concurrent requests never interleave.
    @Sendable static func logLine(_ line: [UInt8]) {
        line.withUnsafeBytes { _ = Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}

extension Arguments {
    /// A whole-number option within `range`, if given; a clear error otherwise.
    func integer(_ name: String, in range: ClosedRange<Int>, _ meaning: String) throws(CLIError) -> Int? {
        guard let text = options[name] else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw CLIError(message: "--\(name) must be \(meaning), \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }
}

/// SIGINT and SIGTERM, delivered to `sigwait` alone.
enum TerminationSignals {
    /// Blocks both signals in this thread (and every thread started afterwards).
    static func block() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        return signals
    }

    /// Waits for one of them and returns it.
    static func wait(_ signals: sigset_t) -> Int32 {
        var set = signals
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }
}
