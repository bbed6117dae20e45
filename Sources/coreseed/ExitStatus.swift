import CoreSeed

/// Exit codes (sysexits-style, DESIGN §2).
enum ExitStatus: Int32 {
    case success = 0
    /// Data or verification failure.
    case failure = 1
    case usage = 64
    case inputMissing = 66
    case cannotCreateOutput = 73
    /// stdout (or stderr) could not be written: a full device, a closed pipe.
    case ioError = 74
}

extension ExitStatus {
    /// The exit status of a failure of `kind`: the one place where failures become exit codes.
    init(_ kind: FailureKind) {
        switch kind {
        case .invalid: self = .failure
        case .unreadableInput: self = .inputMissing
        case .cannotWriteOutput: self = .cannotCreateOutput
        case .badRequest: self = .usage
        }
    }
}
