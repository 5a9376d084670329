/// An option that may be given more than once, each value kept in order (`--null NA --null -`):
/// `arguments[option]` returns every value given, converted, or `[]` when it was not given.
public struct RepeatedOption<Element: Sendable>: OptionDeclaration {
  /// What parsing and help need of it.
  public let spec: OptionSpec

  /// An option whose every value `parse` turns into an element, or rejects with a
  /// `UsageError` before the command runs.
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

extension RepeatedOption where Element == String {
  /// An option whose values are text, kept as given.
  public init(_ name: String, _ valueName: String, help: String) {
    self.init(name, valueName, help: help) { $0 }
  }
}
