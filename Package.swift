// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Intranet",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "IntranetAPI", targets: ["IntranetAPI"]),
        .library(name: "IntranetServer", targets: ["IntranetServer"]),
        .executable(name: "intranet-server", targets: ["IntranetServerMain"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/fluent-kit.git", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver.git", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver.git", from: "2.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
    ],
    targets: [
        .target(name: "IntranetAPI"),
        .target(
            name: "IntranetServer",
            dependencies: [
                "IntranetAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Resources/openapi.json")]
        ),
        .executableTarget(
            name: "IntranetServerMain",
            dependencies: [
                "IntranetServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "IntranetAPITests", dependencies: ["IntranetAPI"]),
        .testTarget(
            name: "IntranetServerTests",
            dependencies: [
                "IntranetServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
