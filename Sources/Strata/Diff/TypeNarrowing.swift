/// Whether changing a column's type can change or refuse the values it holds, and how.
enum TypeNarrowing {
  /// How the values of `old` (in a STRICT table when `wasStrict`) fare in `new`, when some may
  /// be changed or refused; nil when every value keeps its value.
  static func loss(
    from old: Schema.Column,
    strict wasStrict: Bool,
    to new: Schema.Column,
    strict isStrict: Bool
  ) -> String? {
    let oldType = old.declaredType.trimmingSQLSpace().uppercased()
    let newType = new.declaredType.trimmingSQLSpace().uppercased()
    if isStrict {
      let integers: Set<String> = ["INT", "INTEGER"]
      if newType == "ANY" || oldType == newType { return nil }
      if integers.contains(oldType), integers.contains(newType) || newType == "REAL" { return nil }
      let before = wasStrict ? oldType : "\(oldType.isEmpty ? "untyped" : oldType) (not STRICT)"
      return "\(before) to STRICT \(newType): values of another type are refused"
    }
    let from = Schema.Affinity(declaredType: old.declaredType, strict: wasStrict)
    let to = Schema.Affinity(declaredType: new.declaredType)
    let shown =
      "\(oldType.isEmpty ? "untyped" : oldType) to \(newType.isEmpty ? "untyped" : newType)"
    switch (from, to) {
    case (.text, .integer), (.text, .real), (.text, .numeric), (.blob, .integer), (.blob, .real),
      (.blob, .numeric):
      return "\(shown): text that reads as a number becomes a number"
    default:
      return nil
    }
  }
}
