import Foundation
import Strata
import StrataTestSupport

/// A database file with a schema and a folder of seed files, for one test.
final class SeedFixture {
  let folder: TemporaryDirectory
  let database: URL
  let connection: Connection

  /// The sample project's tables after its migrations.
  static let sampleSchema = """
    CREATE TABLE person_info (
      id   INTEGER PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      age  INTEGER CHECK (age IS NULL OR age >= 0)
    );
    CREATE TABLE student (
      stuID    TEXT PRIMARY KEY,
      stuName  TEXT NOT NULL,
      stuAge   INTEGER,
      stuClass TEXT,
      email    TEXT
    );
    """

  init(schema: String = SeedFixture.sampleSchema) throws {
    folder = try TemporaryDirectory()
    database = folder.path("data.sqlite3")
    connection = try Connection(path: database.path)
    try connection.execute("PRAGMA foreign_keys = ON")
    try connection.executeScript(schema)
  }

  /// Writes `seeds/<name>` and returns it as a seed file.
  @discardableResult
  func csv(_ name: String, _ text: String, table: String? = nil) throws -> SeedFile {
    try bytes(name, Array(text.utf8), table: table)
  }

  @discardableResult
  func bytes(_ name: String, _ bytes: [UInt8], table: String? = nil) throws -> SeedFile {
    let url = folder.path("seeds/" + name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    try Data(bytes).write(to: url)
    return SeedFile(url: url, table: table, displayPath: "seeds/" + name)
  }

  var seeder: Seeder { Seeder(connection: connection) }

  func seed(_ files: [SeedFile], mode: SeedMode = .missing) throws -> SeedReport {
    try seeder.seed(files, options: SeedOptions(mode: mode))
  }

  /// Seeds and returns the `SeedError` thrown (nil when it succeeded).
  func seedError(_ files: [SeedFile], mode: SeedMode = .missing) -> SeedError? {
    do {
      _ = try seed(files, mode: mode)
      return nil
    } catch let error as SeedError {
      return error
    } catch {
      return nil
    }
  }

  func rows(_ sql: String) throws -> [[SQLValue]] {
    try connection.rows(sql)
  }

  func count(_ table: String) throws -> Int64 {
    try connection.scalar("SELECT count(*) FROM \(quoteIdentifier(table))")?.integerValue ?? -1
  }
}
