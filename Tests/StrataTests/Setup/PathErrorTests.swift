import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Every error the library throws for a bad path is a `StrataError` that names the real
/// problem, never a raw Foundation error or a false "does not exist".
@Suite struct PathErrorTests {
  @Test func aDatabaseFolderBelowAFileIsAStrataError() throws {
    let folder = try TemporaryDirectory()
    try folder.write("Documents", "a file\n")
    let url = folder.path("Documents/sub/data.sqlite3")
    do {
      _ = try Connection.open(at: url, access: .create, createsFolder: true)
      Issue.record("opened a database below a file")
    } catch let error as DatabaseOpenError {
      #expect(error.message.contains("Documents is a file, not a folder"))
      #expect(!error.help.isEmpty)
    }
  }

  @Test func aDocumentsFolderThatIsAFileIsAStrataError() throws {
    let folder = try TemporaryDirectory()
    try folder.write("Documents", "a file\n")
    var setup = DatabaseSetup(
      database: folder.path("Documents/data.sqlite3"),
      migrations: try folder.write("migrations/0001_a.sql", "CREATE TABLE a (id INTEGER);\n")
        .deletingLastPathComponent()
    )
    setup.createsFolder = true
    #expect(throws: DatabaseOpenError.self) { try setup.run() }
  }

  @Test func aSeedsFolderThatIsAFileIsNotReportedMissing() throws {
    let folder = try TemporaryDirectory()
    let file = try folder.write("seeds", "a file\n")
    do {
      _ = try Seeder.files(in: file, displayPath: "seeds")
      Issue.record("listed a file as a folder")
    } catch let error as SeedError {
      #expect(error.message.contains("not a folder"))
      #expect(!error.message.contains("does not exist"))
    }
  }

  @Test func aMigrationFileThatIsANamedPipeIsNamed() throws {
    let folder = try TemporaryDirectory()
    try folder.write("m/0001_a.sql", "CREATE TABLE a (id INTEGER);\n")
    #expect(mkfifo(folder.path("m/0002_b.sql").path, 0o644) == 0)
    do {
      _ = try MigrationSet(directory: folder.path("m"), displayPath: "m")
      Issue.record("read a named pipe")
    } catch let error as MigrationError {
      #expect(
        error.message == "cannot read m/0002_b.sql: it is a named pipe (FIFO), not a regular file"
      )
    }
  }

  @Test func aDatabaseThatIsASymbolicLinkLoopIsNotMissing() throws {
    let folder = try TemporaryDirectory()
    let url = folder.path("loop.sqlite3")
    try FileManager.default.createSymbolicLink(
      atPath: url.path,
      withDestinationPath: "loop.sqlite3"
    )
    #expect(throws: DatabaseOpenError.self) { try checkDatabasePath(url) }
    #expect(pathStatus(atPath: url.path) != .missing)
  }

  @Test func aMigrationsFolderThatIsAFileOrAPipeIsNotReportedMissing() throws {
    let folder = try TemporaryDirectory()
    try folder.write("file", "x\n")
    #expect(mkfifo(folder.path("pipe").path, 0o644) == 0)
    for (name, words) in [("file", "it is a file, not a folder"), ("pipe", "named pipe")] {
      do {
        _ = try MigrationSet(directory: folder.path(name), displayPath: name)
        Issue.record("read \(name) as a migrations folder")
      } catch let error as MigrationError {
        #expect(error.message.contains(words))
        #expect(!error.message.contains("does not exist"))
      }
    }
  }
}

/// The lower-level public APIs throw `StrataError`s as well.
@Suite struct LowLevelErrorTests {
  @Test func aScriptErrorIsAStrataError() throws {
    let connection = try Connection.inMemory()
    do {
      try connection.executeScript("CREATE TABLE a (id INTEGER);\nCREAT TABLE b (id);")
      Issue.record("ran a broken script")
    } catch let error as any StrataError {
      #expect(error.message.contains("line 2"))
      #expect(!error.help.isEmpty)
    }
  }

  @Test func aCSVErrorIsAStrataError() throws {
    let folder = try TemporaryDirectory()
    do {
      _ = try CSVReader(url: folder.url)
      Issue.record("read a folder as CSV")
    } catch let error as any StrataError {
      #expect(error.message.contains("it is a directory"))
      #expect(!error.help.isEmpty)
    }
  }

  @Test func anSQLiteErrorIsAStrataErrorWithHelpForItsKind() throws {
    let connection = try Connection.inMemory()
    try connection.execute("CREATE TABLE a (id INTEGER PRIMARY KEY)")
    try connection.execute("INSERT INTO a VALUES (1)")
    var helps: [String] = []
    for sql in ["CREAT TABLE b (id)", "INSERT INTO a VALUES (1)"] {
      do {
        try connection.execute(sql)
        Issue.record("ran \(sql)")
      } catch let error as any StrataError {
        #expect(error.description.contains(sql))
        helps.append(error.help)
      }
    }
    #expect(helps.count == 2)
    #expect(helps.last?.contains("constraint") == true)
    #expect(Set(helps).count == 2, "a constraint failure gets its own help")
  }
}
