// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "choreo",
    products: [
        .executable(name: "choreo", targets: ["choreo"]),
        .library(name: "ChoreoEngine", targets: ["ChoreoEngine"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(
            name: "CCairo", pkgConfig: "pangocairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "ChoreoJSON", swiftSettings: strictSettings),
        .target(name: "ChoreoEngine", swiftSettings: strictSettings),
        .target(name: "ChoreoFormat", dependencies: ["ChoreoJSON", "ChoreoEngine"], swiftSettings: strictSettings),
        .target(
            name: "ChoreoRaster", dependencies: ["CCairo", "CZlib", "ChoreoEngine"], swiftSettings: strictSettings),
        .target(name: "ChoreoStorage", dependencies: ["CSQLite", "CPostgres"], swiftSettings: strictSettings),
        .target(
            name: "ChoreoFuzz", dependencies: ["ChoreoJSON", "ChoreoFormat", "ChoreoEngine", "ChoreoRaster"],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoArena", dependencies: ["ChoreoJSON", "ChoreoFormat", "ChoreoEngine"],
            swiftSettings: strictSettings),
        .target(
            name: "ChoreoProbe", dependencies: ["CCurl", "ChoreoJSON", "ChoreoArena"], swiftSettings: strictSettings),
        .target(
            name: "ChoreoHTTP",
            dependencies: [
                "ChoreoJSON", "ChoreoEngine", "ChoreoFormat", "ChoreoStorage", "ChoreoArena", "ChoreoProbe",
                "ChoreoRaster",
            ],
            resources: [
                .embedInCode("Pages/player.html"), .embedInCode("Pages/player.js"), .embedInCode("Pages/player.css"),
                .embedInCode("Pages/wallboard.html"), .embedInCode("Pages/wallboard.js"),
                .embedInCode("Pages/wallboard.css"),
            ],
            swiftSettings: strictSettings),
        .target(name: "ChoreoServer", dependencies: ["CMicroHTTPD", "ChoreoHTTP"], swiftSettings: strictSettings),
        .executableTarget(
            name: "choreo",
            dependencies: ["ChoreoServer", "ChoreoHTTP", "ChoreoFormat", "ChoreoStorage", "ChoreoArena"],
            swiftSettings: strictSettings),
        .executableTarget(
            name: "choreo-bench",
            dependencies: [
                "ChoreoEngine", "ChoreoFormat", "ChoreoJSON", "ChoreoArena", "ChoreoProbe", "ChoreoHTTP",
                "ChoreoStorage", "ChoreoFuzz", "ChoreoRaster", "ChoreoTestSupport",
            ],
            path: "Benchmarks/ChoreoBench", swiftSettings: strictSettings),
        .target(name: "ChoreoTestSupport", path: "Tests/Support", swiftSettings: strictSettings),
        .testTarget(name: "ChoreoJSONTests", dependencies: ["ChoreoJSON"], swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoEngineTests", dependencies: ["ChoreoEngine"], swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoFormatTests", dependencies: ["ChoreoFormat", "ChoreoJSON", "ChoreoEngine", "ChoreoFuzz"],
            exclude: ["Goldens", "FuzzRegressions"], swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoStorageTests", dependencies: ["ChoreoStorage", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoArenaTests", dependencies: ["ChoreoArena", "ChoreoFormat", "ChoreoEngine", "ChoreoJSON"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoHTTPTests",
            dependencies: ["ChoreoHTTP", "ChoreoJSON", "ChoreoFormat", "ChoreoStorage", "ChoreoTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoRasterTests",
            dependencies: ["ChoreoRaster", "ChoreoEngine", "ChoreoFormat"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ChoreoLiveTests",
            dependencies: ["ChoreoJSON", "ChoreoArena", "ChoreoProbe", "ChoreoTestSupport", "ChoreoRaster"],
            swiftSettings: strictSettings),
    ],
    swiftLanguageModes: [.v6]
)
