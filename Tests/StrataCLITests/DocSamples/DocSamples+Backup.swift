import Foundation

/// The samples of docs/migrations.md's "Backups and restore" section.
extension DocSamples {
  static let backup = [
    DocSample(
      name: "backup-restore",
      style: .console,
      fixture: { try writeFailingFourthMigration(into: $0) },
      setup: ["strata migrate --database app.sqlite3 --to 1 --quiet"],
      commands: [
        "strata migrate --database app.sqlite3 --backup",
        "strata restore --database app.sqlite3 --list",
        "strata restore --database app.sqlite3",
        "strata restore --database app.sqlite3 --force",
      ]
    )
  ]
}
