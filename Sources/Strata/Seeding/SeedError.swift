/// A seed run failed. Every message says where (`file:line:column` where it applies), what, and
/// that the database is unchanged: a run is one transaction.
public enum SeedError: StrataError, Equatable {
  /// The seeds folder does not exist.
  case directoryNotFound(path: String)
  /// The seeds folder is not a folder (a file, a device) or cannot be listed; `reason` says
  /// which.
  case folderUnusable(path: String, reason: String)
  /// A seed file named to load does not exist.
  case fileNotFound(file: String)
  /// The file is empty: it needs at least a header line.
  case emptyFile(file: String)
  /// The file is not valid CSV, at the error's line and column.
  case malformed(file: String, CSVError)
  /// The file's table does not exist (`tables` lists the ones that do).
  case noSuchTable(file: String, table: String, tables: [String])
  /// The file's table is a view or another kind of object, not a table.
  case notATable(file: String, table: String, kind: String)
  /// The table is strata's or SQLite's own, never seeded.
  case protectedTable(file: String, table: String)
  /// A header column has no name.
  case emptyHeaderName(file: String, line: Int, column: Int, position: Int)
  /// A header name is not a column of the table (`columns` lists the table's columns).
  case unknownColumn(
    file: String,
    line: Int,
    column: Int,
    name: String,
    table: String,
    columns: [String]
  )
  /// A header names a generated column, which cannot be written.
  case generatedColumn(file: String, line: Int, column: Int, name: String, table: String)
  /// A header names a column twice (in any case).
  case duplicateColumn(file: String, line: Int, column: Int, name: String, firstPosition: Int)
  /// The header leaves out `NOT NULL` columns that have no default.
  case missingRequiredColumns(file: String, table: String, columns: [String])
  /// A row has more or fewer fields than the header.
  case fieldCount(file: String, line: Int, expected: Int, found: Int)
  /// A value the column's type would refuse or silently change.
  case invalidValue(
    file: String,
    line: Int,
    column: Int,
    name: String,
    type: String,
    problem: SeedValueProblem
  )
  /// A value the column's type refuses that is a common missing-value token (`NA`, `\N`): the
  /// file seems to write missing values that way (see `SeedFileFormat.nullTokens`).
  case missingValueToken(
    file: String,
    line: Int,
    column: Int,
    name: String,
    type: String,
    problem: SeedValueProblem,
    token: String
  )
  /// The file's header names (`SeedFileFormat.columns`) do not fit its header or its table.
  case columnMapping(file: String, table: String, problem: SeedColumnMappingProblem)
  /// The mode needs a key to find existing rows, and the header has neither the primary key
  /// nor a whole UNIQUE constraint.
  case noKey(file: String, table: String, mode: SeedMode, uniqueKeys: [[String]])
  /// A key column is empty (NULL), so the mode cannot tell whether the row exists.
  case emptyKey(file: String, line: Int, column: Int, name: String, mode: SeedMode)
  /// Two rows of the file have the same key.
  case duplicateKey(file: String, line: Int, firstLine: Int, columns: [String])
  /// `replace` would empty a table that others reference with a cascading foreign key.
  case cascadingReplace(file: String, table: String, children: [String])
  /// Emptying the table for `replace` failed.
  case replaceFailed(file: String, table: String, error: SQLiteError)
  /// SQLite refused a row (a constraint), at its line.
  case rowFailed(file: String, line: Int, column: Int?, error: SQLiteError)
  /// SQLite refused a batch of rows, between `firstLine` and `lastLine`.
  case batchFailed(file: String, firstLine: Int, lastLine: Int, error: SQLiteError)
  /// Rows the run wrote point at a missing parent row.
  case foreignKeyViolation(
    file: String?,
    line: Int?,
    table: String,
    columns: [String],
    parent: String,
    count: Int
  )
  /// SQLite failed outside a row: a busy database, a read or write error.
  case database(file: String?, error: SQLiteError)
  /// Two files load the same table in one run.
  case sameTableTwice(table: String, files: [String])
  /// The file's delimiter is not one ASCII character other than a quote or a line break.
  case invalidDelimiter(file: String, delimiter: String)
  /// The header is one column holding another common delimiter (`found`: a tab, `;`, `,` or
  /// `|`) but not the file's (`delimiter`): the file is most likely separated by `found`.
  case headerNotDelimited(
    file: String,
    line: Int,
    header: String,
    delimiter: Character,
    found: Character
  )

  /// A file of a table without a key (or whose header holds none of its keys) changed its
  /// header's width since it was last seeded, by a strata (0.4) that did not record the
  /// columns its rows were of: strata cannot tell which of the table's rows are the file's.
  case keylessFileChanged(file: String, table: String)

  /// The database's state after any seed error.
  static let unchanged = "nothing was seeded; the database is unchanged"

  /// What failed, where (`file:line:column`), and that the database is unchanged.
  public var message: String { problem + "; " + Self.unchanged }

  /// What failed and where, without the database's state: for a caller (such as `init`) that
  /// changed the database before seeding and states it itself.
  public var problem: String {
    switch self {
    case .directoryNotFound(let path):
      return "seeds folder \(path) does not exist"
    case .folderUnusable(let path, let reason):
      return "cannot use the seeds folder \(path): \(reason)"
    case .fileNotFound(let file):
      return "\(file) does not exist"
    case .emptyFile(let file):
      return "\(file) is empty: a seed file needs at least a header line naming the columns"
    case .malformed(let file, let error):
      return "\(file):\(error.line):\(error.column): \(error.reason)"
    case .noSuchTable(let file, let table, let tables):
      let known = tables.isEmpty ? "the database has no tables" : "tables: " + list(tables)
      return "\(file): no table named \(table) (\(known))"
    case .notATable(let file, let table, let kind):
      return "\(file): \(table) is a \(kind), not a table"
    case .protectedTable(let file, let table):
      return "\(file): \(table) is strata's or SQLite's own table and is never seeded"
    case .emptyHeaderName(let file, let line, let column, let position):
      return "\(file):\(line):\(column): header column \(position) has no name"
    case .unknownColumn(let file, let line, let column, let name, let table, let columns):
      return "\(file):\(line):\(column): table \(table) has no column named "
        + "\(quoted(name)) (columns: \(list(columns)))"
    case .generatedColumn(let file, let line, let column, let name, let table):
      return "\(file):\(line):\(column): \(table).\(name) is a generated column and cannot be "
        + "seeded"
    case .duplicateColumn(let file, let line, let column, let name, let firstPosition):
      return "\(file):\(line):\(column): the header names column \(quoted(name)) twice "
        + "(first as header column \(firstPosition))"
    case .missingRequiredColumns(let file, let table, let columns):
      let noun = columns.count == 1 ? "column" : "columns"
      return "\(file): the header lacks \(table)'s NOT NULL \(noun) without a default: "
        + "\(list(columns))"
    case .fieldCount(let file, let line, let expected, let found):
      let kind = found < expected ? "too few" : "too many"
      return "\(file):\(line): \(kind) fields: \(found), but the header has \(expected)"
    case .invalidValue(let file, let line, let column, let name, let type, let problem):
      return "\(file):\(line):\(column): column \(name) (\(type)): \(problem.explanation)"
    case .missingValueToken(
      let file,
      let line,
      let column,
      let name,
      let type,
      let problem,
      let token
    ):
      return "\(file):\(line):\(column): column \(name) (\(type)): \(problem.explanation) (it is "
        + "\(token), which data files often write for a missing value)"
    case .columnMapping(let file, let table, let problem):
      return "\(file): \(problem.explanation(table: table))"
    case .noKey(let file, let table, let mode, _):
      return "\(file): the \(mode.rawValue) mode needs a key to find existing rows, but the "
        + "header holds neither \(table)'s primary key nor all the columns of a UNIQUE "
        + "constraint"
    case .emptyKey(let file, let line, let column, let name, let mode):
      return "\(file):\(line):\(column): key column \(name) is empty (NULL), so the "
        + "\(mode.rawValue) mode cannot tell whether the row exists"
    case .duplicateKey(let file, let line, let firstLine, let columns):
      return "\(file):\(line): duplicate key: this row's \(list(columns)) repeats line "
        + "\(firstLine)"
    case .cascadingReplace(let file, let table, let children):
      return "\(file): the replace mode would delete every row of \(table), and "
        + "\(list(children)) \(children.count == 1 ? "references" : "reference") it with "
        + "ON DELETE CASCADE or SET NULL/DEFAULT, so their rows would change too"
    case .replaceFailed(let file, let table, let error):
      return "\(file): emptying \(table) for the replace mode failed: \(error.message) "
        + "(SQLite error \(error.extendedCode))"
    case .rowFailed(let file, let line, let column, let error):
      let place = column.map { "\(line):\($0)" } ?? "\(line)"
      return "\(file):\(place): \(error.message) (SQLite error \(error.extendedCode))"
    case .batchFailed(let file, let firstLine, let lastLine, let error):
      let lines = firstLine == lastLine ? "\(firstLine)" : "\(firstLine)-\(lastLine)"
      return "\(file):\(lines): \(error.message) (SQLite error \(error.extendedCode)) "
        + "while inserting these lines"
    case .foreignKeyViolation(let file, let line, let table, let columns, let parent, let count):
      let place = file.map { file in line.map { "\(file):\($0): " } ?? "\(file): " } ?? ""
      let others = count > 1 ? " (\(count) rows in all)" : ""
      return "\(place)FOREIGN KEY constraint failed: \(table).\(list(columns)) has no "
        + "matching row in \(parent)\(others)"
    case .sameTableTwice(let table, let files):
      return "\(files.joined(separator: " and ")) both load table \(table)"
    case .invalidDelimiter(let file, let delimiter):
      return "\(file): the delimiter \(quoted(delimiter)) is not one ASCII character other "
        + "than a quote or a line break"
    case .headerNotDelimited(let file, let line, let header, let delimiter, let found):
      return "\(file):\(line): the header is one column, \(quoted(header)): it holds "
        + "\(delimiterName(found)) but no \(delimiterName(delimiter)), the file's delimiter"
    case .keylessFileChanged(let file, let table):
      return "\(file):1: the header's columns changed since the file was seeded into \(table) "
        + "by an earlier strata, which did not record its columns, so strata cannot tell which "
        + "rows of \(table) are the file's"
    case .database(let file, let error) where error.isBusy:
      let place = file.map { "\($0): " } ?? ""
      return "\(place)the database \(error.lockedReason)"
    case .database(let file, let error):
      let place = file.map { "\($0): " } ?? ""
      return "\(place)\(error.message) (SQLite error \(error.extendedCode))"
    }
  }

  /// What to do next, for this kind of problem.
  public var help: String { help { $0.description } }
}

extension SeedError: RemedialError {
  /// The help, with each remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    switch self {
    case .directoryNotFound:
      return sentence(say(.existingSeedsFolder)) + "."
    case .folderUnusable:
      return sentence(say(.listableSeedsFolder)) + "."
    case .invalidDelimiter:
      return "Use one ASCII character such as ; or | or a tab."
    case .headerNotDelimited(_, _, _, _, let found):
      return sentence(say(.delimiter(found))) + "."
    case .sameTableTwice:
      return "Load each table from one file per run: merge the files, or seed them one at a time."
    case .fileNotFound:
      return "Check the path; \(say(.seedWholeFolder))."
    case .emptyFile:
      return "Write a header line naming the table's columns, such as name,age."
    case .malformed(_, let error):
      switch error.problem {
      case .unterminatedQuote: return "Close the quoted field with a \" before its comma."
      case .textAfterClosingQuote, .quoteInUnquotedField:
        return "Quote the whole field and double each \" inside it, such as \"say \"\"hi\"\"\"."
      case .invalidUTF8:
        return "Save the file as UTF-8, or \(say(.readEncoding))."
      case .utf16:
        return sentence(say(.readUTF16)) + ", or save the file as UTF-8."
      case .invalidEncoding:
        return sentence(say(.checkEncoding)) + ", or save the file as UTF-8."
      case .corruptCompressedData:
        return "Compress the file again from its original (test it with gzip -t); a file "
          + "that is not gzip must not be named .gz."
      case .nulByte: return "Remove the NUL byte; binary data belongs in a BLOB column as hex."
      case .readFailed where error.reason.hasSuffix(linkOutsideFolder):
        return "Move the file into the folder, or \(say(.followSymlinks))."
      case .readFailed: return "Check the file's permissions and try again."
      case .quotedFieldTooLarge:
        return "Close the quoted field with a \" where it ends. If a field really is this large, "
          + "\(say(.raiseFieldLimit))."
      case .fieldTooLarge, .recordTooLarge:
        return "Check the file is the CSV you meant. If it really holds this much, "
          + "\(say(.raiseFieldLimit))."
      case .moreFieldsThanHeader:
        return "Give every row as many fields as the header; quote fields that contain commas."
      case .tooManyFields:
        return "Check the file is the CSV you meant: no table can have this many columns, so "
          + "the limit cannot be raised. Quote fields that contain commas."
      }
    case .noSuchTable:
      return "Name the file after its table (person_info.csv), \(say(.seedTable)), or "
        + "\(say(.migrateFirst))."
    case .notATable:
      return "Seed the view's underlying table instead."
    case .protectedTable:
      return "Rename the file after one of your tables."
    case .emptyHeaderName:
      return "Give every header column the name of a table column."
    case .unknownColumn:
      return "Rename the header column to one of the table's columns, or map the header to one "
        + "\(say(.mapColumns))."
    case .generatedColumn:
      return "Remove the column from the CSV; SQLite computes it."
    case .duplicateColumn:
      return "Keep one of the two columns in the header."
    case .missingRequiredColumns:
      return "Add the columns to the header (and a value to every row)."
    case .fieldCount:
      return "Give every row as many fields as the header; quote fields that contain commas."
    case .invalidValue(_, _, _, _, _, let problem):
      switch problem {
      case .leadingZeros, .plusSign, .negativeZero:
        return "Declare the column TEXT to keep the value as written, or write the number "
          + "without it."
      case .surroundingSpaces: return "Remove the spaces around the number."
      case .integerOverflow, .underflow:
        return "Declare the column TEXT to keep the digits exactly."
      case .notInteger, .notNumber, .notFinite:
        return "Fix the value, leave the field empty for NULL, or declare the column TEXT."
      case .emptyString: return "Leave the field unquoted and empty for NULL."
      case .notHexadecimal: return "Write the bytes as hexadecimal digits, such as CAFE01."
      case .notBoolean:
        return "Write true or false (in any case), 1 or 0, or leave the field empty for NULL."
      }
    case .missingValueToken(_, _, _, _, _, _, let token):
      return "The file seems to write missing values as \(token): \(say(.nullToken(token))), "
        + "and its unquoted \(token) fields load as NULL."
    case .columnMapping(_, _, let problem):
      return problem.help + " (Map headers \(say(.mapColumns)).)"
    case .noKey(_, _, _, let uniqueKeys):
      let hint =
        uniqueKeys.isEmpty
        ? ""
        : " (this table's keys: \(uniqueKeys.map { "(" + list($0) + ")" }.joined(separator: ", ")))"
      return "Add the key columns to the header\(hint), add a UNIQUE constraint in a "
        + "migration, or \(say(.seedModes([.append])))."
    case .emptyKey:
      return "Give every row a key value, or \(say(.seedModes([.append])))."
    case .duplicateKey:
      return "Remove one of the two rows, or give it a different key."
    case .cascadingReplace:
      return sentence(say(.seedModes([.upsert, .missing]))) + ", or \(say(.forceReplace))."
    case .replaceFailed:
      return "Seed or empty the referencing tables first, or \(say(.seedModes([.upsert])))."
    case .rowFailed(_, _, _, let error) where error.isFull,
      .batchFailed(_, _, _, let error) where error.isFull,
      .database(_, let error) where error.isFull:
      return "Free disk space (or raise PRAGMA max_page_count), then try again."
    case .rowFailed(_, _, _, let error) where error.isBusy,
      .batchFailed(_, _, _, let error) where error.isBusy,
      .database(_, let error) where error.isBusy:
      return sentence(say(.waitForLock)) + "."
    case .database(_, let error) where error.extendedCode == 787:
      // SQLITE_CONSTRAINT_FOREIGNKEY at COMMIT: a deferred foreign key is still broken.
      return "The seeded rows leave a foreign key without its parent row: make sure every "
        + "row they reference is in the database or in a seed file of the same run."
    case .rowFailed(_, _, _, let error) where error.extendedCode == 1299:
      // SQLITE_CONSTRAINT_NOTNULL. A schema's `NOT NULL ON CONFLICT REPLACE` does not apply.
      return
        "An unquoted empty field is NULL, and so is a null token: give the column a value in this row (a column's "
        + "default applies only when the header leaves the column out)."
    case .database(_, let error) where error.changesStrataTable:
      return "Change the trigger named above (in a new migration) so that it leaves strata's "
        + "tables alone, then try again."
    case .rowFailed:
      return "Fix the row so it satisfies the table's constraints, then try again."
    case .batchFailed, .database:
      return "Check that the database file is writable and intact, then try again."
    case .foreignKeyViolation:
      return "Add the parent row (its seed file is loaded first), or fix the reference."
    case .keylessFileChanged:
      return "Give the file the header it had when it was last seeded (the same columns) for "
        + "this version: its rows are then synced and its columns recorded, so a later version "
        + "can change the header."
    }
  }
}

private func list(_ names: [String]) -> String {
  let shown = names.prefix(20).joined(separator: ", ")
  return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
}

/// A header name as the user wrote it, visibly delimited.
private func quoted(_ name: String) -> String {
  "\"" + name.replacingOccurrences(of: "\"", with: "\\\"") + "\""
}
