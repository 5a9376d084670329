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
  /// A NOT NULL column was given `NULL` (SQLITE_CONSTRAINT_NOTNULL), or a STRICT table's
  /// column a value of another type (SQLITE_CONSTRAINT_DATATYPE): the value does not fit.
  package var isValueRefusedByColumn: Bool {
    extendedCode == SQLITE_CONSTRAINT | (5 << 8) || extendedCode == SQLITE_CONSTRAINT | (12 << 8)
  }
  /// The file could not be opened or written because it is read-only.
  package var isReadOnly: Bool { code == SQLITE_READONLY }
  /// A read-only connection met a hot journal, left by a writer that stopped in the middle of
  /// a transaction (SQLITE_READONLY_ROLLBACK): only a connection that may write can roll it
  /// back.
  package var isHotJournal: Bool { extendedCode == SQLITE_READONLY | (3 << 8) }
  /// The system refused to open or read the file although its permissions allow it (`EPERM`):
  /// on iOS, a file protected by Data Protection while the device is locked (or before its
  /// first unlock); on macOS also Privacy & Security or the sandbox; on Linux a security
  /// module or an on-access scanner. Apple's SQLite reports a refused open as SQLITE_AUTH
  /// (kept here with `EPERM`, told apart from a fence's refusal); a refused read is an I/O
  /// error whose system error is `EPERM`. The file is not damaged.
  public var isProtectedDataUnavailable: Bool {
    systemErrorCode == EPERM
      && (code == SQLITE_AUTH || code == SQLITE_IOERR || code == SQLITE_CANTOPEN)
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

/// Why the system refuses a file whose permissions allow it (`EPERM`), as this platform has it:
/// said by every error that can meet one.
let systemRefusalReason: String = {
  #if os(macOS)
  "the system refuses it (EPERM) although its permissions allow it: Data Protection while the "
    + "Mac is locked, Privacy & Security (Files and Folders, Full Disk Access) or the app's "
    + "sandbox"
  #elseif canImport(Darwin)
  "the system keeps it encrypted until the device is unlocked (Data Protection)"
  #else
  "the system refuses it (EPERM) although its permissions allow it: a security module "
    + "(SELinux, AppArmor), an on-access scanner or an immutable file"
  #endif
}()

/// The help for a file the system will not let anyone read now: said once, per platform.
let protectedDataHelp: String = {
  #if os(macOS)
  "The file is intact: never delete or reset it. Allow access (System Settings, Privacy & "
    + "Security), use a folder the app may use, or open it once the Mac is unlocked."
  #elseif canImport(Darwin)
  "The file is intact: never delete or reset it. Open it once protected data is available "
    + "(`UIApplication.shared.isProtectedDataAvailable`, "
    + "`protectedDataDidBecomeAvailableNotification`), or give its folder a protection class that "
    + "allows the access you need (`DatabaseSetup.fileProtection`)."
  #else
  "The file is intact: never delete or reset it. Find what refuses it (the audit log of "
    + "SELinux or AppArmor, a scanner's log, `lsattr`), then try again."
  #endif
}()
