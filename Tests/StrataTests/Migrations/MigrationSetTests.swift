import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct MigrationSetTests {
  @Test func readsDbmateMarkersAndOptions() throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "m/0001_create.sql",
      """
      -- a comment before the marker
      -- migrate:up
      CREATE TABLE a (x);

      -- migrate:down
      DROP TABLE a;
      """
    )
    try dir.write("m/0002_vacuum.sql", "-- migrate:up transaction:false\nVACUUM;\n")
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations.map(\.version) == [1, 2])
    let first = set.migrations[0]
    #expect(first.name == "create")
    #expect(first.up.firstLine == 3)
    #expect(first.up.sql.contains("CREATE TABLE a"))
    #expect(first.down?.firstLine == 6)
    #expect(first.down?.sql.contains("DROP TABLE a") == true)
    #expect(first.up.file == "m/0001_create.sql")
    #expect(set.migrations[1].up.isTransactional == false)
    #expect(set.migrations[1].down == nil)
  }

  @Test func noMarkersMeansUpOnlyAndIrreversible() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/7_plain.sql", "CREATE TABLE a (x);\n")
    let set = try MigrationSet(directory: dir.path("m"))
    #expect(set.migrations[0].version == 7)
    #expect(set.migrations[0].down == nil)
    #expect(set.migrations[0].up.firstLine == 1)
  }

  @Test func golangMigratePairs() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_users.up.sql", "CREATE TABLE users (id);\n")
    try dir.write("m/0001_users.down.sql", "DROP TABLE users;\n")
    try dir.write("m/0002_only_up.up.sql", "CREATE TABLE b (id);\n")
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations.count == 2)
    #expect(set.migrations[0].down?.file == "m/0001_users.down.sql")
    #expect(set.migrations[0].up.file == "m/0001_users.up.sql")
    #expect(set.migrations[1].down == nil)
  }

  @Test func timestampVersions() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/20261129120000_a.sql", "CREATE TABLE a (x);")
    try dir.write("m/20261129130000_b.sql", "CREATE TABLE b (x);")
    let set = try MigrationSet(directory: dir.path("m"))
    #expect(set.migrations.map(\.version) == [20_261_129_120_000, 20_261_129_130_000])
  }

  @Test func checksumIgnoresBOMAndLineEndings() throws {
    let dir = try TemporaryDirectory()
    try dir.write(
      "a/0001_x.sql",
      "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;\n"
    )
    try dir.write(
      "b/0001_x.sql",
      "\u{FEFF}-- migrate:up\r\nCREATE TABLE a (x);\r\n-- migrate:down\r\nDROP TABLE a;\r\n"
    )
    let a = try MigrationSet(directory: dir.path("a")).migrations[0]
    let b = try MigrationSet(directory: dir.path("b")).migrations[0]
    #expect(a.checksum == b.checksum)
    #expect(a.checksum == SHA256.hex("CREATE TABLE a (x);".utf8))
  }

  @Test func editingTheDownPartKeepsTheChecksum() throws {
    let dir = try TemporaryDirectory()
    try dir.write("a/0001_x.sql", "-- migrate:up\nCREATE TABLE a (x);\n")
    try dir.write(
      "b/0001_x.sql",
      "-- migrate:up\nCREATE TABLE a (x);\n-- migrate:down\nDROP TABLE a;"
    )
    let a = try MigrationSet(directory: dir.path("a")).migrations[0]
    let b = try MigrationSet(directory: dir.path("b")).migrations[0]
    #expect(a.checksum == b.checksum)
  }

  @Test func fileNameWithoutVersionIsRejected() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_ok.sql", "CREATE TABLE a (x);")
    try dir.write("m/abc.sql", "CREATE TABLE b (x);")
    #expect(throws: MigrationError.invalidFileName(file: "m/abc.sql")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  @Test(arguments: ["0001_.sql", "_x.sql"])
  func malformedNamesAreRejected(name: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/\(name)", "CREATE TABLE b (x);")
    #expect(throws: MigrationError.invalidFileName(file: "m/\(name)")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  /// Version 0 is the version of a database with nothing applied; no file may have it.
  @Test(arguments: ["0_a.sql", "000_a.up.sql"])
  func versionZeroIsRefused(name: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/\(name)", "CREATE TABLE b (x);")
    #expect(throws: MigrationError.versionZero(file: "m/\(name)")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  /// A version beyond 64 bits is its own error, not "must start with a version number".
  @Test(arguments: ["99999999999999999999_big.sql", "9223372036854775808_x.up.sql"])
  func versionsBeyond64BitsAreNamedAsSuch(name: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/\(name)", "CREATE TABLE b (x);")
    #expect(throws: MigrationError.versionTooLarge(file: "m/\(name)")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  // Found by the migration-file fuzz target: an up and a down file of one version but with
  // different names were silently paired.
  @Test func upAndDownFilesMustShareTheirName() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0003_add_email.up.sql", "ALTER TABLE t ADD COLUMN email;\n")
    try dir.write("m/0003_add_phone.down.sql", "ALTER TABLE t DROP COLUMN phone;\n")
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    #expect(
      error
        == .mismatchedPair(
          version: 3,
          up: "m/0003_add_email.up.sql",
          down: "m/0003_add_phone.down.sql"
        )
    )
    #expect(error?.message.contains("different names") == true)
    #expect(error?.help.contains("0003_add_email.down.sql") == true)
  }

  @Test func aFileWithANulByteIsRefusedWithItsLine() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_a.sql", "CREATE TABLE a (x);\n\u{0}\n")
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    #expect(
      error?.message
        == "cannot read m/0001_a.sql: it holds a NUL byte (0x00) on line 2, so it is not SQL text"
    )
  }

  @Test func aFileOfOnlyEmptyStatementsIsEmpty() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_a.sql", ";\n;\n")
    #expect(throws: MigrationError.emptyMigration(file: "m/0001_a.sql")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  @Test func twoFilesWithOneVersionAreRejected() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0003_add_email.sql", "SELECT 1;")
    try dir.write("m/0003_add_phone.sql", "SELECT 1;")
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    #expect(
      error
        == .duplicateVersion(version: 3, files: ["m/0003_add_email.sql", "m/0003_add_phone.sql"])
    )
    #expect(
      error?.message == "two migrations have version 3: m/0003_add_email.sql, m/0003_add_phone.sql"
    )
  }

  @Test func versionsDifferingOnlyInZeroPaddingAreDuplicates() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/1_a.sql", "SELECT 1;")
    try dir.write("m/0001_b.sql", "SELECT 1;")
    #expect(throws: MigrationError.self) { try MigrationSet(directory: dir.path("m")) }
  }

  @Test func downWithoutUpIsRejected() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_x.down.sql", "DROP TABLE a;")
    #expect(throws: MigrationError.downWithoutUp(file: "m/0001_x.down.sql")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  @Test(arguments: [
    "", "   \n\n", "-- only a comment\n", "-- migrate:up\n\n-- migrate:down\nDROP TABLE a;",
  ])
  func emptyMigrationIsRejected(content: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_empty.sql", content)
    #expect(throws: MigrationError.emptyMigration(file: "m/0001_empty.sql")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  @Test func unreadableFileIsRejected() throws {
    let dir = try TemporaryDirectory()
    // A folder named like a migration cannot be read as a file, even by root.
    try FileManager.default.createDirectory(
      at: dir.path("m/0001_folder.sql"),
      withIntermediateDirectories: true
    )
    let error = #expect(throws: MigrationError.self) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    #expect(error?.message.hasPrefix("cannot read m/0001_folder.sql") == true)
  }

  @Test func invalidUTF8IsRejected() throws {
    let dir = try TemporaryDirectory()
    try Data([0x53, 0x45, 0xFF, 0xFE]).write(to: dir.path("0001_bin.sql"))
    #expect(throws: MigrationError.unreadable(file: "m/0001_bin.sql", reason: "not UTF-8 text")) {
      try MigrationSet(directory: dir.url, displayPath: "m")
    }
  }

  @Test(arguments: [
    (
      "-- migrate:up\nSELECT 1;\n-- migrate:down\nSELECT 2;\n-- migrate:down\nSELECT 3;", 5,
      "a second '-- migrate:down' marker after one '-- migrate:up' (each '-- migrate:up' "
        + "starts a section with at most one down part)"
    ),
    ("-- migrate:sideways\nSELECT 1;", 1, "unknown marker '-- migrate:sideways'"),
    (
      "-- migrate:up transaction:maybe\nSELECT 1;", 1,
      "unknown option 'transaction:maybe' after '-- migrate:up'"
    ),
    ("SELECT 0;\n-- migrate:up\nSELECT 1;", 1, "SQL before the first '-- migrate:' marker"),
    ("-- migrate:down\nDROP TABLE a;", 1, "'-- migrate:down' without a '-- migrate:up' part"),
  ])
  func badMarkersAreRejectedWithTheirLine(content: String, line: Int, reason: String) throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0001_x.sql", content)
    #expect(throws: MigrationError.invalidMarker(file: "m/0001_x.sql", line: line, reason: reason))
    {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
  }

  /// Files are read in parallel; the error is still the first bad file in version order, and
  /// the migrations come out sorted.
  @Test func firstBadFileInVersionOrderIsReported() throws {
    let dir = try TemporaryDirectory()
    for version in 1...60 {
      let name = String(format: "%04d_step.sql", version)
      let content = version == 17 || version == 45 ? "-- nothing yet\n" : "SELECT \(version);"
      try dir.write("m/\(name)", content)
    }
    #expect(throws: MigrationError.emptyMigration(file: "m/0017_step.sql")) {
      try MigrationSet(directory: dir.path("m"), displayPath: "m")
    }
    try dir.write("m/0017_step.sql", "SELECT 17;")
    try dir.write("m/0045_step.sql", "SELECT 45;")
    let set = try MigrationSet(directory: dir.path("m"), displayPath: "m")
    #expect(set.migrations.map(\.version) == (1...60).map { MigrationVersion(integer: Int64($0)) })
    #expect(set.migrations[44].up.sql == "SELECT 45;")
  }

  @Test func missingFolderIsAnError() throws {
    let dir = try TemporaryDirectory()
    #expect(throws: MigrationError.directoryNotFound(path: "nope")) {
      try MigrationSet(directory: dir.path("nope"), displayPath: "nope")
    }
  }

  @Test func otherFilesAreIgnored() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/README.md", "notes")
    try dir.write("m/.0001_hidden.sql", "garbage")
    try dir.write("m/0001_a.sql", "SELECT 1;")
    #expect(try MigrationSet(directory: dir.path("m")).migrations.count == 1)
  }

  @Test func newMigrationFileFollowsTheFoldersWidth() throws {
    let dir = try TemporaryDirectory()
    try dir.write("m/0004_a.sql", "SELECT 1;")
    let url = try MigrationSet.createMigrationFile(in: dir.path("m"), name: "Add Email")
    #expect(url.lastPathComponent == "0005_add_email.sql")
    let text = try String(contentsOf: url, encoding: .utf8)
    #expect(text.contains("-- migrate:up") && text.contains("-- migrate:down"))

    let stamp = try MigrationSet.createMigrationFile(in: dir.path("ts"), name: "first")
    #expect(stamp.lastPathComponent == "0001_first.sql")

    try dir.write("t/20260101000000_a.sql", "SELECT 1;")
    let next = try MigrationSet.createMigrationFile(
      in: dir.path("t"),
      name: "b",
      now: Date(timeIntervalSince1970: 1_800_000_000)
    )
    #expect(next.lastPathComponent == "20270115080000_b.sql")
    #expect(throws: MigrationError.invalidName(name: "drop;table")) {
      try MigrationSet.createMigrationFile(in: dir.path("m"), name: "drop;table")
    }
  }
}
