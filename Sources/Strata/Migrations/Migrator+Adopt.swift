/// What ``Migrator/adopt(_:from:)`` recorded.
public struct Adoption: Hashable, Sendable, Codable {
  /// The history adopted.
  public let history: ForeignHistory
  /// The versions recorded in strata's history as applied, ascending.
  public let recorded: [MigrationVersion]
}

extension Migrator {
  /// Other tools' histories in the database that record something, when strata's own has
  /// none (once strata has a history, it alone counts).
  ///
  /// - Throws: `SQLiteError` when a history table cannot be read.
  public func otherToolHistories(_ connection: Connection) throws -> [ForeignHistory] {
    try RecordedHistory.read(connection, includingRepeatables: false).otherTools
  }

  /// Takes over another migration tool's history: records in strata's history, in one
  /// transaction and without running them, exactly the versions that tool records as applied
  /// (a gap in its history stays pending), with the checksums of the files here. The other
  /// tool's table is left as it is.
  ///
  /// - Parameters:
  ///   - connection: the database, opened for writing.
  ///   - tool: the tool whose history to adopt; `nil` takes the only one found.
  /// - Throws: `ForeignHistoryError`: no such history, several and no tool named, a migration
  ///   that tool records as failed half-way, an entry that is not a version, a version no file
  ///   has; `MigrationError.baselineOnManagedDatabase` when strata already has a history;
  ///   `SQLiteError` when a table cannot be read or the history cannot be written.
  @discardableResult
  public func adopt(_ connection: Connection, from tool: ForeignTool?) throws -> Adoption {
    var adoption: Adoption?
    try reportingState(connection) {
      try MigrationPartRunner(connection).recordWithoutRunning {
        let history = try chooseHistory(connection, tool)
        let covered = history.covered(in: migrations)
        let recorded = migrations.migrations.filter { covered.contains($0.version) }
        adoption = Adoption(history: history, recorded: recorded.map(\.version))
        return recorded
      }
    }
    guard let adoption else { throw ForeignHistoryError.notFound(tool: tool, found: []) }
    return adoption
  }

  /// The history `tool` names (or the only one), if it can be adopted as it is.
  private func chooseHistory(
    _ connection: Connection,
    _ tool: ForeignTool?
  ) throws -> ForeignHistory {
    let found = try ForeignHistoryReader.detect(connection).filter { !$0.isEmpty }
    let history: ForeignHistory
    if let tool {
      guard let match = found.first(where: { $0.tool.reads(tool) }) else {
        throw ForeignHistoryError.notFound(tool: tool, found: found.map(\.tool))
      }
      history = match
    } else {
      guard let only = found.first else {
        throw ForeignHistoryError.notFound(tool: nil, found: [])
      }
      guard found.count == 1 else { throw ForeignHistoryError.severalFound(found.map(\.tool)) }
      history = only
    }
    if let failed = history.failed {
      throw ForeignHistoryError.failedHalfWay(tool: history.tool, migration: failed)
    }
    if !history.unmappable.isEmpty {
      throw ForeignHistoryError.unmappable(tool: history.tool, entries: history.unmappable)
    }
    let missing = history.missing(in: migrations)
    if !missing.isEmpty {
      throw ForeignHistoryError.noFile(
        tool: history.tool,
        versions: missing,
        directory: migrations.directory
      )
    }
    return history
  }

  /// `migrate` stops before changing anything when another tool's history says what is
  /// applied and strata's says nothing.
  func refuseUnadoptedHistory(_ plan: MigrationPlan) throws {
    guard let history = plan.otherToolHistories.first else { return }
    throw ForeignHistoryError.notAdopted(history)
  }
}
