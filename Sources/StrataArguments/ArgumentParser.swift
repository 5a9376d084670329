/// The command line is wrong: exit 64 with usage.
public struct UsageError: Error, Equatable {
  public let message: String
  /// What to do about it: a usage line or a "did you mean".
  public var help: String?

  public init(message: String, help: String? = nil) {
    self.message = message
    self.help = help
  }
}

/// `--help` was asked for: print the command's help and exit 0.
public struct HelpRequested: Error {
  public init() {}
}

/// The arguments of one command, parsed against its `CommandSpec`.
public struct ParsedArguments: Sendable, Equatable {
  public private(set) var values: [String: [String]] = [:]
  public private(set) var flags: Set<String> = []
  public private(set) var positionals: [String] = []

  /// The last value given for `--name`, if any.
  public func value(_ name: String) -> String? { values[name]?.last }

  /// Whether `--name` was given.
  public func flag(_ name: String) -> Bool { flags.contains(name) }

  /// `--name` as an integer, or a usage error naming the option.
  public func integer(_ name: String, minimum: Int64 = .min) throws -> Int64? {
    guard let text = value(name) else { return nil }
    guard let number = Int64(text), number >= minimum else {
      let floor = minimum == .min ? "" : " of at least \(minimum)"
      throw UsageError(
        message: "--\(name) takes a whole number\(floor); got \(quotedArgument(text))"
      )
    }
    return number
  }

  /// Parses `arguments` (without the program and command names).
  public init(_ arguments: [String], spec: CommandSpec) throws {
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      // Dashes and `=` are matched as Unicode scalars, not characters: a combining mark after
      // one (`--to=\u{301}x`) joins it into another character, yet the shell passed a `=`.
      let scalars = argument.unicodeScalars
      if onlyPositionals || argument == "-" || scalars.first != "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if argument == "--help" || argument == "-h" { throw HelpRequested() }
      var name: String
      var inlineValue: String?
      if scalars.starts(with: "--".unicodeScalars) {
        let rest = scalars.dropFirst(2)
        if let equals = rest.firstIndex(of: "=") {
          inlineValue = String(rest[rest.index(after: equals)...])
          name = String(rest[..<equals])
        } else {
          name = String(rest)
        }
      } else {
        let letter = String(scalars.dropFirst())
        guard letter.unicodeScalars.count == 1,
          let option = spec.options.first(where: { $0.short.map(String.init) == letter })
        else {
          throw UsageError(
            message: "unknown option \(quotedArgument(argument))",
            help: Self.suggestion(spec)
          )
        }
        name = option.name
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        throw UsageError(
          message: "unknown option \(quotedArgument("--" + name))",
          help: Self.closest(to: name, in: spec.options.map(\.name)).map {
            "Did you mean '--\($0)'?"
          }
            ?? Self.suggestion(spec)
        )
      }
      if option.isFlag {
        if inlineValue != nil {
          throw UsageError(message: "--\(name) takes no value")
        }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw UsageError(message: "--\(name) needs a value (<\(option.valueName ?? "value")>)")
        }
        value = arguments[index]
        index += 1
      }
      if !option.choices.isEmpty, !option.choices.contains(value) {
        throw UsageError(
          message:
            "--\(name) must be one of \(option.choices.joined(separator: ", ")); got \(quotedArgument(value))",
          help: Self.suggestion(spec)
        )
      }
      values[name, default: []].append(value)
    }
    let required = spec.positionals.filter(\.isRequired).count
    let repeated = spec.positionals.contains(where: \.isRepeated)
    if positionals.count < required {
      let missing = spec.positionals[positionals.count].name
      throw UsageError(message: "missing <\(missing)>", help: "Usage: \(spec.usage)")
    }
    if !repeated, positionals.count > spec.positionals.count {
      throw UsageError(
        message: "unexpected argument \(quotedArgument(positionals[spec.positionals.count]))",
        help: "Usage: \(spec.usage)"
      )
    }
  }

  private static func suggestion(_ spec: CommandSpec) -> String {
    "See 'strata \(spec.name) --help'."
  }

  /// The candidate within two edits of `name`, for "did you mean".
  public static func closest(to name: String, in candidates: [String]) -> String? {
    candidates.map { ($0, editDistance(name, $0)) }
      .filter { $0.1 <= 2 }
      .min { $0.1 < $1.1 }?.0
  }

  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + Array(repeating: 0, count: b.count)
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      previous = current
    }
    return previous[b.count]
  }
}
