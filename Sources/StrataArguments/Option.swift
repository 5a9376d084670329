/// Something a command declares among its options: an `Option`, a `Flag` or a bare
/// `OptionSpec`. A command lists its declarations in its `CommandSpec` and reads each one back
/// with `arguments[declaration]`, so that a misspelt name does not compile.
public protocol OptionDeclaration: Sendable {
  /// What parsing and help need of it.
  var spec: OptionSpec { get }
}

extension OptionSpec: OptionDeclaration {
  /// Itself.
  public var spec: OptionSpec { self }
}

/// A flag, declared once: its name and help, and `arguments[flag]` says whether it was given.
public struct Flag: OptionDeclaration {
  /// What parsing and help need of it.
  public let spec: OptionSpec

  /// `--name` (and `-short`), which takes no value.
  public init(_ name: String, short: Character? = nil, help: String) {
    spec = .flag(name, short: short, help: help)
  }
}

/// An option that takes a value, declared once: its name, the type its value parses to, the
/// help line and the default. The parser converts the value (the last one given) when it reads
/// the command line, so an invalid value is a usage error before the command runs, and
/// `arguments[option]` returns the typed value or the default.
public struct Option<Value: Sendable>: OptionDeclaration {
  /// What parsing and help need of it.
  public let spec: OptionSpec
  /// What `arguments[option]` returns when the option is not given.
  public let defaultValue: Value

  /// An option whose text `parse` turns into a value, or rejects with a `UsageError`.
  ///
  /// - Parameter choices: the closed set of values help lists and the parser accepts.
  public init(
    _ name: String,
    _ valueName: String,
    help: String,
    default defaultValue: Value,
    choices: [String] = [],
    parse: @escaping @Sendable (String) throws -> Value
  ) {
    var spec = OptionSpec(name: name, valueName: valueName, help: help, choices: choices)
    spec.convert = { try parse($0) }
    self.spec = spec
    self.defaultValue = defaultValue
  }
}

extension Option where Value == String? {
  /// An option whose value is text (a path, a name); nil when it is not given.
  public init(_ name: String, _ valueName: String, help: String) {
    self.init(name, valueName, help: help, default: nil) { $0 }
  }
}

extension Option where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// An option whose value is one of an enumeration's cases, which help lists in order.
  public init(_ name: String, _ valueName: String, help: String, default defaultValue: Value) {
    let choices = Value.allCases.map(\.rawValue)
    self.init(name, valueName, help: help, default: defaultValue, choices: choices) { text in
      guard let value = Value(rawValue: text) else {
        throw UsageError(message: choiceMessage(name, choices, text))
      }
      return value
    }
  }
}

extension Option where Value == Int64? {
  /// An option whose value is a whole number of at least `minimum`; nil when not given.
  public static func integer(
    _ name: String,
    _ valueName: String,
    help: String,
    minimum: Int64 = .min
  ) -> Self {
    Self(name, valueName, help: help, default: nil) {
      try wholeNumber(name, $0, minimum: minimum)
    }
  }
}

extension Option where Value == Int {
  /// An option whose value is a whole number of at least `minimum`, `defaultValue` when not
  /// given.
  public static func integer(
    _ name: String,
    _ valueName: String,
    help: String,
    minimum: Int64 = .min,
    default defaultValue: Int
  ) -> Self {
    Self(name, valueName, help: help, default: defaultValue) {
      Int(try wholeNumber(name, $0, minimum: minimum))
    }
  }
}

/// An option that may be given more than once, declared once: `arguments[option]` returns
/// every value, in order, each converted by `parse` as the command line is read.
public struct RepeatedOption<Element: Sendable>: OptionDeclaration {
  /// What parsing and help need of it.
  public let spec: OptionSpec

  /// An option whose every value `parse` turns into an element, or rejects with a
  /// `UsageError`.
  public init(
    _ name: String,
    _ valueName: String,
    help: String,
    parse: @escaping @Sendable (String) throws -> Element
  ) {
    var spec = OptionSpec(name: name, valueName: valueName, help: help)
    spec.isRepeated = true
    spec.convert = { try parse($0) }
    self.spec = spec
  }
}

/// `text` as a whole number of at least `minimum`, or the usage error naming `--name`.
private func wholeNumber(_ name: String, _ text: String, minimum: Int64) throws -> Int64 {
  guard let number = Int64(text), number >= minimum else {
    let floor = minimum == .min ? "" : " of at least \(minimum)"
    throw UsageError(message: "--\(name) takes a whole number\(floor); got \(quotedArgument(text))")
  }
  return number
}

/// The message for a value outside an option's closed set.
func choiceMessage(_ name: String, _ choices: [String], _ text: String) -> String {
  "--\(name) must be one of \(choices.joined(separator: ", ")); got \(quotedArgument(text))"
}
