import Foundation

let code = CommandLineTool.run(
  arguments: Array(CommandLine.arguments.dropFirst()),
  context: CommandContext.process()
)
exit(code)
