import Foundation

#if os(Linux)
internal import StrataSQLite
#else
internal import SQLite3
#endif

/// One action SQLite's authorizer was asked about while it compiled a statement, as the linter
/// reads it: what the statement creates, drops, alters or writes, with no word matching, so
/// comments, quoting, case, `REPLACE INTO` and common table expressions never fool it.
package struct AuthorizedAction: Hashable, Sendable {
  /// What the action does to the schema or the rows.
  package enum Kind: Hashable, Sendable {
    case createTable, createIndex, createTrigger, createView, createVirtualTable
    case dropTable, dropIndex, dropTrigger, dropView, dropVirtualTable
    /// `ALTER TABLE` (add, drop or rename a column, rename the table): SQLite does not say which.
    case alterTable
    case insert, update, delete
    /// `PRAGMA`: `name` is the pragma, `value` its argument, if any.
    case pragma
    /// A temporary object's change, a read, a function call, a transaction: nothing the linter
    /// looks at.
    case other
  }

  package let kind: Kind
  /// The table (or index, trigger, view) the action names; the pragma's name.
  package let name: String
  /// The pragma's argument; nil for every other action.
  package let value: String?
  /// True when the action comes from a trigger the statement fires, not from the statement.
  package let isFromTrigger: Bool
  /// True when the action is on a temporary object (schema `temp`), which outlives no
  /// connection.
  package let isTemporary: Bool

  init(
    _ action: Int32,
    _ first: UnsafePointer<CChar>?,
    _ second: UnsafePointer<CChar>?,
    database: UnsafePointer<CChar>?,
    trigger: UnsafePointer<CChar>?
  ) {
    isTemporary = database.map { strcasecmp($0, "temp") == 0 } ?? false
    let firstText = first.map { String(cString: $0) } ?? ""
    let secondText = second.map { String(cString: $0) }
    isFromTrigger = trigger != nil
    value = action == SQLITE_PRAGMA ? secondText : nil
    // ALTER TABLE names the schema first and the table second; every other action here names
    // its object first.
    name = action == SQLITE_ALTER_TABLE ? (secondText ?? "") : firstText
    kind = Self.kind(of: action)
  }

  private static func kind(of action: Int32) -> Kind {
    switch action {
    case SQLITE_CREATE_TABLE: .createTable
    case SQLITE_CREATE_INDEX: .createIndex
    case SQLITE_CREATE_TRIGGER: .createTrigger
    case SQLITE_CREATE_VIEW: .createView
    case SQLITE_CREATE_VTABLE: .createVirtualTable
    case SQLITE_DROP_TABLE: .dropTable
    case SQLITE_DROP_INDEX: .dropIndex
    case SQLITE_DROP_TRIGGER: .dropTrigger
    case SQLITE_DROP_VIEW: .dropView
    case SQLITE_DROP_VTABLE: .dropVirtualTable
    case SQLITE_ALTER_TABLE: .alterTable
    case SQLITE_INSERT: .insert
    case SQLITE_UPDATE: .update
    case SQLITE_DELETE: .delete
    case SQLITE_PRAGMA: .pragma
    default: .other
    }
  }

  /// True for an action that changes the schema of the main database.
  package var changesSchema: Bool {
    switch kind {
    case .createTable, .createIndex, .createTrigger, .createView, .createVirtualTable,
      .dropTable, .dropIndex, .dropTrigger, .dropView, .dropVirtualTable, .alterTable:
      true
    case .insert, .update, .delete, .pragma, .other:
      false
    }
  }

  /// True for an insert, update or delete of a user table by the statement itself (not by a
  /// trigger it fires, not of a temporary table, and not of SQLite's own tables, which every
  /// schema change writes).
  package var changesRows: Bool {
    switch kind {
    case .insert, .update, .delete:
      !isFromTrigger && !isTemporary && !asciiLowercased(name).hasPrefix("sqlite_")
    default:
      false
    }
  }
}

extension Connection {
  /// Starts (or stops) recording every authorizer action of each statement `executeScript`
  /// prepares; read them back with `preparedActions` in its `willRun`. Needs a fence raised on
  /// the connection (any fence installs the authorizer).
  package func recordPreparedActions(_ on: Bool) {
    authorizer?.actions = on ? [] : nil
  }

  /// The actions of the statement `executeScript` prepared last, when recording.
  package var preparedActions: [AuthorizedAction] {
    authorizer?.actions ?? []
  }
}
