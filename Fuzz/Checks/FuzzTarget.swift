/// The parts of strata that read untrusted input, each with the properties its fuzz target
/// checks. `strata-fuzz` runs one of them under libFuzzer; `StrataFuzzTests` replays every
/// seed input and every input a fuzzer once crashed on.
public enum FuzzTarget: String, CaseIterable, Sendable {
  /// The seed CSV reader (`seeds/*.csv`).
  case csv
  /// Migration file names, `-- migrate:` markers and up/down pairs (`migrations/*.sql`).
  case migrationFile = "migration-file"
  /// The SQL script runner: statements split by `sqlite3_prepare_v2`'s tail, with lines.
  case script
  /// The CLI's argument parser.
  case arguments
  /// The real `strata` binary on a whole project: migrations and seeds folders with special
  /// names, links and FIFOs, through `validate`, `migrate`, `status` and `seed`.
  case project
  /// The output rule for SQL (`SQLOutput`): a schema with names and values of any bytes,
  /// through `diff`'s and `inspect --format sql`'s output to a file and to a terminal.
  case output
  /// `--databases`: patterns and `@FILE` lists over a folder of databases and the files
  /// beside them (journals, WAL, backups); no such file is ever chosen as a database.
  case fleetList = "fleet-list"
  /// The dqlite client's decoder: any bytes as a node's answer (a header and a body), through
  /// every response decoder.
  case dqliteWire = "dqlite-wire"

  /// Runs the target on one input; throws the first property the input breaks.
  public func check(_ input: [UInt8]) throws(PropertyViolation) {
    switch self {
    case .csv: try CSVReaderProperties.check(input)
    case .migrationFile: try MigrationFileProperties.check(input)
    case .script: try ScriptRunnerProperties.check(input)
    case .arguments: try ArgumentParserProperties.check(input)
    case .project: try ProjectProperties.check(input)
    case .output: try OutputProperties.check(input)
    case .fleetList: try FleetListProperties.check(input)
    case .dqliteWire: try DqliteWireProperties.check(input)
    }
  }
}

/// A property of a fuzz target that an input broke: a bug, not a rejected input.
public struct PropertyViolation: Error, CustomStringConvertible, Equatable {
  public let description: String

  public init(_ description: String) { self.description = description }
}

/// Throws `PropertyViolation(message())` unless `condition` holds.
@inline(__always)
func require(
  _ condition: Bool,
  _ message: @autoclosure () -> String
) throws(PropertyViolation) {
  if !condition { throw PropertyViolation(message()) }
}

/// The physical lines of `bytes`: CRLF, LF and a lone CR each end one.
func physicalLines<Bytes: Collection>(_ bytes: Bytes) -> [Range<Int>]
where Bytes.Element == UInt8, Bytes.Index == Int {
  var lines: [Range<Int>] = []
  var start = bytes.startIndex
  var index = bytes.startIndex
  while index < bytes.endIndex {
    let byte = bytes[index]
    if byte == 0x0A || byte == 0x0D {
      lines.append(start..<index)
      if byte == 0x0D, index + 1 < bytes.endIndex, bytes[index + 1] == 0x0A { index += 1 }
      start = index + 1
    }
    index += 1
  }
  lines.append(start..<bytes.endIndex)
  return lines
}
