import Foundation

extension FlywaySettings {
  /// A Flyway configuration file found beside the migrations: how messages name it, its bytes.
  struct ConfigFile: Sendable {
    let shown: String
    let bytes: [UInt8]
  }

  /// The settings of `flyway.conf` or `flyway.toml` in the migrations folder, else in its
  /// parent (where a project keeps it beside `sql/`); Flyway's defaults when there is none.
  ///
  /// - Throws: `MigrationError` for both files in one place (strata cannot tell which one
  ///   Flyway reads), a file that is not UTF-8, a TOML syntax error or a refused setting.
  static func read(folder: URL, shown: String) throws -> (FlywaySettings, ConfigFile?) {
    let places = [(folder, shown), (folder.deletingLastPathComponent(), parentShown(shown))]
    for (url, shownFolder) in places {
      let found = ["flyway.conf", "flyway.toml"].compactMap { name -> ConfigFile? in
        guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path)
        else { return nil }
        return ConfigFile(shown: shownFolder + name, bytes: Array(data))
      }
      guard let file = found.first else { continue }
      if found.count > 1 {
        throw MigrationError.formatProblem(
          file: found[1].shown,
          line: 1,
          format: .flyway,
          reason: "\(found[0].shown) and \(found[1].shown) are both here; strata cannot tell "
            + "which one Flyway reads, so nothing was run (keep one)"
        )
      }
      return (try settings(of: file), file)
    }
    return (FlywaySettings(), nil)
  }

  /// How messages name the folder's parent, ending in `/` (empty for the current folder).
  static func parentShown(_ shown: String) -> String {
    var folder = Substring(shown)
    while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
    guard let slash = folder.lastIndex(of: "/") else { return "" }
    return String(folder[...slash])
  }

  /// The settings a configuration file sets, applied over Flyway's defaults.
  ///
  /// - Throws: `MigrationError` for invalid UTF-8, a TOML syntax error or a refused setting.
  static func settings(of file: ConfigFile) throws -> FlywaySettings {
    guard let text = utf8Text(file.bytes) else {
      throw MigrationError.unreadable(file: file.shown, reason: "not UTF-8 text")
    }
    let entries =
      file.shown.hasSuffix(".toml")
      ? try tomlEntries(text, file: file.shown) : confEntries(text, file: file.shown)
    var settings = FlywaySettings()
    for entry in entries { try settings.apply(entry) }
    return settings
  }

  /// The keys of a conf file that start with `keyPrefix`, without it, as Flyway's ConfigUtils
  /// reads it: Java properties (`key=value`, `key: value` or `key value`; `#` and `!` start a
  /// comment), each line trimmed, a line ending in `\` continued on the next. Keys without
  /// `flyway.` are not Flyway's and are skipped, as Flyway skips them.
  static func confEntries(_ text: String, file: String, keyPrefix: String = "flyway.") -> [Entry] {
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
      separator: "\n",
      omittingEmptySubsequences: false
    )
    var entries: [Entry] = []
    var index = 0
    while index < lines.count {
      let start = index
      var line = lines[index].trimmingCharacters(in: .whitespaces)
      index += 1
      while line.hasSuffix("\\"), index < lines.count,
        !lines[index].trimmingCharacters(in: .whitespaces).isEmpty
      {
        line = String(line.dropLast()) + lines[index].trimmingCharacters(in: .whitespaces)
        index += 1
      }
      guard let first = line.first, first != "#", first != "!" else { continue }
      let keyEnd = line.firstIndex { $0 == "=" || $0 == ":" || $0 == " " || $0 == "\t" }
      let key = String(line[..<(keyEnd ?? line.endIndex)])
      var value = keyEnd.map { line[$0...] } ?? ""
      value = value.drop { $0 == " " || $0 == "\t" }
      if value.first == "=" || value.first == ":" { value = value.dropFirst() }
      value = value.drop { $0 == " " || $0 == "\t" }
      guard key.hasPrefix(keyPrefix) else { continue }
      entries.append(
        Entry(
          key: String(key.dropFirst(keyPrefix.count)),
          value: .text(String(value)),
          file: file,
          line: start + 1
        )
      )
    }
    return entries
  }

  /// The settings of a `flyway.toml` (Flyway 10): the keys of `[flyway]` (and of an
  /// environment's `[environments.NAME.flyway]`), `[flyway.placeholders]` and the
  /// `[environments.NAME]` connection tables being ignored like their conf keys.
  ///
  /// - Throws: `MigrationError.formatProblem` at a TOML syntax error, or a value strata's TOML
  ///   reader does not take.
  static func tomlEntries(_ text: String, file: String) throws -> [Entry] {
    let document: TOMLDocument
    do {
      document = try TOMLParser.parse(text)
    } catch let error as TOMLSyntaxError {
      throw MigrationError.formatProblem(
        file: file,
        line: error.position.line,
        format: .flyway,
        reason: "column \(error.position.column): \(error.reason)"
      )
    }
    var entries: [Entry] = []
    for table in document.tables {
      let path = table.path
      let isFlyway =
        path == ["flyway"]
        || (path.count == 3 && path[0] == "environments" && path[2] == "flyway")
      let isIgnored =
        path == ["flyway", "placeholders"]
        || (path.count == 2 && path[0] == "environments")
        || (path.count == 4 && path[0] == "environments" && path[3] == "placeholders")
      for entry in table.entries {
        let line = entry.position.line
        if isIgnored { continue }
        guard isFlyway else {
          throw MigrationError.formatProblem(
            file: file,
            line: line,
            format: .flyway,
            reason: "'\(entry.key)' in [\(table.header)]: strata reads the settings of [flyway] "
              + "only, so it cannot tell what this one changes; nothing was run"
          )
        }
        let value: Value
        switch entry.value {
        case .string(let text): value = .text(text)
        case .boolean(let flag): value = .text(flag ? "true" : "false")
        case .integer(let number): value = .text(String(number))
        case .strings(let list): value = .list(list)
        case .table: value = .text("")
        }
        entries.append(Entry(key: entry.key, value: value, file: file, line: line))
      }
    }
    return entries
  }
}
