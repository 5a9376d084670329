/// One `--name` the command accepts: a flag, or an option that takes a value.
public struct OptionSpec: Sendable, Equatable {
  /// The long name without dashes: `database` for `--database`.
  public let name: String
  /// A one-letter alias without the dash, such as `q` for `-q`.
  public var short: Character?
  /// The placeholder shown in help (`PATH`); nil makes this a flag that takes no value.
  public let valueName: String?
  /// One line for `--help`.
  public let help: String
  /// The values accepted, when the set is closed (`text`, `json`).
  public var choices: [String]

  public init(
    name: String,
    short: Character? = nil,
    valueName: String?,
    help: String,
    choices: [String] = []
  ) {
    self.name = name
    self.short = short
    self.valueName = valueName
    self.help = help
    self.choices = choices
  }

  public var isFlag: Bool { valueName == nil }

  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  public static func value(
    _ name: String,
    _ valueName: String,
    help: String,
    choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
  }
}

/// A positional argument.
public struct PositionalSpec: Sendable, Equatable {
  public let name: String
  public let help: String
  /// Whether the command refuses to run without it.
  public var isRequired: Bool
  /// Whether it may be given more than once.
  public var isRepeated: Bool

  public init(name: String, help: String, isRequired: Bool = false, isRepeated: Bool = false) {
    self.name = name
    self.help = help
    self.isRequired = isRequired
    self.isRepeated = isRepeated
  }
}

/// What a command accepts, and what `--help` prints for it.
public struct CommandSpec: Sendable {
  public let name: String
  public let abstract: String
  public var discussion: String
  public var positionals: [PositionalSpec]
  public var options: [OptionSpec]

  public init(
    name: String,
    abstract: String,
    discussion: String = "",
    positionals: [PositionalSpec] = [],
    options: [OptionSpec] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.positionals = positionals
    self.options = options
  }

  public var usage: String {
    var parts = ["strata", name]
    for positional in positionals {
      var text = "<\(positional.name)>"
      if positional.isRepeated { text += " ..." }
      parts.append(positional.isRequired ? text : "[\(text)]")
    }
    if !options.isEmpty { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  public var helpText: String {
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
