/// What a command accepts, and what `--help` prints for it. The tool's name is not part of it:
/// the caller passes it where usage lines and hints are written.
public struct CommandSpec: Sendable {
  /// The command's name: `migrate`.
  public let name: String
  /// One line for the tool's list of commands and the help's OVERVIEW.
  public let abstract: String
  /// Paragraphs for the help, after USAGE.
  public var discussion: String
  /// The positional arguments, in order.
  public var positionals: [PositionalSpec]
  /// The options and flags, in the order help lists them.
  public var options: [OptionSpec]

  /// A command from its declarations: each `Option` or `Flag` is listed here and read back
  /// through the same value.
  public init(
    name: String,
    abstract: String,
    discussion: String = "",
    positionals: [PositionalSpec] = [],
    options: [any OptionDeclaration] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.positionals = positionals
    self.options = options.map(\.spec)
  }

  /// `tool name <positional> [<options>]`.
  public func usage(toolName: String) -> String {
    var parts = [toolName, name]
    for positional in positionals {
      var text = "<\(positional.name)>"
      if positional.isRepeated { text += " ..." }
      parts.append(positional.isRequired ? text : "[\(text)]")
    }
    if !options.isEmpty { parts.append("[<options>]") }
    return parts.joined(separator: " ")
  }

  /// Where to read about the command: "See 'tool name --help'."
  public func helpHint(toolName: String) -> String {
    "See '\(toolName) \(name) --help'."
  }

  /// The command's `--help`.
  public func helpText(toolName: String) -> String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(usage(toolName: toolName))", ""]
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

  /// A help row: the name in a column 28 wide, or on its own line when longer.
  private static func row(_ left: String, _ right: String) -> String {
    let padded = left.count < 28 ? left + String(repeating: " ", count: 28 - left.count) : left
    return left.count < 28
      ? "  \(padded)\(right)" : "  \(left)\n  \(String(repeating: " ", count: 28))\(right)"
  }
}
