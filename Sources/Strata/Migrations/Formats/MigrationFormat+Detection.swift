extension MigrationFormat {
  /// What one file says about the folder's format: its name and its marker lines.
  enum Signal: Equatable, Sendable {
    /// A file with one of these formats' markers or annotations.
    case marked(MigrationFormat)
    /// `<version>_<name>.sql` without markers: the whole file is the up part.
    case plain
    /// A file of an `.up.sql`/`.down.sql` pair without markers.
    case pair
    /// A bare `<version>.sql` (an iOS bundle's name).
    case bare

    /// How the mixed-folder message names the file's format.
    var name: String {
      switch self {
      case .marked(let format): format.rawValue
      case .plain: "a file without markers"
      case .pair: "golang-migrate (an .up.sql/.down.sql pair)"
      case .bare: "bundle (a bare <version>.sql)"
      }
    }
  }

  /// The signal of a file from its name's shape and its bytes: the first marker line found
  /// (dbmate's, goose's, sql-migrate's), or sqlx's `-- no-transaction` at the file's start.
  static func signal(isPair: Bool, isBare: Bool, bytes: [UInt8]) -> Signal {
    signal(isPair: isPair, isBare: isBare, bytes: bytes, normalized: nil)
  }

  /// The same, given the bytes already normalized when the caller has them
  /// (`MigrationParser.normalize`), so they are not normalized again.
  static func signal(
    isPair: Bool,
    isBare: Bool,
    bytes: [UInt8],
    normalized: [UInt8]?
  ) -> Signal {
    if bytes.starts(with: noTransactionOption) { return .marked(.sqlx) }
    // A pair's file, or a bare one, holds one part whatever its comments say: its reader
    // refuses a marker in it.
    if isBare || isPair { return isBare ? .bare : .pair }
    let text = normalized ?? MigrationParser.normalize(bytes)
    var start = 0
    while start <= text.count {
      let end = text[start...].firstIndex(of: 0x0A) ?? text.count
      let line = text[start..<end]
      start = end + 1
      guard line.contains(0x2D) else { continue }
      if GooseReader.isAnnotation(line) { return .marked(.goose) }
      if SQLMigrateReader.isCommand(line) { return .marked(.sqlMigrate) }
      if MigrationParser.isMarker(line) { return .marked(.dbmate) }
    }
    return .plain
  }

  /// sqlx's option, when it starts a file.
  static let noTransactionOption = Array("-- no-transaction".utf8)

  /// The folder's format, from its files' signals (in version order): the one format every file
  /// fits. An empty folder, or one of plain files only, is strata's own (dbmate).
  ///
  /// - Throws: `MigrationError.mixedFormats` naming a file of each of two formats that cannot
  ///   share a folder.
  static func detect(_ files: [(shown: String, signal: Signal)], directory: String) throws -> Self {
    func first(_ signal: Signal) -> String? { files.first { $0.signal == signal }?.shown }
    func mixed(_ a: Signal, _ b: Signal) -> MigrationError {
      .mixedFormats(
        directory: directory,
        formats: [a.name, b.name],
        files: [first(a) ?? "", first(b) ?? ""]
      )
    }
    var marked: [MigrationFormat] = []
    for case .marked(let format) in files.map(\.signal) where !marked.contains(format) {
      marked.append(format)
    }
    if marked.count > 1 { throw mixed(.marked(marked[0]), .marked(marked[1])) }
    let others: [Signal]
    switch marked.first {
    case .goose?, .sqlMigrate?: others = [.plain, .pair, .bare]
    case .sqlx?, .dbmate?: others = [.bare]
    case .golangMigrate?, .bundle?, .diesel?, .flyway?: others = []
    case nil:
      if first(.bare) != nil {
        if first(.pair) != nil { throw mixed(.bare, .pair) }
        return .bundle
      }
      return first(.pair) != nil && first(.plain) == nil ? .golangMigrate : .dbmate
    }
    let format = marked[0]
    if let other = others.first(where: { first($0) != nil }) {
      throw mixed(.marked(format), other)
    }
    return format
  }
}
