extension SchemaInspector {
  /// Refuses a schema whose names or CREATE statements are not valid UTF-8: they are read as
  /// text with U+FFFD in place of each invalid byte, so SQL written from them (a dump, a
  /// migration) would create other names and values, and a comparison would take the byte
  /// and U+FFFD for the same.
  ///
  /// - Throws: `InspectionError.notUTF8`, naming the first such object.
  package func refuseInvalidUTF8() throws {
    let statement = try connection.prepare(
      "SELECT type, CAST(name AS BLOB), CAST(sql AS BLOB) FROM main.sqlite_master ORDER BY rowid"
    )
    while try statement.step() {
      let name = bytes(statement.value(at: 1))
      let sql = bytes(statement.value(at: 2))
      guard !isUTF8(name) || !isUTF8(sql) else { continue }
      throw InspectionError.notUTF8(
        object: "\(statement.string(at: 0) ?? "object") "
          + displayIdentifier(String(decoding: name, as: UTF8.self)),
        part: isUTF8(name) ? "CREATE statement" : "name"
      )
    }
  }

  private func bytes(_ value: SQLValue) -> [UInt8] {
    switch value {
    case .blob(let bytes): bytes
    case .text(let text): Array(text.utf8)
    default: []
    }
  }
}
