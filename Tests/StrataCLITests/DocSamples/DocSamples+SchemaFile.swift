import Foundation
import StrataTestSupport

/// The samples of docs/schema-file.md.
extension DocSamples {
  static let schemaFile = [
    DocSample(
      name: "schema-file-migrate",
      style: .console,
      fixture: writePeopleProject,
      commands: ["strata migrate --database app.sqlite3", "cat schema.sql"]
    ),
    DocSample(
      name: "schema-file-check",
      style: .console,
      fixture: writePeopleProject,
      setup: [
        "strata migrate --database app.sqlite3 --quiet",
        "printf 'CREATE INDEX person_email ON person (email);\\n' > migrations/0003_email_index.sql",
      ],
      commands: [
        "strata schema --check",
        "strata status --database app.sqlite3 --check",
        "strata migrate --database app.sqlite3",
        "strata schema --check",
      ]
    ),
    DocSample(
      name: "schema-file-json",
      style: .output,
      fixture: writePeopleProject,
      setup: [
        "strata migrate --database app.sqlite3 --quiet",
        "printf 'CREATE INDEX person_email ON person (email);\\n' > migrations/0003_email_index.sql",
      ],
      commands: [
        "strata status --database app.sqlite3 --format json | sed -n '/\"schemaFile\"/,/^  }/p'"
      ]
    ),
    DocSample(
      name: "schema-file-not-written",
      style: .console,
      fixture: writePeopleProject,
      commands: ["strata migrate --database app.sqlite3 --schema-file db/schema.sql"]
    ),
  ]

  /// Two migrations (a person table, then its email column) and a `strata.toml` that keeps
  /// `schema.sql`.
  @Sendable static func writePeopleProject(into dir: TemporaryDirectory) throws {
    try dir.write(
      "migrations/0001_person.sql",
      """
      -- migrate:up
      CREATE TABLE person (
        id   INTEGER PRIMARY KEY,
        name TEXT NOT NULL
      );
      -- migrate:down
      DROP TABLE person;

      """
    )
    try dir.write(
      "migrations/0002_email.sql",
      """
      -- migrate:up
      ALTER TABLE person ADD COLUMN email TEXT;
      -- migrate:down
      ALTER TABLE person DROP COLUMN email;

      """
    )
    try dir.write("strata.toml", "[schema]\nfile = \"schema.sql\"\n")
  }
}
