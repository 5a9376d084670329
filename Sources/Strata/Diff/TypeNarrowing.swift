/// Whether changing a column's type, or whether it is generated, can change or refuse the
/// values it holds, and how.
enum TypeNarrowing {
  /// How the values of `old` (in a STRICT table when `wasStrict`) fare in `new`, when some may
  /// be changed or refused; nil when every value keeps its value.
  ///
  /// A column's affinity converts the values stored in it (datatype3.html §3.1); the changes
  /// that can alter a value already stored are:
  /// - to INTEGER, REAL or NUMERIC from TEXT or BLOB (no affinity): text that reads as a number
  ///   becomes a number (`'007'` becomes 7);
  /// - to REAL from INTEGER, NUMERIC or BLOB: an integer becomes the nearest REAL, which for one
  ///   beyond 2^53 is another number (9007199254740993 becomes 9007199254740992);
  /// - to TEXT from INTEGER, REAL, NUMERIC or BLOB: a REAL (which any of them may hold, 1.5 in
  ///   an INTEGER column too) becomes text of 15 significant digits (0.30000000000000004
  ///   becomes `'0.3'`);
  /// - in a STRICT table, to any type but ANY: values of another type are refused, and an
  ///   INTEGER becomes a REAL in a REAL column.
  ///
  /// Anything to BLOB (no affinity), and between INTEGER, REAL and NUMERIC otherwise (a REAL
  /// that is a whole number becomes an equal INTEGER), keep every value.
  static func loss(
    from old: Schema.Column,
    strict wasStrict: Bool,
    to new: Schema.Column,
    strict isStrict: Bool
  ) -> String? {
    let oldType = old.declaredType.trimmingSQLSpace().uppercased()
    let newType = new.declaredType.trimmingSQLSpace().uppercased()
    let integers: Set<String> = ["INT", "INTEGER"]
    if isStrict {
      if newType == "ANY" || oldType == newType { return nil }
      if integers.contains(oldType), integers.contains(newType) { return nil }
      if integers.contains(oldType), newType == "REAL" {
        return "\(oldType) to STRICT REAL: \(Loss.integerToReal)"
      }
      let before = wasStrict ? oldType : "\(oldType.isEmpty ? "untyped" : oldType) (not STRICT)"
      return "\(before) to STRICT \(newType): values of another type are refused"
    }
    let from = Schema.Affinity(declaredType: old.declaredType, strict: wasStrict)
    let to = Schema.Affinity(declaredType: new.declaredType)
    let shown =
      "\(oldType.isEmpty ? "untyped" : oldType) to \(newType.isEmpty ? "untyped" : newType)"
    switch (from, to) {
    case (.blob, .real):
      return "\(shown): \(Loss.textToNumber), \(Loss.integerToReal)"
    case (.text, .integer), (.text, .real), (.text, .numeric), (.blob, .integer),
      (.blob, .numeric):
      return "\(shown): \(Loss.textToNumber)"
    case (.integer, .real), (.numeric, .real):
      return "\(shown): \(Loss.integerToReal)"
    case (.integer, .text), (.real, .text), (.numeric, .text), (.blob, .text):
      return "\(shown): \(Loss.realToText)"
    default:
      return nil
    }
  }

  /// The changes of `pair` that lose values of a column both tables have: a type that converts
  /// them (`loss(from:strict:to:strict:)`), or a column that becomes generated (its stored values
  /// give way to computed ones). One line per column, as `DiffError.destructive` lists them.
  static func losses(_ pair: TablePair) -> [String] {
    let table = displayIdentifier(pair.desired.name)
    var losses: [String] = []
    for column in pair.current.columns {
      guard let new = pair.columnNames[asciiLowercased(column.name)],
        let target = pair.desired.column(named: new)
      else { continue }
      let shown = "\(table).\(displayIdentifier(new))"
      if column.generated == nil, target.generated != nil {
        losses.append("makes \(shown) generated (its stored values give way to computed ones)")
      } else if target.generated == nil,
        let loss = loss(
          from: column,
          strict: pair.current.strict ?? false,
          to: target,
          strict: pair.desired.strict ?? false
        )
      {
        losses.append("narrows \(shown) (\(loss))")
      }
    }
    return losses
  }

  private enum Loss {
    static let textToNumber = "text that reads as a number becomes a number"
    static let integerToReal = "an integer beyond 2^53 becomes another number"
    static let realToText = "a REAL becomes text of 15 significant digits"
  }
}
