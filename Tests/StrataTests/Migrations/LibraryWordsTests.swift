import Foundation
import Testing

@testable import Strata

/// The library's messages and help speak of options by their library names, never by a CLI
/// flag or environment variable (the CLI adds those: `CommandLineHelpTests`).
@Suite struct LibraryWordsTests {
  static let migrationErrors: [MigrationError] = [
    .folderUnusable(path: "m", reason: "not a folder"),
    .directoryNotFound(path: "m"),
    .noVersionLeft(file: "m/9223372036854775807_x.sql"),
    .formatProblem(file: "m/1_a.sql", line: 1, format: .goose, reason: "x"),
    .mixedFormats(directory: "m", formats: ["goose", "sqlx"], files: ["m/1_a.sql", "m/2_b.sql"]),
    .changedAfterApplied(version: 1, file: "m/1_a.sql", recorded: "ab", current: "cd"),
    .unknownApplied(versions: [9], newestKnown: 1, directory: "m"),
    .outOfOrder(versions: [2], newestApplied: 3),
    .noTransactionInSingleTransaction(version: 1, file: "m/1_a.sql", format: .dbmate),
    .rollbackFileMissing(version: 2),
  ]

  @Test(arguments: migrationErrors)
  func migrationMessagesNameNoFlag(error: MigrationError) {
    for text in [error.message, error.help] {
      #expect(!text.contains("--"), "\(text)")
      #expect(!text.contains("STRATA_"), "\(text)")
    }
  }

  static let seedErrors: [SeedError] = [
    .noKey(file: "p.csv", table: "p", mode: .missing, uniqueKeys: [["id"]]),
    .emptyKey(file: "p.csv", line: 2, column: 1, name: "id", mode: .upsert),
    .cascadingReplace(file: "p.csv", table: "p", children: ["c"]),
  ]

  @Test(arguments: seedErrors)
  func seedModeMessagesNameNoFlag(error: SeedError) {
    for text in [error.message, error.help] {
      #expect(!text.contains("--"), "\(text)")
    }
  }
}
