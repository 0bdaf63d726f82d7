import ChoreoHTTP
import ChoreoJSON
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
        let body = try readInput(parsed.positional[0])
        let result: [UInt8]
        do throws(Problem) {
            result = try RenderService.validation(body)
        } catch {
            throw CLIError(message: RenderCommand.describe(error), status: 1)
        }
        Output.write(result + [UInt8(ascii: "\n")])
        if case .object(let object)? = try? JSONParser.parse(result), object["valid"] == .bool(false) {
            throw CLIError(message: "the scene is not valid", status: 1)
        }
    }
}
