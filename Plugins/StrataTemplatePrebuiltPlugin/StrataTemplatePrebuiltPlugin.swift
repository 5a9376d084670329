import Foundation
import PackagePlugin

/// `StrataTemplatePlugin` with a tool built beforehand: the same template built or checked,
/// without compiling the library for the building machine in every clean build of the app
/// (docs/build-plugin.md, "A prebuilt tool"). The tool is `StrataPluginTool` of the same strata
/// version (it refuses to run as another), at the path `STRATA_PLUGIN_TOOL` names, else the
/// first on `PATH`. The other files of this folder are links to `StrataTemplatePlugin`'s.
@main
struct StrataTemplatePrebuiltPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    try TemplateCommands.commands(
      forPackageTarget: target,
      workFolder: context.pluginWorkDirectoryURL,
      tool: try PrebuiltTool.locate(in: ProcessInfo.processInfo.environment)
    )
  }
}

/// Where the prebuilt tool is, or why it cannot be used.
enum PrebuiltTool {
  static let name = "StrataPluginTool"
  static let variable = "STRATA_PLUGIN_TOOL"

  static func locate(in environment: [String: String]) throws -> URL {
    let files = FileManager.default
    if let named = environment[variable], !named.isEmpty {
      guard files.isExecutableFile(atPath: named) else {
        throw Failure(
          "\(variable) is \(named), which is not an executable file; build the tool with "
            + install + ", and set \(variable) to it"
        )
      }
      return URL(fileURLWithPath: named)
    }
    let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for folder in folders where !folder.isEmpty {
      let candidate = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(name)
      if files.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Failure(
      "StrataTemplatePrebuiltPlugin runs a \(name) built beforehand, and there is none: "
        + "\(variable) is not set and no folder of PATH (\(folders.joined(separator: ":"))) "
        + "holds one. Build it with " + install + ", then put it on PATH or set \(variable) to "
        + "it; or use StrataTemplatePlugin, which builds its own with the app"
    )
  }

  private static let install =
    "'swift build -c release --product \(name)' in the checkout of the strata version the "
    + "app uses (\(TemplateCommands.strataVersion))"

  struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
  }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataTemplatePrebuiltPlugin: XcodeBuildToolPlugin {
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
    try TemplateCommands.commands(
      forXcodeTarget: target,
      project: context.xcodeProject.directoryURL,
      workFolder: context.pluginWorkDirectoryURL,
      tool: try PrebuiltTool.locate(in: ProcessInfo.processInfo.environment)
    )
  }
}
#endif
