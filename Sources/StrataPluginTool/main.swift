import Foundation
import Strata
import StrataArguments

// The build plugin's tool (Plugins/StrataTemplatePlugin): builds an app target's template, or
// checks the one it commits, through the library. Only what that step needs, so that an app's
// build compiles `Strata` and this file, not the whole command-line tool. It takes the
// arguments the plugin has always passed to `strata template` (TemplateCommands.swift) and
// reports a failure in the build log as `strata` does: `Error: …` and `Help: …`, each one line
// with its controls escaped (a migration's name cannot add a line to the log).

do {
  let step = try TemplateStep(arguments: Array(CommandLine.arguments.dropFirst()))
  try step.run()
} catch {
  let (message, help) = TemplateStep.describe(error)
  for line in ["Error: \(message)"] + (help.map { ["Help: \($0)"] } ?? []) {
    FileHandle.standardError.write(Data((escapingControls(line, keepingTabs: true) + "\n").utf8))
  }
  exit(1)
}
