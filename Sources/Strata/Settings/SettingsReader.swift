/// Turns a parsed settings file into settings: every section and key must be one strata
/// knows, with a value of the right kind; the first that is not is an error at its position.
struct SettingsReader {
  let path: String

  static let sections = "[seeds], [seeds.\"FILE\"] and their .columns tables, and [schema]"
  static let seedKeys = ["null", "delimiter", "encoding", "columns", "reload"]

  /// The seed settings and the schema settings of `document`, section by section in the
  /// order written, so the first bad line is the one reported.
  ///
  /// - Throws: `SettingsError.invalid` at the first section or key that is not valid settings.
  func settings(_ document: TOMLDocument) throws -> (SeedSettings, SchemaSettings) {
    var seeds = SeedSettings()
    seeds.path = path
    var schema = SchemaSettings()
    for table in document.tables {
      if table.path.first == "schema" {
        try read(schemaTable: table, into: &schema)
      } else {
        try read(seedsTable: table, into: &seeds)
      }
    }
    return (seeds, schema)
  }

  /// `[schema]`: its one key, `file`, a path; no subsection.
  private func read(schemaTable table: TOMLTable, into schema: inout SchemaSettings) throws {
    guard table.path.count == 1 else {
      throw invalid(
        table.position,
        "unknown section [\(table.header)]",
        allowed: "the sections are \(Self.sections)"
      )
    }
    for entry in table.entries {
      switch (entry.key, entry.value) {
      case ("file", .string(let file)) where !file.isEmpty && !file.contains("\0"):
        schema.file = file
      case ("file", .string):
        throw invalid(entry.position, "file is not a path", allowed: Self.example("file"))
      case ("file", _):
        throw invalid(
          entry.position,
          "file is \(entry.value.kind)",
          allowed: Self.example("file")
        )
      default:
        throw invalid(
          entry.position,
          "unknown key \(tomlKey(entry.key)) in [schema]",
          allowed: "the one key of [schema] is file, the schema file's path"
        )
      }
    }
  }

  /// The root table (which must be empty), `[seeds]`, `[seeds."FILE"]` and their `.columns`.
  private func read(seedsTable table: TOMLTable, into settings: inout SeedSettings) throws {
    switch table.path.count {
    case 0:
      if let entry = table.entries.first {
        throw invalid(
          entry.position,
          "unknown key \(tomlKey(entry.key)) at the top of the file",
          allowed: "settings go in sections: \(Self.sections)"
        )
      }
    case _ where table.path[0] != "seeds":
      throw invalid(
        table.position,
        "unknown section [\(table.header)]",
        allowed: "the sections are \(Self.sections)"
      )
    case 1:
      // `reload` is one file's: every file marked to be reloaded would be a hidden default.
      if let entry = table.entries.first(where: { $0.key == "reload" }) {
        throw invalid(
          entry.position,
          "reload is set in [seeds], for every file",
          allowed: "reload = true goes in one file's section, such as [seeds.\"person_info.csv\"]"
        )
      }
      settings.defaults = try format(table, into: settings.defaults)
    case 2 where table.path[1] == "columns":
      settings.defaults.columns = try columns(table, into: settings.defaults.columns)
    case 2:
      let file = table.path[1]
      settings.lines[file] = settings.lines[file] ?? table.position.line
      settings.files[file] = try format(table, into: settings.files[file] ?? .init())
    case 3 where table.path[2] == "columns":
      let file = table.path[1]
      settings.lines[file] = settings.lines[file] ?? table.position.line
      var own = settings.files[file] ?? SeedFormatSettings()
      own.columns = try columns(table, into: own.columns)
      settings.files[file] = own
    default:
      throw invalid(
        table.position,
        "unknown section [\(table.header)]",
        allowed: "the sections are \(Self.sections)"
      )
    }
  }

  private func format(
    _ table: TOMLTable,
    into start: SeedFormatSettings
  ) throws
    -> SeedFormatSettings
  {
    var format = start
    for entry in table.entries {
      switch (entry.key, entry.value) {
      case ("null", .strings(let tokens)):
        format.nullTokens = tokens
      case ("delimiter", .string(let text)):
        format.delimiter = try delimiter(text, entry)
      case ("encoding", .string(let name)):
        guard let encoding = SeedEncoding(rawValue: name.lowercased()) else {
          throw invalid(
            entry.position,
            "unknown encoding \(tomlQuoted(name))",
            allowed: "encoding is one of "
              + SeedEncoding.allCases.map { tomlQuoted($0.rawValue) }.joined(separator: ", ")
          )
        }
        format.encoding = encoding
      case ("columns", .table(let pairs)):
        format.columns = Dictionary(pairs.map { ($0.key, $0.value) }) { _, last in last }
      case ("reload", .boolean(let reload)):
        format.reload = reload
      case ("null", _), ("delimiter", _), ("encoding", _), ("columns", _), ("reload", _):
        throw invalid(
          entry.position,
          "\(entry.key) is \(entry.value.kind)",
          allowed: Self.example(entry.key)
        )
      default:
        throw invalid(
          entry.position,
          "unknown key \(tomlKey(entry.key)) in [\(table.header)]",
          allowed: "the keys of a seeds section are "
            + Self.seedKeys.joined(separator: ", ")
        )
      }
    }
    return format
  }

  private func delimiter(_ text: String, _ entry: TOMLEntry) throws -> Character {
    guard text.count == 1, let character = text.first, text.unicodeScalars.count == 1,
      !["\"", "\n", "\r"].contains(character)
    else {
      throw invalid(
        entry.position,
        "the delimiter \(tomlQuoted(text)) is not one character other than a quote or a "
          + "line break",
        allowed: Self.example("delimiter")
      )
    }
    return character
  }

  private func columns(
    _ table: TOMLTable,
    into start: [String: String]?
  ) throws
    -> [String: String]
  {
    var columns = start ?? [:]
    for entry in table.entries {
      guard case .string(let column) = entry.value else {
        throw invalid(
          entry.position,
          "the column for the header \(tomlQuoted(entry.key)) is \(entry.value.kind)",
          allowed: "each line of [\(table.header)] is \"CSV header\" = \"column\""
        )
      }
      columns[entry.key] = column
    }
    return columns
  }

  private static func example(_ key: String) -> String {
    switch key {
    case "null": "null is an array of strings, such as null = [\"NA\", \"\\\\N\"]"
    case "delimiter": "delimiter is one character, such as delimiter = \";\" or \"\\t\" for a tab"
    case "encoding": "encoding is a string, such as encoding = \"windows-1252\""
    case "reload": "reload is a boolean, such as reload = true"
    case "file":
      "file is the schema file's path, relative to the settings file's folder, such as "
        + "file = \"schema.sql\""
    default:
      "columns is a table of \"CSV header\" = \"column\", such as "
        + "columns = { \"Flight No\" = \"flight\" }"
    }
  }

  private func invalid(
    _ position: TOMLPosition,
    _ problem: String,
    allowed: String
  )
    -> SettingsError
  {
    .invalid(
      path: path,
      line: position.line,
      column: position.column,
      problem: problem,
      allowed: allowed
    )
  }
}
