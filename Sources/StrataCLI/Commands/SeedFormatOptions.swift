import Strata
import StrataArguments

/// `strata seed`'s options for how a file's fields are read (`--null`, `--column`,
/// `--delimiter`, `--encoding`), read once. A flag that is given overrides that field of every
/// file's format in the run; one that is not leaves the format as it is.
struct SeedFormatOptions {
  static let delimiter = Option<Character?>(
    "delimiter",
    "char",
    help: "The character between fields, such as ';' (\\t or tab for a tab; default: a tab "
      + "for .tsv files, else a comma).",
    default: nil
  ) { text in
    let character: Character? =
      switch text {
      case "\\t", "tab": "\t"
      default: text.count == 1 ? text.first : nil
      }
    guard let character, SeedFileFormat.delimiterByte(character) != nil else {
      throw UsageError(
        message: "--delimiter must be one ASCII character other than \" or a line break; got "
          + "'\(text)'",
        help: "Usage: strata seed --delimiter ';' people.csv (or --delimiter tab)"
      )
    }
    return character
  }

  static let encoding = Option<SeedEncoding?>(
    "encoding",
    "name",
    help: "The files' text encoding, converted to UTF-8 as they load (default: utf-8).",
    default: nil,
    choices: SeedEncoding.allCases.map(\.rawValue)
  ) { text in
    guard let encoding = SeedEncoding(rawValue: text.lowercased()) else {
      throw UsageError(
        message: "--encoding must be one of "
          + SeedEncoding.allCases.map(\.rawValue).joined(separator: ", ") + "; got '\(text)'"
      )
    }
    return encoding
  }

  /// `--null`, in order.
  let nullTokens: [String]
  /// `--column`, as the format's header → column mapping.
  let columns: [String: String]
  let delimiter: Character?
  let encoding: SeedEncoding?

  /// - Throws: `UsageError` for a header `--column` maps twice.
  init(_ arguments: ParsedArguments) throws {
    nullTokens = arguments[SeedCommand.null]
    columns = try SeedColumnFlag.mapping(arguments[SeedCommand.column])
    delimiter = arguments[Self.delimiter]
    encoding = arguments[Self.encoding]
  }

  /// `files` with the given flags set in each one's format.
  func apply(to files: [SeedFile]) -> [SeedFile] {
    files.map { file in
      var file = file
      if !nullTokens.isEmpty { file.format.nullTokens = nullTokens }
      if !columns.isEmpty { file.format.columns = columns }
      if let delimiter { file.format.delimiter = delimiter }
      if let encoding { file.format.encoding = encoding }
      return file
    }
  }
}
