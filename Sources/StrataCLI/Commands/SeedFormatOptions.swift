import Strata
import StrataArguments

/// `strata seed`'s options for how a file's bytes are read (`--delimiter`, `--encoding`), and
/// the CLI's words for the library's errors about them. A flag that is given overrides that
/// field of every file's format in the run; one that is not leaves the format as it is.
enum SeedFormatOptions {
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

  /// `files` with the given flags set in each one's format.
  static func apply(_ arguments: ParsedArguments, to files: [SeedFile]) -> [SeedFile] {
    let delimiter = arguments[Self.delimiter]
    let encoding = arguments[Self.encoding]
    return files.map { file in
      var file = file
      if let delimiter { file.format.delimiter = delimiter }
      if let encoding { file.format.encoding = encoding }
      return file
    }
  }
}
