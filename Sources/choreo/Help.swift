import ChoreoHTTP
import ChoreoService
import ChoreoTransport

enum Help {
    static let version = "choreo \(ProcessMetrics.version)"

    static let main = """
        choreo — Core Animation's timing model on a server, deterministically.

        Usage: choreo COMMAND [OPTIONS]

        Commands:
          serve      Run the HTTP API (libmicrohttpd, SQLite storage).
          render     Sample a scene and print exactly what POST /v1/render returns.
          validate   Print a scene's errors and diagnostics; exit 1 if it has errors.
          import     Read Swift or Objective-C animation code and print the scene it makes.
          export     Write a scene as Lottie, CSS, Web Animations or an HTML page.
          arena-scene  Print the arena round's scene for given standings (no probing).
          target     Run a tiny health endpoint to probe (for demos and tests).

        Options:
          --help     Show help (also: choreo COMMAND --help).
          --version  Show the version.

        Exit status: 0 success; 1 invalid input (a scene or query with errors) or an I/O
        failure (a file that cannot be read or written, storage that cannot be opened);
        2 a usage error (an unknown command or option, a missing argument).
        """

    static let serve = """
        Usage: choreo serve [--host 127.0.0.1] [--port 8080] [--data ./choreo-data] [--threads N]
                            [--token-file FILE] [--connection-timeout 15] [--max-body-bytes 8388608]
                            [--arena arena.json] [--shutdown-timeout 30] [--head-timeout 10]
                            [--min-body-rate 1024] [--max-connections-per-client 256]
                            [--render-workers N] [--render-queue 64] [--export-workers 1] [--export-queue 8]
                            [--io-workers 16] [--io-queue 1024] [--max-body-memory 268435456]
                            [--max-render-memory 1073741824] [--cors-origin ORIGIN ...]
                            [--database postgres://user@host:5432/db] [--leader-lease SECONDS]

        Serves the choreo HTTP API. Binds 127.0.0.1 unless told otherwise. --threads sets the
        libmicrohttpd I/O threads (default: one per two cores, at most 4); renders run on workers. The data directory
        (created if missing) holds the SQLite file choreo.sqlite.

        --database (or CHOREO_DATABASE_URL) stores everything in PostgreSQL instead, shared by
        any number of identical replicas behind a load balancer: one of them (the leader, chosen
        through PostgreSQL) probes the arena's nodes and runs its rounds; every one serves
        everything (docs/scale-out.md). --data is then unused. The leader holds an advisory lock;
        --leader-lease (5-300 s) makes it a lease row instead, for PostgreSQL-compatible databases
        without advisory locks (a killed leader is then replaced when its lease expires).

        The arena probes the nodes of --arena (stored, and used again on the next start without
        the option; PUT /v1/arena/config changes it at run time): GET /v1/arena, POST
        /v1/arena/rounds, GET /v1/arena/events.

        With CHOREO_API_TOKEN set (or --token-file), requests that change state (POST, PUT,
        DELETE other than /v1/render, /v1/validate and /v1/arena/preview) need "Authorization: Bearer <token>".
        SIGINT and SIGTERM stop it gracefully: no new connections, running requests get
        --shutdown-timeout seconds to finish, then the process exits 0 without those still
        running (their clients get no answer, so nothing they sent was acknowledged). Every stderr line is one JSON object: one per
        request, the lifecycle events, libmicrohttpd's own messages, and a failure to start.
        A connection has --head-timeout seconds to send a whole request head (from its opening
        or its previous response); a body must then average --min-body-rate bytes a second
        after that many seconds; one client address holds at most --max-connections-per-client
        connections. Slower clients are disconnected (docs/limits.md). Requests that run a
        scene (render, validate, store, frames, preview) run on --render-workers threads
        (default: the cores, at least 2) with at most --render-queue waiting; beyond, 503 with
        Retry-After. Exports (Lottie, CSS, Web Animations, HTML) run apart from them, on
        --export-workers threads (default 1) with at most --export-queue (8) waiting; beyond,
        503 with Retry-After: however many exports run, renders keep their threads. The other
        requests (storage, sessions, the arena) run on --io-workers
        threads of their own, as they mostly wait for the database, with at most --io-queue
        waiting; beyond, 503 with Retry-After. Request bodies in flight hold at most --max-body-memory bytes together
        (announced lengths count at once); beyond, 503 with Retry-After. Renders in flight hold
        at most --max-render-memory bytes together (each reserves its scene's estimated run and
        its response's size before it starts, and what it takes beyond); beyond, 503 with
        Retry-After.
        --cors-origin lets pages of that origin (repeatable; * for any) call the API from a
        browser (CORS); off by default. The player (/) and wallboard (/arena) need none.
        --host takes an IPv4 or IPv6 address or a host name (localhost).

        Exit status: 0 after a signal; 1 it cannot start (storage, address, --arena); 2 a
        usage error.
        """

    static let render = """
        Usage: choreo render SCENE.json|- [--fps N] [--start S] [--end E] [--times a,b,c] [--time T]
                             [--layers id,...] [--properties keyPath,...]
                             [--format json|ndjson|png|apng|filmstrip|webp|webm] [--scale K]
                             [--width W] [--height H] [--columns N] [--quality Q]
                             [--precision DIGITS] [--out FILE] [--progress]
                             [--threads N]

        Runs the scene and prints the sampled frames, events and diagnostics: byte for byte
        what POST /v1/render returns for the same scene and query, and a final newline after
        a JSON document. "-" reads standard input. Sampling at --fps includes the end time.
        --precision (1-17) rounds the sampled values to that many significant digits (times
        stay exact); without it they are exact, in their shortest round-trip form.

        Pictures (docs/pictures.md): --format png draws one frame (--time T), apng an animated
        PNG (30 fps unless --fps), filmstrip the frames in a grid of --columns (4 fps unless
        --fps), webp an animated WebP (lossless, or lossy at --quality 0-100), webm a VP9 video
        (with alpha on a transparent canvas; --quality 0-100, default 75); --scale is pixels per point, --width and --height the canvas in points. A
        picture is not written to a terminal: give --out or redirect the output.

        --out FILE writes the file instead: a new or regular file is replaced whole when the
        render is complete (its mode and owner kept); a device, FIFO or symbolic link is
        written in place, as the shell's > does. --progress shows frames done, the rate and
        the time left on stderr (shown anyway when stderr is a terminal and the render is
        long).

        Exit status: 0 success; 1 the scene or query is invalid, or a file cannot be read or
        written; 2 a usage error.
        """

    static let importCode = """
        Usage: choreo import FILE.swift|FILE.m|- [MORE FILES…] [--language swift|objc] [--entry NAME]
                             [--reduce-motion] [--screen WxH] [--tap TITLE@SECONDS]… [--out FILE]

        Reads UIKit / Core Animation code, or a SwiftUI view, and prints the scene it makes, as
        stable, indented JSON (docs/import.md). Nothing is executed: the code is evaluated on a virtual clock.
        The language comes from the file's extension, or --language (needed for -).
        --entry runs Type.method (a button action, say) instead of the default entry point
        (top-level code, else the view controller's viewDidLoad then viewDidAppear(_:)).
        --reduce-motion makes UIAccessibility.isReduceMotionEnabled true.
        --screen 390x844 is the screen, in points, that code written in a view controller draws
        on (the scene's canvas, UIScreen.main.bounds); 375x667 unless given.
        A SwiftUI view (struct V: View, its @State, body, Button and onTapGesture actions,
        onAppear) becomes a swiftui scene; --tap "Toggle"@1.5 taps the button titled Toggle (or
        the view with that id) at 1.5 s, repeatable; without, each is tapped once, 1 s apart.
        --entry names the view when a file has several.
        MORE FILES are read with FILE: the rest of its Swift module, or Objective-C files; an
        Objective-C file's #import "X.h" headers (and X.m beside them) are found beside it.
        A method that draws into a layer it is given (a loader's setUpAnimation(in:size:color:))
        runs as the entry point when there is no other, with a 120-point host view.

        Diagnostics go to stderr as FILE:LINE:COLUMN: error|warning|note: message.
        Exit status: 0 with a scene; 1 when nothing could be imported (a syntax error, a limit).
        `choreo render` and `choreo validate` take .swift and .m files too, importing first.
        """

    static let export = """
        Usage: choreo export SCENE.json|FILE.swift|FILE.m|- --format lottie|dotlottie|css|waapi|html
                             [--fps 60] [--width W] [--height H] [--scale 1] [--out FILE]
                             [--report FILE]

        Writes what POST /v1/export returns (docs/export.md): the scene's run sampled by the
        engine at --fps into keyframes, as a Lottie file (frame n is scene time n / fps) or its
        dotLottie container (.lottie: a ZIP of manifest.json and the animation), a CSS
        stylesheet, Web Animations JSON, or a self-contained HTML page whose #stage is the
        canvas. Each carries its fidelity report (a "choreo" or "report" member, or a comment
        block); --report FILE writes it as JSON too.
        """

    static let validate = """
        Usage: choreo validate SCENE.json|-

        Prints {"valid", "errors", "diagnostics", ...} as POST /v1/validate does, and exits 1
        when the scene has errors (2 on a usage error).
        """

    static let arenaScene = """
        Usage: choreo arena-scene STANDINGS.json|-

        Prints the scene of an arena round for the standings, as POST /v1/arena/preview does:
        [{"name", "ip", "status": up|degraded|down|pending, "latencyMs"}, ...], or
        {"standings": [...], "round": {"stagger": 1.2, "reduceMotion": false}}. Render it with
        choreo render.
        """

    static let target = """
        Usage: choreo target --port N [--host 127.0.0.1] [--latency 20ms] [--status 200]
                             [--fail-every K] [--load 0.4]

        Serves GET /health: {"status": "ok", "load": L} after the latency, with the status;
        every K-th request answers 503 with --fail-every. POST /control changes the settings at
        run time (JSON: latencyMs, status, failEvery, load, bodyStatus, padBytes, redirect,
        hang); GET /control reads them. --port 0 picks a free port, printed on stderr.
        """
}
