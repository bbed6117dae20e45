// CoreDataCheck: proves on Apple's own Core Data that the stores `coreseed build` writes open, read
// and save as an app's would, so that a store's fidelity rests on the framework the app runs, not on
// our reading of its rules. `.github/workflows/macos.yml` runs it on every store `make seed` writes,
// a configuration store and the test suite's every-attribute-kind store (`core-data-check --help`
// says what it does, step by step).
//
// Its files are compiled together with swiftc, outside the package (it must not link CoreSeed: it
// checks CoreSeed's output with nothing but Core Data and the coreseed binary):
//   make core-data-check        # = swiftc -O -swift-version 6 Tools/CoreDataCheck/*.swift -o .build/core-data-check
//   .build/core-data-check --model Inputs/Carriers.xcdatamodeld Outputs/Carriers.sqlite
//
// The Linux half (no Core Data) copies each store with its support folder and checks the copy with
// coreseed, then exits 77; `Tests/coreseedTests/MacProof/MacProofTests.swift` runs it on `make seed`'s
// outputs. Everything that needs Core Data is behind `#if canImport(CoreData)`; `make lint`
// type-checks it against `Tools/CoreDataCheck/TypeCheck/CoreData.swift`, declarations transcribed
// from Apple's documentation, since this machine has no Core Data to compile it with.

import Foundation

exit(CoreDataCheck.run(Array(CommandLine.arguments.dropFirst())))
