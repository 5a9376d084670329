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
    ("run_in_transaction = false\n[migration]\n", 2, "this line is not a key and a value"),
    ("run_in_transaction = yes\n", 1, "takes true or false, not 'yes'"),
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

  /// Every kind of line the line-by-line reader refused before `metadata.toml` went through the
  /// TOML reader, with that reader's message, byte for byte (taken from the old binary's output).
  @Test(arguments: [
    // fmt-diesel-meta-badtoml
    (
      "this is not toml\n",
      "metadata.toml:1: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // fmt-diesel-meta-dup
    (
      "run_in_transaction = false\nrun_in_transaction = true\n",
      "metadata.toml:2: run_in_transaction is set again here (first on line 1); TOML refuses a key set twice, and so does diesel"
    ),
    // fmt-diesel-meta-section
    (
      "[x]\nrun_in_transaction = false\n",
      "metadata.toml:1: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // meta-06
    (
      "run_in_transaction = False\n",
      "metadata.toml:1: run_in_transaction takes true or false, not 'False'"
    ),
    // meta-08
    (
      "run_in_transaction =\n",
      "metadata.toml:1: run_in_transaction takes true or false, not ''"
    ),
    // meta-09
    (
      "run_in_transaction = false x\n",
      "metadata.toml:1: run_in_transaction takes true or false, not 'false x'"
    ),
    // meta-13
    (
      "a.b = 1\n",
      "metadata.toml:1: strata reads only run_in_transaction from diesel's metadata.toml; 'a.b' is refused rather than ignored, since strata would not do what it asks"
    ),
    // meta-14
    (
      "run_in_transaction = [false]\n",
      "metadata.toml:1: run_in_transaction takes true or false, not '[false]'"
    ),
    // meta-15
    (
      "run_in_transaction = { x = \"y\" }\n",
      "metadata.toml:1: run_in_transaction takes true or false, not '{ x = \"y\" }'"
    ),
    // meta-16
    (
      "[[x]]\n",
      "metadata.toml:1: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // meta-17
    (
      "run_in_transaction = \"\"\"x\"\"\"\n",
      "metadata.toml:1: run_in_transaction takes true or false, not '\"\"\"x\"\"\"'"
    ),
    // meta-18
    (
      "run_in_transaction = 1.5\n",
      "metadata.toml:1: run_in_transaction takes true or false, not '1.5'"
    ),
    // meta-19
    (
      "run_in_transaction = 1979-05-27\n",
      "metadata.toml:1: run_in_transaction takes true or false, not '1979-05-27'"
    ),
    // meta-21
    (
      "= false\n",
      "metadata.toml:1: strata reads only run_in_transaction from diesel's metadata.toml; '' is refused rather than ignored, since strata would not do what it asks"
    ),
    // meta-22
    (
      "run_in_transaction = false = true\n",
      "metadata.toml:1: run_in_transaction takes true or false, not 'false = true'"
    ),
    // meta-23
    (
      "[x\n",
      "metadata.toml:1: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // meta-27
    (
      "x = \"unterminated\n",
      "metadata.toml:1: strata reads only run_in_transaction from diesel's metadata.toml; 'x' is refused rather than ignored, since strata would not do what it asks"
    ),
    // meta-30
    (
      "run_in_transaction = false\n\n\n[ ]\n",
      "metadata.toml:4: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // meta-31
    (
      "run_in_transaction = tru\n",
      "metadata.toml:1: run_in_transaction takes true or false, not 'tru'"
    ),
    // meta-32
    (
      "ключ = 1\n",
      "metadata.toml:1: strata reads only run_in_transaction from diesel's metadata.toml; 'ключ' is refused rather than ignored, since strata would not do what it asks"
    ),
    // meta-34
    (
      "[run_in_transaction]\n",
      "metadata.toml:1: strata reads only 'run_in_transaction = true|false' from diesel's metadata.toml, and this line is not a key and a value"
    ),
    // meta-36
    (
      "x = \"\\q\"\n",
      "metadata.toml:1: strata reads only run_in_transaction from diesel's metadata.toml; 'x' is refused rather than ignored, since strata would not do what it asks"
    ),
    // meta-39
    (
      "run_in_transaction = true\nrun_in_transaction = true\n",
      "metadata.toml:2: run_in_transaction is set again here (first on line 1); TOML refuses a key set twice, and so does diesel"
    ),
  ])
  func metadataRefusalsKeepTheirOldWords(toml: String, message: String) throws {
    let error = #expect(throws: MigrationError.self) {
      try DieselReader.runsInTransaction(metadata: Array(toml.utf8), file: "metadata.toml")
    }
    #expect(error?.message == message)
  }

  /// The two departures decisions.md records: a line the TOML reader cannot read is reported
  /// (in the old words) before a refused key or header on an earlier line; a literal-quoted key
  /// is the key TOML says it is.
  @Test func metadataDeparturesAreTheRecordedOnes() throws {
    for toml in ["foo = 1\nthis is not toml\n", "[a]\n[a]\n"] {
      let error = #expect(throws: MigrationError.self) {
        try DieselReader.runsInTransaction(metadata: Array(toml.utf8), file: "metadata.toml")
      }
      #expect(
        error?.message
          == "metadata.toml:2: strata reads only 'run_in_transaction = true|false' from "
          + "diesel's metadata.toml, and this line is not a key and a value"
      )
    }
    let literal = "'run_in_transaction' = false\n"
    #expect(try !DieselReader.runsInTransaction(metadata: Array(literal.utf8), file: "m"))
  }
}
