import CoreSeed

extension RunOption {
    /// What `verify` and `export` say when they read a store with its own model.
    static let ownModelNote = "no --model: read with the store's own model (Z_MODELCACHE)"

    /// The option as this command line takes it, for the library's messages (installed by `main`).
    var flag: String {
        switch self {
        case .timeout: "--timeout SECONDS"
        case .noHistory: "--no-history"
        case .allowDeletes: "--allow-deletes"
        case .allowEmpty: "--allow-empty"
        case .model: "--model"
        case .modelVersion: "--model-version"
        case .into: "--into"
        case .intoStore: "--into STORE"
        case .output: "--output"
        case .upsert: "--mode upsert"
        case .sync: "--into STORE --mode sync"
        }
    }
}
