import Foundation

/// The schema file a project commits beside its migrations (`schema.sql`): the canonical dump
/// of its schema (SQLite's own CREATE statements, in a fixed order), kept current so that a
/// reviewer sees each schema change next to the migration that makes it.
///
/// Written from a database after it changed (`write(schemaOf:)`, as dbmate and Rails dump the
/// real database, so drift shows up in review) or from the migrations alone
/// (`write(producedBy:configuration:)`, no database needed); checked against what the
/// migrations produce (`check(against:configuration:)`). Writes are atomic: a temporary file
/// beside it, synced, renamed over it, the folder synced; a crash leaves the old file or the
/// new one, never half of one. A file whose content would not change is not rewritten.
///
/// A tool for a project's checkout, not for an app at launch: `DatabaseSetup` never writes it.
package struct SchemaFile: Hashable, Sendable {
  /// Where the file is.
  package let url: URL
  /// The path as messages name it (`schema.sql`, `db/schema.sql`).
  package let displayPath: String
  /// The project folder: a path inside it that leads, through a symbolic link, out of it is
  /// neither read nor written (a link to `../.env` must not be printed or overwritten).
  package let projectFolder: URL

  /// The schema file at `url`, named `displayPath` in messages (default: its path), in the
  /// project folder `projectFolder` (default: the file's own folder).
  package init(url: URL, displayPath: String? = nil, projectFolder: URL? = nil) {
    self.url = url.standardizedFileURL
    self.displayPath = displayPath ?? url.path
    self.projectFolder = (projectFolder ?? url.deletingLastPathComponent()).standardizedFileURL
  }

  /// What a schema file holds for `schema`: its header, then the statements of
  /// `inspect --format sql` (one renderer for both).
  package static func contents(of schema: Schema) -> String {
    SQLSchemaRenderer(schema: schema, header: header).render()
  }

  /// The header every schema file starts with.
  static let header = """
    -- strata schema file: the schema the migrations produce, as SQLite stores it. strata
    -- rewrites it after it changes the database and checks it against the migrations; do not
    -- edit it by hand. Recreate the schema with: sqlite3 new.sqlite3 < schema.sql
    \(SQLSchemaRenderer.leftOut)
    """

  /// How the files strata may replace begin: its schema file, and its dump (a project that
  /// kept `strata inspect --format sql > schema.sql` before). Anything else is not replaced.
  static let ownBeginnings = ["-- strata schema file:", "-- Schema dump by 'strata inspect"]

  /// How a schema file compares with the schema it should hold.
  package enum State: Hashable, Sendable {
    /// It holds exactly that schema (line endings aside: CRLF reads as LF).
    case current
    /// There is no file.
    case missing
    /// It differs, from `difference`'s line on.
    case differs(SchemaFileDifference)
  }

  /// What a write did.
  package enum WriteOutcome: String, Hashable, Sendable, Codable {
    /// The file was written (created, or replaced with new content).
    case written
    /// The file already held that content; it was left as it was, not rewritten.
    case unchanged
  }

  /// The file compared with `expected` (a schema file's contents).
  ///
  /// - Throws: `SchemaFileError.notRead` when the path is a directory, a link out of the
  ///   project, or cannot be read.
  package func state(comparedWith expected: String) throws -> State {
    guard let text = try read() else { return .missing }
    return Self.firstDifference(text, expected).map(State.differs) ?? .current
  }

  /// The file compared with the schema `migrations` produce, replayed in memory on
  /// connections configured with `configuration`.
  ///
  /// - Throws: `SchemaFileError.notCompared` when the replay fails or skips a statement (the
  ///   file is then neither stale nor current), `.notRead` when the file cannot be read.
  package func state(
    against migrations: MigrationSet,
    configuration: ConnectionConfiguration = .none
  ) throws -> State {
    let expected: String
    do {
      let produced = try ProducedSchema(migrations, configuration: configuration)
      expected = Self.contents(of: try produced.schema())
    } catch let error as InspectionError {
      throw SchemaFileError.notCompared(path: displayPath, cause: error)
    }
    return try state(comparedWith: expected)
  }

  /// Checks that the file holds the schema `migrations` produce.
  ///
  /// - Throws: `SchemaFileError.missing` or `.stale` (naming the first differing line) when it
  ///   does not, and the errors of `state(against:configuration:)`.
  package func check(
    against migrations: MigrationSet,
    configuration: ConnectionConfiguration = .none
  ) throws {
    switch try state(against: migrations, configuration: configuration) {
    case .current: return
    case .missing: throw SchemaFileError.missing(path: displayPath)
    case .differs(let difference):
      throw SchemaFileError.stale(path: displayPath, difference: difference)
    }
  }

  /// Writes the schema of the database `connection` is open on: what a command that just
  /// changed it leaves, so that drift from the migrations shows up in review.
  ///
  /// - Throws: `SchemaFileError.notWritten` (the database is not changed by this), or the
  ///   inspection's `SQLiteError` when the schema cannot be read.
  @discardableResult
  package func write(schemaOf connection: Connection) throws -> WriteOutcome {
    try write(Self.contents(of: try SchemaInspector(connection).inspect()))
  }

  /// Writes the schema `migrations` produce in a new, empty database, replayed in memory (no
  /// database is needed or touched).
  ///
  /// - Throws: `SchemaFileError.notProduced` when the replay fails or skips a statement,
  ///   `.notWritten` when the file cannot be written.
  @discardableResult
  package func write(
    producedBy migrations: MigrationSet,
    configuration: ConnectionConfiguration = .none
  ) throws -> WriteOutcome {
    let schema: Schema
    do {
      schema = try ProducedSchema(migrations, configuration: configuration).schema()
    } catch let error as InspectionError {
      throw SchemaFileError.notProduced(path: displayPath, cause: error)
    }
    return try write(Self.contents(of: schema))
  }

  /// The first line where `text` (a file) and `expected` differ; nil when they hold the same
  /// lines. CR LF reads as LF on both sides, inside quotes too: a checkout that turned LF into
  /// CR LF (git's autocrlf) turns the line breaks of a multi-line string into CR LF as well, and
  /// still holds the same schema. (A value whose only change is a CR before a line break is
  /// therefore not seen as a change of the file; the database's own schema is compared exactly
  /// elsewhere.)
  static func firstDifference(_ text: String, _ expected: String) -> SchemaFileDifference? {
    let found = lines(text.replacingOccurrences(of: "\r\n", with: "\n"))
    let wanted = lines(expected.replacingOccurrences(of: "\r\n", with: "\n"))
    for index in 0..<max(found.count, wanted.count) {
      let have = index < found.count ? found[index] : nil
      let want = index < wanted.count ? wanted[index] : nil
      guard have != want else { continue }
      // One side ended: the other's next line with text says what is missing (or extra).
      return SchemaFileDifference(
        line: index + 1,
        found: have == nil ? nil : want == nil ? firstText(found, from: index) : have,
        expected: want == nil ? nil : have == nil ? firstText(wanted, from: index) : want
      )
    }
    return nil
  }

  /// The first line of `lines` from `index` on that is not empty (the line itself when all are).
  private static func firstText(_ lines: [String], from index: Int) -> String {
    lines[index...].first { !$0.isEmpty } ?? lines[index]
  }

  /// The lines of `text`; a final line break ends the last line, it does not start another.
  private static func lines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if text.hasSuffix("\n") { lines.removeLast() }
    return lines
  }
}
