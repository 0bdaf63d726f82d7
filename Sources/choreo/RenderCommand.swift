import ChoreoFormat
import ChoreoRaster
import ChoreoService
import Foundation

/// `choreo render`: the same bytes as `POST /v1/render`.
enum RenderCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments,
            valued: [
                "fps", "start", "end", "times", "time", "layers", "properties", "format", "scale", "width", "height",
                "columns", "precision", "quality", "out", "threads",
            ],
            flags: ["help", "progress"])
        if parsed.flags.contains("help") {
            print(Help.render)
            return
        }
        guard parsed.positional.count == 1 else { throw CLIError(message: "render takes one scene file (or -)") }
        let body = try ImportCommand.sceneDocument(parsed.positional[0])
        var parameters: [(String, String)] = []
        for name in [
            "fps", "start", "end", "times", "time", "layers", "properties", "format", "scale", "width", "height",
            "columns", "precision", "quality",
        ] {
            if let value = parsed.options[name] { parameters.append((name, value)) }
        }
        var threads = RenderService.defaultThreads
        if let text = parsed.options["threads"] {
            guard let n = Int(text), n >= 1 else { throw CLIError(message: "--threads must be a whole number ≥ 1") }
            threads = n
        }
        let plan: RenderPlan
        let format: SamplingQuery.Format
        var picture: PicturePieces?
        do throws(ServiceError) {
            let query = try RenderService.query(parameters)
            // The document and then the scene are let go as soon as they are used.
            let (scene, _) = try RenderService.scene(from: consume body)
            // The heap's free pages go back after the run and after the plan: a large render
            // peaks lower (two calls per process).
            plan = try RenderService.plan(consume scene, query.sampling, releasingFreePages: true)
            format = query.sampling.format
            if format.isPicture { picture = try PictureService.pieces(plan, query) }
        } catch {
            throw CLIError(message: describe(error), status: 1)
        }
        if picture != nil && parsed.options["out"] == nil && isatty(STDOUT_FILENO) != 0 {
            throw CLIError(message: "a picture is binary: give --out FILE, or redirect the output")
        }
        // The response in pieces, as POST /v1/render returns it, then a newline for the shell
        // (NDJSON ends with one already).
        let output =
            try parsed.options["out"].map { path throws(CLIError) in try OutputFile.open(path) } ?? .standardOutput
        var pieces = RenderPieces(plan, format: format, threads: threads, framesPerPiece: 16 * max(threads, 1))
        var progress = RenderProgress(total: pieces.total, forced: parsed.flags.contains("progress"))
        do throws(CLIError) {
            if var picture {
                while let piece = picture.next() {
                    try output.write(piece)
                    progress.update(picture.framesDone)
                }
            } else {
                while let piece = pieces.next() {
                    try output.write(piece)
                    progress.update(pieces.framesDone)
                }
            }
            if format == .json { try output.write([UInt8(ascii: "\n")]) }
            try output.finish()
        } catch {
            output.abandon()
            throw error
        }
        progress.finish()
    }

    static func describe(_ error: ServiceError) -> String {
        var lines = ["error: \(title(error.kind)): \(error.detail)"]
        for field in error.errors { lines.append("  \(field.path): \(field.message)") }
        return lines.joined(separator: "\n")
    }

    /// A short name for the kind of error, as the problem documents title it.
    static func title(_ kind: ServiceError.Kind) -> String {
        switch kind {
        case .malformed: "Malformed JSON"
        case .invalid(.scene), .tooLarge: "Invalid scene"
        case .invalid(.standings): "Invalid standings"
        case .invalid(.configuration): "Invalid arena configuration"
        case .invalid(.request): "Invalid request"
        case .invalid(.maintenanceWindow): "Invalid maintenance window"
        case .invalid(.duration): "Unsupported duration"
        case .notFound: "Not found"
        case .conflict: "Conflict"
        case .preconditionFailed: "Precondition failed"
        case .busy, .unavailable: "Service unavailable"
        case .cancelled: "Cancelled"
        case .internalFailure: "Internal error"
        }
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
