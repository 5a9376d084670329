/// A migration file whose lines a format's reader has sorted into up and down sections; builds
/// the parts strata runs and the checksum, the same way for every format.
///
/// Each part keeps its lines where they stand in the file (a marker or annotation line inside it
/// becomes an empty line), so an error's line number points into the file. The down sections of
/// a dbmate file with several sections run in reverse, the last one first; in that part only the
/// section that runs first is numbered from its own line, the others count on from it.
///
/// The parts are copied from the file's bytes into one string each, and the checksum is taken
/// from a scratch buffer: no string per line (`strata status` reads every file of a folder).
struct MigrationSections {
  /// What a line of the file is.
  enum Role: Equatable {
    /// A marker, an annotation, or a comment outside any section.
    case none
    /// SQL of the up part, in the section numbered so.
    case up(section: Int)
    /// SQL of the down part, in the section numbered so.
    case down(section: Int)

    var isUp: Bool { if case .up = self { true } else { false } }
  }

  /// The file, BOM stripped and CRLF turned into LF.
  let bytes: [UInt8]
  /// Where each line starts and ends (without its newline).
  let lines: [Range<Int>]
  /// One per line.
  var roles: [Role]
  var upTransactional = true
  var downTransactional = true
  var reverseDownSections = false
  /// How many sections the file has (each starts with an up marker).
  var sectionCount = 1
  /// The sections that have a down marker; a section without one makes the file irreversible.
  var downMarked = SectionSet()

  /// Section numbers: the first 64 as bits, any others in a set (no allocation for a file
  /// of a few sections).
  struct SectionSet {
    private var bits: UInt64 = 0
    private var others: Set<Int> = []

    mutating func insert(_ section: Int) {
      if (0..<64).contains(section) { bits |= 1 << UInt64(section) } else { others.insert(section) }
    }

    func contains(_ section: Int) -> Bool {
      (0..<64).contains(section) ? bits & (1 << UInt64(section)) != 0 : others.contains(section)
    }
  }

  init(bytes: [UInt8]) {
    self.bytes = bytes
    var lines: [Range<Int>] = []
    bytes.withUnsafeBufferPointer { buffer in
      lines.reserveCapacity(buffer.count { $0 == 0x0A } + 1)
      var start = 0
      for index in 0..<buffer.count where buffer[index] == 0x0A {
        lines.append(start..<index)
        start = index + 1
      }
      lines.append(start..<buffer.count)
    }
    self.lines = lines
    roles = Array(repeating: .none, count: lines.count)
  }

  /// The line's bytes (0-based index).
  func line(_ index: Int) -> ArraySlice<UInt8> { bytes[lines[index]] }

  /// The up part, the down part, and the checksum: of the up part's lines alone, without
  /// markers and annotations (see `MigrationSet.checksum`). A part without SQL is a no-op; the
  /// down part is nil (irreversible) only when a section has no down marker at all.
  ///
  /// - Throws: `MigrationError.unwrittenPart` for a part still as `strata new` wrote it.
  func parts(file: String) throws -> (up: MigrationScript, down: MigrationScript?, checksum: String)
  {
    let up =
      roles.firstIndex(where: \.isUp).map { low in
        let high = roles.lastIndex(where: \.isUp) ?? low
        return script(
          groups: [(low, high, nil)],
          transactional: upTransactional,
          file: file
        )
      } ?? MigrationScript(sql: "", file: file, firstLine: 1, isTransactional: upTransactional)
    try UnwrittenPart.refuse(up, isDown: false)
    return (up, try down(file: file), checksum())
  }

  /// The checksum of the up part's lines joined by newlines, without the lines between them.
  private func checksum() -> String {
    // The up lines and a newline after each fit in the file's bytes and one more.
    bytes.withUnsafeBufferPointer { source in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 1) { scratch in
        var count = 0
        var first = true
        for index in roles.indices where roles[index].isUp {
          if !first {
            scratch[count] = 0x0A
            count += 1
          }
          first = false
          count = copy(lines[index], from: source, into: scratch, at: count)
        }
        return MigrationSet.checksum(ofUp: UnsafeBufferPointer(rebasing: scratch[..<count]))
      }
    }
  }

  private func down(file: String) throws -> MigrationScript? {
    guard (0..<sectionCount).allSatisfy(downMarked.contains) else { return nil }
    // Each section's first and last down line, in the order of sections.
    var sections: [(section: Int, low: Int, high: Int)] = []
    for (index, role) in roles.enumerated() {
      guard case .down(let section) = role else { continue }
      if let found = sections.firstIndex(where: { $0.section == section }) {
        sections[found].high = index
      } else {
        sections.append((section, index, index))
      }
    }
    sections.sort { $0.section < $1.section }
    if reverseDownSections { sections.reverse() }
    let down =
      sections.isEmpty
      ? MigrationScript(sql: "", file: file, firstLine: 1, isTransactional: downTransactional)
      : script(
        groups: sections.map { ($0.low, $0.high, $0.section) },
        transactional: downTransactional,
        file: file
      )
    try UnwrittenPart.refuse(down, isDown: true)
    return down
  }

  /// The lines of each group, from its first to its last, those of its role as they are and
  /// the others left empty; groups joined by a newline in the order given, the part starting
  /// on the first group's first line. A group's role is the up part's lines (`down` nil), or
  /// the down lines of section `down`.
  private func script(
    groups: [(low: Int, high: Int, down: Int?)],
    transactional: Bool,
    file: String
  ) -> MigrationScript {
    // Each group's lines with the newlines between them, and a newline between groups.
    let capacity = groups.reduce(0) {
      $0 + lines[$1.high].upperBound - lines[$1.low].lowerBound + 1
    }
    let sql = bytes.withUnsafeBufferPointer { source in
      String(unsafeUninitializedCapacity: capacity) { out in
        var count = 0
        for (number, group) in groups.enumerated() {
          for index in group.low..<(group.high + 1) {
            if number > 0 || index > group.low {
              out[count] = 0x0A
              count += 1
            }
            let keeps = group.down.map { roles[index] == .down(section: $0) } ?? roles[index].isUp
            if keeps {
              count = copy(lines[index], from: source, into: out, at: count)
            }
          }
        }
        return count
      }
    }
    return MigrationScript(
      sql: sql,
      file: file,
      firstLine: groups[0].low + 1,
      isTransactional: transactional
    )
  }

  /// Copies the bytes of `range` from `source` to `out` at `offset`; returns the offset after them.
  private func copy(
    _ range: Range<Int>,
    from source: UnsafeBufferPointer<UInt8>,
    into out: UnsafeMutableBufferPointer<UInt8>,
    at offset: Int
  ) -> Int {
    guard !range.isEmpty, let target = out.baseAddress, let bytes = source.baseAddress else {
      return offset
    }
    (target + offset).initialize(from: bytes + range.lowerBound, count: range.count)
    return offset + range.count
  }
}
