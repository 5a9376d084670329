import Foundation
import StrataTestSupport
import Testing

/// Applies a migration folder with the real `strata` and, beside it, with the sqlite3 shell
/// running what the folder's own tool runs; then rolls both back one migration at a time as
/// far as the down parts go, and applies both again. The schemas and rows must match at every
/// step.
struct RealFolderCheck {
  let folder: URL
  let format: ReferenceFormat
  /// Options strata needs for this folder, such as `--exclude '*.py'`.
  var options: [String] = []
  /// false: compare the schema only, for folders whose migrations write random values or the
  /// time into rows.
  var comparesRows = true

  /// What the run found: how many migrations applied, and how many rolled back.
  struct Outcome: Equatable {
    var applied: Int
    var rolledBack: Int
    /// Whether everything rolled back applied again (false: a down part left something
    /// behind that the up part creates, and both tools stop there).
    var reapplied = true
  }

  @discardableResult
  func run(sourceLocation: SourceLocation = #_sourceLocation) throws -> Outcome {
    let dir = try TemporaryDirectory()
    let migrations = try ReferenceReader.migrations(in: folder, format: format)
    let reference = ReferenceDatabase(file: dir.path("reference.sqlite3"))
    let strataFile = dir.path("strata.sqlite3")
    let common = ["--database", strataFile.path, "--migrations", folder.path] + options

    // Apply everything.
    for migration in migrations {
      let ok = try reference.run(migration.up)
      #expect(ok, "sqlite3 failed on \(migration.file)", sourceLocation: sourceLocation)
    }
    let migrate = try StrataProcess.run(["migrate"] + common, in: dir.url)
    #expect(migrate.exitCode == 0, "\(migrate.standardError)", sourceLocation: sourceLocation)
    #expect(
      try !ReferenceDatabase.fingerprint(reference.file).isEmpty,
      "the folder built nothing",
      sourceLocation: sourceLocation
    )
    try expectSame(strataFile, reference.file, "after migrate", sourceLocation)

    // Roll back one at a time until a migration has no down part or its down part fails.
    var rolledBack = 0
    for migration in migrations.reversed() {
      guard let down = migration.down else { break }
      let before = try ReferenceDatabase.fingerprint(strataFile)
      let referenceOK = try reference.run(down)
      let rollback = try StrataProcess.run(["rollback"] + common, in: dir.url)
      #expect(
        (rollback.exitCode == 0) == referenceOK,
        "rolling back \(migration.file): sqlite3 \(referenceOK ? "succeeded" : "failed"), strata said \(rollback.standardError)",
        sourceLocation: sourceLocation
      )
      if rollback.exitCode != 0 {
        let after = try ReferenceDatabase.fingerprint(strataFile)
        #expect(
          after == before,
          "a failed rollback changed the file",
          sourceLocation: sourceLocation
        )
        break
      }
      rolledBack += 1
      try expectSame(
        strataFile,
        reference.file,
        "after rolling back \(migration.file)",
        sourceLocation
      )
    }

    // Apply again what was rolled back; where a down part left something behind, the tool
    // fails here too, and strata must fail the same way and change nothing.
    var referenceReapplied = true
    for migration in migrations.suffix(rolledBack) where referenceReapplied {
      referenceReapplied = try reference.run(migration.up)
    }
    let again = try StrataProcess.run(["migrate"] + common, in: dir.url)
    #expect(
      (again.exitCode == 0) == referenceReapplied,
      "migrating again: sqlite3 \(referenceReapplied ? "succeeded" : "failed"), strata said \(again.standardError)",
      sourceLocation: sourceLocation
    )
    try expectSame(strataFile, reference.file, "after migrating again", sourceLocation)
    return Outcome(applied: migrations.count, rolledBack: rolledBack, reapplied: referenceReapplied)
  }

  private func expectSame(
    _ strata: URL,
    _ reference: URL,
    _ when: String,
    _ sourceLocation: SourceLocation
  ) throws {
    let mine = try ReferenceDatabase.fingerprint(strata, rows: comparesRows)
    let theirs = try ReferenceDatabase.fingerprint(reference, rows: comparesRows)
    let onlyMine = mine.filter { !theirs.contains($0) }.prefix(3)
    let onlyTheirs = theirs.filter { !mine.contains($0) }.prefix(3)
    try #require(
      mine == theirs,
      "\(folder.lastPathComponent) \(when): only strata has \(onlyMine), only sqlite3 has \(onlyTheirs)",
      sourceLocation: sourceLocation
    )
  }
}
