import Foundation
import Strata
import StrataDqlite
import StrataTestSupport
import Testing

/// The commands against a real three-node dqlite cluster (`--database dqlite://…`), as real
/// processes: the exit code, the message, and the rows on the cluster. Truth is the same
/// folder applied by strata to a local file.
@Suite(
  .serialized,
  .enabled(if: DqliteCluster.isAvailable, Comment(rawValue: DqliteCluster.skipReason))
)
struct ClusterCommandTests {
  let cluster: DqliteCluster

  init() throws { cluster = try DqliteCluster.shared.get() }

  /// `dqlite://` two of the nodes `/name`: the leader is found from either.
  func url(_ name: String) -> String {
    "dqlite://\(cluster.addresses[1]),\(cluster.addresses[2])/\(name)"
  }

  func project() throws -> TemporaryDirectory {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_create_country.sql",
      "-- migrate:up\nCREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);\n"
        + "-- migrate:down\nDROP TABLE country;\n"
    )
    try folder.write(
      "migrations/0002_create_city.sql",
      "-- migrate:up\nCREATE TABLE city (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL,\n"
        + "  country TEXT NOT NULL REFERENCES country (code)\n);\n"
        + "CREATE INDEX city_country ON city (country);\n-- migrate:down\nDROP TABLE city;\n"
    )
    try folder.write("seeds/country.csv", "code,name\nFR,France\nIT,Italia\n")
    try folder.write("seeds/city.csv", "id,name,country\n1,Paris,FR\n2,Lyon,FR\n3,Roma,IT\n")
    return folder
  }

  func strata(
    _ arguments: String...,
    in folder: TemporaryDirectory,
    environment: [String: String] = [:],
    timeout: Double = 120
  ) throws -> ProcessResult {
    try StrataProcess.run(arguments, in: folder.url, environment: environment, timeout: timeout)
  }

  func database(_ name: String) throws -> DqliteDatabase {
    try DqliteDatabase(nodes: cluster.addresses, name: name)
  }

  @Test func theCommandsRunOnAClusterAsOnAFile() throws {
    let folder = try project()
    let address = url("shop")
    var result = try strata("status", "--check", "--database", address, in: folder)
    #expect(result.exitCode == 1)
    #expect(result.standardOutput.contains("\(address) (does not exist yet)"))

    result = try strata("migrate", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("\(address) is now at version 2."))
    result = try strata("status", "--check", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("2 applied"))

    result = try strata("seed", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    let cluster = try database("shop")
    #expect(try cluster.scalar("SELECT count(*) FROM city", []) == .integer(3))

    // The same folder on a file: inspect says the same of both (but the name).
    #expect(try strata("migrate", "--database", "truth.sqlite3", in: folder).exitCode == 0)
    #expect(try strata("seed", "--database", "truth.sqlite3", in: folder).exitCode == 0)
    let onCluster = try strata("inspect", "--format", "json", "--database", address, in: folder)
    let onFile = try strata(
      "inspect",
      "--format",
      "json",
      "--database",
      "truth.sqlite3",
      in: folder
    )
    #expect(onCluster.exitCode == 0, "\(onCluster.standardError)")
    #expect(
      try tables(onCluster.standardOutput) == tables(onFile.standardOutput),
      "\(onCluster.standardOutput)"
    )
    // Through dqlite's own shell: the schema and the rows the file has.
    let sql =
      "SELECT name, replace(sql, char(10), ' ') FROM sqlite_master "
      + "WHERE name NOT LIKE 'sqlite%' ORDER BY name; SELECT * FROM city ORDER BY id;"
    let truth = try command("/usr/bin/sqlite3", [folder.path("truth.sqlite3").path, sql])
    var shell: [String] = []
    for query in sql.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
    where !query.isEmpty {
      shell += try command(
        "/usr/bin/dqlite",
        ["-s", self.cluster.addresses[0], "shop", query]
      ).split(separator: "\n").map(String.init)
    }
    #expect(shell == truth.split(separator: "\n").map(String.init))
    #expect(try strata("inspect", "--diff", "--database", address, in: folder).exitCode == 0)
    for format in ["text", "markdown", "mermaid", "sql"] {
      let shown = try strata("inspect", "--format", format, "--database", address, in: folder)
      #expect(shown.exitCode == 0, "\(format): \(shown.standardError)")
      #expect(shown.standardOutput.contains("city"), "\(format)")
    }
    result = try strata(
      "schema",
      "--schema-file",
      "schema.sql",
      "--database",
      address,
      in: folder
    )
    #expect(result.exitCode == 0, "\(result.standardError)")
    let schema = try String(contentsOf: folder.path("schema.sql"), encoding: .utf8)
    #expect(schema.contains("CREATE TABLE city"), "\(schema)")
    result = try strata("validate", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    result = try strata("lint", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")

    result = try strata("backup", "copy.sqlite3", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    let copy = try Connection(path: folder.path("copy.sqlite3").path, mode: .readOnly)
    #expect(try copy.scalar("SELECT count(*) FROM city") == .integer(3))
    result = try strata("status", "--check", "--database", "copy.sqlite3", in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")

    result = try strata("rollback", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("\(address) is now at version 1"))
    result = try strata("migrate", "--dry-run", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("would be at version 2"))
    #expect(try cluster.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(1))
  }

  /// What a program prints, run to its end.
  func command(_ path: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(path) \(arguments)")
    return String(decoding: data, as: UTF8.self)
  }

  /// The tables of `inspect --format json`, without what names the database.
  func tables(_ json: String) throws -> String {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    let tables = try #require(object?["tables"])
    let data = try JSONSerialization.data(withJSONObject: tables, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
  }

  @Test func aFailingMigrationSaysWhereAndLeavesTheClusterAtTheVersionBefore() throws {
    let folder = try project()
    try folder.write(
      "migrations/0003_broken.sql",
      "-- migrate:up\nCREATE TABLE street (id INTEGER PRIMARY KEY);\nINSERT INTO nowhere VALUES (1);\n"
    )
    let address = url("cli-broken")
    let result = try strata("migrate", "--database", address, in: folder)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("0003_broken.sql:3"), "\(result.standardError)")
    #expect(result.standardError.contains("no such table: nowhere"))
    #expect(result.standardError.contains("the cluster was not changed; it is at version 0"))
    #expect(
      try database("cli-broken").scalar("SELECT count(*) FROM sqlite_schema", []) == .integer(0)
    )
  }

  @Test func twoProcessesMigratingOneClusterApplyEachMigrationOnce() throws {
    let folder = try TemporaryDirectory()
    try folder.write(
      "migrations/0001_log.sql",
      "-- migrate:up\nCREATE TABLE log (n INTEGER NOT NULL);\nINSERT INTO log VALUES (1);\n"
    )
    for number in 2...40 {
      try folder.write(
        String(format: "migrations/%04d_t%d.sql", number, number),
        "-- migrate:up\nCREATE TABLE t\(number) (id INTEGER PRIMARY KEY);\n"
          + "INSERT INTO log VALUES (\(number));\n"
      )
    }
    let address = url("twice")
    let processes = try (0..<2).map { _ in
      try StrataProcess.start(["migrate", "--database", address], in: folder.url)
    }
    for process in processes { process.waitUntilExit() }
    #expect(processes.map(\.terminationStatus) == [0, 0])
    let cluster = try database("twice")
    #expect(try cluster.scalar("SELECT count(*) FROM log", []) == .integer(40))
    #expect(try cluster.scalar("SELECT count(DISTINCT n) FROM log", []) == .integer(40))
    #expect(try cluster.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(40))
  }

  @Test func strataDatabaseNamesTheClusterToo() throws {
    let folder = try project()
    let result = try strata("migrate", in: folder, environment: ["STRATA_DATABASE": url("env")])
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(try database("env").scalar("SELECT count(*) FROM strata_migrations", []) == .integer(2))
  }

  @Test func commandsThatNeedAFileRefuseAClusterAndChangeNothing() throws {
    let folder = try project()
    let address = url("refused")
    for arguments in [
      ["init", "--database", address], ["restore", "backup.sqlite3", "--database", address],
      ["template", "--output", address],
    ] {
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 1, "\(arguments)")
      #expect(
        result.standardError.contains("is a dqlite cluster's database, and this command runs on "),
        "\(result.standardError)"
      )
      #expect(result.standardError.contains("nothing was changed"))
    }
    #expect(try database("refused").scalar("SELECT count(*) FROM sqlite_schema", []) == .integer(0))
    #expect(!FileManager.default.fileExists(atPath: folder.path("dqlite:").path))
  }

  @Test func aFleetOfFilesRefusesAClusterInItsList() throws {
    let folder = try project()
    try folder.write("list.txt", "a.sqlite3\n\(url("listed"))\n")
    for argument in [url("named"), "@list.txt"] {
      let result = try strata("migrate", "--databases", argument, in: folder)
      #expect(result.exitCode == 1, "\(argument)")
      #expect(
        result.standardError.contains("is a dqlite cluster's database; --databases runs over "),
        "\(result.standardError)"
      )
    }
    #expect(
      try strata("migrate", "--databases", "@list.txt", in: folder).standardError.contains(
        "list.txt:2: "
      )
    )
  }

  @Test func aMistypedNameIsNotTakenForAnEmptyDatabase() throws {
    let folder = try project()
    #expect(try strata("migrate", "--database", url("named"), in: folder).exitCode == 0)
    for command in ["rollback", "seed", "baseline", "backup"] {
      var arguments = [command, "--database", url("nmaed")]
      if command == "backup" { arguments.insert("out.sqlite3", at: 1) }
      if command == "baseline" { arguments += ["--version", "1"] }
      let result = try StrataProcess.run(arguments, in: folder.url)
      #expect(result.exitCode == 1, "\(command): \(result.standardOutput)")
      #expect(
        result.standardError.contains("the cluster has no database 'nmaed' yet"),
        "\(command): \(result.standardError)"
      )
    }
    #expect(!FileManager.default.fileExists(atPath: folder.path("out.sqlite3").path))
  }

  @Test func baselineRecordsWhatTheClusterAlreadyHas() throws {
    let folder = try project()
    let cluster = try database("adopted")
    try cluster.execute("CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL)")
    let address = url("adopted")
    var result = try strata("baseline", "--version", "1", "--database", address, in: folder)
    #expect(result.exitCode == 0, "\(result.standardError)")
    #expect(result.standardOutput.contains("Recorded 1 migration(s) up to version 1"))
    result = try strata("status", "--database", address, in: folder)
    #expect(result.standardOutput.contains("1 applied, 1 pending"), "\(result.standardOutput)")
    result = try strata("baseline", "--from", "dbmate", "--database", address, in: folder)
    #expect(result.exitCode == 1)
    #expect(result.standardError.contains("adopting another tool's history"))
    #expect(try cluster.scalar("SELECT count(*) FROM strata_migrations", []) == .integer(1))
  }

  @Test func anAddressThatIsNotOneIsRefusedSayingWhy() throws {
    let folder = try project()
    for (address, reason) in [
      ("dqlite://127.0.0.1:9001/", "the database name is empty"),
      ("dqlite://127.0.0.1/app", "'127.0.0.1' is not HOST:PORT or [IPv6]:PORT"),
      ("dqlite:///tmp/node.sock/app", "no node is listed"),
    ] {
      let result = try strata("status", "--database", address, in: folder)
      #expect(result.exitCode == 1, "\(address)")
      #expect(result.standardError.contains(reason), "\(address): \(result.standardError)")
    }
  }

  @Test func aNodeThatNeverAnswersEndsInAClearErrorNotAHang() throws {
    let folder = try project()
    // Listens, and never answers: the handshake is taken by the kernel, then silence.
    let (socket, port) = try listeningSocket()
    defer { close(socket) }
    let started = Date()
    let result = try strata(
      "status",
      "--database",
      "dqlite://127.0.0.1:\(port)/app",
      in: folder,
      timeout: 60
    )
    #expect(!result.timedOut)
    #expect(result.exitCode == 1)
    #expect(
      result.standardError.contains("No dqlite node is the leader"),
      "\(result.standardError)"
    )
    #expect(result.standardError.contains("Timed out"), "\(result.standardError)")
    #expect(Date().timeIntervalSince(started) < 30)
  }
}
