import Foundation
import Strata
import StrataArguments

/// The rules every option that names a file or folder follows: one given as an empty string is
/// a usage error, a folder falls back to an environment variable and then to its default, and
/// a path is shown as the user would recognise it.
extension CommonOptions {
  /// The options that name a file or folder, in the order their emptiness is reported.
  static var pathOptions: [Option<String?>] {
    [
      database, migrations, seeds, InitCommand.template, TemplateCommand.output, settings,
      schemaFile,
    ]
  }

  /// A path option given as an empty string (`--database=`) is a usage error. Checked once,
  /// when a command reads its arguments.
  static func rejectEmptyPaths(_ arguments: ParsedArguments) throws {
    for option in pathOptions where arguments[option] == "" {
      let name = option.spec.name
      throw UsageError(
        message: "--\(name) needs a path; it was given an empty value",
        help: "Name a path, such as --\(name)=\(name == "database" ? "data.sqlite3" : name)."
      )
    }
  }

  /// A folder named by an option, else an environment variable, else its default: the option's
  /// name under the current directory.
  struct Folder {
    let url: URL
    /// As the user gave it, for messages.
    let shown: String
    /// Chosen by the user rather than taken by default: then it must exist.
    let isNamed: Bool

    /// `given` (an option's value), else the environment's `variable` when not empty, else
    /// `defaultName` under the current directory.
    init(_ given: String?, variable: String, default defaultName: String, _ context: CommandContext)
    {
      let named = given ?? context.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
      shown = named ?? defaultName
      url = DatabaseLocation.absolute(shown, from: context.currentDirectory)
      isNamed = named != nil
    }

    var exists: Bool {
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && isDirectory.boolValue
    }
  }

  /// The seeds folder: `--seeds`, else `$STRATA_SEEDS`, else `./seeds`.
  static func seedsFolder(_ given: String?, _ context: CommandContext) -> Folder {
    Folder(given, variable: "STRATA_SEEDS", default: seeds.spec.name, context)
  }

  /// The path as the user would recognise it: relative to the working directory when inside it.
  static func shown(_ url: URL, _ context: CommandContext) -> String {
    let base =
      context.currentDirectory.hasSuffix("/")
      ? context.currentDirectory : context.currentDirectory + "/"
    return url.path.hasPrefix(base) ? String(url.path.dropFirst(base.count)) : url.path
  }
}
