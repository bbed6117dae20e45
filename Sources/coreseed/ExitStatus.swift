/// Exit codes (sysexits-style, DESIGN §2).
enum ExitStatus: Int32 {
    case success = 0
    /// Data or verification failure.
    case failure = 1
    case usage = 64
    case inputMissing = 66
    case cannotCreateOutput = 73
}
