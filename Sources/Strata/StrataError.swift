/// An error strata explains to a person: what failed and where, then what to do.
///
/// The CLI prints `message` after `Error:` and `help` after `Help:`; an app can show both.
public protocol StrataError: Error, CustomStringConvertible {
  /// What failed and where (`file:line`), with SQLite's own words when SQLite failed, and
  /// what state the database is in now.
  var message: String { get }
  /// One sentence on what to do next.
  var help: String { get }
}

extension StrataError {
  /// The ``message``, so that printing an error shows what failed.
  public var description: String { message }
}

/// The errors of the lower-level public APIs (`Connection.executeScript`, `CSVReader`, and
/// `SQLiteError` in SQLiteError.swift) are `StrataError`s too, so an app always has a message
/// and a help to show.
extension ScriptError: StrataError {
  /// The statement's number, its line, and SQLite's error.
  public var message: String {
    "statement \(statementNumber) of the script (line \(line)) failed: \(underlying)"
  }

  /// Fix the statement; the ones before it have run unless a transaction rolled them back.
  public var help: String {
    "Fix the statement on line \(line). The statements before it have run, unless the script "
      + "ran inside a transaction that was rolled back."
  }
}

extension CSVError: StrataError {
  /// `line N, column M: reason`.
  public var message: String { "line \(line), column \(column): \(reason)" }
  /// The help of a malformed seed file: how to fix the CSV.
  public var help: String { SeedError.malformed(file: "", self).help }
}
