import ChoreoFormat
import ChoreoHTTP
import Foundation

/// `choreo render`: the same bytes as `POST /v1/render`.
enum RenderCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments, valued: ["fps", "start", "end", "times", "layers", "properties", "format", "out", "threads"],
            flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.render)
            return
        }
        guard parsed.positional.count == 1 else { throw CLIError(message: "render takes one scene file (or -)") }
        let body = try readInput(parsed.positional[0])
        var parameters: [(String, String)] = []
        for name in ["fps", "start", "end", "times", "layers", "properties", "format"] {
            if let value = parsed.options[name] { parameters.append((name, value)) }
        }
        var threads = ResponseEncoder.defaultThreads
        if let text = parsed.options["threads"] {
            guard let n = Int(text), n >= 1 else { throw CLIError(message: "--threads must be a whole number ≥ 1") }
            threads = n
        }
        let response: HTTPResponse
        do throws(Problem) {
            let query = try RenderService.query(parameters)
            let (scene, _) = try RenderService.scene(from: body)
            let plan = try RenderService.plan(scene, query)
            response = RenderService.response(plan, format: query.format, threads: threads)
        } catch {
            throw CLIError(message: describe(error), status: 1)
        }
        var handle = FileHandle.standardOutput
        if let out = parsed.options["out"] {
            guard FileManager.default.createFile(atPath: out, contents: nil),
                let file = FileHandle(forWritingAtPath: out)
            else { throw CLIError(message: "cannot write \(out)", status: 1) }
            handle = file
        }
        switch response.body {
        case .bytes(let bytes): Output.write(bytes, to: handle)
        case .stream(let stream):
            while let piece = stream.next() { Output.write(piece, to: handle) }
        }
        if parsed.options["out"] != nil { try? handle.close() }
    }

    static func describe(_ problem: Problem) -> String {
        var lines = ["error: \(problem.title): \(problem.detail)"]
        for error in problem.errors { lines.append("  \(error.path): \(error.message)") }
        return lines.joined(separator: "\n")
    }
}

/// Reads a file argument, or standard input for "-".
func readInput(_ path: String) throws(CLIError) -> [UInt8] {
    if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
    guard let data = FileManager.default.contents(atPath: path) else {
        throw CLIError(message: "cannot read \(path)", status: 1)
    }
    return Array(data)
}
