// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "CoreSeed",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "CoreSeed", targets: ["CoreSeed"]),
        .executable(name: "coreseed", targets: ["coreseed"]),
        .plugin(name: "seed", targets: ["seed"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite3"])]),
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"]), .brew(["libxml2"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .systemLibrary(
            name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // System calls Swift's Glibc module does not declare (renameat2), in a header of inline functions.
        .systemLibrary(name: "CSystem", path: "Sources/CSystem"),
        // SHA-2 comes from CommonCrypto on Apple platforms (Sources/CoreSeed/Crypto/SHA2.swift,
        // `#if canImport(CommonCrypto)`), from OpenSSL's libcrypto only on Linux: a Mac needs no
        // OpenSSL, from Homebrew or elsewhere.
        .target(
            name: "CoreSeed",
            dependencies: ["CSQLite", "CLibXML2", "CZlib", "CSystem", .target(name: "CCrypto", condition: .when(platforms: [.linux]))],
            path: "Sources/CoreSeed"),
        .executableTarget(
            name: "coreseed",
            dependencies: ["CoreSeed"],
            path: "Sources/coreseed"),
        // `swift package --allow-writing-to-package-directory seed [SPEC]` in a package that depends on
        // this one: runs `coreseed build SPEC` there (docs/INTEGRATION.md).
        .plugin(
            name: "seed",
            capability: .command(
                intent: .custom(verb: "seed", description: "Build the Core Data seed store of a spec (default Inputs/seed.json) with coreseed"),
                permissions: [.writeToPackageDirectory(reason: "coreseed writes the seed store where the spec says, normally inside the package")]),
            dependencies: ["coreseed"],
            path: "Plugins/SeedPlugin"),
        // What both test targets share (Tests/CoreSeedTestSupport): the corpus lookup, the one
        // temporary-folder helper, the binary runner and `assertGolden`.
        .target(
            name: "CoreSeedTestSupport",
            dependencies: ["CoreSeed"],
            path: "Tests/CoreSeedTestSupport"),
        .testTarget(
            name: "CoreSeedTests",
            dependencies: ["CoreSeed", "CoreSeedTestSupport"],
            path: "Tests/CoreSeedTests"),
        .testTarget(
            name: "coreseedTests",
            dependencies: ["CoreSeed", "CoreSeedTestSupport"],
            path: "Tests/coreseedTests",
            // assertGolden's golden files, beside the tests that compare with them.
            exclude: ["Build/Golden", "Schema/Golden", "Usage/Golden"]),
    ],
    swiftLanguageModes: [.v6]
)
