/// The arguments of one command, parsed against its `CommandSpec`: each option's value is
/// converted by its declaration as the command line is read, and the command reads it back with
/// `arguments[declaration]`.
public struct ParsedArguments: Sendable, Equatable {
  /// Every value given, by option name, as typed: the parser's raw record, for checks of the
  /// parser. Commands read `arguments[option]`.
  package private(set) var values: [String: [String]] = [:]
  /// The flags given, by name: the parser's raw record, for checks of the parser.
  package private(set) var flags: Set<String> = []
  /// The positional arguments, in order.
  public private(set) var positionals: [String] = []
  /// The last value of each declared option, converted by its declaration.
  private var converted: [String: any Sendable] = [:]

  /// The value of `option`: the last one given, converted, or its default.
  public subscript<Value>(option: Option<Value>) -> Value {
    guard let value = converted[option.spec.name] else { return option.defaultValue }
    guard let typed = value as? Value else {
      preconditionFailure("--\(option.spec.name) is declared twice with different types")
    }
    return typed
  }

  /// Every value given for `option`, in order, converted; `[]` when it was not given.
  public subscript<Element>(option: RepeatedOption<Element>) -> [Element] {
    guard let value = converted[option.spec.name] else { return [] }
    guard let typed = value as? [Element] else {
      preconditionFailure("--\(option.spec.name) is declared twice with different types")
    }
    return typed
  }

  /// Whether `flag` was given.
  public subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }

  /// Equal when the same values, flags and positionals were given; the converted values follow
  /// from those.
  public static func == (left: ParsedArguments, right: ParsedArguments) -> Bool {
    left.values == right.values && left.flags == right.flags
      && left.positionals == right.positionals
  }

  /// Parses `arguments` (without the program and command names).
  ///
  /// - Parameter toolName: the program's name, for the usage lines in messages.
  /// - Throws: `HelpRequested` for `--help`; `UsageError` for an unknown option, a missing or
  ///   unexpected value or positional, or a value its declaration rejects.
  public init(_ arguments: [String], spec: CommandSpec, toolName: String) throws {
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
            help: spec.helpHint(toolName: toolName)
          )
        }
        name = option.name
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        throw UsageError(
          message: "unknown option \(quotedArgument("--" + name))",
          help: closestName(to: name, in: spec.options.map(\.name)).map {
            "Did you mean '--\($0)'?"
          }
            ?? spec.helpHint(toolName: toolName)
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
          message: choiceMessage(name, option.choices, value),
          help: spec.helpHint(toolName: toolName)
        )
      }
      values[name, default: []].append(value)
    }
    let required = spec.positionals.filter(\.isRequired).count
    let repeated = spec.positionals.contains(where: \.isRepeated)
    let usage = "Usage: \(spec.usage(toolName: toolName))"
    if positionals.count < required {
      let missing = spec.positionals[positionals.count].name
      throw UsageError(message: "missing <\(missing)>", help: usage)
    }
    if !repeated, positionals.count > spec.positionals.count {
      throw UsageError(
        message: "unexpected argument \(quotedArgument(positionals[spec.positionals.count]))",
        help: usage
      )
    }
    for option in spec.options {
      guard let convert = option.convert, let texts = values[option.name], let text = texts.last
      else { continue }
      converted[option.name] = option.isRepeated ? try texts.map(convert) : try convert(text)
    }
  }
}
