/// How the text, Markdown and Mermaid renderers write what they read from a database (names,
/// types, values, expressions, statements): as it is, for any reader, or escaped by a caller
/// that shows it to a person on a terminal. Applied where each value is printed, before the
/// renderer quotes, pads or lays it out, so the rule stays the caller's (the library never
/// decides what a terminal must not see).
///
/// JSON and SQL never use it: JSON escapes as JSON does, and SQL is SQLite's exact text.
package struct SchemaEscaping: Sendable {
  /// For every name, type, value and expression.
  package var text: @Sendable (String) -> String
  /// For a whole `CREATE` statement (`sql` of a table, an index, a view or a trigger), whose
  /// own line breaks are its layout.
  package var statement: @Sendable (String) -> String

  package init(
    text: @escaping @Sendable (String) -> String,
    statement: @escaping @Sendable (String) -> String
  ) {
    self.text = text
    self.statement = statement
  }

  /// Everything as the database has it: the library's own rendering.
  package static let none = SchemaEscaping(text: { $0 }, statement: { $0 })
}
