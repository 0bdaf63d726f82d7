import ChoreoArena
import ChoreoFormat
import ChoreoHTTP
import ChoreoJSON
import ChoreoMonitor
import ChoreoServer
import ChoreoService
import ChoreoStorage
import ChoreoTransport
import Foundation

/// `choreo serve`: the HTTP API until SIGINT or SIGTERM.
enum ServeCommand {
    static func run(_ arguments: [String]) throws(CLIError) {
        let parsed = try Arguments(
            arguments,
            valued: [
                "host", "port", "data", "threads", "token-file", "connection-timeout", "max-body-bytes", "arena",
                "shutdown-timeout", "head-timeout", "min-body-rate", "max-connections-per-client",
                "render-workers", "render-queue", "export-workers", "export-queue", "io-workers", "io-queue",
                "max-body-memory", "max-render-memory",
                "cors-origin", "database", "leader-lease",
            ],
            flags: ["help"])
        if parsed.flags.contains("help") {
            print(Help.serve)
            return
        }
        guard parsed.positional.isEmpty else { throw CLIError(message: "serve takes no positional arguments") }
        let options = try serverOptions(parsed)
        let token = try apiToken(parsed)
        let (store, directory) = try openStorage(parsed)
        let configuration: Application.Configuration
        let arenaConfiguration: ArenaConfiguration?
        do throws(CLIError) {
            configuration = try applicationConfiguration(parsed, token: token, options: options)
            arenaConfiguration = try self.arenaConfiguration(parsed)
        } catch {
            store.close()
            throw error
        }
        try serve(
            store: store, directory: directory, options: options, configuration: configuration,
            arena: arenaConfiguration)
    }

    /// The server's addresses, threads, timeouts and limits (docs/limits.md).
    static func serverOptions(_ parsed: Arguments) throws(CLIError) -> MicroHTTPDServer.Options {
        var options = MicroHTTPDServer.Options()
        options.host = parsed.options["host"] ?? "127.0.0.1"
        if let text = parsed.options["port"] {
            guard let port = UInt16(text) else { throw CLIError(message: "--port must be 0…65535") }
            options.port = port
        }
        // The I/O threads only parse and queue: renders and storage run on workers. One I/O thread
        // per two cores measured the lowest /healthz tail latency (docs/architecture.md).
        options.threads = min(max(1, ProcessInfo.processInfo.activeProcessorCount / 2), 4)
        if let n = try parsed.integer("threads", in: 1...256, "a number of threads") { options.threads = n }
        if let n = try parsed.integer("connection-timeout", in: 1...3600, "seconds") { options.connectionTimeout = n }
        if let n = try parsed.integer("head-timeout", in: 1...3600, "seconds") { options.headTimeout = n }
        if let n = try parsed.integer("min-body-rate", in: 0...(1 << 30), "bytes a second") {
            options.minimumBodyRate = n
        }
        if let n = try parsed.integer("max-connections-per-client", in: 1...100_000, "a number of connections") {
            options.connectionsPerClient = n
        }
        if let n = try parsed.integer("max-body-memory", in: 1024...(1 << 40), "a number of bytes") {
            options.bodyMemory = n
        }
        if let n = try parsed.integer("render-workers", in: 1...256, "a number of threads") {
            options.renderWorkers = n
        }
        if let n = try parsed.integer("render-queue", in: 0...100_000, "a number of requests") {
            options.renderQueue = n
        }
        if let n = try parsed.integer("export-workers", in: 1...256, "a number of threads") {
            options.exportWorkers = n
        }
        if let n = try parsed.integer("export-queue", in: 0...100_000, "a number of requests") {
            options.exportQueue = n
        }
        if let n = try parsed.integer("io-workers", in: 1...1024, "a number of threads") {
            options.ioWorkers = n
        }
        if let n = try parsed.integer("io-queue", in: 0...100_000, "a number of requests") {
            options.ioQueue = n
        }
        if let n = try parsed.integer("shutdown-timeout", in: 0...3600, "seconds") {
            options.shutdownTimeout = Double(n)
        }
        if let n = try parsed.integer("max-body-bytes", in: 1024...(1 << 30), "a number of bytes") {
            options.maxBodyBytes = n
        }
        return options
    }

    /// `CHOREO_API_TOKEN` or `--token-file`, trimmed; an empty one refused.
    static func apiToken(_ parsed: Arguments) throws(CLIError) -> String? {
        // Trimmed as the file's is: a newline pasted into the variable is not part of the token.
        var token = ProcessInfo.processInfo.environment["CHOREO_API_TOKEN"].map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let file = parsed.options["token-file"] {
            guard let data = FileManager.default.contents(atPath: file),
                let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
                !text.isEmpty
            else { throw CLIError(message: "cannot read a token from \(file)", status: 1) }
            token = text
        }
        if let given = token, given.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            // An empty token must not silently turn authentication off.
            throw CLIError(
                message: "CHOREO_API_TOKEN is set but empty: give it a token, or unset it to run without one", status: 1
            )
        }
        return token
    }

    /// SQLite in `--data`, or PostgreSQL at `--database`: the store and the data directory.
    static func openStorage(_ parsed: Arguments) throws(CLIError) -> (any Storage, String) {
        let directory = parsed.options["data"] ?? "./choreo-data"
        let database = parsed.options["database"] ?? ProcessInfo.processInfo.environment["CHOREO_DATABASE_URL"]
        let store: any Storage
        do {
            if let database, !database.isEmpty {
                guard database.hasPrefix("postgres://") || database.hasPrefix("postgresql://") else {
                    throw CLIError(
                        message:
                            "--database must be a PostgreSQL URL such as postgres://choreo@db.example:5432/choreo, not \(database)"
                    )
                }
                var leadership = PostgresStore.Leadership.advisoryLock
                if let seconds = try parsed.integer("leader-lease", in: 5...300, "seconds") {
                    leadership = .lease(seconds: Double(seconds))
                }
                store = try PostgresStore(url: database, leadership: leadership)
            } else {
                guard parsed.options["leader-lease"] == nil else {
                    throw CLIError(message: "--leader-lease needs --database: one server with SQLite always leads")
                }
                store = try SQLiteStore(directory: directory)
            }
        } catch let error as CLIError {
            throw error
        } catch let error as StorageError {
            throw CLIError(message: "storage: \(error.message)", status: 1)
        } catch {
            throw CLIError(message: "storage: \(error)", status: 1)
        }
        return (store, directory)
    }

    /// What the API does with requests: the token, the loopback host check, the body and
    /// render memory limits, CORS, the rendering threads.
    static func applicationConfiguration(
        _ parsed: Arguments, token: String?, options: MicroHTTPDServer.Options
    ) throws(CLIError) -> Application.Configuration {
        var configuration = Application.Configuration(apiToken: token)
        if Self.isLoopback(options.host) { configuration.loopbackHosts = ["localhost", "127.0.0.1", "::1"] }
        configuration.maxBodyBytes = options.maxBodyBytes
        if let n = try parsed.integer("max-render-memory", in: (1 << 20)...(1 << 40), "a number of bytes") {
            configuration.maxRenderMemory = n
        }
        for origin in parsed.repeated["cors-origin"] ?? [] {
            // An origin is scheme://host[:port], as a browser sends it in Origin; or *.
            let valid =
                origin == "*"
                || ((origin.hasPrefix("http://") || origin.hasPrefix("https://"))
                    && !origin.dropFirst(8).contains("/") && !origin.hasSuffix("/"))
            guard valid else {
                throw CLIError(
                    message: "--cors-origin must be * or an origin such as https://dashboard.example, not \(origin)")
            }
            configuration.corsOrigins.append(origin)
        }
        // Leave a core to libmicrohttpd's threads so a render never starves health checks.
        configuration.renderThreads = max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
        return configuration
    }

    /// The arena configuration of `--arena FILE`, if given.
    static func arenaConfiguration(_ parsed: Arguments) throws(CLIError) -> ArenaConfiguration? {
        var arenaConfiguration: ArenaConfiguration?
        if let path = parsed.options["arena"] {
            let bytes = try readInput(path)
            do {
                arenaConfiguration = try ArenaConfigurationCodec.decode(
                    try JSONParser.parse(bytes), knownTimeZone: ArenaRuntime.knownTimeZone)
            } catch let error as ValidationFailure {
                throw CLIError(
                    message: "--arena \(path): " + error.errors.map(\.description).joined(separator: "; "), status: 1)
            } catch {
                throw CLIError(message: "--arena \(path): not JSON: \(error)", status: 1)
            }
        }
        return arenaConfiguration
    }

    /// Starts the arena and the server, logs `listening`, waits for SIGINT or SIGTERM, and
    /// stops them: requests in flight get `--shutdown-timeout` seconds.
    static func serve(
        store: any Storage, directory: String, options: MicroHTTPDServer.Options,
        configuration: Application.Configuration, arena arenaConfiguration: ArenaConfiguration?
    ) throws(CLIError) {
        let token = configuration.apiToken
        let arena: ArenaRuntime
        do {
            arena = try ArenaRuntime(store: store, configuration: arenaConfiguration)
        } catch {
            store.close()
            throw CLIError(message: "storage: \(error.message)", status: 1)
        }
        let application = Application(store: store, configuration: configuration, arena: arena)

        // Block the signals before any thread starts, so that only sigwait receives them.
        let signals = TerminationSignals.block()

        let server = MicroHTTPDServer(application: application, options: options, log: Output.logLine)
        do {
            try server.start()
        } catch {
            store.close()
            throw CLIError(message: error.description, status: 1)
        }
        arena.start()
        var listening: [(String, JSONValue)] = [
            ("host", .string(options.host)), ("port", .number(Double(server.boundPort))),
            ("storage", .string(store.backend)),
        ]
        // The data directory with SQLite, as before; the database (without its password) otherwise.
        listening.append(
            store.coordination == nil ? ("data", .string(directory)) : ("database", .string(store.location)))
        listening.append(("auth", .bool(token != nil)))
        Output.logLine(RequestLog.event("listening", listening))
        let received = TerminationSignals.wait(signals)
        Output.logLine(RequestLog.event("stopping", ["signal": .number(Double(received))]))
        arena.closeStreams()
        let abandoned = server.stop(timeout: options.shutdownTimeout)
        arena.stop()
        if abandoned > 0 {
            // Requests still running at the deadline are abandoned: their clients get no answer,
            // so nothing they wrote was acknowledged, and SQLite rolls back an unfinished
            // transaction on the next open. The store stays open under the running workers.
            Output.logLine(RequestLog.event("stopped", ["abandoned": .number(Double(abandoned))]))
            fflush(nil)
            _exit(0)
        }
        store.close()
        Output.logLine(RequestLog.event("stopped"))
    }

    /// Whether `--host` is a loopback address or name (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ host: String) -> Bool {
        let name = host.lowercased()
        return name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }
}
