// swift-tools-version:6.0
import Foundation
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .unsafeFlags(headerFlags(["pangocairo", "libpq", "libmicrohttpd", "libcurl"])),
]

/// The compiler flags of the libraries choreo loads when first used (`SharedLibrary` in
/// ChoreoLibraries), from pkg-config: their system-library targets name no pkg-config package,
/// because SwiftPM would then link them (and every command would map them at start).
func headerFlags(_ packages: [String]) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/pkg-config")
    process.arguments = ["--cflags"] + packages
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        .filter { $0.hasPrefix("-I") }.flatMap { ["-Xcc", String($0)] }
}

/// How the executables are linked: with the toolchain's lld, and their relative relocations packed
/// (`DT_RELR`, glibc 2.36 and later). A static build's position-independent binary has about
/// 76,000 of them, one per pointer in its metadata and tables: as `RELA` entries they are 1.8 MB
/// that the dynamic loader reads at every start, and that stay resident; packed, 15 KB.
let compactLinking: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])
]

/// The toolchain's own SwiftSyntax and SwiftParser (`usr/lib/swift/host`): shared libraries with
/// textual interfaces, linked by the Swift importer and run only in `choreo-import`, the helper
/// process a parse happens in. Built against the toolchain this package pins (6.3).
let swiftSyntaxDirectory: String = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
    for directory in path.split(separator: ":") {
        let compiler = URL(fileURLWithPath: String(directory)).appendingPathComponent("swiftc")
        guard FileManager.default.fileExists(atPath: compiler.path) else { continue }
        let host = compiler.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("lib/swift/host")
        if FileManager.default.fileExists(atPath: host.appendingPathComponent("SwiftParser.swiftmodule").path) {
            return host.path
        }
    }
    return "/opt/swift/usr/lib/swift/host"
}()

/// libclang's C headers (Debian's libclang-dev puts them under /usr/lib/llvm-N/include): the
/// Objective-C importer loads libclang when first used, so only its headers are needed to build.
let clangHeaderFlags: [String] = {
    let candidates = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .filter { $0.hasPrefix("llvm-") }
        .sorted { (Int($0.dropFirst(5)) ?? 0) > (Int($1.dropFirst(5)) ?? 0) }
    for directory in candidates
    where FileManager.default.fileExists(atPath: "/usr/lib/\(directory)/include/clang-c/Index.h") {
        return ["-Xcc", "-I/usr/lib/\(directory)/include"]
    }
    return []
}()

let swiftSyntaxLinking: [LinkerSetting] = [
    .unsafeFlags(
        ["-L", swiftSyntaxDirectory]
            + [
                "SwiftSyntax", "SwiftParser", "SwiftDiagnostics", "SwiftParserDiagnostics", "SwiftOperators",
                "SwiftBasicFormat",
            ]
            .map { "-l\($0)" } + ["-Xlinker", "-rpath", "-Xlinker", swiftSyntaxDirectory])
]

let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path

/// The release build of `choreo` places the functions that a start, an idle server and a render
/// run ahead of all others, in the order `Benchmarks/order-file.sh` recorded (`make order`): the
/// pages of code a process touches are then mostly those it runs, not neighbours of them.
let orderedLinking: [LinkerSetting] = [
    .unsafeFlags(
        [
            "-Xlinker", "--symbol-ordering-file=\(packageDirectory)/Sources/choreo/choreo.order",
            "-Xlinker", "--no-warn-symbol-ordering",
        ], .when(configuration: .release))
]

let package = Package(
    name: "choreo",
    products: [
        .executable(name: "choreo", targets: ["choreo"]),
        .executable(name: "choreo-import", targets: ["choreo-import"]),
        .library(name: "ChoreoEngine", targets: ["ChoreoEngine"]),
    ],
    targets: [
        // Loaded when first used (ChoreoLibraries' SharedLibrary): headers only, no link.
        .systemLibrary(name: "CMicroHTTPD"),
        .systemLibrary(name: "CCurl"),
        .systemLibrary(name: "CCrypto"),
        .systemLibrary(name: "CCairo"),
        .systemLibrary(name: "CPostgres"),
        .systemLibrary(name: "CClang"),
        .systemLibrary(name: "CWebP"),
        .systemLibrary(name: "CVPX"),
        // Linked: small, and SQLite is the default storage.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CMalloc"),
        // The kernel's namespaces, capabilities and seccomp, for the import helper's walls.
        .systemLibrary(name: "CSandbox"),
        // Linked by the export tests only: the Lottie player exports are checked against.
        .systemLibrary(name: "CRlottie", pkgConfig: "rlottie", providers: [.apt(["librlottie-dev"])]),
        .systemLibrary(name: "CWebPDemux"),
        .target(name: "ChoreoLibraries", dependencies: ["CMalloc"], swiftSettings: strictSettings),
        .target(name: "ChoreoJSON", swiftSettings: strictSettings),
        // What the socket server and the services share, below both: a body in pieces, a
        // request's cancellation, the render memory, the server's counters and log lines.
        .target(name: "ChoreoTransport", dependencies: ["ChoreoJSON"], swiftSettings: strictSettings),
        .target(name: "ChoreoEngine", swiftSettings: strictSettings),
        .target(name: "ChoreoFormat", dependencies: ["ChoreoJSON", "ChoreoEngine"], swiftSettings: strictSettings),
        .target(
            name: "ChoreoRaster",
            dependencies: ["CCairo", "CZlib", "CWebP", "CVPX", "ChoreoLibraries", "ChoreoEngine"],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoStorage", dependencies: ["CSQLite", "CPostgres", "ChoreoLibraries"],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoFuzz", dependencies: ["ChoreoJSON", "ChoreoFormat", "ChoreoEngine", "ChoreoRaster"],
            swiftSettings: strictSettings),
        // Scenes out: Lottie, CSS, Web Animations and HTML, from the engine's frames.
        .target(
            name: "ChoreoExport", dependencies: ["ChoreoJSON", "ChoreoEngine", "ChoreoFormat", "ChoreoRaster"],
            swiftSettings: strictSettings),
        // Code in, scene out: the intermediate form both front ends lower to, and its evaluator.
        .target(
            name: "ChoreoImport", dependencies: ["ChoreoJSON", "ChoreoEngine", "ChoreoFormat"],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoSwiftImport", dependencies: ["ChoreoImport"],
            swiftSettings: strictSettings + [.unsafeFlags(["-I", swiftSyntaxDirectory])],
            linkerSettings: swiftSyntaxLinking),
        .target(
            name: "ChoreoObjCImport", dependencies: ["CClang", "ChoreoLibraries", "ChoreoImport"],
            swiftSettings: strictSettings + [.unsafeFlags(clangHeaderFlags)]),
        // The helper process a parse and its evaluation run in, under limits: linked with the
        // toolchain's Swift runtime (SwiftSyntax needs it), unlike the statically linked server.
        .executableTarget(
            name: "choreo-import",
            dependencies: ["CSandbox", "ChoreoSwiftImport", "ChoreoObjCImport", "ChoreoImport", "ChoreoJSON"],
            swiftSettings: strictSettings + [.unsafeFlags(["-I", swiftSyntaxDirectory])],
            linkerSettings: swiftSyntaxLinking),
        // The services: rendering, pictures, sessions, imports and exports, with typed results
        // and one error type; no HTTP, no monitor.
        .target(
            name: "ChoreoService",
            dependencies: [
                "ChoreoJSON", "ChoreoEngine", "ChoreoFormat", "ChoreoStorage", "ChoreoRaster", "ChoreoLibraries",
                "ChoreoImport", "ChoreoExport", "ChoreoTransport",
            ],
            swiftSettings: strictSettings),
        // The monitor's wing (Sources/Monitor): its pure domain, its outbound HTTP, its runtime.
        .target(
            name: "ChoreoArena", dependencies: ["ChoreoJSON", "ChoreoFormat", "ChoreoEngine"],
            path: "Sources/Monitor/ChoreoArena", swiftSettings: strictSettings),
        .target(
            name: "ChoreoProbe", dependencies: ["CCurl", "CCrypto", "ChoreoLibraries", "ChoreoJSON", "ChoreoArena"],
            path: "Sources/Monitor/ChoreoProbe", swiftSettings: strictSettings),
        .target(
            name: "ChoreoMonitor",
            dependencies: [
                "ChoreoJSON", "ChoreoEngine", "ChoreoFormat", "ChoreoStorage", "ChoreoArena", "ChoreoProbe",
                "ChoreoService", "ChoreoTransport",
            ],
            path: "Sources/Monitor/ChoreoMonitor", swiftSettings: strictSettings),
        .target(
            name: "ChoreoHTTP",
            dependencies: [
                "ChoreoService", "ChoreoMonitor", "ChoreoTransport", "ChoreoJSON", "ChoreoEngine", "ChoreoFormat",
                "ChoreoStorage", "ChoreoArena", "ChoreoProbe", "ChoreoRaster", "ChoreoLibraries", "ChoreoImport",
                "ChoreoExport",
            ],
            resources: [
                .embedInCode("Pages/player.html"), .embedInCode("Pages/player.js"), .embedInCode("Pages/player.css"),
                .embedInCode("Pages/wallboard.html"), .embedInCode("Pages/wallboard.js"),
                .embedInCode("Pages/wallboard.css"),
            ],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoServer",
            dependencies: ["CMicroHTTPD", "ChoreoLibraries", "ChoreoTransport", "ChoreoHTTP"],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "choreo",
            dependencies: [
                "ChoreoServer", "ChoreoHTTP", "ChoreoService", "ChoreoMonitor", "ChoreoTransport", "ChoreoFormat",
                "ChoreoStorage", "ChoreoArena", "ChoreoLibraries", "ChoreoJSON", "ChoreoRaster", "ChoreoImport",
                "ChoreoExport",
            ],
            exclude: ["choreo.order"], swiftSettings: strictSettings, linkerSettings: compactLinking + orderedLinking),
        .executableTarget(
            name: "choreo-bench",
            dependencies: [
                "ChoreoEngine", "ChoreoFormat", "ChoreoJSON", "ChoreoArena", "ChoreoProbe", "ChoreoHTTP",
                "ChoreoService", "ChoreoMonitor", "ChoreoTransport", "ChoreoStorage", "ChoreoFuzz", "ChoreoRaster",
                "ChoreoTestSupport", "ChoreoLibraries",
            ],
            path: "Benchmarks/ChoreoBench", swiftSettings: strictSettings, linkerSettings: compactLinking),
        .target(name: "ChoreoTestSupport", path: "Tests/Support", swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoJSONTests", dependencies: ["ChoreoJSON", "ChoreoTestSupport"], swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoLibrariesTests",
            dependencies: [
                "ChoreoLibraries", "ChoreoRaster", "ChoreoProbe", "ChoreoArena", "ChoreoStorage", "ChoreoServer",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoEngineTests", dependencies: ["ChoreoEngine", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoServerTests", dependencies: ["ChoreoServer", "ChoreoTransport", "ChoreoHTTP"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoFormatTests",
            dependencies: ["ChoreoFormat", "ChoreoJSON", "ChoreoEngine", "ChoreoFuzz", "ChoreoTestSupport"],
            exclude: ["Goldens", "FuzzRegressions"], swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoStorageTests", dependencies: ["ChoreoStorage", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoArenaTests",
            dependencies: ["ChoreoArena", "ChoreoFormat", "ChoreoEngine", "ChoreoJSON", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoServiceTests",
            dependencies: ["ChoreoService", "ChoreoTransport", "ChoreoStorage", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoMonitorTests",
            dependencies: ["ChoreoMonitor", "ChoreoArena", "ChoreoStorage", "ChoreoJSON", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoHTTPTests",
            dependencies: [
                "ChoreoHTTP", "ChoreoService", "ChoreoMonitor", "ChoreoTransport", "ChoreoJSON", "ChoreoFormat",
                "ChoreoStorage", "ChoreoTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoRasterTests",
            dependencies: ["ChoreoRaster", "ChoreoEngine", "ChoreoFormat", "CWebPDemux", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoExportTests",
            dependencies: [
                "ChoreoExport", "ChoreoRaster", "ChoreoEngine", "ChoreoFormat", "ChoreoJSON", "ChoreoService",
                "CRlottie",
                "ChoreoTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoImportTests",
            dependencies: [
                "ChoreoImport", "ChoreoSwiftImport", "ChoreoObjCImport", "ChoreoService", "ChoreoFormat", "ChoreoJSON",
                "ChoreoEngine", "ChoreoTestSupport",
            ],
            swiftSettings: strictSettings + [.unsafeFlags(["-I", swiftSyntaxDirectory] + clangHeaderFlags)]),
        .testTarget(
            name: "ChoreoLiveTests",
            dependencies: ["ChoreoJSON", "ChoreoArena", "ChoreoProbe", "ChoreoTestSupport", "ChoreoRaster"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
