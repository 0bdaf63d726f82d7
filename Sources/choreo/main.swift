import ChoreoHTTP
import ChoreoLibraries
import ChoreoService
import ChoreoTransport
import Foundation

/// `choreo`: dispatches to a command; errors become one stderr message and a non-zero exit.
Allocator.configure()
let arguments = Array(CommandLine.arguments.dropFirst())
do throws(CLIError) {
    guard let command = arguments.first else {
        Output.error(Help.main)
        exit(2)
    }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "serve": try ServeCommand.run(rest)
    case "render": try RenderCommand.run(rest)
    case "validate": try ValidateCommand.run(rest)
    case "import": try ImportCommand.run(rest)
    case "export": try ExportCommand.run(rest)
    case "arena-scene": try ArenaSceneCommand.run(rest)
    case "target": try TargetCommand.run(rest)
    case "--help", "-h", "help": print(Help.main)
    case "--version": print(Help.version)
    default: throw CLIError(message: "unknown command \(command) (see choreo --help)")
    }
} catch {
    if arguments.first == "serve" || arguments.first == "target" {
        // A server's stderr is JSON lines, its failures included.
        Output.logLine(RequestLog.event("error", ["message": .string(error.message)]))
    } else {
        Output.error(error.message.hasPrefix("error:") ? error.message : "error: \(error.message)")
    }
    exit(error.status)
}
