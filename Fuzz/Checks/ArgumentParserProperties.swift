import StrataArguments

/// The argument parser's promises, checked on a command line made from the input (the first
/// byte picks a command shape, NUL bytes separate the arguments):
/// - it parses, asks for help, or refuses with a usage error: nothing else;
/// - what it parses fits the command (known names, flags without values, allowed choices,
///   the right number of positionals) and parses the same when written out canonically;
/// - a usage error is one printable line, whatever bytes the arguments held, so that a
///   message never carries control characters to the terminal.
enum ArgumentParserProperties {
  static let options: [OptionSpec] = [
    .value("database", "path", help: "The database."),
    .value("format", "format", help: "Output format.", choices: ["text", "json"]),
    .value("to", "version", help: "Target version."),
    .flag("quiet", short: "q", help: "Less output."),
    .flag("dry-run", help: "Change nothing."),
    OptionSpec(name: "migrations", short: "m", valueName: "dir", help: "The folder."),
  ]

  /// Shapes of the real commands: no positionals, one required, one optional, many.
  static let specs: [CommandSpec] = [
    CommandSpec(name: "migrate", abstract: "", options: options),
    CommandSpec(
      name: "new",
      abstract: "",
      positionals: [PositionalSpec(name: "name", help: "", isRequired: true)],
      options: options
    ),
    CommandSpec(
      name: "inspect",
      abstract: "",
      positionals: [PositionalSpec(name: "table", help: "")],
      options: options
    ),
    CommandSpec(
      name: "seed",
      abstract: "",
      positionals: [PositionalSpec(name: "file", help: "", isRepeated: true)],
      options: options
    ),
  ]

  static func check(_ input: [UInt8]) throws(PropertyViolation) {
    guard let first = input.first else { return }
    let spec = specs[Int(first) % specs.count]
    let arguments = input.dropFirst().split(separator: 0, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    do {
      let parsed = try ParsedArguments(arguments, spec: spec, toolName: "strata")
      try checkParsed(parsed, spec: spec, arguments: arguments)
    } catch let error as UsageError {
      try require(
        isPrintableLine(error.message),
        "a usage error that is not one printable line: \(error.message.debugDescription)"
      )
      try require(
        error.help.map(isPrintableLine) ?? true,
        "usage help that is not one printable line: \(String(describing: error.help).debugDescription)"
      )
    } catch is HelpRequested {
      try require(
        arguments.contains("--help") || arguments.contains("-h"),
        "help asked for by \(arguments)"
      )
    } catch {
      throw PropertyViolation("the parser threw \(error) for \(arguments)")
    }
  }

  static func checkParsed(
    _ parsed: ParsedArguments,
    spec: CommandSpec,
    arguments: [String]
  ) throws(PropertyViolation) {
    for name in parsed.flags {
      try require(
        spec.options.contains { $0.name == name && $0.isFlag },
        "flag '\(name)' is not a flag of the command"
      )
    }
    for (name, values) in parsed.values {
      guard let option = spec.options.first(where: { $0.name == name && !$0.isFlag }) else {
        throw PropertyViolation("'\(name)' took a value but is not an option that takes one")
      }
      try require(!values.isEmpty, "'\(name)' recorded with no value")
      try require(
        option.choices.isEmpty || values.allSatisfy(option.choices.contains),
        "'\(name)' took \(values), outside \(option.choices)"
      )
    }
    let required = spec.positionals.filter(\.isRequired).count
    let repeated = spec.positionals.contains(where: \.isRepeated)
    try require(
      parsed.positionals.count >= required
        && (repeated || parsed.positionals.count <= spec.positionals.count),
      "\(parsed.positionals.count) positionals for \(spec.usage(toolName: "strata"))"
    )
    for positional in parsed.positionals {
      try require(arguments.contains(positional), "positional '\(positional)' is not an argument")
    }
    let canonical = canonicalArguments(parsed)
    do {
      let again = try ParsedArguments(canonical, spec: spec, toolName: "strata")
      try require(again == parsed, "\(arguments) parsed as \(parsed), but \(canonical) as \(again)")
    } catch let violation as PropertyViolation {
      throw violation
    } catch {
      throw PropertyViolation(
        "\(arguments) parsed, but its canonical form \(canonical) gave \(error)"
      )
    }
  }

  /// `--flag`, `--name=value` in name order, then `--` and the positionals.
  static func canonicalArguments(_ parsed: ParsedArguments) -> [String] {
    parsed.flags.sorted().map { "--\($0)" }
      + parsed.values.keys.sorted().flatMap { name in
        parsed.values[name, default: []].map { "--\(name)=\($0)" }
      }
      + ["--"] + parsed.positionals
  }

  /// No line breaks, no other control characters (C0, DEL, C1, line separators, bidi controls).
  static func isPrintableLine(_ text: String) -> Bool {
    !text.isEmpty && !text.unicodeScalars.contains(where: isHiddenControl)
  }
}
