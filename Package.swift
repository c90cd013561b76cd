// swift-tools-version: 6.0
import PackageDescription

/// Where libvips's headers need glib's (vips.pc's own flags include `-pthread`, which SwiftPM
/// refuses with a warning on every build).
let vipsHeaders: [CSetting] = [
    .unsafeFlags([
        "-I/usr/include/glib-2.0", "-I/usr/lib/x86_64-linux-gnu/glib-2.0/include", "-I/usr/lib/aarch64-linux-gnu/glib-2.0/include",
    ])
]
let vipsLibraries: [LinkerSetting] = [.linkedLibrary("vips"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0")]

let package = Package(
    name: "Intranet",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "IntranetAPI", targets: ["IntranetAPI"]),
        .library(name: "IntranetServer", targets: ["IntranetServer"]),
        .library(name: "RESTRepository", targets: ["RESTRepository"]),
        .library(name: "RESTRepositoryTesting", targets: ["RESTRepositoryTesting"]),
        .library(name: "IntranetClient", targets: ["IntranetClient"]),
        .library(name: "Spearal", targets: ["Spearal"]),
        .library(name: "IntranetTerminal", targets: ["IntranetTerminal"]),
        .library(name: "IntranetHTML", targets: ["IntranetHTML"]),
        .executable(name: "intranet-server", targets: ["IntranetServerMain"]),
        .executable(name: "intranet", targets: ["IntranetCLI"]),
        .executable(name: "feed-demo", targets: ["FeedDemo"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/vapor/fluent-kit.git", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        // The wire contract shared by server and client.
        .target(name: "IntranetAPI", dependencies: ["Spearal"]),

        // The server.
        .target(
            name: "IntranetServer",
            dependencies: [
                "IntranetAPI",
                "IntranetHTML",
                "CLibXML2",
                "CCmarkGFM",
                "CVips",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("Resources/openapi.json"), .copy("Resources/web")]
        ),
        .executableTarget(
            name: "IntranetServerMain",
            dependencies: [
                "IntranetServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The client SDK.
        .target(
            name: "RESTRepository",
            dependencies: [
                "Spearal",
                "CSQLite3",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // SQLite, for the SDK's response store (the server's SQLite comes with sqlite-nio).
        .systemLibrary(name: "CSQLite3", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(
            name: "RESTRepositoryTesting",
            dependencies: [
                "RESTRepository",
                "Spearal",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "IntranetClient",
            dependencies: [
                "RESTRepository",
                "IntranetAPI",
                "Spearal",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // HTML: libxml2's parsers, the sanitiser every stored body goes through, and the
        // tree the terminal renders.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .target(name: "IntranetHTML", dependencies: ["CLibXML2"]),
        // Markdown: cmark-gfm (CommonMark with GitHub's tables), for editors who write Markdown.
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"]), .brew(["cmark-gfm"])]),

        // Images: libvips decodes, cleans and resizes uploaded pictures; libjpeg (which libvips
        // uses) rewrites a JPEG's full-size copy without loss. A C target rather than a
        // pkg-config system library (see vipsHeaders); glib's headers are all vips.h needs.
        .target(name: "CVips", cSettings: vipsHeaders, linkerSettings: vipsLibraries + [.linkedLibrary("jpeg")]),
        // The tests read served images back with libvips (their colours, their bands).
        .target(name: "ImageProbe", path: "Tests/ImageProbe", cSettings: vipsHeaders, linkerSettings: vipsLibraries),

        // The terminal client.
        .target(
            name: "IntranetTerminal",
            dependencies: [
                "IntranetHTML",
                "IntranetClient",
                "IntranetAPI",
                "RESTRepository",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "IntranetCLI", dependencies: ["IntranetTerminal"]),

        // The Spearal codec.
        .target(name: "Spearal"),
        .executableTarget(name: "SpearalBenchmark", dependencies: ["Spearal"]),
        .executableTarget(name: "WireBenchmark", dependencies: ["IntranetClient"], path: "Sources/WireBenchmark"),
        .executableTarget(name: "SpearalFuzz", dependencies: ["Spearal"]),
        .executableTarget(
            name: "PeopleBenchmark", dependencies: ["IntranetClient", "RESTRepositoryTesting", .product(name: "HTTPTypes", package: "swift-http-types")],
            path: "Sources/PeopleBenchmark"),
        .executableTarget(name: "BareServer", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),

        // The example app: screen logic on IntranetClient alone, and a terminal front for it.
        .target(name: "FeedScreen", dependencies: ["IntranetClient"], path: "Examples/FeedScreen"),
        .executableTarget(name: "FeedDemo", dependencies: ["FeedScreen", "IntranetClient"], path: "Examples/FeedDemo"),

        // Tests.
        .target(name: "CSpawn", path: "Tests/CSpawn"),
        .target(name: "ChildProcess", dependencies: ["CSpawn"], path: "Tests/ChildProcess"),
        .testTarget(name: "IntranetAPITests", dependencies: ["IntranetAPI"]),
        .testTarget(name: "IntranetHTMLTests", dependencies: ["IntranetHTML"]),
        .testTarget(
            name: "IntranetServerTests",
            dependencies: [
                "ChildProcess",
                "CVips",
                "ImageProbe",
                "IntranetServer",
                "Spearal",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RESTRepositoryTests",
            dependencies: [
                "RESTRepository",
                "RESTRepositoryTesting",
                "Spearal",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "IntranetClientTests",
            dependencies: [
                "IntranetClient",
                "IntranetAPI",
                "RESTRepository",
                "RESTRepositoryTesting",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(
            name: "IntranetEndToEndTests",
            dependencies: [
                "ChildProcess",
                "IntranetClient",
                "Spearal",
                "IntranetServer",
                "RESTRepository",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "IntranetTerminalTests",
            dependencies: [
                "ChildProcess",
                "CLibXML2",
                "IntranetHTML",
                "IntranetTerminal",
                "IntranetClient",
                "IntranetAPI",
                "IntranetServer",
                "RESTRepository",
                "RESTRepositoryTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "SpearalTests", dependencies: ["Spearal"], exclude: ["Fixtures"]),
        // The samples of docs/swift-client.md, in a target that sees only what an app sees.
        .testTarget(name: "IntranetClientReadmeTests", dependencies: ["IntranetClient", "RESTRepositoryTesting"]),
        .testTarget(name: "FeedScreenTests", dependencies: ["FeedScreen", "IntranetClient", "RESTRepositoryTesting"]),
    ],
    swiftLanguageModes: [.v6]
)

