/// The Flyway settings that change how a folder's files are read, from `flyway.conf` or
/// `flyway.toml` (Flyway's ConfigUtils names the keys). strata reads the simple ones exactly,
/// ignores the ones that only say how to reach or report on a database, and refuses the rest,
/// naming the file, the line and the key, so that it never reads a folder other than Flyway
/// would.
struct FlywaySettings: Equatable, Sendable {
  /// `sqlMigrationPrefix`: a versioned migration's prefix.
  var versionedPrefix = "V"
  /// `undoSqlMigrationPrefix`: an undo migration's prefix (its down part).
  var undoPrefix = "U"
  /// `repeatableSqlMigrationPrefix`: a repeatable migration's prefix.
  var repeatablePrefix = "R"
  /// `sqlMigrationSeparator`: between the version and the description.
  var separator = "__"
  /// `sqlMigrationSuffixes`: the endings of migration files (compared ignoring case).
  var suffixes = [".sql"]
  /// `placeholderReplacement`: whether Flyway replaces `${name}` in the files.
  var placeholderReplacement = true
  /// `placeholderPrefix` and `placeholderSuffix`.
  var placeholderPrefix = "${"
  var placeholderSuffix = "}"
  /// `executeInTransaction`: false runs every migration outside a transaction.
  var executeInTransaction = true

  /// A setting as written: its key without `flyway.`, its value, and where it stands.
  struct Entry: Equatable, Sendable {
    let key: String
    let value: Value
    let file: String
    let line: Int
  }

  /// A value: conf files hold text, TOML files text, booleans or arrays of text.
  enum Value: Equatable, Sendable {
    case text(String)
    case list([String])
  }

  /// Keys that only say how to reach, lock, report on or clean a database, or what a command
  /// other than migrating does: they do not change which SQL runs, so strata ignores them.
  static let ignoredKeys: Set<String> = [
    "url", "user", "password", "driver", "schemas", "defaultSchema", "createSchemas", "table",
    "tablespace", "connectRetries", "connectRetriesInterval", "locations", "jarDirs",
    "installedBy", "baselineVersion", "baselineDescription", "baselineOnMigrate", "outOfOrder",
    "target", "validateOnMigrate", "cleanDisabled", "cleanOnValidationError", "mixed", "group",
    "failOnMissingLocations", "ignoreMigrationPatterns", "configFiles", "configFileEncoding",
    "workingDirectory", "environment", "reportFilename", "outputType", "outputQueryResults",
    "color", "loggers", "licenseKey", "lockRetryCount", "skipDefaultCallbacks",
    "placeholderSeparator", "scriptPlaceholderPrefix", "scriptPlaceholderSuffix",
    "reportEnabled", "batch", "stream", "errorOverrides", "validateMigrationNaming",
    "databaseType", "provisioner", "resolvers", "kerberosConfigFile",
  ]

  /// Keys whose prefix (`placeholders.`, `jdbcProperties.`, a database's own section) marks a
  /// family strata ignores: placeholders matter only in a file that uses one, which strata
  /// refuses; the rest are connection settings.
  static let ignoredFamilies = [
    "placeholders.", "jdbcProperties.", "postgresql.", "sqlserver.", "oracle.", "mysql.",
    "snowflake.", "sqlite.", "plugins.", "environments.",
  ]

  /// Applies one setting.
  ///
  /// - Throws: `MigrationError.formatProblem` at the setting's line for a key strata does not
  ///   implement (one that would change what runs) or a value it cannot take.
  mutating func apply(_ entry: Entry) throws {
    func problem(_ reason: String) -> MigrationError {
      .formatProblem(file: entry.file, line: entry.line, format: .flyway, reason: reason)
    }
    func text() throws -> String {
      switch entry.value {
      case .text(let text):
        if text.contains("${") {
          throw problem(
            "'\(entry.key)' takes its value from an environment variable (\(text)); strata "
              + "reads the setting only when it is written out, so nothing was run"
          )
        }
        return text
      case .list(let list): return list.joined(separator: ",")
      }
    }
    func flag() throws -> Bool {
      switch try text().lowercased() {
      case "true": return true
      case "false": return false
      case let other:
        throw problem("'\(entry.key)' is '\(other)'; Flyway takes true or false")
      }
    }
    func nonEmpty() throws -> String {
      let value = try text()
      guard !value.isEmpty else { throw problem("'\(entry.key)' is empty") }
      return value
    }
    switch entry.key {
    case "sqlMigrationPrefix": versionedPrefix = try nonEmpty()
    case "undoSqlMigrationPrefix": undoPrefix = try nonEmpty()
    case "repeatableSqlMigrationPrefix": repeatablePrefix = try nonEmpty()
    case "sqlMigrationSeparator": separator = try nonEmpty()
    case "sqlMigrationSuffixes":
      let list: [String]
      switch entry.value {
      case .list(let values): list = values
      case .text: list = try text().split(separator: ",").map { String($0) }
      }
      suffixes = list.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      if suffixes.isEmpty { throw problem("'sqlMigrationSuffixes' names no suffix") }
    case "placeholderReplacement": placeholderReplacement = try flag()
    case "placeholderPrefix": placeholderPrefix = try nonEmpty()
    case "placeholderSuffix": placeholderSuffix = try nonEmpty()
    case "executeInTransaction": executeInTransaction = try flag()
    case "encoding":
      let name = try text().uppercased()
      guard name == "UTF-8" || name == "UTF8" else {
        throw problem(
          "'encoding' is '\(try text())'; strata reads migration files as UTF-8 only, so it "
            + "would read other text than Flyway"
        )
      }
    case "detectEncoding":
      if try flag() {
        throw problem(
          "'detectEncoding' is true; strata reads migration files as UTF-8 only and does not "
            + "guess an encoding"
        )
      }
    case let key
    where Self.ignoredKeys.contains(key) || Self.ignoredFamilies.contains(where: key.hasPrefix):
      break
    default:
      throw problem(
        "Flyway's '\(entry.key)' setting is not read by strata, and it may change what runs "
          + "(\(Self.why(entry.key))); nothing was run"
      )
    }
  }

  /// Why a refused key matters, in words.
  private static func why(_ key: String) -> String {
    switch key {
    case "initSql": "Flyway runs that SQL on every connection"
    case "callbacks", "callbackLocations": "Flyway runs those callbacks around each migration"
    case "skipDefaultResolvers": "Flyway would not read the SQL files"
    case "skipExecutingMigrations": "Flyway records migrations without running them"
    case "cherryPick": "Flyway applies only the migrations it names"
    case "shouldExecute": "Flyway runs the file only when the condition holds"
    default: "strata does not know what Flyway does with it"
    }
  }
}
