import Foundation
import Strata
import Testing

/// Loading CSV into tables: values by type, modes, keys, and errors that name the line and
/// leave the database exactly as it was.
@Suite struct SeederTests {
  // MARK: - Values

  @Test func loadsTheFMDBPeopleWithQuotedNames() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv(
      "person_info.csv",
      "name,age\r\nPeter,22\r\nJack,20\r\nTom,24\r\n\"Smith, John\",30\r\n\"Say \"\"hi\"\"\",\r\n"
    )
    let report = try fixture.seed([file])
    #expect(report.tables.map(\.inserted) == [5])
    #expect(report.tables.map(\.rowsRead) == [5])
    #expect(
      try fixture.rows("SELECT name, age FROM person_info ORDER BY id") == [
        [.text("Peter"), .integer(22)], [.text("Jack"), .integer(20)],
        [.text("Tom"), .integer(24)], [.text("Smith, John"), .integer(30)],
        [.text("Say \"hi\""), .null],
      ]
    )
  }

  @Test func textKeepsLeadingZerosAndAnEmptyQuotedFieldIsTheEmptyString() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv(
      "student.csv",
      "stuID,stuName,stuAge,stuClass,email\n00501,Ann,19,\"\",\n"
    )
    _ = try fixture.seed([file])
    #expect(
      try fixture.rows("SELECT stuID, stuClass, email, typeof(stuAge) FROM student") == [
        [.text("00501"), .text(""), .null, .text("integer")]
      ]
    )
  }

  @Test func aCRLFInsideAQuotedFieldIsStoredByteForByte() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("person_info.csv", "name,age\r\n\"two\r\nlines\",1\r\n")
    _ = try fixture.seed([file])
    #expect(
      try fixture.rows("SELECT hex(name) FROM person_info") == [
        [.text("74776F0D0A6C696E6573")]
      ]
    )
  }

  @Test(
    arguments: [
      ("00501", SeedValueProblem.leadingZeros),
      ("9223372036854775808", .integerOverflow),
      ("-9223372036854775809", .integerOverflow),
      ("1.5", .notInteger),
      ("1e3", .notInteger),
      ("+5", .plusSign),
      ("-0", .negativeZero),
      (" 12 ", .surroundingSpaces),
      ("abc", .notInteger),
      ("\"\"", .emptyString),
    ]
  )
  func anIntegerColumnTakesCanonicalIntegersOnly(value: String, problem: SeedValueProblem) throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack,\(value)\n")
    let error = fixture.seedError([file])
    #expect(
      error
        == .invalidValue(
          file: "seeds/person_info.csv",
          line: 3,
          column: 6,
          name: "age",
          type: "INTEGER",
          problem: problem
        )
    )
    #expect(error?.message.hasPrefix("seeds/person_info.csv:3:6: column age (INTEGER)") == true)
    #expect(error?.message.hasSuffix("nothing was seeded; the database is unchanged") == true)
    #expect(try fixture.count("person_info") == 0)
  }

  // Issue 16: a BOOLEAN column takes true/false too, stored as 1/0 (it used to keep the word).
  @Test func zeroAndOneStayIntegersInABooleanColumnAndTrueBecomesOne() throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE f (flag BOOLEAN, v INTEGER);")
    _ = try fixture.seed([try fixture.csv("f.csv", "flag,v\n1,0\n0,1\ntrue,1\n")], mode: .append)
    #expect(
      try fixture.rows("SELECT flag, typeof(flag), v FROM f ORDER BY rowid") == [
        [.integer(1), .text("integer"), .integer(0)],
        [.integer(0), .text("integer"), .integer(1)],
        [.integer(1), .text("integer"), .integer(1)],
      ]
    )
  }

  @Test func integersAtTheEdgesOfTheRangeLoadExactly() throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE n (v INTEGER);")
    let file = try fixture.csv("n.csv", "v\n9223372036854775807\n-9223372036854775808\n0\n-7\n")
    _ = try fixture.seed([file], mode: .append)
    #expect(
      try fixture.rows("SELECT v, typeof(v) FROM n ORDER BY rowid").map { $0[0] } == [
        .integer(.max), .integer(.min), .integer(0), .integer(-7),
      ]
    )
  }

  @Test func realNumericBlobAndUntypedColumnsConvertByAffinity() throws {
    let fixture = try SeedFixture(
      schema: "CREATE TABLE m (r REAL, n NUMERIC, d DATE, b BLOB, x);"
    )
    let file = try fixture.csv(
      "m.csv",
      "r,n,d,b,x\n1.5,42,2024-01-05,CAFE01,00501\n2,2.5,,\"\",\" a \"\n-3e2,abc,x,,\n"
    )
    _ = try fixture.seed([file], mode: .append)
    #expect(
      try fixture.rows(
        "SELECT r, typeof(r), n, typeof(n), d, hex(b), typeof(b), x FROM m ORDER BY rowid"
      ) == [
        [
          .real(1.5), .text("real"), .integer(42), .text("integer"), .text("2024-01-05"),
          .text("CAFE01"), .text("blob"), .text("00501"),
        ],
        [
          .real(2), .text("real"), .real(2.5), .text("real"), .null, .text(""), .text("blob"),
          .text(" a "),
        ],
        [
          .real(-300), .text("real"), .text("abc"), .text("text"), .text("x"), .text(""),
          .text("null"), .null,
        ],
      ]
    )
  }

  @Test(
    arguments: [
      ("r", "abc", SeedValueProblem.notNumber),
      ("r", "1e999", .notFinite),
      ("n", "00501", .leadingZeros),
      ("n", "9223372036854775808", .integerOverflow),
      ("b", "CAF", .notHexadecimal),
    ]
  )
  func otherColumnsRefuseValuesTheyWouldChange(
    column: String,
    value: String,
    problem: SeedValueProblem
  ) throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE m (r REAL, n NUMERIC, b BLOB);")
    let file = try fixture.csv("m.csv", "\(column)\n\(value)\n")
    guard
      case .invalidValue(_, let line, _, let name, _, let found)? = fixture.seedError(
        [file],
        mode: .append
      )
    else {
      Issue.record("expected an invalid value")
      return
    }
    #expect(line == 2)
    #expect(name == column)
    #expect(found == problem)
    #expect(try fixture.count("m") == 0)
  }

  // MARK: - Headers and shapes

  @Test func anUnknownHeaderColumnListsTheTablesColumns() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("person_info.csv", "name,agee\nPeter,22\n")
    let error = fixture.seedError([file])
    #expect(
      error
        == .unknownColumn(
          file: "seeds/person_info.csv",
          line: 1,
          column: 6,
          name: "agee",
          table: "person_info",
          columns: ["id", "name", "age"]
        )
    )
    #expect(error?.message.contains("(columns: id, name, age)") == true)
  }

  @Test func aHeaderTryingSQLInjectionIsAnUnknownColumnAndNothingIsDropped() throws {
    let fixture = try SeedFixture()
    _ = try fixture.seed([try fixture.csv("person_info.csv", "name,age\nPeter,22\n")])
    let evil = try fixture.csv(
      "evil.csv",
      "\"name\"\"; DROP TABLE person_info; --\",age\nx,1\n",
      table: "person_info"
    )
    guard case .unknownColumn(_, _, _, let name, _, _)? = fixture.seedError([evil]) else {
      Issue.record("expected an unknown column")
      return
    }
    #expect(name == "name\"; DROP TABLE person_info; --")
    #expect(try fixture.count("person_info") == 1)
  }

  @Test func aDuplicateHeaderColumnIsAnError() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("person_info.csv", "name,age,NAME\nPeter,22,Jack\n")
    #expect(
      fixture.seedError([file])
        == .duplicateColumn(
          file: "seeds/person_info.csv",
          line: 1,
          column: 10,
          name: "NAME",
          firstPosition: 1
        )
    )
  }

  @Test func aRequiredColumnMissingFromTheHeaderFailsBeforeAnyRowIsRead() throws {
    let fixture = try SeedFixture()
    // Line 2 would also fail (bad quote): the header is checked first.
    let file = try fixture.csv("person_info.csv", "age\n\"22\n")
    #expect(
      fixture.seedError([file])
        == .missingRequiredColumns(
          file: "seeds/person_info.csv",
          table: "person_info",
          columns: ["name"]
        )
    )
  }

  @Test func rowsWithTooFewOrTooManyFieldsAreErrors() throws {
    let fixture = try SeedFixture()
    let short = try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack\n")
    #expect(
      fixture.seedError([short])
        == .fieldCount(file: "seeds/person_info.csv", line: 3, expected: 2, found: 1)
    )
    let long = try fixture.csv("person_info.csv", "name,age\nPeter,22,\n")
    #expect(
      fixture.seedError([long])
        == .malformed(
          file: "seeds/person_info.csv",
          CSVError(.moreFieldsThanHeader, line: 2, column: 10, limit: 2)
        )
    )
    #expect(try fixture.count("person_info") == 0)
  }

  @Test func anEmptyFileIsAnErrorAndAHeaderOnlyFileLoadsNothing() throws {
    let fixture = try SeedFixture()
    let empty = try fixture.csv("person_info.csv", "")
    #expect(fixture.seedError([empty]) == .emptyFile(file: "seeds/person_info.csv"))
    let headerOnly = try fixture.csv("student.csv", "stuID,stuName\r\n")
    let report = try fixture.seed([headerOnly])
    #expect(report.tables.map(\.rowsRead) == [0])
    #expect(report.tables.map(\.inserted) == [0])
  }

  @Test func aTableThatDoesNotExistIsNamedWithTheTablesThatDo() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("people.csv", "name,age\nPeter,22\n")
    let error = fixture.seedError([file])
    #expect(
      error
        == .noSuchTable(
          file: "seeds/people.csv",
          table: "people",
          tables: ["person_info", "student"]
        )
    )
    #expect(error?.help.contains("name its table (SeedFile's table)") == true)
    #expect(error?.remedies == [.seedTable, .migrateFirst])
  }

  @Test func malformedCSVNamesFileLineAndColumn() throws {
    let fixture = try SeedFixture()
    let file = try fixture.bytes(
      "person_info.csv",
      Array("name,age\nPeter,22\ncaf".utf8) + [0xE9, 0x0A]
    )
    let error = fixture.seedError([file])
    #expect(
      error == .malformed(file: "seeds/person_info.csv", CSVError(.invalidUTF8, line: 3, column: 4))
    )
    #expect(
      error?.message.hasPrefix("seeds/person_info.csv:3:4: the bytes here are not UTF-8") == true
    )
    #expect(try fixture.count("person_info") == 0)
  }

  @Test func aTwoHundredKilobyteFieldLoads() throws {
    let fixture = try SeedFixture()
    let big = String(repeating: "é", count: 100_000)
    _ = try fixture.seed([try fixture.csv("person_info.csv", "name,age\n\"\(big)\",1\n")])
    #expect(
      try fixture.rows("SELECT length(name), length(CAST(name AS BLOB)) FROM person_info") == [
        [.integer(100_000), .integer(200_000)]
      ]
    )
  }

  // MARK: - All or nothing

  static func thousandPeople(badAt line: Int, _ bad: String) -> String {
    "name,age\n"
      + (2...1_001).map { line -> String in line == 601 ? bad : "Person \(line),\(line % 90)" }
      .joined(separator: "\n") + "\n"
  }

  @Test(
    arguments: [
      ("Bad,-1", "CHECK constraint failed"),
      (",5", "NOT NULL constraint failed: person_info.name"),
      ("Person 2,5", "UNIQUE constraint failed: person_info.name"),
    ]
  )
  func aConstraintViolationAtRow600Of1000WritesNothingAndNamesLine601(
    row: String,
    sqliteMessage: String
  ) throws {
    for mode in [SeedMode.append, .replace] {
      let fixture = try SeedFixture()
      let file = try fixture.csv("person_info.csv", Self.thousandPeople(badAt: 601, row))
      guard
        case .rowFailed(let shown, let line, _, let error)? = fixture.seedError([file], mode: mode)
      else {
        Issue.record("expected a row failure in mode \(mode)")
        continue
      }
      #expect(shown == "seeds/person_info.csv")
      #expect(line == 601)
      #expect(error.message.hasPrefix(sqliteMessage))
      #expect(try fixture.count("person_info") == 0)
      #expect(try fixture.seeder.ledger().isEmpty)
    }
  }

  @Test func inMissingModeTheSameBadRowsFailAtLine601Too() throws {
    let cases: [(String, (SeedError?) -> Bool)] = [
      ("Bad,-1", { if case .rowFailed(_, 601, 5, _)? = $0 { true } else { false } }),
      (
        ",5",
        {
          $0
            == .emptyKey(
              file: "seeds/person_info.csv",
              line: 601,
              column: 1,
              name: "name",
              mode: .missing
            )
        }
      ),
      (
        "Person 2,5",
        {
          $0
            == .duplicateKey(
              file: "seeds/person_info.csv",
              line: 601,
              firstLine: 2,
              columns: ["name"]
            )
        }
      ),
    ]
    for (row, matches) in cases {
      let fixture = try SeedFixture()
      let file = try fixture.csv("person_info.csv", Self.thousandPeople(badAt: 601, row))
      let error = fixture.seedError([file])
      #expect(matches(error), "\(row): \(String(describing: error))")
      #expect(try fixture.count("person_info") == 0)
    }
  }

  @Test func aForeignKeyViolationAtRow600NamesTheChildFileAndLine() throws {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author_id INTEGER REFERENCES author(id));
        """
    )
    let authors = try fixture.csv("author.csv", "id,name\n1,Ann\n2,Ben\n")
    let books = try fixture.csv(
      "book.csv",
      "id,title,author_id\n"
        + (2...1_001).map { "\($0),Book \($0),\($0 == 601 ? 3 : $0 % 2 + 1)" }.joined(
          separator: "\n"
        )
    )
    let error = fixture.seedError([books, authors], mode: .append)
    #expect(
      error
        == .foreignKeyViolation(
          file: "seeds/book.csv",
          line: 601,
          table: "book",
          columns: ["author_id"],
          parent: "author",
          count: 1
        )
    )
    #expect(try fixture.count("book") == 0)
    #expect(try fixture.count("author") == 0)
  }

  @Test func aDiskFullHalfwayWritesNothing() throws {
    let fixture = try SeedFixture()
    let pages = try fixture.connection.scalar("PRAGMA page_count")?.integerValue ?? 0
    try fixture.connection.execute("PRAGMA max_page_count = \(pages + 20)")
    let file = try fixture.csv(
      "person_info.csv",
      "name,age\n"
        + (1...20_000).map { "Someone with a long name number \($0),\($0 % 90)" }
        .joined(separator: "\n")
    )
    let error = fixture.seedError([file], mode: .append)
    switch error {
    case .batchFailed(_, let first, _, let sqlite)?, .rowFailed(_, let first, _, let sqlite)?:
      #expect(sqlite.isFull)
      #expect(first > 2)
    case .database(_, let sqlite)?:
      #expect(sqlite.isFull)
    default:
      Issue.record("expected SQLITE_FULL, got \(String(describing: error))")
    }
    #expect(error?.message.contains("database or disk is full") == true)
    #expect(error?.help.contains("max_page_count") == true)
    #expect(try fixture.count("person_info") == 0)
  }

  // MARK: - Modes and keys

  @Test func missingModeInsertsAbsentRowsAndNeverTouchesExistingOnes() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute("INSERT INTO person_info (name, age) VALUES ('Peter', 99)")
    let file = try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack,20\n")
    let report = try fixture.seed([file])
    #expect(report.tables[0].inserted == 1)
    #expect(report.tables[0].unchanged == 1)
    #expect(
      try fixture.rows("SELECT name, age FROM person_info ORDER BY id") == [
        [.text("Peter"), .integer(99)], [.text("Jack"), .integer(20)],
      ]
    )
    let again = try fixture.seed([file])
    #expect(again.tables[0].inserted == 0)
    #expect(try fixture.count("person_info") == 2)
  }

  @Test func upsertUpdatesOnlyTheCSVsColumnsOfChangedRows() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute(
      "INSERT INTO student VALUES ('00501', 'Ann', 19, 'A1', 'ann@example.com'), "
        + "('00502', 'Ben', 20, 'A1', 'ben@example.com')"
    )
    let file = try fixture.csv(
      "student.csv",
      "stuID,stuName,stuAge\n00501,Ann,20\n00502,Ben,20\n00503,Cy,18\n"
    )
    let report = try fixture.seed([file], mode: .upsert)
    #expect(report.tables[0].inserted == 1)
    #expect(report.tables[0].updated == 1)
    #expect(report.tables[0].unchanged == 1)
    #expect(
      try fixture.rows("SELECT stuID, stuAge, email FROM student ORDER BY stuID") == [
        [.text("00501"), .integer(20), .text("ann@example.com")],
        [.text("00502"), .integer(20), .text("ben@example.com")],
        [.text("00503"), .integer(18), .null],
      ]
    )
  }

  @Test func replaceEmptiesTheTableThenInserts() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute(
      "INSERT INTO person_info (name, age) VALUES ('Old', 1), ('Older', 2)"
    )
    let report = try fixture.seed(
      [try fixture.csv("person_info.csv", "name,age\nPeter,22\n")],
      mode: .replace
    )
    #expect(report.tables[0].deleted == 2)
    #expect(report.tables[0].inserted == 1)
    #expect(try fixture.rows("SELECT name FROM person_info") == [[.text("Peter")]])
  }

  @Test func replaceIsRefusedWhenAnotherTableCascadesUnlessForced() throws {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE book (id INTEGER PRIMARY KEY,
          author_id INTEGER REFERENCES author(id) ON DELETE CASCADE);
        INSERT INTO author VALUES (1, 'Ann');
        INSERT INTO book VALUES (10, 1);
        """
    )
    let file = try fixture.csv("author.csv", "id,name\n1,Ann\n")
    #expect(
      fixture.seedError([file], mode: .replace)
        == .cascadingReplace(file: "seeds/author.csv", table: "author", children: ["book"])
    )
    #expect(try fixture.count("book") == 1)
    _ = try fixture.seeder.seed([file], options: SeedOptions(mode: .replace, force: true))
    #expect(try fixture.count("book") == 0)
    #expect(try fixture.count("author") == 1)
  }

  /// A forced replace cascades into `book`; that orphans `review`, two levels down. The dry
  /// run must fail exactly as the real run does, naming the orphaned table.
  @Test(arguments: [true, false])
  func forcedReplaceThatOrphansAGrandchildFailsInTheDryRunToo(dryRun: Bool) throws {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT UNIQUE,
          author_id INTEGER REFERENCES author(id) ON DELETE CASCADE);
        CREATE TABLE review (id INTEGER PRIMARY KEY, book_title TEXT REFERENCES book(title));
        INSERT INTO author VALUES (1, 'Ann');
        INSERT INTO book VALUES (10, 'Dune', 1);
        INSERT INTO review VALUES (100, 'Dune');
        """
    )
    let file = try fixture.csv("author.csv", "id,name\n1,Ann\n")
    let error = #expect(throws: SeedError.self) {
      try fixture.seeder.seed(
        [file],
        options: SeedOptions(mode: .replace, dryRun: dryRun, force: true)
      )
    }
    guard case .foreignKeyViolation(_, _, let table, _, let parent, _)? = error else {
      Issue.record("expected a foreign key violation, got \(String(describing: error))")
      return
    }
    #expect(table == "review" && parent == "book")
    #expect(try fixture.count("book") == 1)
    #expect(try fixture.count("review") == 1)
  }

  /// Values a REAL or NUMERIC column would silently store as something else.
  @Test(arguments: [
    ("1e-400", "REAL", SeedValueProblem.underflow),
    ("1e-320", "REAL", .underflow),
    ("1e-400", "NUMERIC", .underflow),
    ("-0.0", "REAL", .negativeZero),
    ("-0", "REAL", .negativeZero),
    ("-0.0", "NUMERIC", .negativeZero),
  ])
  func realValuesThatWouldChangeAreRefused(
    value: String,
    type: String,
    problem: SeedValueProblem
  )
    throws
  {
    let fixture = try SeedFixture(schema: "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(type));")
    let file = try fixture.csv("t.csv", "id,v\n1,\(value)\n")
    guard
      case .invalidValue(_, let line, _, let name, _, let found)? = fixture.seedError(
        [file],
        mode: .append
      )
    else {
      Issue.record("expected \(value) to be refused in a \(type) column")
      return
    }
    #expect(line == 2 && name == "v" && found == problem)
    #expect(try fixture.count("t") == 0)
  }

  @Test func plainZerosAndSmallNormalNumbersAreKept() throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE t (id INTEGER PRIMARY KEY, v REAL);")
    let file = try fixture.csv("t.csv", "id,v\n1,0\n2,0.0\n3,1e-300\n4,-2.5e-10\n")
    _ = try fixture.seeder.seed([file], options: SeedOptions(mode: .append))
    #expect(
      try fixture.rows("SELECT v FROM t ORDER BY id")
        == [[.real(0)], [.real(0)], [.real(1e-300)], [.real(-2.5e-10)]]
    )
  }

  @Test func twoFilesForOneTableInOneRunAreRefused() throws {
    let fixture = try SeedFixture()
    let first = try fixture.csv("person_info.csv", "name,age\nPeter,22\n")
    let second = try fixture.csv("people.csv", "name,age\nJack,20\n")
    let renamed = SeedFile(url: second.url, table: "PERSON_INFO", displayPath: second.displayPath)
    #expect(
      fixture.seedError([first, renamed], mode: .replace)
        == .sameTableTwice(
          table: "person_info",
          files: ["seeds/person_info.csv", "seeds/people.csv"]
        )
    )
    #expect(try fixture.count("person_info") == 0)
  }

  @Test func upsertUpdatesAValueThatDiffersOnlyInCase() throws {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT COLLATE NOCASE);
        INSERT INTO p VALUES (1, 'ANN');
        """
    )
    let file = try fixture.csv("p.csv", "id,name\n1,ann\n")
    let report = try fixture.seeder.seed([file], options: SeedOptions(mode: .upsert))
    #expect(report.updated == 1)
    #expect(try fixture.rows("SELECT name FROM p") == [[.text("ann")]])
  }

  @Test func appendInsertsEveryRowAndADuplicateFailsTheRun() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("person_info.csv", "name,age\nPeter,22\n")
    _ = try fixture.seed([file], mode: .append)
    guard
      case .rowFailed(_, let line, let column, let error)? = fixture.seedError(
        [file],
        mode: .append
      )
    else {
      Issue.record("expected a UNIQUE failure")
      return
    }
    #expect(line == 2)
    #expect(column == 1)
    #expect(error.message == "UNIQUE constraint failed: person_info.name")
    #expect(try fixture.count("person_info") == 1)
  }

  @Test func missingAndUpsertNeedAKeyInTheHeader() throws {
    let fixture = try SeedFixture(schema: "CREATE TABLE log (message TEXT, level INTEGER);")
    let file = try fixture.csv("log.csv", "message,level\nhello,1\n")
    for mode in [SeedMode.missing, .upsert] {
      let error = fixture.seedError([file], mode: mode)
      #expect(error == .noKey(file: "seeds/log.csv", table: "log", mode: mode, uniqueKeys: []))
      #expect(error?.help.contains("UNIQUE") == true)
      #expect(error?.help.contains("seed in the append mode") == true)
    }
    _ = try fixture.seed([file], mode: .append)
    #expect(try fixture.count("log") == 1)
  }

  @Test func aKeyRepeatedInsideTheCSVIsAnErrorNamingBothLines() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv(
      "person_info.csv",
      "name,age\n" + (1...200).map { "P\($0),1" }.joined(separator: "\n") + "\nP7,2\n"
    )
    for mode in [SeedMode.missing, .upsert] {
      let error = fixture.seedError([file], mode: mode)
      #expect(
        error
          == .duplicateKey(
            file: "seeds/person_info.csv",
            line: 202,
            firstLine: 8,
            columns: ["name"]
          )
      )
      #expect(try fixture.count("person_info") == 0)
    }
  }

  @Test func anEmptyKeyIsAnErrorInMissingMode() throws {
    let fixture = try SeedFixture()
    let file = try fixture.csv("student.csv", "stuID,stuName\n,Ann\n")
    #expect(
      fixture.seedError([file])
        == .emptyKey(file: "seeds/student.csv", line: 2, column: 1, name: "stuID", mode: .missing)
    )
  }

  // MARK: - Several files, foreign keys, ledger

  @Test func filesLoadParentsFirstAndCyclesLoadWithDeferredKeys() throws {
    let fixture = try SeedFixture(
      schema: """
        CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT UNIQUE,
          captain_id INTEGER REFERENCES player(id));
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT UNIQUE,
          team_id INTEGER REFERENCES team(id));
        CREATE TABLE match (id INTEGER PRIMARY KEY, home INTEGER REFERENCES team(id));
        """
    )
    let match = try fixture.csv("match.csv", "id,home\n1,1\n")
    let player = try fixture.csv("player.csv", "id,name,team_id\n7,Ann,1\n")
    let team = try fixture.csv("team.csv", "id,name,captain_id\n1,Reds,7\n")
    let report = try fixture.seed([match, player, team])
    #expect(report.tables.map(\.table).last == "match")
    #expect(try fixture.count("match") == 1)
    #expect(try fixture.count("player") == 1)
    #expect(try fixture.count("team") == 1)
    #expect(try fixture.rows("PRAGMA foreign_key_check").isEmpty)
  }

  @Test func theLedgerRecordsEachFileAndOnlyUnrecordedSkipsLoadedOnes() throws {
    let fixture = try SeedFixture()
    let people = try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack,20\n")
    let students = try fixture.csv("student.csv", "stuID,stuName\n00501,Ann\n")
    _ = try fixture.seed([people])
    let ledger = try fixture.seeder.ledger()
    #expect(ledger.map(\.file) == ["person_info.csv"])
    #expect(ledger.map(\.rowsInserted) == [2])
    #expect(ledger.first?.checksum == SHA256.hex(Array("name,age\nPeter,22\nJack,20\n".utf8)))

    let options = SeedOptions(onlyUnrecorded: true)
    let report = try fixture.seeder.seed(
      directory: fixture.folder.path("seeds"),
      displayPath: "seeds",
      options: options
    )
    #expect(report.loadedFiles == ["seeds/student.csv"])
    #expect(report.tables.filter(\.alreadyRecorded).map(\.file) == ["seeds/person_info.csv"])
    #expect(try fixture.count("student") == 1)
    _ = students

    // A changed file has a new checksum, so it loads again (missing mode: only the new row).
    try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack,20\nTom,24\n")
    let third = try fixture.seeder.seed(
      directory: fixture.folder.path("seeds"),
      displayPath: "seeds",
      options: options
    )
    #expect(third.loadedFiles == ["seeds/person_info.csv"])
    #expect(third.inserted == 1)
  }

  @Test func aDryRunReportsAndChangesNothing() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute("INSERT INTO person_info (name, age) VALUES ('Peter', 99)")
    let file = try fixture.csv("person_info.csv", "name,age\nPeter,22\nJack,20\n")
    let report = try fixture.seeder.seed([file], options: SeedOptions(mode: .upsert, dryRun: true))
    #expect(report.dryRun)
    #expect(report.tables[0].inserted == 1)
    #expect(report.tables[0].updated == 1)
    #expect(
      try fixture.rows("SELECT name, age FROM person_info") == [[.text("Peter"), .integer(99)]]
    )
    #expect(try fixture.seeder.ledger().isEmpty)
  }

  @Test func insideTheCallersTransactionASeedErrorUndoesOnlyTheSeed() throws {
    let fixture = try SeedFixture()
    try fixture.connection.execute("BEGIN")
    try fixture.connection.execute("INSERT INTO student (stuID, stuName) VALUES ('1', 'Kept')")
    let bad = try fixture.csv("person_info.csv", "name,age\nPeter,-1\n")
    #expect(fixture.seedError([bad]) != nil)
    #expect(!fixture.connection.isAutocommit)
    _ = try fixture.seed([try fixture.csv("person_info.csv", "name,age\nPeter,1\n")])
    try fixture.connection.execute("COMMIT")
    #expect(try fixture.count("student") == 1)
    #expect(try fixture.count("person_info") == 1)
  }

  @Test func filesInAFolderAreTheCSVFilesOnly() throws {
    let fixture = try SeedFixture()
    try fixture.csv("person_info.csv", "name\nA\n")
    try fixture.csv("Student.CSV", "stuID,stuName\n1,B\n")
    try fixture.bytes("template.sqlite3", [1, 2, 3])
    try fixture.csv(".hidden.csv", "x\n")
    let files = try Seeder.files(in: fixture.folder.path("seeds"), displayPath: "seeds")
    #expect(files.map(\.displayPath) == ["seeds/Student.CSV", "seeds/person_info.csv"])
    #expect(files.map(\.table) == ["Student", "person_info"])
    #expect(
      throws: SeedError.directoryNotFound(path: "nowhere"),
      performing: { try Seeder.files(in: fixture.folder.path("nowhere"), displayPath: "nowhere") }
    )
  }
}
