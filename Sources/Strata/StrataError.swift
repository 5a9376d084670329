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
  public var description: String { message }
}
