/// A canonical dump of the CREATE statements, to commit as `schema.sql` and diff in review.
///
/// The statements are SQLite's own text from `sqlite_master`, so feeding the file to
/// `sqlite3` recreates the same schema. The order is fixed: each table by name followed by its
/// indexes by name, then views, then triggers (which need their table or view). Shadow tables
/// are left out (their virtual table makes them), as are strata's and SQLite's own tables.
///
/// One renderer for both files that hold it: `inspect --format sql`'s dump and the schema file
/// (`SchemaFile`), which differ only in their header comment.
struct SQLSchemaRenderer {
  let schema: Schema
  /// The comment lines the dump starts with.
  var header = SQLSchemaRenderer.dumpHeader

  /// What `strata inspect --format sql` starts with.
  static let dumpHeader = """
    -- Schema dump by 'strata inspect --format sql'. Recreate it with:
    --   sqlite3 new.sqlite3 < schema.sql
    \(leftOut)
    """

  /// What the header says is not in the dump.
  static let leftOut = """
    -- Left out: strata's own tables (strata_*), which strata creates, and the shadow tables
    -- of virtual tables, which their virtual table creates.
    """

  func render() -> String {
    var blocks: [String] = [header]
    for table in schema.tables {
      blocks.append(terminatedStatement(table.sql))
      for index in table.indexes {
        if let sql = index.sql { blocks.append(terminatedStatement(sql)) }
      }
    }
    for view in schema.views {
      blocks.append(terminatedStatement(view.sql))
    }
    for trigger in schema.triggers where !isStrataTable(trigger.table) {
      blocks.append(terminatedStatement(trigger.sql))
    }
    return blocks.joined(separator: "\n\n") + "\n"
  }
}

/// `sql` ending in exactly one `;`, its line endings LF between tokens and in comments (a CR LF
/// inside a quoted name or a string is part of it and stays): on a line of its own when a
/// trailing `-- comment` would swallow it. How strata writes a statement into a file it makes.
func terminatedStatement(_ sql: String) -> String {
  var text = sql.trimmingSQLSpace()
  while text.hasSuffix(";") { text.removeLast() }
  // Line endings as LF, whatever the statement was written with; names and values exact.
  text = QuotedLineEndings.layoutAsLF(text)
  // A trailing `-- comment` would swallow the semicolon: end on the next line then.
  let tokens = SQLTokenizer(text).tokens()
  if let last = tokens.last, last.end < text.utf8.count { return text + "\n;" }
  return text + ";"
}
