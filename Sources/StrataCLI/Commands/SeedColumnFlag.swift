import Strata
import StrataArguments

/// One `--column "CSV header=column"` of `strata seed`, split at the LAST `=`: a header may
/// contain `=` (`x=y (ratio)`), a column name almost never does.
struct SeedColumnFlag: Sendable {
  let header: String
  let column: String

  init(_ text: String) throws {
    guard let equals = text.lastIndex(of: "="), equals != text.startIndex,
      text.index(after: equals) != text.endIndex
    else {
      throw UsageError(
        message: "--column takes \"CSV header=column\"; got \(quotedArgument(text))",
        help: "Example: strata seed penguins.csv --column \"Delta 15 N (o/oo)=delta15n\""
      )
    }
    header = String(text[..<equals])
    column = String(text[text.index(after: equals)...])
  }

  /// The flags as the format's header → column mapping; a header given twice is a usage error.
  static func mapping(_ flags: [SeedColumnFlag]) throws -> [String: String] {
    var mapping: [String: String] = [:]
    for flag in flags {
      if let earlier = mapping[flag.header], earlier != flag.column {
        throw UsageError(
          message: "--column maps header \(quotedArgument(flag.header)) twice (to "
            + "\(quotedArgument(earlier)) and \(quotedArgument(flag.column)))",
          help: "Map each header once."
        )
      }
      mapping[flag.header] = flag.column
    }
    return mapping
  }
}
