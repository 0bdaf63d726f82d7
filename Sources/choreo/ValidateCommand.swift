import ChoreoFormat
import ChoreoService
import Foundation

/// `choreo validate`: errors and diagnostics; exit status 1 when the scene has errors.
enum ValidateCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(arguments, valued: [], flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.validate)
            return
        }
        guard parsed.positional.count == 1 else { throw CLIError(message: "validate takes one scene file (or -)") }
        let body = try ImportCommand.sceneDocument(parsed.positional[0])
        let report: ValidationReport
        do throws(ServiceError) {
            report = try RenderService.validation(body)
        } catch {
            throw CLIError(message: RenderCommand.describe(error), status: 1)
        }
        Output.write(ResponseEncoder.validation(report) + [UInt8(ascii: "\n")])
        if !report.valid { throw CLIError(message: "the scene is not valid", status: 1) }
    }
}
