import Foundation
import Strata
import StrataArguments

/// The schema file in the CLI's words: what `migrate`, `rollback` and `init` do with it after
/// they changed the database, what `status` reports of it, and the one command that rewrites
/// it. The library (`SchemaFile`) renders, compares and writes; this adds the flags.
enum SchemaFileRun {
  /// The schema file in `--format json`: its path and what happened to it (`written`,
  /// `unchanged`, or `skipped` when the run changed nothing, so the file was not looked at).
  struct WriteReport: Encodable {
    let path: String
    let result: String
  }

  /// What the command just did to the database, for the message when the file is not written:
  /// "app.sqlite3 was migrated to version 3".
  struct Change {
    let database: String
    let done: String
  }

  /// After a command changed the database (`changed`): writes the schema of `connection`'s
  /// database to `file`, and returns what happened to it (nil without a file).
  ///
  /// - Throws: `SchemaFileFailure` saying that the database *was* changed, and how to write
  ///   the file again, when it could not be written.
  static func write(
    _ file: SchemaFile?,
    changed: Bool,
    _ change: Change,
    connection: () throws -> Connection,
    _ rewrite: Rewrite
  ) throws -> WriteReport? {
    guard let file else { return nil }
    guard changed else { return WriteReport(path: file.displayPath, result: "skipped") }
    let outcome: SchemaFile.WriteOutcome
    do {
      outcome = try file.write(schemaOf: try connection())
    } catch {
      throw failure(error, file, change, rewrite)
    }
    return WriteReport(path: file.displayPath, result: outcome.rawValue)
  }

  /// The line a text run prints after its report: "Wrote schema.sql …" or that it was current.
  static func line(_ report: WriteReport?, source: String) -> String? {
    guard let report else { return nil }
    switch report.result {
    case "written": return "Wrote the schema file \(report.path) (the schema of \(source))."
    case "unchanged": return "The schema file \(report.path) already holds the schema of \(source)."
    default: return nil
    }
  }

  /// The error of a write after `change`: the database's state first, then the library's
  /// words, and a help that ends with the command that writes the file from that database.
  private static func failure(
    _ error: any Error,
    _ file: SchemaFile,
    _ change: Change,
    _ rewrite: Rewrite
  ) -> SchemaFileFailure {
    let rewrite = rewrite.command(database: change.database)
    let say: (Remedy) -> String = {
      $0 == .writeSchemaFile
        ? "write it from the database with '\(rewrite)' (no migration runs again)"
        : $0.commandLineWords
    }
    let said = ErrorOutput.describe(error, saying: say)
    let message =
      error is SchemaFileError
      ? said.message : "the schema file \(file.displayPath) was not written: \(said.message)"
    return SchemaFileFailure(
      message: "\(change.database) \(change.done), but \(message)",
      help: error is SchemaFileError
        ? said.help ?? "" : "Fix the problem above, then \(say(.writeSchemaFile)).",
      underlyingError: error
    )
  }

  /// A library error about the schema file, in the CLI's words, with `rewrite` (a command)
  /// as the way to write it from `source`.
  static func failure(
    _ error: SchemaFileError,
    rewrite: String,
    source: String = "the migrations"
  ) -> SchemaFileFailure {
    let said = ErrorOutput.describe(error) {
      $0 == .writeSchemaFile ? "run '\(rewrite)' to write it from \(source)" : $0.commandLineWords
    }
    return SchemaFileFailure(message: said.message, help: said.help ?? "", underlyingError: error)
  }

  /// The options of this run that choose the schema file, the migrations and the extensions:
  /// what `strata schema` is given to write the file this run means.
  struct Rewrite {
    let schemaFile: SchemaFileOptions
    let migrations: MigrationsOptions
    let extensions: [SQLiteExtension]

    /// `strata schema` with the options of this run that choose the file and the migrations
    /// (and `--database` to write from a database), so the file it writes is the one meant.
    func command(database: String? = nil) -> String {
      var words = ["\(CommandLineTool.name) schema"]
      func add(_ option: Option<String?>, _ value: String?) {
        if let value { words.append("--\(option.spec.name) \(SchemaFileRun.shellWord(value))") }
      }
      if let database { words.append("--database \(SchemaFileRun.shellWord(database))") }
      add(CommonOptions.settings, schemaFile.settings)
      add(CommonOptions.schemaFile, schemaFile.schemaFile)
      if database == nil {
        add(CommonOptions.migrations, migrations.folder)
        if let format = migrations.format {
          words.append("--migration-format \(format.rawValue)")
        }
        for glob in migrations.exclude {
          words.append("--exclude \(SchemaFileRun.shellWord(glob))")
        }
        if migrations.followSymlinks { words.append("--follow-symlinks") }
      }
      for library in extensions {
        let text = library.path + (library.entryPoint.map { ":" + $0 } ?? "")
        words.append("--load-extension \(SchemaFileRun.shellWord(text))")
      }
      return words.joined(separator: " ")
    }
  }

  /// `text` as one shell word: as it is when it has no character the shell reads, else in
  /// single quotes.
  fileprivate static func shellWord(_ text: String) -> String {
    let plain =
      !text.isEmpty
      && text.unicodeScalars.allSatisfy {
        $0.isASCII
          && (CharacterSet.alphanumerics.contains($0) || "_-./:=@%+,".unicodeScalars.contains($0))
      }
    return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}

/// A schema file that was not written or is not current, in the CLI's words.
struct SchemaFileFailure: StrataError {
  let message: String
  let help: String
  let underlyingError: (any Error)?
}

extension SchemaFileRun {
  /// The schema file in `status`'s JSON: its path, its state (`current`, `missing`, `stale`,
  /// `notCompared`, `unreadable`), and for any other state than current the first differing
  /// line and the message and help the text output prints.
  struct StatusReport: Encodable {
    let path: String
    let state: String
    var line: Int?
    var found: String?
    var expected: String?
    var message: String?
    var help: String?

    var isCurrent: Bool { state == "current" }

    /// The few words `status` prints after the path.
    var summary: String {
      switch state {
      case "current": "current: what the migrations produce"
      case "stale": "stale from line \(line ?? 1)"
      case "notCompared": "not compared"
      default: state
      }
    }
  }

  /// `file` compared with the schema `migrations` produce; a replay that cannot be trusted or a
  /// file that cannot be read is a state too, never a claim that the file is stale or current.
  static func status(
    _ file: SchemaFile,
    _ migrations: MigrationSet,
    _ configuration: ConnectionConfiguration,
    _ rewrite: Rewrite
  ) -> StatusReport {
    let rewrite = rewrite.command()
    let error: any Error
    let state: String
    var difference: SchemaFileDifference?
    do {
      try file.check(against: migrations, configuration: configuration)
      return StatusReport(path: file.displayPath, state: "current")
    } catch let failure as SchemaFileError {
      error = failure
      switch failure {
      case .missing: state = "missing"
      case .stale(_, let found):
        state = "stale"
        difference = found
      case .notRead: state = "unreadable"
      default: state = "notCompared"
      }
    } catch let other {
      error = other
      state = "notCompared"
    }
    let said =
      (error as? SchemaFileError).map { failure($0, rewrite: rewrite) }
      ?? SchemaFileFailure(
        message: "the schema file \(file.displayPath) could not be compared with what the "
          + "migrations produce: \(ErrorOutput.describe(error).message)",
        help: "Fix the problem above, then check again.",
        underlyingError: error
      )
    return StatusReport(
      path: file.displayPath,
      state: state,
      line: difference?.line,
      found: difference?.found,
      expected: difference?.expected,
      message: said.message,
      help: said.help
    )
  }
}
