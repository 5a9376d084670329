/// The project settings file (`strata.toml`) could not be used; nothing was read from it and
/// no database was opened or changed.
public enum SettingsError: StrataError, Equatable {
  /// A settings file that was asked for does not exist.
  case fileNotFound(path: String)
  /// The file exists but cannot be read (a folder, no permission, not UTF-8); `underlying`: the
  /// system's error, when reading failed.
  case unreadable(path: String, reason: String, underlying: UnderlyingError? = nil)
  /// Something at `line`:`column` is outside what the file may hold: `problem` says what,
  /// `allowed` what may be written there.
  case invalid(path: String, line: Int, column: Int, problem: String, allowed: String)
  /// The settings name a seed file (`[seeds."FILE"]`, on `line`) that the seeds folder does not
  /// have: a misspelled name would otherwise change nothing without a word.
  case unknownSeedFile(path: String, line: Int, file: String, folder: String)

  /// What is wrong, and where (`file:line:column`).
  public var message: String {
    switch self {
    case .fileNotFound(let path):
      "the settings file \(path) does not exist; nothing was changed"
    case .unreadable(let path, let reason, _):
      "cannot read the settings file \(path): \(reason); nothing was changed"
    case .invalid(let path, let line, let column, let problem, _):
      "\(path):\(line):\(column): \(problem); nothing was changed"
    case .unknownSeedFile(let path, let line, let file, let folder):
      "\(path):\(line): the settings name the seed file \(file), which is not in \(folder); "
        + "nothing was changed"
    }
  }

  /// The system's error behind `unreadable`, when reading the file failed.
  public var underlyingError: (any Error)? {
    if case .unreadable(_, _, let underlying) = self { return underlying?.error }
    return nil
  }

  /// What to do: what the file allows there, or which name to fix.
  public var help: String {
    switch self {
    case .fileNotFound:
      "Check the settings file's path, or create it (docs/settings.md lists its keys)."
    case .unreadable:
      "Make the settings file a readable UTF-8 text file."
    case .invalid(_, let line, _, _, let allowed):
      "Fix line \(line): \(allowed) (docs/settings.md lists every key)."
    case .unknownSeedFile(_, let line, _, _):
      "Fix the file name on line \(line) to one in the seeds folder (with its extension), "
        + "or remove the section."
    }
  }
}
