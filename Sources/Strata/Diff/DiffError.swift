/// Why no migration was generated from a desired schema. Generating only reads: no database
/// and no migration file was changed.
package enum DiffError: StrataError, RemedialError, Equatable {
  /// The desired schema's file cannot be read: missing, a folder, not UTF-8 text.
  case unreadableDesiredSchema(file: String, reason: String)
  /// A statement of the desired schema is not one it may hold, or SQLite refused it.
  case invalidDesiredSchema(file: String, line: Int, reason: String)
  /// A rename does not apply to the two schemas (or cannot be read).
  case invalidRename(rename: String, reason: String)
  /// The change would lose data, and destructive changes were not allowed. `renames` lists the
  /// renames that would explain a table or column that disappeared while another appeared.
  case destructive(changes: [String], renames: [SchemaRename])
  /// A column new to an existing table is NOT NULL without a DEFAULT: the table's rows would
  /// have no value for it.
  case notNullWithoutDefault(table: String, column: String, file: String, line: Int?)
  /// A column new to an existing table is UNIQUE with a DEFAULT: the table's rows would all
  /// take the same value, which UNIQUE refuses as soon as there are two.
  case uniqueWithDefault(table: String, column: String, file: String, line: Int?)
  /// The generated migration, applied to a scratch copy of the schema with sample rows, did not
  /// give the desired schema, changed rows it must keep, or failed: nothing was printed.
  case verificationFailed(reason: String)
  /// There is no change to write: the schema already is the desired one.
  case noChanges(desiredFile: String)
  /// A statement of the migration holds a CR LF inside a quoted name or a string (`quoted`, as
  /// written), which a migration file cannot keep: it is read with every CR LF as LF.
  case lineBreakNotKept(object: String, quoted: String)

  /// What failed and where; nothing was changed.
  package var message: String {
    switch self {
    case .unreadableDesiredSchema(let file, let reason):
      return "cannot read the desired schema \(file): \(reason); nothing was generated"
    case .invalidDesiredSchema(let file, let line, let reason):
      return "\(file):\(line): \(reason); nothing was generated"
    case .invalidRename(let rename, let reason):
      return "the rename \(rename) does not apply: \(reason)"
    case .destructive(let changes, _):
      return "the migration would lose data: " + changes.joined(separator: "; ")
        + ". Nothing was generated."
    case .notNullWithoutDefault(let table, let column, let file, let line):
      let place = line.map { "\(file):\($0): " } ?? "\(file): "
      return place + "the new column \(displayIdentifier(table)).\(displayIdentifier(column)) "
        + "is NOT NULL without a DEFAULT, so the rows \(displayIdentifier(table)) already has "
        + "would have no value for it. Nothing was generated."
    case .uniqueWithDefault(let table, let column, let file, let line):
      let place = line.map { "\(file):\($0): " } ?? "\(file): "
      return place + "the new column \(displayIdentifier(table)).\(displayIdentifier(column)) "
        + "is UNIQUE with a DEFAULT, so the rows \(displayIdentifier(table)) already has would "
        + "all take the same value, which UNIQUE refuses. Nothing was generated."
    case .noChanges(let desiredFile):
      return "the schema already is the one \(desiredFile) describes: there is no change to "
        + "write, and no migration was created"
    case .lineBreakNotKept(let object, let quoted):
      return "the migration would write \(object) with a CR LF line break inside "
        + "\(GeneratedMigration.commentText(quoted)), which a migration file cannot keep: strata "
        + "reads every CR LF in a migration file as LF (so that its checksum survives a "
        + "checkout), so the migration would write other names or values. Nothing was generated."
    case .verificationFailed(let reason):
      return "the generated migration did not pass its check on a scratch copy of the schema "
        + "with sample rows, so it was not written: \(reason)"
    }
  }

  /// What to do next, in the library's words.
  package var help: String { help { $0.description } }

  /// What to do next, each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .unreadableDesiredSchema:
      return "Name a UTF-8 text file of CREATE statements, such as a schema dump."
    case .invalidDesiredSchema:
      return "The desired schema holds only CREATE TABLE, INDEX, VIEW and TRIGGER statements "
        + "(such as a schema dump); fix the statement on that line."
    case .invalidRename:
      return "Name a table as it is now and what it is called in the desired schema (old=new), "
        + "or a column as table.old=new."
    case .destructive(_, let renames):
      let rename = renames.first.map { say(.renameInDiff($0.description)) + "; or " } ?? ""
      return sentence(rename + say(.allowDestructive)) + "."
    case .notNullWithoutDefault:
      return "Give the column a DEFAULT in the desired schema (the value the existing rows "
        + "get), or let it be NULL."
    case .uniqueWithDefault:
      return "Add the column without a DEFAULT (NULLs are never equal), fill it, then make it "
        + "UNIQUE in a later change."
    case .noChanges:
      return "Change the desired schema first, or compare it with another database."
    case .lineBreakNotKept:
      return "Use LF alone in the desired schema, or write this migration by hand with the "
        + "carriage return as char(13) (a DEFAULT as ('a' || char(13, 10) || 'b'))."
    case .verificationFailed:
      return "Write this migration by hand, or change the desired schema in smaller steps; "
        + "nothing was changed."
    }
  }
}
