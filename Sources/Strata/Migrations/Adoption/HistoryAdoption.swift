import Foundation

/// Takes over another migration tool's history for a folder's migrations (`Migrator.adopt`
/// says what is recorded and what is refused): picks the history, compares the files with the
/// checksums that tool recorded (`AdoptionChecks`), and records the versions without running
/// them, in one transaction.
struct HistoryAdoption {
  /// The migrator whose folder adopts the history, and whose run state a failure reports.
  let migrator: Migrator

  private var migrations: MigrationSet { migrator.migrations }

  /// Records the other tool's applied versions, as `Migrator.adopt` says.
  func adopt(
    _ connection: Connection,
    from tool: ForeignTool?,
    folder: URL?,
    allowChanged: Bool
  ) throws -> Adoption {
    var adoption: Adoption?
    try migrator.reportingState(connection) {
      try MigrationPartRunner(connection).recordWithoutRunning {
        let history = try chooseHistory(connection, tool)
        let covered = history.covered(in: migrations)
        let recorded = migrations.migrations.filter { covered.contains($0.version) }
        let checks = AdoptionChecks(
          tool: history.tool,
          recorded: try RecordedChecksums.read(connection, tool: history.tool),
          migrations: migrations,
          folder: folder ?? migrations.folder
        )
        try checks.checkRepeatables()
        let edited = try checks.editedFiles(recorded)
        if !edited.isEmpty, !allowChanged {
          throw ForeignHistoryError.editedFiles(tool: history.tool, files: edited)
        }
        let repeatables = try checks.unchangedRepeatables()
        var result = Adoption(history: history, recorded: recorded.map(\.version))
        result.repeatables = repeatables.map(\.name)
        result.acceptedEdits = edited
        adoption = result
        return (recorded, repeatables)
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
}
