import Strata

/// Renders what `inspect --diff` found: each difference, or that there is none, or that the
/// replay stopped before anything could be compared; or JSON.
enum DriftReportOutput {
  /// Prints the report and returns the exit code: 1 on drift, and 1 when nothing could be
  /// compared.
  static func render(
    _ report: DriftReport,
    database: String,
    json: Bool,
    quiet: Bool,
    _ context: CommandContext
  ) throws -> Int32 {
    // Without a comparison there is no answer: not "no drift".
    let code = report.hasDrift || !report.schemaCompared ? ExitCode.failure : ExitCode.success
    if json {
      struct Output: Encodable {
        let format = 1
        let database: String
        let drift: Bool
        let report: DriftReport
      }
      try context.printJSON(Output(database: database, drift: report.hasDrift, report: report))
      return code
    }
    for statement in report.notChecked {
      context.printError("Warning: \(statement)")
    }
    if quiet { return code }
    let replayed = plural(report.replayedVersions.count, "migration")
    guard report.schemaCompared else {
      if !report.changedRepeatables.isEmpty {
        context.print(
          "Not compared: \(report.changedRepeatables.joined(separator: ", ")) changed since it "
            + "was applied, and 'strata migrate' applies it again; compare after that. "
            + "\(database) was only read."
        )
        return code
      }
      context.print(
        "Not compared: the replay of \(report.migrationsDirectory) (in memory) stopped, so "
          + "drift between \(database) and its migrations is unknown; \(database) was only read."
      )
      return code
    }
    for version in report.unreplayableVersions {
      context.print(
        "Warning: version \(version) is applied but has no file in "
          + "\(report.migrationsDirectory); it was not replayed."
      )
    }
    guard report.hasDrift else {
      let unchecked = report.notChecked.count
      let caveat =
        unchecked == 0
        ? "" : "; \(plural(unchecked, "statement")) not checked in the replay (warnings above)"
      context.print(
        "No drift: \(database) matches its migrations (\(report.migrationsDirectory), "
          + "\(replayed) replayed in memory\(caveat))."
      )
      return code
    }
    context.print(
      "Drift: \(plural(report.differences.count, "difference")) between \(database) and its "
        + "migrations"
    )
    context.print("(\(replayed) from \(report.migrationsDirectory) replayed in memory)")
    for difference in report.differences {
      let mark =
        switch difference.change {
        case .missing: "-"
        case .unexpected: "+"
        case .changed: "~"
        }
      context.print("  \(mark) \(difference)")
    }
    context.print(
      "Help: Put schema changes in a new migration ('strata new NAME') instead of changing the "
        + "database directly, or undo the change in the database."
    )
    return code
  }

  private static func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
  }
}
