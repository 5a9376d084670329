import Foundation
import StrataTestSupport

/// The samples of docs/lint.md.
extension DocSamples {
  static let lint = [
    DocSample(
      name: "lint-text",
      style: .console,
      fixture: writeLintMigrations,
      commands: ["strata lint"]
    ),
    DocSample(
      name: "lint-json",
      style: .output,
      fixture: writeLintMigrations,
      commands: ["strata lint --format json"],
      firstLines: 16
    ),
    DocSample(
      name: "lint-validate",
      style: .console,
      fixture: {
        try writeLintMigrations(into: $0)
        try $0.write("migrations/0002_toys.sql", "-- migrate:up\nDROP TABLE legacy_notes;\n")
        try FileManager.default.removeItem(at: $0.path("migrations/0003_rebuild_person.sql"))
      },
      setup: ["strata migrate --to 1 --quiet"],
      commands: ["strata validate"]
    ),
  ]

  /// Three migrations with the classic traps: a parent with ON DELETE CASCADE children rebuilt
  /// outside strata's transaction, INSERT OR REPLACE into it, an unindexed foreign key, VACUUM
  /// in a transactional part.
  @Sendable static func writeLintMigrations(into dir: TemporaryDirectory) throws {
    try dir.write(
      "migrations/0001_people.sql",
      """
      -- migrate:up
      CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE pet (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES person(id) ON DELETE CASCADE);
      CREATE INDEX pet_owner ON pet(owner);
      CREATE TABLE legacy_notes (body TEXT);
      -- migrate:down
      DROP TABLE legacy_notes;
      DROP TABLE pet;
      DROP TABLE person;

      """
    )
    try dir.write(
      "migrations/0002_toys.sql",
      """
      -- migrate:up
      CREATE TABLE toy (id INTEGER PRIMARY KEY, pet INTEGER REFERENCES pet(id));
      ALTER TABLE person ADD COLUMN email TEXT NOT NULL;
      INSERT OR REPLACE INTO person (id, name, email) VALUES (1, 'Ada', 'ada@example.com');
      -- strata:allow drop-table
      DROP TABLE legacy_notes;
      VACUUM;
      -- migrate:down
      DROP TABLE toy;

      """
    )
    try dir.write(
      "migrations/0003_rebuild_person.sql",
      """
      -- migrate:up transaction:false
      CREATE TABLE person_new (id INTEGER PRIMARY KEY, name TEXT, email TEXT NOT NULL DEFAULT '');
      INSERT INTO person_new SELECT id, name, email FROM person;
      DROP TABLE person;
      ALTER TABLE person_new RENAME TO person;

      """
    )
  }
}
