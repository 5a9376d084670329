/// One `--name` the command accepts, as parsing and help see it: a flag, or an option that
/// takes a value. Commands declare their options as `Option` and `Flag` values, which carry one
/// of these, and read them back through the same declaration.
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
  /// Whether every value given is kept (`arguments[repeatedOption]`), not only the last.
  public var isRepeated = false
  /// Turns the value given into the declared type, or throws the usage error; nil keeps the
  /// text as given.
  var convert: (@Sendable (String) throws -> any Sendable)?

  /// An option that keeps its value as text; `Option` declares a typed one.
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

  /// Whether it stands alone, without a value.
  public var isFlag: Bool { valueName == nil }

  /// A flag that keeps no declaration of its own (for checks of the parser).
  public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(name: name, short: short, valueName: nil, help: help)
  }

  /// An option whose value stays text (for checks of the parser).
  public static func value(
    _ name: String,
    _ valueName: String,
    help: String,
    choices: [String] = []
  ) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
  }

  /// Equal when parsing and help treat them alike; the conversion is not compared.
  public static func == (left: OptionSpec, right: OptionSpec) -> Bool {
    left.name == right.name && left.short == right.short && left.valueName == right.valueName
      && left.help == right.help && left.choices == right.choices
  }
}

/// A positional argument.
public struct PositionalSpec: Sendable, Equatable {
  /// The placeholder in usage and help: `file` for `<file>`.
  public let name: String
  /// One line for `--help`.
  public let help: String
  /// Whether the command refuses to run without it.
  public var isRequired: Bool
  /// Whether it may be given more than once.
  public var isRepeated: Bool

  /// A positional argument, optional and given at most once unless said otherwise.
  public init(name: String, help: String, isRequired: Bool = false, isRepeated: Bool = false) {
    self.name = name
    self.help = help
    self.isRequired = isRequired
    self.isRepeated = isRepeated
  }
}
