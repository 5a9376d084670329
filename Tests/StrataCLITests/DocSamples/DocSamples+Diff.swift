import Foundation
import StrataTestSupport

/// The samples of docs/diff.md: one project of owners and their pets, and the desired schemas
/// a developer writes for it.
extension DocSamples {
  static let diff = [
    DocSample(
      name: "diff-add",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsWithEmail) },
      commands: ["strata diff --schema desired.sql"]
    ),
    DocSample(
      name: "diff-new",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsWithEmail) },
      commands: [
        "strata new owner_email --from-schema desired.sql",
        "strata migrate --quiet",
        "strata diff --schema desired.sql",
      ]
    ),
    DocSample(
      name: "diff-rebuild",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsRequired) },
      commands: ["strata diff --schema desired.sql"]
    ),
    DocSample(
      name: "diff-rename-refused",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsRenamed) },
      commands: [
        "strata diff --schema desired.sql",
        "strata diff --schema desired.sql --rename owner.name=full_name --quiet",
      ]
    ),
    DocSample(
      name: "diff-destructive",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsWithoutNickname) },
      commands: ["strata diff --schema desired.sql --allow-destructive"]
    ),
    DocSample(
      name: "diff-check-failed",
      style: .console,
      fixture: { try writePetProject(into: $0, desired: petsChecked) },
      commands: ["strata diff --schema desired.sql"]
    ),
  ]

  /// The schema the migration makes, as a developer keeps it in desired.sql.
  static let petSchema = """
    CREATE TABLE owner (
      id   INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT NOT NULL,
      nickname TEXT
    );
    CREATE TABLE pet (
      id       INTEGER PRIMARY KEY,
      owner_id INTEGER NOT NULL REFERENCES owner (id) ON DELETE CASCADE,
      name     TEXT,
      age      INTEGER
    );
    CREATE INDEX pet_owner ON pet (owner_id);
    CREATE VIEW pet_names AS SELECT pet.name AS pet, owner.name AS owner
      FROM pet JOIN owner ON owner.id = pet.owner_id;

    """

  static let petMigration = """
    -- migrate:up
    \(petSchema)
    -- migrate:down
    DROP VIEW pet_names;
    DROP TABLE pet;
    DROP TABLE owner;

    """

  static let petsWithEmail = petSchema.replacingOccurrences(
    of: "  nickname TEXT\n",
    with: "  nickname TEXT,\n  email TEXT\n"
  )
  static let petsRequired = petSchema.replacingOccurrences(
    of: "  name     TEXT,",
    with: "  name     TEXT NOT NULL DEFAULT 'unnamed',"
  )
  static let petsRenamed = petSchema.replacingOccurrences(
    of: "  name TEXT NOT NULL,",
    with: "  full_name TEXT NOT NULL,"
  ).replacingOccurrences(of: "owner.name AS owner", with: "owner.full_name AS owner")
  static let petsWithoutNickname = petSchema.replacingOccurrences(
    of: "  name TEXT NOT NULL,\n  nickname TEXT\n",
    with: "  name TEXT NOT NULL\n"
  )
  static let petsChecked = petSchema.replacingOccurrences(
    of: "  age      INTEGER\n",
    with: "  age      INTEGER CHECK (age BETWEEN 10 AND 30)\n"
  )

  @Sendable static func writePetProject(into dir: TemporaryDirectory, desired: String) throws {
    try dir.write("migrations/0001_pets.sql", petMigration)
    try dir.write("desired.sql", desired)
  }
}
