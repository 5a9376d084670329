/// One `--name` the command accepts: a flag, or an option that takes a value.
struct OptionSpec: Sendable {
  /// The long name without dashes: `database` for `--database`.
  let name: String
  /// A one-letter alias without the dash, such as `q` for `-q`.
  var short: Character? = nil
  /// The placeholder shown in help (`PATH`); nil makes this a flag that takes no value.
  let valueName: String?
  /// One line for `--help`.
  let help: String
  /// The values accepted, when the set is closed (`text`, `json`).
  var choices: [String] = []

  var isFlag: Bool { valueName == nil }

  static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  static func value(
    _ name: String,
    _ valueName: String,
    help: String,
    choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
  }
}

/// A positional argument.
struct PositionalSpec: Sendable {
  let name: String
  let help: String
  /// Whether the command refuses to run without it.
  var isRequired = false
  /// Whether it may be given more than once.
  var isRepeated = false
}

/// What a command accepts, and what `--help` prints for it.
struct CommandSpec: Sendable {
  let name: String
  let abstract: String
  var discussion: String = ""
  var positionals: [PositionalSpec] = []
  var options: [OptionSpec] = []

  var usage: String {
    var parts = ["strata", name]
    for positional in positionals {
      var text = "<\(positional.name)>"
      if positional.isRepeated { text += " ..." }
      parts.append(positional.isRequired ? text : "[\(text)]")
    }
    if !options.isEmpty { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  var helpText: String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage)", ""]
    if !discussion.isEmpty {
      lines += [discussion, ""]
    }
    if !positionals.isEmpty {
      lines.append("ARGUMENTS:")
      for positional in positionals {
        lines.append(Self.row("<\(positional.name)>", positional.help))
      }
      lines.append("")
    }
    lines.append("OPTIONS:")
    for option in options + [.flag("help", short: "h", help: "Show help information.")] {
      var left = option.short.map { "-\($0), " } ?? ""
      left += "--\(option.name)"
      if let valueName = option.valueName { left += " <\(valueName)>" }
      var help = option.help
      if !option.choices.isEmpty { help += " (\(option.choices.joined(separator: "|")))" }
      lines.append(Self.row(left, help))
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func row(_ left: String, _ right: String) -> String {
    let padded = left.count < 28 ? left + String(repeating: " ", count: 28 - left.count) : left
    return left.count < 28
      ? "  \(padded)\(right)" : "  \(left)\n  \(String(repeating: " ", count: 28))\(right)"
  }
}
