import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// An error reported by SQLite, with SQLite's own message and the statement that caused it.
///
/// Programs match on `code` / `extendedCode`; people read `description`.
public struct SQLiteError: Error, Hashable, Sendable {
  /// The extended result code, such as 2067 (SQLITE_CONSTRAINT_UNIQUE).
  public let extendedCode: Int32
  /// SQLite's own message (`sqlite3_errmsg`), such as "UNIQUE constraint failed: user.email".
  public let message: String
  /// The SQL that failed, if any. Bound values are deliberately not kept.
  public let sql: String?
  /// The operating system's error number behind an I/O or open failure
  /// (`sqlite3_system_errno`), or 0: what tells a file the system will not let anyone read now
  /// (Data Protection, `EPERM`) from a damaged one.
  public let systemErrorCode: Int32

  /// The primary result code, such as 19 (SQLITE_CONSTRAINT).
  public var code: Int32 { extendedCode & 0xFF }

  /// An error with SQLite's extended result code, its message, and the statement that failed.
  public init(
    extendedCode: Int32,
    message: String,
    sql: String? = nil,
    systemErrorCode: Int32 = 0
  ) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
    self.systemErrorCode = systemErrorCode
  }

  /// The database is locked by another connection (SQLITE_BUSY).
  public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

  /// For a busy error: why, in the words every message uses ("is locked by …"). The other
  /// connection may be in this process as well as in another one.
  package var lockedReason: String {
    "is locked by another connection (in this app or another process), which held a lock "
      + "longer than the busy timeout (\(message), SQLite error \(extendedCode))"
  }
  /// A busy error (SQLITE_BUSY) for a lock strata itself waited on too long, such as another
  /// process creating the same new database.
  package static func busy(_ message: String) -> SQLiteError {
    SQLiteError(extendedCode: SQLITE_BUSY, message: message)
  }
  /// The disk or the database's `max_page_count` is full (SQLITE_FULL).
  public var isFull: Bool { code == SQLITE_FULL }
  /// The file is not a database (SQLITE_NOTADB).
  package var isNotADatabase: Bool { code == SQLITE_NOTADB }
  /// The file is damaged (SQLITE_CORRUPT) or not a database (SQLITE_NOTADB): SQLite cannot
  /// read it as one.
  package var isDamaged: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
  /// A constraint failed (SQLITE_CONSTRAINT and its extended codes).
  public var isConstraint: Bool { code == SQLITE_CONSTRAINT }
  /// The file could not be opened or written because it is read-only.
  package var isReadOnly: Bool { code == SQLITE_READONLY }
  /// A read-only connection met a hot journal, left by a writer that stopped in the middle of
  /// a transaction (SQLITE_READONLY_ROLLBACK): only a connection that may write can roll it
  /// back.
  package var isHotJournal: Bool { extendedCode == SQLITE_READONLY | (3 << 8) }
  /// The system refused to open or read the file although its permissions allow it: on Apple
  /// platforms, a file protected by Data Protection while the device is locked (or before its
  /// first unlock). Apple's SQLite reports the refused open as SQLITE_AUTH; a refused read or
  /// open elsewhere is an I/O or open error whose system error is `EPERM`. The file is not
  /// damaged: it reads again once the device is unlocked.
  public var isProtectedDataUnavailable: Bool {
    (code == SQLITE_AUTH && sql == nil)
      || ((code == SQLITE_IOERR || code == SQLITE_CANTOPEN) && systemErrorCode == EPERM)
  }
}

extension SQLiteError: CustomStringConvertible {
  /// "SQLite error 2067: UNIQUE constraint failed: user.email - while executing `INSERT …`"
  public var description: String {
    var text = "SQLite error \(extendedCode): \(message)"
    if let sql, !sql.isEmpty {
      let oneLine = sql.split(whereSeparator: \.isNewline).map {
        $0.trimmingCharacters(in: .whitespaces)
      }.joined(separator: " ")
      let shown = oneLine.count > 200 ? String(oneLine.prefix(200)) + "…" : oneLine
      text += " - while executing `\(shown)`"
    }
    return text
  }
}

/// A `StrataError` too, so that every error the library throws has a help to show. Its
/// `message` stays SQLite's own words (programs compare it); `description` adds the statement.
extension SQLiteError: RemedialError {
  /// What to do for this kind of failure (a busy database, a constraint, a full disk, …).
  public var help: String { help { $0.description } }

  /// The help, with its remedy said by `say`.
  package func help(saying say: (Remedy) -> String) -> String {
    if isProtectedDataUnavailable { return protectedDataHelp }
    return switch code {
    case SQLITE_BUSY, SQLITE_LOCKED:
      "Another connection holds the database's lock: \(say(.waitForLock))."
    case SQLITE_FULL:
      "The disk (or the database's max_page_count) is full: free space, then try again."
    case SQLITE_READONLY:
      "The database, its folder or its journal cannot be written: check their permissions."
    case SQLITE_NOTADB, SQLITE_CORRUPT:
      "The file is not a usable SQLite database: check the path, or restore the file from a "
        + "backup."
    case SQLITE_CANTOPEN:
      "The file could not be opened: check that its folder exists and can be searched."
    case SQLITE_IOERR:
      "The disk reported an error: check the disk and the file, then try again."
    case SQLITE_CONSTRAINT:
      "A row breaks a constraint of its table: change the data so that it satisfies it."
    default:
      "Check the statement against the database's schema and SQLite's documentation."
    }
  }
}

/// The help for a file the system will not let anyone read now, in every error that can meet
/// one: said once.
let protectedDataHelp =
  "The file is intact but encrypted by Data Protection until the device is unlocked: open it "
  + "once protected data is available (on iOS, `UIApplication.isProtectedDataAvailable` or "
  + "`protectedDataDidBecomeAvailableNotification`), or give its folder a protection class that "
  + "allows the access you need (`DatabaseSetup.fileProtection`). Never delete or reset it."
