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
}
