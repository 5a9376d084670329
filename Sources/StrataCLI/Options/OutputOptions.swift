import StrataArguments

/// `--format` and `--quiet`, read once: how a command reports.
struct OutputOptions {
  let format: OutputFormat
  let quiet: Bool

  init(_ arguments: ParsedArguments) {
    format = arguments[CommonOptions.format]
    quiet = arguments[CommonOptions.quiet]
  }

  /// Whether a person reads the report: text, and not `--quiet`.
  var showsText: Bool { format == .text && !quiet }
}
