import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The readers behind `MigrationFolderReader`: each claims only its own folders, so the order
/// `MigrationSet` asks them in decides nothing a folder's files do not; and diesel's
/// `metadata.toml` read by the settings' TOML reader says where and why it is refused.
@Suite struct MigrationFolderReaderTests {
  /// Files held in memory, as the fuzzer and `MigrationSet(files:)` give them.
  func folder(_ files: [String: String]) -> MigrationFolderFiles {
    let bytes = files.mapValues { Array($0.utf8) }
    return MigrationFolderFiles(
      listed: Array(files.keys),
      shown: "m",
      path: nil,
      exclusion: MigrationFileExclusion(),
      flywaySettings: { FlywaySettings() }
    ) { name in
      bytes[name].map { .success($0) } ?? .failure("no such file")
    }
  }

  @Test func namedFilesAreReadByTheLastReaderAlone() throws {
    let files = folder(["0001_a.sql": "-- +goose Up\nCREATE TABLE a (x);\n"])
    #expect(try DieselReader.read(files, format: nil) == nil)
    #expect(try FlywayReader.read(files, format: nil) == nil)
    let contents = try #require(try NamedFileReader.read(files, format: nil))
    #expect(contents.format == .goose && contents.migrations.map(\.version) == [1])
  }

  @Test func flywayNamesAreClaimedByFlywaysReaderUnlessAnotherFormatIsNamed() throws {
    let files = folder(["V1__a.sql": "CREATE TABLE a (x);\n"])
    let contents = try #require(try FlywayReader.read(files, format: nil))
    #expect(contents.format == .flyway && contents.migrations.map(\.name) == ["a"])
    #expect(try FlywayReader.read(files, format: .dbmate) == nil)
  }

  @Test func dieselsReaderNeedsAFolderOnDisk() throws {
    // Files in memory have no subfolders: diesel named for them leaves them to the named
    // files' reader, which refuses a whole file as diesel would.
    let files = folder(["0001_a.sql": "CREATE TABLE a (x);\n"])
    #expect(try DieselReader.read(files, format: .diesel) == nil)
    let error = #expect(throws: MigrationError.self) {
      try files.contents(format: .diesel)
    }
    #expect(error?.message.contains("diesel reads one folder per migration") == true)
  }

  @Test(arguments: [
    ("run_in_transaction = \"false\"\n", 1, "takes true or false, not '\"false\"'"),
    ("run_in_transaction = false\n[migration]\n", 2, "but the table [migration]"),
    ("run_in_transaction = yes\n", 1, "it takes true or false"),
  ])
  func metadataRefusalsSayWhatTheLineHolds(toml: String, line: Int, words: String) throws {
    let error = #expect(throws: MigrationError.self) {
      try DieselReader.runsInTransaction(metadata: Array(toml.utf8), file: "metadata.toml")
    }
    let message = error?.message ?? ""
    #expect(message.hasPrefix("metadata.toml:\(line): "), "\(message)")
    #expect(message.contains(words), "\(message)")
  }

  @Test func metadataCommentsQuotedKeysAndCRLFAreTOMLs() throws {
    let toml = "# diesel's comment\r\n\"run_in_transaction\" = false # VACUUM\r\n"
    #expect(try !DieselReader.runsInTransaction(metadata: Array(toml.utf8), file: "m"))
    #expect(try DieselReader.runsInTransaction(metadata: [], file: "m"))
  }
}
