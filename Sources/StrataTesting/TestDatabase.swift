import Foundation
import Strata

/// A database of its own for one test: a copy of the app's template (or the result of the
/// app's `DatabaseSetup`) in a new temporary folder, so tests never share rows and never touch
/// the app's real database. A copy of a template takes about a millisecond (the
/// "fresh database from template" line of `strata-bench`).
///
/// ```swift
/// let database = try TestDatabase.fresh(template: templateURL)
/// let connection = try database.connection()
/// ```
///
/// The folder is removed when the value is released: keep it alive (a `let` in the test) for
/// as long as its connections are used.
public final class TestDatabase: Sendable {
  /// The database file, `test.sqlite3` (or the name given) in `folder`.
  public let url: URL
  /// The temporary folder that holds only this database; removed with the value.
  public let folder: URL
  /// The configuration `connection()` opens with (the app's Swift functions, extensions).
  public let configuration: ConnectionConfiguration

  private init(url: URL, folder: URL, configuration: ConnectionConfiguration) {
    self.url = url
    self.folder = folder
    self.configuration = configuration
  }

  deinit {
    try? FileManager.default.removeItem(at: folder)
  }

  /// A copy of `template` (the file the app bundles, or a template of an earlier release) in a
  /// new temporary folder. The copy is not migrated: a current template is already at the
  /// newest version, and an old release's is what `UpgradeCheck` migrates.
  ///
  /// - Throws: `SetupError.templateMissing` when there is no file at `template`,
  ///   `SetupError.templateInvalid` when it is not an SQLite database,
  ///   `SetupError.copyFailed` when the copy cannot be written.
  public static func fresh(
    template: URL,
    named name: String = "test.sqlite3",
    configuration: ConnectionConfiguration = .none
  ) throws -> TestDatabase {
    let header = try readHeader(of: template)
    guard header.starts(with: Array("SQLite format 3\0".utf8)) else {
      throw SetupError.templateInvalid(
        path: template.path,
        reason: "it does not start with the SQLite header"
      )
    }
    let database = try makeFolder(named: name, configuration: configuration)
    do {
      try FileManager.default.copyItem(at: template, to: database.url)
    } catch {
      throw SetupError.copyFailed(path: database.url.path, reason: error.localizedDescription)
    }
    return database
  }

  /// The database the app's launch builds, built in a new temporary folder: the template
  /// copied, the migrations applied, the seeds loaded, as `DatabaseSetup.run()` does at
  /// launch. `configure` sets anything else of the setup the app sets (`settings`,
  /// `seedMode`, `connectionConfiguration` …); the database is always the test's own.
  ///
  /// ```swift
  /// let database = try TestDatabase.fresh(
  ///   migrations: try DatabaseSetup.resource("migrations", in: appBundle),
  ///   seeds: try DatabaseSetup.resource("seeds", in: appBundle)
  /// ) { setup in
  ///   setup.settingsFile = try DatabaseSetup.resource("strata", withExtension: "toml", in: appBundle)
  /// }
  /// ```
  ///
  /// - Throws: what `DatabaseSetup.run()` throws for this setup, and the seed problem it
  ///   reports (see `fresh(setup:named:)`); what `configure` throws.
  public static func fresh(
    migrations: URL,
    template: URL? = nil,
    seeds: URL? = nil,
    named name: String = "test.sqlite3",
    configure: (inout DatabaseSetup) throws -> Void = { _ in }
  ) throws -> TestDatabase {
    var setup = DatabaseSetup(
      database: URL(fileURLWithPath: name),
      migrations: migrations,
      template: template,
      seeds: seeds
    )
    try configure(&setup)
    return try fresh(setup: setup, named: name)
  }

  /// The database the app's own `setup` builds (template, migrations, seeds), built in a new
  /// temporary folder: pass the setup the app launches with, unchanged; its `database` is
  /// replaced by the test's own file, so the app's real database is never touched. To write
  /// a setup for a test, `fresh(migrations:template:seeds:named:configure:)` needs no
  /// database.
  ///
  /// - Throws: what `DatabaseSetup.run()` throws for this setup, and the seed problem it
  ///   reports (`SetupReport.seedProblem`, a `SetupError.seedingFailed`): an app's launch opens
  ///   its database despite a bad seed file, but a test's fixture must not silently lack rows.
  public static func fresh(
    setup: DatabaseSetup,
    named name: String = "test.sqlite3"
  ) throws -> TestDatabase {
    let database = try makeFolder(named: name, configuration: setup.connectionConfiguration)
    var setup = setup
    setup.database = database.url
    if let problem = try setup.run().seedProblem { throw problem }
    return database
  }

  /// A new connection to the test's database, opened as strata opens its own (foreign keys
  /// on) with `configuration`.
  ///
  /// - Throws: `SQLiteError` when SQLite cannot open the file; what the configuration throws.
  public func connection() throws -> Connection {
    try configuration.open(path: url.path, mode: .readWrite)
  }

  /// The test's database as the app opens it: a `DatabaseQueue` with `configuration`.
  ///
  /// - Throws: `DatabaseOpenError` when the file cannot be opened; what the configuration
  ///   throws.
  public func queue() throws -> DatabaseQueue {
    try DatabaseQueue(url: url, configuration: configuration)
  }

  private static func makeFolder(
    named name: String,
    configuration: ConnectionConfiguration
  ) throws -> TestDatabase {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("strata-test-\(UUID().uuidString)", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
      throw SetupError.copyFailed(path: folder.path, reason: error.localizedDescription)
    }
    return TestDatabase(
      url: folder.appendingPathComponent(name),
      folder: folder,
      configuration: configuration
    )
  }

  /// The first 16 bytes of `file`: its SQLite header, if it is a database.
  private static func readHeader(of file: URL) throws -> [UInt8] {
    guard let handle = FileHandle(forReadingAtPath: file.path) else {
      throw SetupError.templateMissing(path: file.path)
    }
    defer { try? handle.close() }
    return Array((try? handle.read(upToCount: 16)) ?? Data())
  }
}
