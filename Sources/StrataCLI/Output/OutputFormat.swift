/// `--format` of the commands that report in text or JSON.
enum OutputFormat: String, CaseIterable, Sendable {
  case text
  case json
}
