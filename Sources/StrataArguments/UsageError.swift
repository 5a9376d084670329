/// The command line is wrong: exit 64 with usage.
public struct UsageError: Error, Equatable {
  /// What is wrong, naming the argument as it was typed (`quotedArgument`).
  public let message: String
  /// What to do about it: a usage line or a "did you mean".
  public var help: String?

  /// An error with its message and, when there is one, what to do about it.
  public init(message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }
}

/// `--help` was asked for: print the command's help and exit 0.
public struct HelpRequested: Error {
  /// `--help` or `-h` among a command's arguments.
  public init() {}
}
