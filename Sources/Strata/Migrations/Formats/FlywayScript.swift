/// What Flyway does to one SQL file before it runs it, that strata must match or refuse: the
/// per-script configuration (`V1__x.sql.conf`) and the `${name}` placeholders.
enum FlywayScript {
  /// The keys of a script's `.conf` file (Flyway's SqlScriptMetadata) that strata reads.
  struct Options: Equatable, Sendable {
    var executeInTransaction: Bool?
    var placeholderReplacement: Bool?
  }

  /// Reads a `V1__x.sql.conf` file: `executeInTransaction` and `placeholderReplacement` (true
  /// or false), `encoding` (UTF-8 only).
  ///
  /// - Throws: `MigrationError.formatProblem` at the line of `shouldExecute` (a condition
  ///   strata does not evaluate), another key (Flyway refuses it too) or a value that is not
  ///   true or false.
  static func options(conf bytes: [UInt8], file: String) throws -> Options {
    guard let text = utf8Text(bytes) else {
      throw MigrationError.unreadable(file: file, reason: "not UTF-8 text")
    }
    var options = Options()
    for entry in FlywaySettings.confEntries(text, file: file, keyPrefix: "") {
      func problem(_ reason: String) -> MigrationError {
        .formatProblem(file: file, line: entry.line, format: .flyway, reason: reason)
      }
      guard case .text(let value) = entry.value else { continue }
      func flag() throws -> Bool {
        switch value.lowercased() {
        case "true": return true
        case "false": return false
        default: throw problem("'\(entry.key)' is '\(value)'; Flyway takes true or false")
        }
      }
      switch entry.key {
      case "executeInTransaction": options.executeInTransaction = try flag()
      case "placeholderReplacement": options.placeholderReplacement = try flag()
      case "encoding" where ["UTF-8", "UTF8"].contains(value.uppercased()): break
      case "encoding":
        throw problem("'encoding' is '\(value)'; strata reads migration files as UTF-8 only")
      case "shouldExecute":
        throw problem(
          "'shouldExecute' makes Flyway run the file only when its condition holds; strata "
            + "does not evaluate it, so it cannot tell whether the file runs; nothing was run"
        )
      default:
        throw problem(
          "'\(entry.key)' is not a script setting Flyway knows (it reads executeInTransaction, "
            + "encoding, placeholderReplacement and shouldExecute); nothing was run"
        )
      }
    }
    return options
  }

  /// Refuses a file in which Flyway would replace a placeholder: Flyway replaces every
  /// `${name}` (its prefix and suffix as configured), in comments and strings too, with a
  /// value from its configuration (or `${flyway:…}` with its own), and fails on a name it has
  /// no value for; strata does not replace them, so it would run other SQL.
  ///
  /// - Throws: `MigrationError.formatProblem` at the line of the first placeholder.
  static func refusePlaceholders(
    _ text: String,
    file: String,
    settings: FlywaySettings
  ) throws {
    guard let start = text.range(of: settings.placeholderPrefix) else { return }
    let line = text[..<start.lowerBound].count { $0 == "\n" } + 1
    let rest = text[start.upperBound...]
    let name =
      rest.range(of: settings.placeholderSuffix).map { rest[..<$0.lowerBound] }
      ?? rest.prefix { $0 != "\n" }
    let placeholder = settings.placeholderPrefix + name + settings.placeholderSuffix
    throw MigrationError.formatProblem(
      file: file,
      line: line,
      format: .flyway,
      reason: "'\(placeholder)' is a Flyway placeholder: Flyway replaces it with a value from "
        + "its configuration before it runs the file; strata does not replace placeholders, so "
        + "it would run other SQL; nothing was run (write the value into the file, or set "
        + "placeholderReplacement=false in flyway.conf if the text is meant literally)"
    )
  }
}
