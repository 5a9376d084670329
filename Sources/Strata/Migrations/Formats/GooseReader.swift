import Foundation

/// Reads a goose migration file as goose's own parser does (pressly/goose,
/// internal/sqlparser/parser.go): an annotation is a line that starts with `--` (no white space
/// before it) and holds `+goose`; what follows, without its `--` and the first `+goose`, must be
/// `Up`, `Down`, `StatementBegin`, `StatementEnd`, `NO TRANSACTION`, `ENVSUB ON` or
/// `ENVSUB OFF` in any case. One `Up`, then at most one `Down`; `NO TRANSACTION` anywhere takes
/// both parts out of a transaction. The lines between `StatementBegin` and `StatementEnd` are one
/// statement for goose; SQLite's own parser already reads a trigger body as one statement, so
/// strata runs them as written.
enum GooseReader {
  private enum State { case start, up, upBlock, down, downBlock }

  private enum Annotation: String, CaseIterable {
    case up, down, statementBegin = "statementbegin", statementEnd = "statementend"
    case noTransaction = "no transaction", envsubOn = "envsub on", envsubOff = "envsub off"
  }

  /// The up part, the down part and the checksum of a goose file.
  ///
  /// - Throws: `MigrationError.formatProblem` for what goose refuses (a missing `Up`, an
  ///   annotation out of place or unknown, SQL before `Up`), for `ENVSUB ON` (goose would
  ///   substitute environment variables; strata does not), and for a line that looks like
  ///   another tool's marker; `MigrationError.unwrittenPart` for a part still as `strata new` wrote it.
  static func parse(
    bytes rawBytes: [UInt8],
    file: String
  ) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String) {
    var sections = MigrationSections(bytes: MigrationParser.normalize(rawBytes))
    var state = State.start
    var transactional = true
    var blockStart = 0
    func problem(_ index: Int, _ reason: String) -> MigrationError {
      .formatProblem(file: file, line: index + 1, format: .goose, reason: reason)
    }
    for index in sections.lines.indices {
      let line = sections.line(index)
      let text = String(decoding: line, as: UTF8.self)
      let trimmed = text.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("--"), text.contains("+goose") else {
        try refuseOther(line, index: index, file: file)
        switch state {
        case .start:
          if containsSQL(line) {
            throw problem(index, "SQL before '-- +goose Up'; goose refuses it")
          }
        case .up, .upBlock: sections.roles[index] = .up(section: 0)
        case .down, .downBlock: sections.roles[index] = .down(section: 0)
        }
        continue
      }
      if text.first == " " || text.first == "\t" {
        throw problem(index, "'\(trimmed)' starts with white space; goose refuses an annotation so")
      }
      guard let annotation = annotation(text) else {
        throw problem(
          index,
          "'\(trimmed)' is not a goose annotation (goose reads Up, Down, "
            + "StatementBegin, StatementEnd, NO TRANSACTION, ENVSUB ON and ENVSUB OFF)"
        )
      }
      switch (annotation, state) {
      case (.up, .start): state = .up
      case (.up, _): throw problem(index, "a second '-- +goose Up'")
      case (.down, .up):
        state = .down
        sections.downMarked.insert(0)
      case (.down, .start): throw problem(index, "'-- +goose Down' before '-- +goose Up'")
      case (.down, .upBlock), (.down, .downBlock):
        throw problem(index, "'-- +goose Down' between StatementBegin and StatementEnd")
      case (.down, .down): throw problem(index, "a second '-- +goose Down'")
      case (.statementBegin, .up):
        state = .upBlock
        blockStart = index
      case (.statementBegin, .down):
        state = .downBlock
        blockStart = index
      case (.statementBegin, _):
        throw problem(index, "'-- +goose StatementBegin' outside an Up or Down part, or twice")
      case (.statementEnd, .upBlock): state = .up
      case (.statementEnd, .downBlock): state = .down
      case (.statementEnd, _):
        throw problem(index, "'-- +goose StatementEnd' without a StatementBegin before it")
      case (.noTransaction, _): transactional = false
      case (.envsubOn, _):
        throw problem(
          index,
          "'-- +goose ENVSUB ON' makes goose replace ${VAR} with environment "
            + "variables; strata does not, so it would run other SQL than goose; none of the file was run"
        )
      case (.envsubOff, _): break
      }
    }
    switch state {
    case .start:
      throw problem(0, "no '-- +goose Up' annotation; goose refuses the file")
    case .upBlock, .downBlock:
      throw problem(blockStart, "this '-- +goose StatementBegin' has no StatementEnd")
    case .up, .down: break
    }
    sections.upTransactional = transactional
    sections.downTransactional = transactional
    return try sections.parts(file: file)
  }

  private static let gooseBytes = Array("+goose".utf8)

  /// True when the file holds a goose annotation (what detection looks for).
  static func isAnnotation(_ line: ArraySlice<UInt8>) -> Bool {
    // Most lines lack the bytes of `+goose`, which every match has: decided without a String.
    guard containsBytes(line, gooseBytes) else { return false }
    let text = String(decoding: line, as: UTF8.self)
    return text.trimmingCharacters(in: .whitespaces).hasPrefix("--") && text.contains("+goose")
  }

  /// The annotation as goose extracts it: every `--` removed, then the first `+goose`.
  private static func annotation(_ line: String) -> Annotation? {
    var command = line.replacingOccurrences(of: "--", with: "")
    guard let goose = command.range(of: "+goose") else { return nil }
    command.removeSubrange(goose)
    guard !command.contains("+goose") else { return nil }
    let name = command.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    return Annotation(rawValue: name)
  }

  /// A comment that looks like a marker of another tool, or like goose's with a capital.
  private static func refuseOther(_ line: ArraySlice<UInt8>, index: Int, file: String) throws {
    if let (tool, marker) = MarkerLookalike.match(line), tool == "goose" {
      throw MigrationError.formatProblem(
        file: file,
        line: index + 1,
        format: .goose,
        reason: "'\(marker)' is not read by goose, which looks for '+goose' in lowercase; here "
          + "it would be a comment; none of the file was run"
      )
    }
    try MigrationParser.refuseLookalike(line, file: file, line: index + 1, format: .goose)
  }
}
