import ChoreoExport
import ChoreoService
import Foundation

/// `choreo export`: a scene (or Swift / Objective-C code) → Lottie, CSS, Web Animations or an
/// HTML page, with its fidelity report.
enum ExportCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments, valued: ["format", "fps", "width", "height", "scale", "out", "report"], flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.export)
            return
        }
        guard parsed.positional.count == 1 else { throw CLIError(message: "export takes one scene file (or -)") }
        let body = try ImportCommand.sceneDocument(parsed.positional[0])
        var parameters: [(String, String)] = []
        for name in ["format", "fps", "width", "height", "scale"] {
            if let value = parsed.options[name] { parameters.append((name, value)) }
        }
        let artifact: ExportArtifact
        do throws(ServiceError) {
            let query = try ExportService.query(parameters)
            let (scene, name) = try RenderService.scene(from: consume body)
            artifact = try ExportService.export(scene, name: name, query)
        } catch {
            throw CLIError(message: RenderCommand.describe(error), status: 1)
        }
        try OutputFile.write(artifact.bytes, to: parsed.options["out"])
        // --report FILE: the fidelity report as JSON beside the artefact.
        if let report = parsed.options["report"] {
            try OutputFile.write(artifact.report.document, to: report)
        }
    }
}
