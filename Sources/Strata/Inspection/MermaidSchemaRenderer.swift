/// A Mermaid `erDiagram`: each table with its columns (PK, FK and UK markers) and each foreign
/// key as a relationship with its cardinality.
///
/// Mermaid's grammar is narrower than SQLite's names, so every name is made safe for it:
/// entity names are always double-quoted (a bare `user` or `class` is read as a keyword by some
/// Mermaid versions) with `"`, `%` and `\` replaced; attribute types and names keep only
/// letters, digits, `_` (and parentheses in types), and an attribute whose name had to change
/// carries its real name as the attribute's comment. Shadow tables, views and strata's own
/// tables are left out. Every name from the database goes through `escaping` before it is made
/// safe for Mermaid.
struct MermaidSchemaRenderer {
  let schema: Schema
  let escaping: SchemaEscaping

  func render() -> String {
    var lines = ["erDiagram"]
    var entityNames = UniqueNames()
    var entities: [String: String] = [:]
    for table in schema.tables {
      entities[asciiLowercased(table.name)] = entityNames.claim(
        mermaidEntityName(escaping.text(table.name))
      )
    }
    for table in schema.tables {
      guard let entity = entities[asciiLowercased(table.name)] else { continue }
      let columns = table.columns.filter { !$0.hidden }
      if columns.isEmpty {
        lines.append("  \(entity) {")
        lines.append("  }")
        continue
      }
      lines.append("  \(entity) {")
      var attributeNames = UniqueNames()
      for column in columns {
        let shownName = escaping.text(column.name)
        let name = attributeNames.claim(mermaidWord(shownName, allowParentheses: false))
        var line = "    \(mermaidType(column)) \(name)"
        let keys = table.keyMarkers(for: column).map { String($0.prefix(2)) }
        if !keys.isEmpty { line += " " + keys.joined(separator: ", ") }
        var comment: [String] = []
        if name != shownName { comment.append(shownName) }
        if column.generated != nil { comment.append("generated") }
        if !comment.isEmpty { line += " " + mermaidQuoted(comment.joined(separator: ", ")) }
        lines.append(line)
      }
      lines.append("  }")
    }
    for table in schema.tables {
      guard let child = entities[asciiLowercased(table.name)] else { continue }
      for key in table.foreignKeys {
        let parent =
          entities[asciiLowercased(key.parentTable)]
          ?? entityNames.claim(mermaidEntityName(escaping.text(key.parentTable)))
        entities[asciiLowercased(key.parentTable)] = parent
        lines.append(
          "  \(parent) \(relationship(key, in: table)) \(child) : "
            + mermaidQuoted(key.columns.map(escaping.text).joined(separator: ", "))
        )
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Parent side: exactly one when every key column is NOT NULL, else zero or one. Child
  /// side: zero or one when the key columns are unique in the child, else zero or more.
  /// Solid (identifying) when the key is part of the child's primary key.
  private func relationship(_ key: Schema.ForeignKey, in table: Schema.Table) -> String {
    let keyColumns = key.columns.compactMap { table.column(named: $0) }
    let required = !keyColumns.isEmpty && keyColumns.allSatisfy(\.notNull)
    let wanted = Set(key.columns.map(asciiLowercased))
    let primaryKey = Set(table.primaryKey.map(asciiLowercased))
    let unique =
      primaryKey == wanted
      || table.indexes.contains { index in
        index.unique && index.partialWhere == nil
          && Set(index.columns.compactMap { $0.name.map(asciiLowercased) }) == wanted
          && index.columns.count == wanted.count
      }
    let identifying = !primaryKey.isEmpty && wanted.isSubset(of: primaryKey)
    return (required ? "||" : "|o") + (identifying ? "--" : "..") + (unique ? "o|" : "o{")
  }

  private func mermaidType(_ column: Schema.Column) -> String {
    let written = escaping.text(column.declaredType).trimmingSQLSpace()
    return written.isEmpty ? "untyped" : mermaidWord(written, allowParentheses: true)
  }
}

/// `"name"`, with the characters Mermaid's quoted entity names refuse (`"`, `%`, `\`, line
/// breaks) replaced by `_`.
func mermaidEntityName(_ name: String) -> String {
  var text = ""
  for scalar in name.unicodeScalars {
    switch scalar {
    case "\"", "%", "\\", "\r", "\n", "\u{0B}", "\u{08}": text += "_"
    default: text.unicodeScalars.append(scalar)
    }
  }
  return "\"" + (text.isEmpty ? "_" : text) + "\""
}

/// A word Mermaid reads as an attribute type or name in every version: ASCII letters, digits
/// and `_` (and `(`, `)` in types), not starting with a digit, never the key words PK, FK, UK.
func mermaidWord(_ text: String, allowParentheses: Bool) -> String {
  var word = ""
  for scalar in text.unicodeScalars {
    let value = scalar.value
    let isAlphanumeric =
      (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
      || (value >= 0x61 && value <= 0x7A) || scalar == "_"
    if isAlphanumeric || (allowParentheses && (scalar == "(" || scalar == ")")) {
      word.unicodeScalars.append(scalar)
    } else {
      word += "_"
    }
  }
  if word.isEmpty { word = "_" }
  if let first = word.unicodeScalars.first, !(first == "_" || first.properties.isAlphabetic) {
    word = "_" + word
  }
  // Mermaid reads PK, FK or UK followed by a non-word character as a key marker.
  let upper = word.uppercased()
  for key in ["PK", "FK", "UK"] where upper == key || upper.hasPrefix(key + "(") {
    word = "_" + word
  }
  return word
}

/// A Mermaid comment or label: `"text"` without double quotes or line breaks inside.
func mermaidQuoted(_ text: String) -> String {
  "\""
    + text.replacingOccurrences(of: "\"", with: "'")
    .replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ") + "\""
}

/// Hands out names, adding `_2`, `_3`… when one is taken.
struct UniqueNames {
  private var taken: Set<String> = []

  mutating func claim(_ name: String) -> String {
    var candidate = name
    var number = 2
    while taken.contains(candidate.lowercased()) {
      if name.hasSuffix("\""), name.count >= 2 {
        candidate = String(name.dropLast()) + "_\(number)\""
      } else {
        candidate = name + "_\(number)"
      }
      number += 1
    }
    taken.insert(candidate.lowercased())
    return candidate
  }
}
