/// Why a value cannot go into its column unchanged.
public enum SeedValueProblem: String, Hashable, Sendable, Codable {
  /// `00501`: a number with leading zeros would lose them.
  case leadingZeros
  /// `+5`: a plus sign would be lost.
  case plusSign
  /// ` 12 `: spaces around a number would be lost.
  case surroundingSpaces
  /// Beyond the 64-bit integer range (it would silently become an approximate REAL).
  case integerOverflow
  /// Not a whole number (`1.5`, `abc`, `1e3`).
  case notInteger
  /// Not a decimal number.
  case notNumber
  /// A number too large for a REAL (infinite).
  case notFinite
  /// A quoted `""` (the empty string) in a numeric column.
  case emptyString
  /// A BLOB column takes hexadecimal digits, two per byte.
  case notHexadecimal
  /// `-0`: the sign would be lost.
  case negativeZero
  /// `1e-400`: too close to zero for a REAL; it would be stored as 0 or lose precision.
  case underflow
  /// A BOOLEAN column takes `true`, `false` (any case), `1` or `0`.
  case notBoolean

  var explanation: String {
    switch self {
    case .leadingZeros: "the value has leading zeros, which would be lost"
    case .plusSign: "the value has a plus sign, which would be lost"
    case .surroundingSpaces: "the number has spaces around it, which would be lost"
    case .integerOverflow:
      "the value is outside the 64-bit integer range and would become an approximate REAL"
    case .notInteger: "the value is not a whole number"
    case .notNumber: "the value is not a decimal number"
    case .notFinite: "the value is too large for a REAL"
    case .emptyString: "the value is a quoted empty string (\"\"), which is not a number"
    case .notHexadecimal: "the value is not hexadecimal digits (two per byte)"
    case .negativeZero: "the value is -0, whose sign would be lost"
    case .underflow:
      "the value is too close to zero for a REAL and would be stored as 0 or lose precision"
    case .notBoolean: "the value is not true, false, 1 or 0"
    }
  }
}
