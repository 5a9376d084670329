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
    if let named = environment[variable], !named.isEmpty {
      // The plugin's working folder is SwiftPM's or Xcode's, not the user's shell's.
      guard named.hasPrefix("/") else {
        throw Failure(
          "\(variable) is \(named), a relative path, which the build would resolve from a "
            + "folder of its own; set it to the tool's absolute path"
        )
      }
      guard isExecutableFile(named) else {
        throw Failure(
          "\(variable) is \(named), which is not an executable file; build the tool with "
            + install + ", and set \(variable) to it"
        )
      }
      return URL(fileURLWithPath: named)
    }
    // Only absolute folders: a relative one (`.`, `bin`) would be the build's folder, not
    // the user's.
    let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for folder in folders where folder.hasPrefix("/") {
      let candidate = URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent(name)
      if isExecutableFile(candidate.path) { return candidate }
    }
    throw Failure(
      "StrataTemplatePrebuiltPlugin runs a \(name) built beforehand, and there is none: "
        + "\(variable) is not set and no folder of PATH (\(folders.joined(separator: ":"))) "
        + "holds one. Build it with " + install + ", then put it on PATH or set \(variable) to "
        + "it; or use StrataTemplatePlugin, which builds its own with the app"
    )
  }

  /// An executable regular file (a folder is "executable" too: searchable).
  private static func isExecutableFile(_ path: String) -> Bool {
    var isFolder: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && !isFolder.boolValue && FileManager.default.isExecutableFile(atPath: path)
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
