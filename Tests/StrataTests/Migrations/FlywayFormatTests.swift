import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Issue 11, Flyway: a folder written from Flyway's documentation ("Getting started": the PERSON
/// table, undo files, a repeatable view) read, applied, rolled back and applied again, and one
/// test per rule of docs/migrations.md#flyway.
@Suite struct FlywayFormatTests {
  static let documented: [String: String] = [
    "V1__Create_person_table.sql": """
    create table PERSON (
        ID int not null,
        NAME varchar(100) not null
    );

    """,
    "U1__Create_person_table.sql": "drop table PERSON;\n",
    "V1.1__Add_people.sql": """
    insert into PERSON (ID, NAME) values (1, 'Axel');
    insert into PERSON (ID, NAME) values (2, 'Mr. Foo');

    """,
    "U1.1__Add_people.sql": "delete from PERSON where ID in (1, 2);\n",
    "V2_1__Add_city.sql": "alter table PERSON add column CITY varchar(100);\n",
    "U2_1__Add_city.sql": "alter table PERSON drop column CITY;\n",
    "R__People_view.sql": """
    drop view if exists PEOPLE;
    create view PEOPLE as select NAME from PERSON;

    """,
    "README.md": "Flyway's example, kept as Flyway reads it.\n",
  ]

  private func objects(_ db: Connection) throws -> [String] {
    try db.rows(
      "SELECT name FROM sqlite_master WHERE name NOT LIKE 'strata_%' "
        + "AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0[0].textValue }
  }

  private func problem(_ body: () throws -> Void) -> (file: String, line: Int, reason: String)? {
    do {
      try body()
    } catch MigrationError.formatProblem(let file, let line, let format, let reason) {
      #expect(format == .flyway)
      return (file, line, reason)
    } catch {
      Issue.record("unexpected \(error)")
    }
    return nil
  }

  @Test func documentedFolderIsReadAsFlywayReadsIt() throws {
    let fixture = try MigrationFixture(Self.documented)
    let set = try fixture.migrator().migrations
    #expect(set.format == .flyway)
    #expect(set.migrations.map(\.version.text) == ["1", "1.1", "2.1"])
    #expect(set.migrations.map(\.name) == ["Create_person_table", "Add_people", "Add_city"])
    #expect(set.migrations.allSatisfy { $0.down != nil })
    #expect(set.repeatables.map(\.name) == ["People_view"])
    #expect(set.repeatables[0].script.file == "migrations/R__People_view.sql")
  }

  @Test func documentedFolderAppliesRollsBackAndReapplies() throws {
    let fixture = try MigrationFixture(Self.documented)
    let db = try fixture.open()
    let migrator = try fixture.migrator()
    let report = try migrator.migrate(db)
    #expect(
      report.steps.map(\.file.lastPathPart) == [
        "V1__Create_person_table.sql", "V1.1__Add_people.sql", "V2_1__Add_city.sql",
        "R__People_view.sql",
      ]
    )
    #expect(try objects(db) == ["PEOPLE", "PERSON"])
    #expect(
      try db.rows("SELECT NAME FROM PEOPLE ORDER BY NAME").map { $0[0].textValue } == [
        "Axel", "Mr. Foo",
      ]
    )
    try migrator.rollback(db, .version(.zero))
    // The repeatable view stays, as Flyway's undo leaves it; the table is gone.
    #expect(try objects(db) == ["PEOPLE"])
    let again = try migrator.migrate(db)
    #expect(again.steps.count == 3)
    #expect(try db.rows("SELECT count(*) FROM PEOPLE")[0][0].integerValue == 2)
    #expect(try migrator.plan(db).isUpToDate)
  }

  /// Flyway's order: part by part as numbers, a missing part zero.
  @Test func versionsRunInFlywaysOrder() throws {
    let names = ["V2_1__f", "V1.10__d", "V1__a", "V1.1__b", "V1.2__c", "V2__e", "V10__g"]
    var files: [String: String] = [:]
    for name in names {
      files[name + ".sql"] = "CREATE TABLE t_\(name.components(separatedBy: "__")[1]) (x);\n"
    }
    let fixture = try MigrationFixture(files)
    let set = try fixture.migrator().migrations
    #expect(set.migrations.map(\.version.text) == ["1", "1.1", "1.2", "1.10", "2", "2.1", "10"])
    let db = try fixture.open()
    let steps = try fixture.migrator().migrate(db).steps.map(\.name)
    #expect(steps == ["a", "b", "c", "d", "e", "f", "g"])
  }

  @Test func oneAndOnePointZeroAreOneVersion() throws {
    let fixture = try MigrationFixture(["V1__a.sql": "SELECT 1;\n", "V1.0__b.sql": "SELECT 2;\n"])
    #expect(throws: MigrationError.self) { try fixture.migrator() }
    do {
      _ = try fixture.migrator()
    } catch MigrationError.duplicateVersion(_, let files) {
      #expect(Set(files) == ["migrations/V1__a.sql", "migrations/V1.0__b.sql"])
    }
  }

  @Test func repeatableRunsAgainWhenItsChecksumChanges() throws {
    let fixture = try MigrationFixture([
      "V1__t.sql": "CREATE TABLE t (a, b);\n",
      "R__v.sql": "DROP VIEW IF EXISTS v;\nCREATE VIEW v AS SELECT a FROM t;\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try fixture.migrator().migrate(db).steps.isEmpty)
    try fixture.write("R__v.sql", "DROP VIEW IF EXISTS v;\nCREATE VIEW v AS SELECT a, b FROM t;\n")
    let plan = try fixture.migrator().plan(db)
    #expect(plan.repeatables.map(\.state) == [.changed])
    #expect(!plan.isUpToDate)
    #expect(try fixture.migrator().problems(in: plan).isEmpty)
    let report = try fixture.migrator().migrate(db)
    #expect(report.steps.map(\.name) == ["v"])
    #expect(try db.rows("SELECT count(*) FROM pragma_table_info('v')")[0][0].integerValue == 2)
    #expect(try fixture.migrator().plan(db).repeatables.map(\.state) == [.applied])
  }

  @Test func repeatablesRunInDescriptionOrderAfterVersioned() throws {
    let fixture = try MigrationFixture([
      "V1__t.sql": "CREATE TABLE t (a);\n",
      "V2__u.sql": "CREATE TABLE u (a);\n",
      "R__b_view.sql": "CREATE VIEW b AS SELECT * FROM a;\n",
      "R__a_view.sql": "CREATE VIEW a AS SELECT * FROM u;\n",
    ])
    let db = try fixture.open()
    let steps = try fixture.migrator().migrate(db).steps.map(\.name)
    #expect(steps == ["t", "u", "a_view", "b_view"])
    // With a target below the newest version, repeatables wait.
    let other = try MigrationFixture([
      "V1__t.sql": "CREATE TABLE t (a);\n", "V2__u.sql": "CREATE TABLE u (a);\n",
      "R__v.sql": "CREATE VIEW v AS SELECT * FROM u;\n",
    ])
    let db2 = try other.open()
    let partial = try other.migrator().migrate(
      db2,
      options: MigrateOptions(target: try MigrationVersion(flyway: "1"))
    )
    #expect(partial.steps.map(\.name) == ["t"])
  }

  @Test func placeholderIsRefusedAtItsLine() throws {
    let fixture = try MigrationFixture([
      "V1__a.sql": "CREATE TABLE t (x);\nINSERT INTO t VALUES ('${owner}');\n"
    ])
    let found = problem { _ = try fixture.migrator() }
    #expect(found?.file == "migrations/V1__a.sql" && found?.line == 2)
    #expect(found?.reason.contains("'${owner}' is a Flyway placeholder") == true)
  }

  @Test func placeholderIsLiteralWhenReplacementIsOff() throws {
    let fixture = try MigrationFixture([
      "V1__a.sql": "CREATE TABLE t (x);\nINSERT INTO t VALUES ('${owner}');\n",
      "flyway.conf": "flyway.url=jdbc:sqlite:app.db\nflyway.placeholderReplacement=false\n",
    ])
    let db = try fixture.open()
    try fixture.migrator().migrate(db)
    #expect(try db.rows("SELECT x FROM t")[0][0].textValue == "${owner}")
  }

  @Test func confInTheParentIsReadAndARefusedKeyStopsEverything() throws {
    let fixture = try MigrationFixture(["V1__a.sql": "CREATE TABLE t (x);\n"])
    try fixture.dir.write(
      "flyway.conf",
      "flyway.locations=filesystem:migrations\nflyway.initSql=PRAGMA foreign_keys=OFF\n"
    )
    let found = problem { _ = try fixture.migrator() }
    #expect(found?.file == "flyway.conf" && found?.line == 2)
    #expect(found?.reason.contains("'initSql'") == true)
  }

  @Test func scriptConfRunsOutsideATransaction() throws {
    let fixture = try MigrationFixture([
      "V1__a.sql": "CREATE TABLE t (x);\n",
      "V2__vacuum.sql": "VACUUM;\n",
      "V2__vacuum.sql.conf": "executeInTransaction=false\n",
    ])
    let set = try fixture.migrator().migrations
    #expect(set.migrations.map(\.up.isTransactional) == [true, false])
    try fixture.migrator().migrate(try fixture.open())
    try fixture.write("V2__vacuum.sql.conf", "shouldExecute=true\n")
    #expect(problem { _ = try fixture.migrator() }?.file == "migrations/V2__vacuum.sql.conf")
  }

  @Test func mixedFolderIsRefusedNamingAFileOfEach() throws {
    let fixture = try MigrationFixture(["V1__a.sql": "SELECT 1;\n", "0002_b.sql": "SELECT 2;\n"])
    do {
      _ = try fixture.migrator()
      Issue.record("a mixed folder was read")
    } catch MigrationError.mixedFormats(_, let formats, let files) {
      #expect(formats[0] == "flyway")
      #expect(files == ["migrations/V1__a.sql", "migrations/0002_b.sql"])
    }
  }

  @Test func undoWithoutVersionedAndNamesFlywaySkipsAreRefused() throws {
    let orphan = try MigrationFixture(["V1__a.sql": "SELECT 1;\n", "U2__b.sql": "SELECT 2;\n"])
    #expect(throws: MigrationError.downWithoutUp(file: "migrations/U2__b.sql")) {
      try orphan.migrator()
    }
    let skipped = try MigrationFixture(["V1__a.sql": "SELECT 1;\n", "V2_b.sql": "SELECT 2;\n"])
    #expect(problem { _ = try skipped.migrator() }?.file == "migrations/V2_b.sql")
    let callback = try MigrationFixture([
      "V1__a.sql": "SELECT 1;\n", "afterMigrate.sql": "SELECT 2;\n",
    ])
    #expect(problem { _ = try callback.migrator() }?.reason.contains("callback") == true)
  }

  @Test func newWritesTheNextVersionedFile() throws {
    let dir = try TemporaryDirectory()
    try FileManager.default.createDirectory(at: dir.path("sql"), withIntermediateDirectories: true)
    try dir.write("sql/V1__a.sql", "SELECT 1;\n")
    try dir.write("sql/V1.2__b.sql", "SELECT 1;\n")
    let urls = try MigrationSet.createMigrationFiles(in: dir.path("sql"), name: "add users")
    #expect(urls.map(\.lastPathComponent) == ["V2__add_users.sql"])
    try dir.write("sql/U2__add_users.sql", "SELECT 1;\n")
    let pair = try MigrationSet.createMigrationFiles(in: dir.path("sql"), name: "c")
    #expect(pair.map(\.lastPathComponent) == ["V3__c.sql", "U3__c.sql"])
  }
}

extension String {
  fileprivate var lastPathPart: String { split(separator: "/").last.map(String.init) ?? self }
}

extension FlywayFormatTests {
  /// Flyway's own history (its SQLite table, as ForeignHistoryTests builds it) with dotted
  /// versions, an undo and a repeatable row, adopted by a Flyway folder.
  @Test func flywayHistoryWithDottedVersionsIsAdopted() throws {
    let fixture = try MigrationFixture([
      "V1__a.sql": "CREATE TABLE a (x);\n",
      "V1.1__b.sql": "CREATE TABLE b (x);\n",
      "V2_1__c.sql": "CREATE TABLE c (x);\n",
      "V3__d.sql": "CREATE TABLE d (x);\n",
      "R__v.sql": "DROP VIEW IF EXISTS v;\nCREATE VIEW v AS SELECT x FROM a;\n",
    ])
    let db = try fixture.open()
    try db.execute(
      """
      CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE c (x);
      CREATE VIEW v AS SELECT x FROM a;
      CREATE TABLE "flyway_schema_history" (
        "installed_rank" INT NOT NULL PRIMARY KEY, "version" VARCHAR(50),
        "description" VARCHAR(200) NOT NULL, "type" VARCHAR(20) NOT NULL,
        "script" VARCHAR(1000) NOT NULL, "checksum" INT, "installed_by" VARCHAR(100) NOT NULL,
        "installed_on" TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f','now')),
        "execution_time" INT NOT NULL, "success" BOOLEAN NOT NULL);
      INSERT INTO flyway_schema_history
        (installed_rank, version, description, type, script, checksum, installed_by,
         execution_time, success)
      VALUES (1, '1', 'a', 'SQL', 'V1__a.sql', 302061556, 'app', 5, 1),
             (2, '1.1', 'b', 'SQL', 'V1.1__b.sql', -1802148518, 'app', 5, 1),
             (3, '2.1', 'c', 'SQL', 'V2_1__c.sql', 1607055103, 'app', 5, 1),
             (4, NULL, 'v', 'SQL', 'R__v.sql', -1231104315, 'app', 5, 1);
      """
    )
    let migrator = try fixture.migrator()
    #expect(
      try migrator.plan(db).migrations.map(\.state) == [
        .otherTool, .otherTool, .otherTool, .pending,
      ]
    )
    // No folder given: the files are read again from the folder the set was read from, not at
    // the path messages show them at (`migrations/…`, relative to no folder in particular).
    let adoption = try migrator.adopt(db, from: .flyway)
    #expect(adoption.recorded.map(\.text) == ["1", "1.1", "2.1"])
    // The repeatable is the file Flyway applied (the checksums are Flyway's CRC-32 of each file,
    // computed by python3: ForeignChecksumTests), so it is adopted and does not run again.
    #expect(adoption.repeatables == ["v"])
    let report = try migrator.migrate(db)
    #expect(report.steps.map(\.name) == ["d"])
    #expect(try migrator.plan(db).isUpToDate)
  }
}
