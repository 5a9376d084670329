import Foundation
import Strata
import StrataArguments

/// One run of the plugin's step: `template --migrations <folder> --output <file> --force` builds
/// the template; `template --check --migrations <folder> --output <file> --stamp <file>` checks
/// the committed one and writes the stamp when it is current. `--quiet` is accepted and is the
/// only mode: a build log shows nothing for a step that worked. With `--releases <folder>`
/// (and `--seeds <folder>`, `--settings <file>` when the target has them), each earlier
/// release's template in the folder is first upgraded as the app's launch would
/// (`ReleaseCheck`), and a seed file that would fail fails the step. `--expect-version` is the
/// strata version of the plugin that runs the tool: a prebuilt tool of another version
/// (`StrataTemplatePrebuiltPlugin`) refuses to build a template the app's library did not.
struct TemplateStep {
  let migrations: URL
  let output: URL
  let check: Bool
  let force: Bool
  let stamp: URL?
  let releases: ReleaseCheck?

  /// The plugin's arguments; anything else is refused, naming it (the plugin and this tool
  /// ship together, so that is a bug, said plainly).
  init(arguments: [String]) throws {
    var arguments = arguments[...]
    guard arguments.popFirst() == "template" else {
      throw StepError(message: "the first argument must be 'template'", help: nil)
    }
    var values: [String: String] = [:]
    var flags: Set<String> = []
    while let argument = arguments.popFirst() {
      switch argument {
      case "--check", "--force", "--quiet": flags.insert(argument)
      case "--migrations", "--output", "--stamp", "--releases", "--seeds", "--settings",
        "--expect-version":
        guard let value = arguments.popFirst(), !value.isEmpty else {
          let what = argument == "--expect-version" ? "a version" : "a path"
          throw StepError(message: "\(argument) needs \(what)", help: nil)
        }
        values[argument] = value
      default:
        throw StepError(message: "unknown argument '\(argument)'", help: nil)
      }
    }
    if let expected = values["--expect-version"], expected != strataVersion {
      throw StepError(
        message: "this StrataPluginTool is strata \(strataVersion), the app builds with strata "
          + "\(expected): a template is built only by the strata the app links; nothing was "
          + "written",
        help: "Build the tool of strata \(expected) (swift build -c release --product "
          + "StrataPluginTool in its checkout) and put it where the plugin finds it "
          + "(STRATA_PLUGIN_TOOL or PATH), or use StrataTemplatePlugin, which builds its own."
      )
    }
    guard let migrations = values["--migrations"], let output = values["--output"] else {
      throw StepError(message: "--migrations and --output are both required", help: nil)
    }
    self.migrations = URL(fileURLWithPath: migrations, isDirectory: true)
    self.output = URL(fileURLWithPath: output)
    check = flags.contains("--check")
    force = flags.contains("--force")
    stamp = values["--stamp"].map { URL(fileURLWithPath: $0) }
    releases = values["--releases"].map {
      ReleaseCheck(
        folder: URL(fileURLWithPath: $0, isDirectory: true),
        migrations: URL(fileURLWithPath: migrations, isDirectory: true),
        seeds: values["--seeds"].map { URL(fileURLWithPath: $0, isDirectory: true) },
        settings: values["--settings"].map { URL(fileURLWithPath: $0) }
      )
    }
    if check, force {
      throw StepError(
        message: "--check writes nothing, so --force has nothing to replace",
        help: nil
      )
    }
    if !check, stamp != nil {
      throw StepError(message: "--stamp is written only by a check: pass --check too", help: nil)
    }
  }

  func run() throws {
    let set = try MigrationSet(directory: migrations, displayPath: migrations.path)
    try refuseDisagreeingOrder(set)
    // Before anything is written: a failed step leaves no output that a next build would trust.
    if let stamp { try? FileManager.default.removeItem(at: stamp) }
    try releases?.run()
    guard check else {
      try TemplateBuilder.build(set, to: output, replacing: force)
      return
    }
    let rebuild =
      "'strata template --output \(output.path)' with --migrations \(migrations.path)"
    do {
      try TemplateBuilder.check(output, against: set)
    } catch SetupError.templateMissing {
      throw StepError(
        message: "template \(output.path) does not exist, so it cannot be checked; nothing "
          + "was written",
        help: "Build it with \(rebuild)."
      )
    } catch SetupError.templateStale(_, let differences) {
      throw StepError(
        message: SetupError.templateStale(path: output.path, differences: differences).message,
        help: "Rebuild it: remove \(output.path) and run \(rebuild), then commit or bundle the "
          + "new file."
      )
    }
    if let stamp {
      guard FileManager.default.createFile(atPath: stamp.path, contents: Data()) else {
        throw SetupError.templateNotWritten(path: stamp.path, reason: "could not create the file")
      }
    }
  }

  /// A dbmate folder whose versions have different widths runs in one order under strata and
  /// in the other under dbmate: `strata template` refuses it until the format is named, which
  /// the plugin cannot do, so here the one way out is zero-padding.
  private func refuseDisagreeingOrder(_ set: MigrationSet) throws {
    guard set.format == .dbmate, let first = set.versionWidthWarnings.first else { return }
    throw StepError(
      message: "\(first.earlier) and \(first.later) run in opposite orders under strata and "
        + "dbmate: strata compares versions as numbers and runs \(first.earlier) first, dbmate "
        + "sorts the names as text and runs \(first.later) first; no template was built",
      help: "Zero-pad the versions to one width, so that both tools run one order."
    )
  }

  /// What the build log says about `error`: the library's message and help.
  static func describe(_ error: any Error) -> (message: String, help: String?) {
    switch error {
    case let failure as StepError: (failure.message, failure.help)
    case let failure as SQLiteError: ("\(failure)", nil)
    case let failure as any StrataError: (failure.message, failure.help)
    default: ("\(error)", nil)
    }
  }
}

/// A failure of the step in its own words.
struct StepError: Error {
  let message: String
  let help: String?
}
