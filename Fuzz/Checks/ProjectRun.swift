import Foundation
import StrataArguments

/// One project of `ProjectProperties` laid out in a temporary folder, and the commands run on
/// it:
///
///     ROOT/outside/secret.env          the secret, reachable only through a link
///     ROOT/project/migrations/…        the input's `m/` entries
///     ROOT/project/seeds/…             the input's `s/` entries
///     ROOT/project/app.sqlite3         an empty database file, so the run starts from nothing
struct ProjectRun {
  /// How long one command may take before it counts as a hang.
  static let timeLimit: Double = 8
  static let databaseName = "app.sqlite3"

  let root: URL
  var project: URL { root.appendingPathComponent("project") }

  init(entries: [ProjectProperties.Entry]) throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-fuzz-project-\(UUID().uuidString)")
    let manager = FileManager.default
    let outside = root.appendingPathComponent("outside")
    try manager.createDirectory(at: outside, withIntermediateDirectories: true)
    try Data((ProjectProperties.secret + "\n").utf8)
      .write(to: outside.appendingPathComponent("secret.env"))
    for folder in ["migrations", "seeds"] {
      try manager.createDirectory(
        at: project.appendingPathComponent(folder),
        withIntermediateDirectories: true
      )
    }
    let database = project.appendingPathComponent(Self.databaseName).path
    guard manager.createFile(atPath: database, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    do {
      for entry in entries {
        let path = project.appendingPathComponent(entry.folder)
          .appendingPathComponent(entry.name).path
        switch entry.kind {
        case .file(let bytes):
          guard manager.createFile(atPath: path, contents: Data(bytes)) else {
            throw CocoaError(.fileWriteUnknown)
          }
        case .link(let target):
          try manager.createSymbolicLink(atPath: path, withDestinationPath: target)
        case .fifo:
          guard mkfifo(path, 0o644) == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
      }
    } catch {
      remove()
      throw error
    }
  }

  func remove() {
    try? FileManager.default.removeItem(at: root)
  }

  /// Runs the commands in order and checks every property after each. `migrate` runs the
  /// user's own SQL, which may name other files (`ATTACH`, `VACUUM INTO`): only the commands
  /// that promise not to write anywhere else are held to the file rule.
  func check() throws(PropertyViolation) {
    let database = ["--database", Self.databaseName]
    let migrations = ["--migrations", "migrations"]
    let firstValidate = try run(["validate"] + database + migrations, writesOnlyTheDatabase: true)
    let migrate = try run(["migrate"] + database + migrations, writesOnlyTheDatabase: false)
    if firstValidate.exitCode == 0, !firstValidate.output.lowercased().contains("not checked") {
      try require(
        migrate.exitCode == 0,
        "validate passed, but migrate failed: \(migrate.output)"
      )
    }
    try run(["status"] + database + migrations, writesOnlyTheDatabase: true)
    try run(["seed"] + database + ["--seeds", "seeds"], writesOnlyTheDatabase: true)
    try run(["validate"] + database + migrations, writesOnlyTheDatabase: true)
  }

  private func isDatabaseFile(_ path: String) -> Bool {
    let database = "project/" + Self.databaseName
    return ["", "-journal", "-wal", "-shm"].contains { path == database + $0 }
  }

  struct Outcome {
    let exitCode: Int32
    let output: String
  }

  /// Runs `strata arguments…` in the project; a hang, a signal, an exit code outside
  /// {0, 1, 64}, a control character or the secret in its output breaks a property.
  @discardableResult
  private func run(
    _ arguments: [String],
    writesOnlyTheDatabase: Bool
  ) throws(PropertyViolation) -> Outcome {
    let command = "strata " + arguments.joined(separator: " ")
    let before = FolderSnapshot(root)
    let result: ChildProcess.Result
    do {
      result = try ChildProcess.run(
        StrataBinary.url,
        arguments,
        in: project,
        timeLimit: Self.timeLimit
      )
    } catch {
      throw PropertyViolation("\(command) could not start: \(error)")
    }
    try require(!result.timedOut, "\(command) hung (killed after \(Self.timeLimit) s)")
    try require(
      !result.signalled,
      "\(command) died of signal \(result.status): \(String(decoding: result.standardError, as: UTF8.self))"
    )
    try require([0, 1, 64].contains(result.status), "\(command) exited \(result.status)")
    try Self.checkOutput(result.standardOutput, of: command, stream: "standard output")
    try Self.checkOutput(result.standardError, of: command, stream: "standard error")
    if writesOnlyTheDatabase {
      let changed = FolderSnapshot(root).changes(since: before).filter { !isDatabaseFile($0) }
      try require(changed.isEmpty, "\(command) wrote outside the database: \(changed)")
    }
    let output = String(decoding: result.standardOutput + result.standardError, as: UTF8.self)
    return Outcome(exitCode: result.status, output: output)
  }

  /// What a command wrote holds no control character but line breaks and tabs, and not the
  /// secret.
  static func checkOutput(
    _ bytes: [UInt8],
    of command: String,
    stream: String
  ) throws(PropertyViolation) {
    let text = String(decoding: bytes, as: UTF8.self)
    let hidden = text.unicodeScalars.first { $0 != "\n" && $0 != "\t" && isHiddenControl($0) }
    try require(
      hidden == nil,
      "\(command) wrote U+\(String(hidden?.value ?? 0, radix: 16, uppercase: true)) to "
        + "\(stream): \(text.debugDescription)"
    )
    try require(!text.contains(ProjectProperties.secret), "\(command) showed the secret file")
  }
}

/// The `strata` binary the checks run: `STRATA_BINARY`, or the one built beside this program
/// (`swift build` puts `strata`, `strata-fuzz` and the test bundle in one folder).
enum StrataBinary {
  static let url: URL = {
    if let path = ProcessInfo.processInfo.environment["STRATA_BINARY"], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidates = [
      folder.appendingPathComponent("strata"),
      folder.deletingLastPathComponent().appendingPathComponent("strata"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
      ?? candidates[0]
  }()
}
