import ChoreoJSON
import ChoreoMonitor
import ChoreoService
import Foundation

/// `choreo arena-scene`: the round's scene for given standings, as `POST /v1/arena/preview`.
enum ArenaSceneCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(arguments, valued: [], flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.arenaScene)
            return
        }
        guard parsed.positional.count == 1 else {
            throw CLIError(message: "arena-scene takes one standings file (or -)")
        }
        let body = try readInput(parsed.positional[0])
        do throws(ServiceError) {
            var writer = JSONWriter()
            writer.value(try ArenaService.preview(body))
            Output.write(writer.bytes + [UInt8(ascii: "\n")])
        } catch {
            throw CLIError(message: RenderCommand.describe(error), status: 1)
        }
    }
}
