import Foundation

/// An error strata explains to a person: what failed and where, then what to do.
///
/// The CLI prints `message` after `Error:` and `help` after `Help:`; an app can show both, and
/// gets them from any `Error` too: a `StrataError` is a `LocalizedError` whose
/// `errorDescription` is the message and whose `recoverySuggestion` is the help, so
/// `error.localizedDescription` in an alert says what failed. The help speaks in plain words
/// and the library's names, never of a command-line flag; ``remedies`` lists the steps it names
/// as values. An error that wraps another one (a seed failure during setup, SQLite's error
/// behind an open failure) keeps it typed in ``underlyingError``.
public protocol StrataError: LocalizedError, CustomStringConvertible {
  /// What failed and where (`file:line`), with SQLite's own words when SQLite failed, and
  /// what state the database is in now.
  var message: String { get }
  /// One sentence on what to do next.
  var help: String { get }
  /// The typed error this one wraps (a `SeedError`, an `SQLiteError`, a `CocoaError`), when
  /// there is one; nil by default.
  var underlyingError: (any Error)? { get }
}

extension StrataError {
  /// The ``message``, so that printing an error shows what failed.
  public var description: String { message }
  /// The ``message``: what `localizedDescription` shows.
  public var errorDescription: String? { message }
  /// The ``help``: what to do next.
  public var recoverySuggestion: String? { help }
  /// None, unless the error type keeps one.
  public var underlyingError: (any Error)? { nil }

  /// The remedies the ``help`` names (an option to set, an operation to run again), in order:
  /// values an app can offer as actions, and that a command-line tool says as its own flags.
  public var remedies: [Remedy] {
    guard let remedial = self as? any RemedialError else { return [] }
    var found: [Remedy] = []
    _ = remedial.help { remedy in
      found.append(remedy)
      return ""
    }
    return found
  }
}

/// The typed error a `StrataError` wraps (a `SeedError`, an `SQLiteError`, a `CocoaError`),
/// kept so that an app can match it while the wrapping error stays `Equatable`: two are equal
/// when their errors are of one type and read alike.
public struct UnderlyingError: Equatable, Sendable, CustomStringConvertible {
  /// The wrapped error, as it was thrown.
  public let error: any Error

  /// Wraps `error`.
  public init(_ error: any Error) { self.error = error }

  /// The wrapped error's description.
  public var description: String { String(describing: error) }

  /// Equal when both errors are of one type and read alike (`String(reflecting:)`).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    type(of: lhs.error) == type(of: rhs.error)
      && String(reflecting: lhs.error) == String(reflecting: rhs.error)
  }
}
