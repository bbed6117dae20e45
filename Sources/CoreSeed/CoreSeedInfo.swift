/// Facts about this build of CoreSeed itself.
public enum CoreSeedInfo {
    /// The release version, `MAJOR.MINOR.PATCH`: the one place it is written. `coreseed --version` and
    /// `coreseed inspect` print it; stores do not hold it (their metadata is what Core Data and the spec
    /// put there).
    public static let version = "0.10.0"
}
