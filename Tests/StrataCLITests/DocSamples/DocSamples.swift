import Foundation
import Strata
import StrataTestSupport

/// Every sample output the docs show, by the name of its marker (`<!-- sample: NAME -->`).
enum DocSamples {
  static let all: [DocSample] =
    readme + migrations + seeding + values + inspect + plugin + fleet + lint + backup + diff
    + schemaFile

  static func named(_ name: String) -> DocSample? {
    all.first { $0.name == name }
  }

  // MARK: README.md

  static let readme = [
    DocSample(
      name: "quick-start",
      style: .console,
      fixture: { try copySampleProject(into: $0) },
      commands: ["strata template", "strata init", "strata init"]
    )
  ]

  // MARK: docs/build-plugin.md

  static let plugin = [
    DocSample(
      name: "template-check-stale",
      style: .console,
      fixture: { try writeTableMigrations(["person_info", "student"], into: $0) },
      setup: [
        "strata template --quiet",
        "printf 'CREATE TABLE course (x);\\n' > migrations/0003_course.sql",
      ],
      commands: ["strata template --check"]
    )
  ]

  // MARK: docs/migrations.md

  static let migrations = [
    DocSample(
      name: "migrate-changed",
      style: .console,
      fixture: { try writeTableMigrations(["a", "b"], into: $0) },
      setup: [
        "strata migrate --database app.sqlite3 --quiet",
        "printf 'CREATE TABLE b (x, y);\\n' > migrations/0002_b.sql",
      ],
      commands: ["strata migrate --database app.sqlite3"]
    ),
    DocSample(
      name: "migrate-failing-statement",
      style: .console,
      fixture: { try writeFailingFourthMigration(into: $0) },
      commands: ["strata migrate --database app.sqlite3"]
    ),
    DocSample(
      name: "adopt-status",
      style: .console,
      fixture: { try writeSQLiteMigrationManagerDatabase(into: $0) },
      commands: ["strata status --database app.sqlite3"]
    ),
    DocSample(
      name: "adopt-session",
      style: .console,
      fixture: { try writeSQLiteMigrationManagerDatabase(into: $0) },
      commands: [
        "strata migrate --database app.sqlite3",
        "strata baseline --database app.sqlite3 --from auto",
        "strata migrate --database app.sqlite3",
      ]
    ),
    DocSample(
      name: "status-goose",
      style: .console,
      fixture: {
        try $0.write(
          "migrations/00001_post.sql",
          "-- +goose Up\nCREATE TABLE post (id INTEGER PRIMARY KEY, title TEXT);\n"
            + "-- +goose Down\nDROP TABLE post;\n"
        )
        try $0.write(
          "migrations/00002_tag.sql",
          "-- +goose Up\nCREATE TABLE tag (name TEXT);\n-- +goose Down\nDROP TABLE tag;\n"
        )
      },
      commands: ["strata status --database app.sqlite3"]
    ),
    DocSample(
      name: "migrate-mixed-formats",
      style: .console,
      fixture: {
        try $0.write("migrations/0001_a.sql", "-- migrate:up\nCREATE TABLE a (x);\n")
        try $0.write("migrations/0002_b.sql", "-- +goose Up\nCREATE TABLE b (x);\n")
      },
      commands: ["strata migrate --database app.sqlite3"]
    ),
    DocSample(
      name: "flyway-session",
      style: .console,
      fixture: {
        for (name, sql) in [
          ("V1__Create_person.sql", "CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT);\n"),
          ("U1__Create_person.sql", "DROP TABLE person;\n"),
          ("V1.1__Add_city.sql", "ALTER TABLE person ADD COLUMN city TEXT;\n"),
          ("V2_1__Add_people.sql", "INSERT INTO person (name) VALUES ('Axel');\n"),
          (
            "R__People_view.sql",
            "DROP VIEW IF EXISTS people;\nCREATE VIEW people AS SELECT name FROM person;\n"
          ),
        ] {
          try $0.write("migrations/" + name, sql)
        }
      },
      commands: ["strata status --database app.sqlite3", "strata migrate --database app.sqlite3"]
    ),
  ]

  /// An iOS app's database migrated by SQLiteMigrationManager.swift (its table as that library
  /// creates it) up to migration 2 of three.
  static func writeSQLiteMigrationManagerDatabase(into dir: TemporaryDirectory) throws {
    try writeTableMigrations(["a", "b", "c"], into: dir)
    try Connection(path: dir.path("app.sqlite3").path).execute(
      """
      CREATE TABLE a (x);
      CREATE TABLE b (x);
      CREATE TABLE IF NOT EXISTS "schema_migrations" ("version" INTEGER NOT NULL UNIQUE);
      INSERT INTO "schema_migrations" ("version") VALUES (1), (2);
      """
    )
  }

  // MARK: docs/seeding.md

  static let seeding = [
    DocSample(
      name: "seed-session",
      style: .console,
      fixture: { try copySampleProject(into: $0) },
      setup: ["strata migrate --database app.sqlite3 --quiet"],
      commands: [
        "strata seed --database app.sqlite3",
        "strata seed --database app.sqlite3",
        #"printf 'stuID,stuName,stuAge\nS9,Ann,abc\n' > bad.csv"#,
        "strata seed bad.csv --table student --database app.sqlite3",
      ]
    ),
    // Four projects side by side, each with one problem.
    DocSample(
      name: "seed-errors",
      style: .output,
      fixture: {
        for project in ["value", "check", "header"] {
          try copySampleProject(into: $0, folder: project, seeds: false)
        }
        try $0.write("value/seeds/student.csv", "stuID,stuName,stuAge\nS1,Al,20\nS2,Bo,x\n")
        try $0.write("check/seeds/person_info.csv", "name,age\nPeter,22\nJack,20\nAnn,-1\n")
        try $0.write("header/seeds/person_info.csv", "name,agee\nPeter,22\n")
        try writeLibraryProject(into: $0, folder: "orphan")
        try $0.write("orphan/seeds/author.csv", "id,name\n1,Ursula K. Le Guin\n")
        try $0.write("orphan/seeds/book.csv", "id,author_id,title\n1,1,Earthsea\n2,2,Lost\n")
      },
      setup: ["value", "check", "header", "orphan"].map {
        "(cd \($0) && strata migrate --database app.sqlite3 --quiet)"
      },
      commands: ["value", "check", "header", "orphan"].map {
        "cd \($0) && strata seed --database app.sqlite3; cd .."
      }
    ),
    // A spreadsheet export (semicolons, Windows-1252) and a gzipped tab-separated file.
    DocSample(
      name: "seed-file-formats",
      style: .console,
      fixture: {
        try copySampleProject(into: $0, seeds: false)
        try Data(
          Array("name;age\nJos".utf8) + [0xE9] + Array(" Garc".utf8) + [0xED] + Array("a;31\n".utf8)
        )
        .write(to: $0.path("export.csv"))
        try $0.write("student.tsv", "stuID\tstuName\tstuAge\nS1\tAnn Lee\t20\nS2\tBo Chen\t\n")
      },
      setup: ["strata migrate --database app.sqlite3 --quiet", "gzip student.tsv"],
      commands: [
        "strata seed export.csv --table person_info --database app.sqlite3",
        "strata seed export.csv --table person_info --delimiter ';' --database app.sqlite3",
        "strata seed export.csv --table person_info --delimiter ';' --encoding windows-1252 "
          + "--database app.sqlite3",
        "strata seed student.tsv.gz --database app.sqlite3",
      ]
    ),
  ]

  /// A penguins-like file (palmerpenguins' raw export): `NA` for a missing value, a header
  /// that is not a column name, a BOOLEAN column.
  static func writePenguins(into dir: TemporaryDirectory) throws {
    try dir.write(
      "migrations/0001_penguins.sql",
      """
      -- migrate:up
      CREATE TABLE penguins (
        id INTEGER PRIMARY KEY,
        species TEXT NOT NULL,
        island TEXT,
        bill_length_mm REAL,
        delta15n REAL,
        sex TEXT,
        clutch_completion BOOLEAN
      );

      """
    )
    try dir.write(
      "penguins.csv",
      """
      id,species,island,bill_length_mm,Delta 15 N (o/oo),sex,clutch_completion
      1,Adelie,Torgersen,39.1,NA,male,TRUE
      2,Adelie,Torgersen,39.5,8.94956,female,TRUE
      3,Adelie,Torgersen,NA,NA,NA,FALSE
      4,Gentoo,Biscoe,46.1,8.63243,female,true
      5,Chinstrap,Dream,46.5,9.02657,"NA",false

      """
    )
  }

  static let values = [
    DocSample(
      name: "seed-missing-values",
      style: .console,
      fixture: { try writePenguins(into: $0) },
      setup: ["strata migrate --database app.sqlite3 --quiet"],
      commands: [
        "strata seed penguins.csv --database app.sqlite3",
        #"strata seed penguins.csv --column "Delta 15 N (o/oo)=delta15n" --database app.sqlite3"#,
        #"strata seed penguins.csv --null NA --column "Delta 15 N (o/oo)=delta15n" --database app.sqlite3"#,
        "sqlite3 app.sqlite3 'SELECT id, island, bill_length_mm, delta15n, sex, clutch_completion FROM penguins'",
      ]
    ),
    DocSample(
      name: "seed-booleans",
      style: .console,
      fixture: { try writePenguins(into: $0) },
      setup: ["strata migrate --database app.sqlite3 --quiet"],
      commands: [
        #"printf 'id,species,clutch_completion\n1,Adelie,yes\n' > clutch.csv"#,
        "strata seed clutch.csv --table penguins --database app.sqlite3",
      ]
    ),
    DocSample(
      name: "seed-sync",
      style: .console,
      fixture: { try copySampleProject(into: $0) },
      setup: [
        "strata migrate --database app.sqlite3 --quiet",
        "strata seed --mode sync --database app.sqlite3 --quiet",
      ],
      commands: [
        #"sqlite3 app.sqlite3 "UPDATE student SET stuAge = 30 WHERE stuID = '00501'; DELETE FROM student WHERE stuID = '00502'""#,
        #"printf 'stuID,stuName,stuAge\n00501,Ann Lee,20\n00502,Ben Carter,21\n00503,"Cruz, Dana",22\n' > seeds/student.csv"#,
        "strata seed seeds/student.csv --mode sync --database app.sqlite3",
        "sqlite3 app.sqlite3 'SELECT stuID, stuName, stuAge FROM student ORDER BY stuID'",
      ]
    ),
  ]

  // MARK: docs/inspect.md

  /// The sample project, migrated into data.sqlite3 (no seeds: every table has 0 rows).
  static func inspected(
    _ name: String,
    _ style: DocSample.Style,
    _ command: String,
    firstLines: Int? = nil
  ) -> DocSample {
    DocSample(
      name: name,
      style: style,
      fixture: { try copySampleProject(into: $0) },
      setup: ["strata migrate --database data.sqlite3 --quiet"],
      commands: [command],
      firstLines: firstLines
    )
  }

  static let inspect = [
    inspected("inspect-unknown-name", .console, "strata inspect nope --database data.sqlite3"),
    inspected("inspect-text", .console, "strata inspect --database data.sqlite3"),
    inspected(
      "inspect-json",
      .output,
      "strata inspect FIELDS --database data.sqlite3 --format json",
      firstLines: 46
    ),
    inspected("inspect-sql", .output, "strata inspect --database data.sqlite3 --format sql"),
    inspected(
      "inspect-markdown",
      .output,
      "strata inspect --database data.sqlite3 --format markdown",
      firstLines: 53
    ),
    inspected(
      "inspect-mermaid",
      .output,
      "strata inspect --database data.sqlite3 --format mermaid"
    ),
    DocSample(
      name: "inspect-mermaid-foreign-keys",
      style: .output,
      fixture: { try writeLibraryProject(into: $0, folder: ".") },
      setup: ["strata migrate --database app.sqlite3 --quiet"],
      commands: ["strata inspect --database app.sqlite3 --format mermaid"]
    ),
    DocSample(
      name: "inspect-drift",
      style: .console,
      fixture: { try copySampleProject(into: $0) },
      setup: ["strata migrate --database drift.sqlite3 --quiet"],
      commands: [
        "sqlite3 drift.sqlite3 'ALTER TABLE student ADD COLUMN nickname TEXT; DROP INDEX student_class;'",
        "strata inspect --diff --database drift.sqlite3",
        "echo $?",
      ]
    ),
    inspected("inspect-no-drift", .console, "strata inspect --diff --database data.sqlite3"),
  ]

  // MARK: Fixtures

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The repository's own `migrations/` (and `seeds/`) in `folder` of `dir`: its `.sql` and
  /// `.csv` files, not a template a developer may have built.
  static func copySampleProject(
    into dir: TemporaryDirectory,
    folder: String = ".",
    seeds: Bool = true
  ) throws {
    for source in seeds ? ["migrations", "seeds"] : ["migrations"] {
      let from = repository.appendingPathComponent(source)
      for name in try FileManager.default.contentsOfDirectory(atPath: from.path).sorted()
      where name.hasSuffix(".sql") || name.hasSuffix(".csv") {
        let text = try String(contentsOf: from.appendingPathComponent(name), encoding: .utf8)
        try dir.write("\(folder)/\(source)/\(name)", text)
      }
    }
  }

  /// Migrations 1, 2, … that each create a table of one column: `0001_a.sql` creates `a`.
  /// Tables a, b and c, then a fourth migration whose second INSERT fails.
  static func writeFailingFourthMigration(into dir: TemporaryDirectory) throws {
    try writeTableMigrations(["a", "b", "c"], into: dir)
    try dir.write(
      "migrations/0004_bad.sql",
      "-- migrate:up\nCREATE TABLE d (x);\nINSERT INTO d VALUES (1);\nINSERT INTO d VALUES (2, 3);\n"
    )
  }

  static func writeTableMigrations(_ tables: [String], into dir: TemporaryDirectory) throws {
    for (index, table) in tables.enumerated() {
      let version = String(format: "%04d", index + 1)
      try dir.write("migrations/\(version)_\(table).sql", "CREATE TABLE \(table) (x);\n")
    }
  }

  /// A small library schema with foreign keys: books by an author (cascading), and a profile
  /// keyed by its author.
  static func writeLibraryProject(into dir: TemporaryDirectory, folder: String) throws {
    try dir.write(
      "\(folder)/migrations/0001_library.sql",
      """
      CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE book (
        id        INTEGER PRIMARY KEY,
        author_id INTEGER NOT NULL REFERENCES author ON DELETE CASCADE,
        title     TEXT
      );
      CREATE TABLE profile (author_id INTEGER PRIMARY KEY REFERENCES author, bio TEXT);

      """
    )
  }
}
