/// The schema file (`schema.sql`) is not what the migrations produce, or could not be read,
/// compared or written. The database is never changed by anything `SchemaFile` does: a caller
/// that changed it first says so (the CLI's "app.sqlite3 was migrated to version 3, but …").
package enum SchemaFileError: StrataError, Equatable {
  /// There is no schema file at `path` to compare.
  case missing(path: String)
  /// The file differs from what the migrations produce, from `difference`'s line on.
  case stale(path: String, difference: SchemaFileDifference)
  /// The migrations could not be replayed exactly (a migration failed, or the replay skipped a
  /// statement), so whether the file is current is not known: neither stale nor current.
  case notCompared(path: String, cause: InspectionError)
  /// The migrations could not be replayed exactly, so there was nothing to write.
  case notProduced(path: String, cause: InspectionError)
  /// The file could not be read, for `problem`; nothing was compared.
  case notRead(path: String, problem: SchemaFileProblem)
  /// The file was not written, for `problem`; what was at `path` is untouched.
  case notWritten(path: String, problem: SchemaFileProblem)

  /// What is wrong, and where (`schema.sql:LINE` for a stale file).
  package var message: String {
    switch self {
    case .missing(let path):
      "the schema file \(path) does not exist, so it does not show the schema the migrations "
        + "produce"
    case .stale(let path, let difference):
      difference.message(path: path)
    case .notCompared(let path, let cause):
      "the schema file \(path) could not be compared with what the migrations produce, so it "
        + "is not known whether it is current: \(cause.message)"
    case .notProduced(let path, let cause):
      "the schema file \(path) was not written: \(cause.message)"
    case .notRead(let path, let problem):
      "the schema file \(path) could not be read: \(problem.reason)"
    case .notWritten(let path, let problem):
      "the schema file \(path) was not written: \(problem.reason)"
    }
  }

  /// What to do next: write the file again, fix the path, or the migration the replay stopped on.
  package var help: String { help { $0.description } }

  /// The migration's error behind a failed replay, or the system's behind a failed write.
  package var underlyingError: (any Error)? {
    switch self {
    case .notCompared(_, let cause), .notProduced(_, let cause): cause
    case .notRead(_, let problem), .notWritten(_, let problem): problem.underlying?.error
    case .missing, .stale: nil
    }
  }
}

extension SchemaFileError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .missing, .stale:
      sentence(say(.writeSchemaFile)) + ", review the change and commit it beside the migrations."
    case .notCompared(_, let cause), .notProduced(_, let cause):
      switch cause {
      case .replayIncomplete:
        "Make the statements named above run without a file (the replay is in memory and "
          + "refuses them), or \(say(.withoutSchemaFile)); the database was not touched."
      default:
        "Fix the migration named above, then run it again; the database was not touched."
      }
    case .notRead(_, let problem):
      problem.help(saying: say) + "."
    case .notWritten(_, let problem):
      problem.help(saying: say) + "; then \(say(.writeSchemaFile))."
    }
  }
}

/// Why a schema file could not be read or written.
package enum SchemaFileProblem: Equatable, Sendable {
  /// The path is a directory.
  case directory
  /// The path is something other than a file (`kind`: "a named pipe (FIFO)", …).
  case notRegularFile(kind: String)
  /// The path cannot be followed (a link loop, a dangling link, a folder without search
  /// permission); `reason` names the real problem.
  case unreachable(reason: String)
  /// The folder that would hold the file does not exist.
  case folderMissing(folder: String)
  /// The folder that would hold the file is not writable.
  case folderNotWritable(folder: String)
  /// The path leads, through a symbolic link, to `target`, outside the project folder
  /// `project`: strata neither reads nor writes a schema file there.
  case linkOutOfProject(target: String, project: String)
  /// The file holds text strata did not write (its first line is not a strata header), so it is
  /// not replaced: a schema file named by mistake (a migration, a README) is never lost.
  case notWrittenByStrata
  /// The system refused (`reason`: its words; `underlying`: its error).
  case system(reason: String, underlying: UnderlyingError? = nil)

  /// What is wrong with the path, in a clause.
  package var reason: String {
    switch self {
    case .directory: "it is a directory, not a file"
    case .notRegularFile(let kind): "it is \(kind), not a regular file"
    case .unreachable(let reason): reason
    case .folderMissing(let folder): "its folder \(folder) does not exist"
    case .folderNotWritable(let folder): "its folder \(folder) is not writable"
    case .linkOutOfProject(let target, let project):
      "it leads through a symbolic link to \(target), outside the project folder \(project); "
        + "strata neither reads nor writes a schema file out of the project"
    case .notWrittenByStrata:
      "it holds text strata did not write (its first line is not strata's schema file header), "
        + "so strata will not replace it"
    case .system(let reason, _): reason
    }
  }

  /// The system's error, when one is kept.
  var underlying: UnderlyingError? {
    if case .system(_, let underlying) = self { return underlying }
    return nil
  }

  /// What to do about it, as a sentence without its full stop.
  func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .directory, .notRegularFile, .unreachable:
      sentence(say(.otherSchemaFile))
    case .folderMissing(let folder):
      sentence(say(.createFolder(folder)))
    case .folderNotWritable(let folder):
      sentence(say(.makeWritable("the folder", path: folder)))
    case .linkOutOfProject:
      "Name the file's real path if it is meant to be there, or " + say(.otherSchemaFile)
    case .notWrittenByStrata:
      "Move that file away if strata should keep the schema file there, or "
        + say(.otherSchemaFile)
    case .system:
      "Fix what the system reported (free space on the disk, the file's permissions)"
    }
  }
}

/// The first line where a schema file and the schema the migrations produce part ways.
package struct SchemaFileDifference: Hashable, Sendable, Codable {
  /// The 1-based line of the file where they differ.
  package let line: Int
  /// The file's text on that line; nil when the file ends before it. When the migrations'
  /// schema ends there, the file's first line with text from there on.
  package let found: String?
  /// The line the migrations' schema has there; nil when it ends before it. When the file ends
  /// there, the schema's first line with text from there on.
  package let expected: String?

  /// A difference at `line`.
  package init(line: Int, found: String?, expected: String?) {
    self.line = line
    self.found = found
    self.expected = expected
  }

  /// `schema.sql:7 is not what the migrations produce: …`.
  func message(path: String) -> String {
    switch (found, expected) {
    case (let found?, let expected?):
      "\(path):\(line) is not what the migrations produce: the file has \(Self.quoted(found)), "
        + "the migrations give \(Self.quoted(expected))"
    case (nil, let expected?):
      "\(path) ends before line \(line), but the migrations produce more from there: "
        + Self.quoted(expected)
    case (let found?, nil):
      "\(path):\(line) is past the end of what the migrations produce: the file has "
        + Self.quoted(found)
    case (nil, nil):
      "\(path):\(line) is not what the migrations produce"
    }
  }

  /// A line between backquotes, cut after 100 characters: enough to see which statement.
  private static func quoted(_ line: String) -> String {
    guard !line.isEmpty else { return "an empty line" }
    let shown = line.count > 100 ? line.prefix(100) + "…" : Substring(line)
    return "`\(shown)`"
  }
}
