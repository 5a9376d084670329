import Foundation
import Strata
import Testing

/// A schema may declare its own conflict resolution (`UNIQUE ON CONFLICT REPLACE`,
/// `NOT NULL ON CONFLICT IGNORE`, …). Whatever it declares, no seed mode deletes, replaces or
/// silently skips a row it was not asked to: every mode against every clause, on a PRIMARY KEY,
/// a UNIQUE column constraint, a UNIQUE table constraint and a NOT NULL column.
@Suite struct SeedConflictClauseTests {
  /// The conflict clause the schema declares on the constraint under test.
  enum Clause: String, CaseIterable, CustomTestStringConvertible {
    case none = "", rollback = "ROLLBACK", abort = "ABORT", fail = "FAIL", ignore = "IGNORE"
    case replace = "REPLACE"

    var sql: String { self == .none ? "" : " ON CONFLICT \(rawValue)" }
    var testDescription: String { self == .none ? "(no clause)" : "ON CONFLICT \(rawValue)" }
  }

  /// Where the clause sits.
  enum Placement: String, CaseIterable, CustomTestStringConvertible {
    case primaryKey, uniqueColumn, uniqueTableConstraint, notNull

    var testDescription: String { rawValue }

    func schema(_ clause: Clause) -> String {
      switch self {
      case .primaryKey:
        // A PRIMARY KEY the header may leave out: its default then collides.
        "CREATE TABLE person (code TEXT PRIMARY KEY\(clause.sql) DEFAULT 'none', "
          + "email TEXT UNIQUE, name TEXT)"
      case .uniqueColumn:
        "CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT UNIQUE\(clause.sql), name TEXT)"
      case .uniqueTableConstraint:
        "CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT, name TEXT, "
          + "UNIQUE (email)\(clause.sql))"
      case .notNull:
        "CREATE TABLE person (id INTEGER PRIMARY KEY, email TEXT UNIQUE, "
          + "name TEXT NOT NULL\(clause.sql) DEFAULT 'anon')"
      }
    }

    var existingRows: String {
      switch self {
      case .primaryKey: "INSERT INTO person VALUES ('A', 'a@x', 'Ann'), ('none', 'b@x', 'Ben')"
      default: "INSERT INTO person VALUES (1, 'a@x', 'Ann'), (2, 'b@x', 'Ben')"
      }
    }

    var scenarios: [Scenario] {
      switch self {
      case .primaryKey: Self.primaryKeyScenarios
      case .uniqueColumn, .uniqueTableConstraint: Self.uniqueScenarios
      case .notNull: Self.notNullScenarios
      }
    }

    static let uniqueScenarios = [
      Scenario(
        "a new key whose email an existing row holds",
        csv: "id,email,name\n3,c@x,Cat\n4,a@x,Dan\n",
        every: .refused(line: 3, saying: "UNIQUE constraint failed: person.email"),
        except: [
          .replace: .rows([
            [.integer(4), .text("a@x"), .text("Dan")], [.integer(3), .text("c@x"), .text("Cat")],
          ]),
          // sync: row 1 is the user's; the file's row 4 is kept (pending), row 3 goes in.
          .sync: .rows([
            [.integer(1), .text("a@x"), .text("Ann")], [.integer(2), .text("b@x"), .text("Ben")],
            [.integer(3), .text("c@x"), .text("Cat")],
          ]),
        ]
      ),
      Scenario(
        "two rows of the file with one email",
        csv: "id,email,name\n3,c@x,Cat\n4,c@x,Dan\n",
        every: .refused(line: 3, saying: "UNIQUE constraint failed: person.email")
      ),
      Scenario(
        "an update to an email another row holds",
        csv: "id,email,name\n2,a@x,Ben\n",
        every: .refused(line: 2, saying: "UNIQUE constraint failed: person.email"),
        except: [
          .missing: .rows(existing),
          .append: .refused(line: 2, saying: "UNIQUE constraint failed: person.id"),
          .replace: .rows([[.integer(2), .text("a@x"), .text("Ben")]]),
        ]
      ),
    ]

    static let primaryKeyScenarios = [
      Scenario(
        "the primary key as the key",
        csv: "code,email,name\nA,a@y,Ann2\nC,c@x,Cat\n",
        every: .refused(line: 2, saying: "UNIQUE constraint failed: person.code"),
        except: [
          .missing: .rows([
            [.text("A"), .text("a@x"), .text("Ann")], [.text("none"), .text("b@x"), .text("Ben")],
            [.text("C"), .text("c@x"), .text("Cat")],
          ]),
          .upsert: .rows([
            [.text("A"), .text("a@y"), .text("Ann2")], [.text("none"), .text("b@x"), .text("Ben")],
            [.text("C"), .text("c@x"), .text("Cat")],
          ]),
          .replace: .rows([
            [.text("A"), .text("a@y"), .text("Ann2")], [.text("C"), .text("c@x"), .text("Cat")],
          ]),
        ]
      ),
      Scenario(
        "a primary key left to its default, which an existing row holds",
        csv: "email,name\nd@x,Dan\n",
        every: .refused(line: 2, saying: "UNIQUE constraint failed: person.code"),
        except: [
          .replace: .rows([[.text("none"), .text("d@x"), .text("Dan")]]),
          // sync: the existing row is the user's; the file's row is kept (pending), not an error.
          .sync: .rows([
            [.text("A"), .text("a@x"), .text("Ann")], [.text("none"), .text("b@x"), .text("Ben")],
          ]),
        ]
      ),
      Scenario(
        "two rows of the file with one primary key",
        csv: "code,email,name\nC,c@x,Cat\nC,d@x,Dan\n",
        every: .refused(line: 3, saying: "UNIQUE constraint failed: person.code"),
        except: [
          .missing: .refused(line: 3, saying: "duplicate key: this row's code repeats line 2"),
          .upsert: .refused(line: 3, saying: "duplicate key: this row's code repeats line 2"),
        ]
      ),
    ]

    static let notNullScenarios = [
      Scenario(
        "a new row with no name",
        csv: "id,email,name\n3,c@x,Cat\n4,d@x,\n",
        every: .refused(line: 3, saying: "NOT NULL constraint failed: person.name")
      ),
      Scenario(
        "an existing row's key with no name",
        csv: "id,email,name\n1,a@x,\n",
        every: .refused(line: 2, saying: "NOT NULL constraint failed: person.name"),
        // The row is the user's (it differs from the file's): sync writes nothing to it.
        except: [.sync: .rows(existing)]
      ),
    ]

    static let existing: [[SQLValue]] = [
      [.integer(1), .text("a@x"), .text("Ann")], [.integer(2), .text("b@x"), .text("Ben")],
    ]
  }

  enum Outcome: Sendable {
    /// The run fails on this line with this text, and the table is as it was.
    case refused(line: Int, saying: String)
    /// The run succeeds and the table holds exactly these rows (ordered by email).
    case rows([[SQLValue]])
  }

  /// One CSV against the table's two rows, and what each mode must do with it.
  struct Scenario: Sendable {
    let name: String
    let csv: String
    let missing: Outcome
    let upsert: Outcome
    let append: Outcome
    let replace: Outcome
    let sync: Outcome

    /// Every mode does `every`, except the modes `except` names; `sync` does what `missing`
    /// does unless named (a differing existing row is the user's, kept).
    init(_ name: String, csv: String, every: Outcome, except: [SeedMode: Outcome] = [:]) {
      self.name = name
      self.csv = csv
      missing = except[.missing] ?? every
      upsert = except[.upsert] ?? every
      append = except[.append] ?? every
      replace = except[.replace] ?? every
      sync = except[.sync] ?? missing
    }

    func outcome(_ mode: SeedMode) -> Outcome {
      switch mode {
      case .missing: missing
      case .upsert: upsert
      case .append: append
      case .replace: replace
      case .sync: sync
      }
    }
  }

  /// One scenario of one placement, seeded in one mode.
  struct Case: Sendable, CustomTestStringConvertible {
    let placement: Placement
    let scenario: Scenario
    let mode: SeedMode

    /// Every scenario of every placement, in every mode.
    static let all = Placement.allCases.flatMap { placement in
      placement.scenarios.flatMap { scenario in
        SeedMode.allCases.map { Case(placement: placement, scenario: scenario, mode: $0) }
      }
    }

    var testDescription: String { "\(placement), \(mode.rawValue): \(scenario.name)" }
  }

  static let query = "SELECT * FROM person ORDER BY email"

  @Test(arguments: Case.all, Clause.allCases)
  func noModeDeletesReplacesOrSkipsARowItWasNotAskedTo(_ test: Case, clause: Clause) throws {
    let (placement, scenario, mode) = (test.placement, test.scenario, test.mode)
    let fixture = try SeedFixture(schema: placement.schema(clause))
    try fixture.connection.execute(placement.existingRows)
    let before = try fixture.rows(Self.query)
    let file = try fixture.csv("person.csv", scenario.csv)
    let context = "\(mode.rawValue): \(scenario.name)"
    switch scenario.outcome(mode) {
    case .refused(let line, let text):
      let error = fixture.seedError([file], mode: mode)
      let message = error?.message ?? "no error"
      #expect(message.hasPrefix("seeds/person.csv:\(line)"), "\(context): \(message)")
      #expect(message.contains(text), "\(context): \(message)")
      #expect(message.hasSuffix("the database is unchanged"), "\(context): \(message)")
      #expect(try fixture.rows(Self.query) == before, "\(context)")
    case .rows(let expected):
      let report = try fixture.seed([file], mode: mode)
      #expect(try fixture.rows(Self.query) == expected, "\(context)")
      if mode != .replace { #expect(report.deleted == 0, "\(context)") }
      // What the report says happened is what the table shows.
      #expect(
        report.inserted == Int(try fixture.count("person")) - before.count + report.deleted,
        "\(context): \(report.tables)"
      )
    }
    #expect(fixture.connection.isAutocommit, "\(context): a transaction was left open")
  }

  /// The CSV's NULL never becomes the column's default behind the user's back, whichever mode
  /// and whichever clause: the row is refused with its line and column.
  @Test(arguments: SeedMode.allCases.filter { $0 != .sync })
  func aNullForANotNullOnConflictReplaceColumnIsRefusedNotDefaulted(mode: SeedMode) throws {
    let fixture = try SeedFixture(schema: Placement.notNull.schema(.replace))
    try fixture.connection.execute(Placement.notNull.existingRows)
    let file = try fixture.csv("person.csv", "id,email,name\n1,a@x,\n")
    let error = try #require(fixture.seedError([file], mode: mode))
    guard case .rowFailed(let shown, let line, let column, let sqliteError) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(shown == "seeds/person.csv")
    #expect(line == 2)
    #expect(column == 7)
    #expect(sqliteError.extendedCode == 1299)  // SQLITE_CONSTRAINT_NOTNULL
    #expect(error.help.contains("empty field is NULL"))
    #expect(
      try fixture.rows(Self.query) == Placement.existing,
      "Ann's name must not become the default"
    )
  }
}

extension SeedConflictClauseTests {
  /// `UNIQUE ON CONFLICT ROLLBACK` would end the transaction a seed runs in, which inside a
  /// caller's transaction is the caller's: the caller's own rows would go, and the rows replayed
  /// to find the failing line would then commit one by one.
  @Test(arguments: SeedMode.allCases)
  func aRollbackClauseNeverEndsTheCallersTransaction(mode: SeedMode) throws {
    let fixture = try SeedFixture(schema: Placement.uniqueColumn.schema(.rollback))
    let db = fixture.connection
    try db.execute("BEGIN")
    try db.execute(Placement.uniqueColumn.existingRows)
    let file = try fixture.csv("person.csv", "id,email,name\n3,c@x,Cat\n4,c@x,Dan\n")
    let error = try #require(fixture.seedError([file], mode: mode))
    #expect(error.message.hasPrefix("seeds/person.csv:3"), "\(error.message)")
    #expect(!db.isAutocommit, "the caller's transaction must still be open")
    #expect(try fixture.rows(Self.query) == Placement.existing)
    try db.execute("COMMIT")
    #expect(try fixture.rows(Self.query) == Placement.existing)
  }
}
