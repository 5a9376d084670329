import Foundation
import PackagePlugin

/// Keeps an app target's template database in step with its `migrations/` folder at build
/// time (docs/build-plugin.md).
///
/// - A target without a committed template gets one built: `strata template` writes
///   `template.sqlite3` into the plugin's work folder, and the build bundles it as a resource,
///   at the bundle's top level (`Bundle.module` of a package target). A changed migration file
///   rebuilds it.
/// - A target that commits its template (`seeds/template.sqlite3` or `template.sqlite3` beside
///   its `migrations` folder) gets it checked: `strata template --check` fails the build,
///   naming what is stale and the command that rebuilds it.
///
/// This plugin builds its tool, `StrataPluginTool`, with the app (which costs a clean build
/// the library's compile twice more); `StrataTemplatePrebuiltPlugin` runs one built beforehand.
/// Both share everything but where the tool comes from (`TargetCommands.swift`).
@main
struct StrataTemplatePlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    try TemplateCommands.commands(
      forPackageTarget: target,
      workFolder: context.pluginWorkDirectoryURL,
      tool: try context.tool(named: "StrataPluginTool").url
    )
  }
}

// Compiled only by Xcode, which alone has XcodeProjectPlugin: keep it to the adapter.
#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataTemplatePlugin: XcodeBuildToolPlugin {
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
    try TemplateCommands.commands(
      forXcodeTarget: target,
      project: context.xcodeProject.directoryURL,
      workFolder: context.pluginWorkDirectoryURL,
      tool: try context.tool(named: "StrataPluginTool").url
    )
  }
}
#endif
