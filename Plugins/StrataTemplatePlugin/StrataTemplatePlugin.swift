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
/// The two entry points below only turn their build system's view of the target into
/// `TemplateInputs.TargetFile`s: everything else (`TemplateInputs`, `TemplateCommands`) is
/// shared, and the SwiftPM one is what `swift build` and `.ci/plugin-check` run.
@main
struct StrataTemplatePlugin: BuildToolPlugin {
  /// A package target: its listed files (a `.copy("migrations")` resource is listed as the
  /// folder itself, a `.process("migrations")` one as each file in it), under its folder.
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    // The target's folder: `directoryURL` of the concrete target types, which tools version
    // 6.0 has (the `Target` protocol's needs 6.1, and `directory`'s `Path` is deprecated).
    let folder: URL
    switch target {
    case let swift as SwiftSourceModuleTarget: folder = swift.directoryURL
    case let clang as ClangSourceModuleTarget: folder = clang.directoryURL
    default: return []
    }
    guard let module = target as? SourceModuleTarget else { return [] }
    return try TemplateCommands.commands(
      for: module.sourceFiles.map {
        TemplateInputs.TargetFile($0.url, isBundled: $0.type == .resource)
      },
      under: folder,
      fallback: folder.appendingPathComponent(TemplateInputs.folderName, isDirectory: true),
      strata: try context.tool(named: "StrataPluginTool").url,
      workFolder: context.pluginWorkDirectoryURL,
      target: target.name
    )
  }
}

// Compiled only by Xcode, which alone has XcodeProjectPlugin: keep it to the adapter.
#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataTemplatePlugin: XcodeBuildToolPlugin {
  /// An Xcode app target (Build Phases > Run Build Tool Plug-ins): its input files, under the
  /// project's folder. A folder reference is listed as the folder itself; a synchronized
  /// folder (Xcode 16) as each file in it, unless its Build Rules apply once to the folder.
  /// Xcode copies a member file it does not compile into the bundle, so every file but a
  /// source or a header counts as bundled.
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
    try TemplateCommands.commands(
      for: target.inputFiles.map {
        TemplateInputs.TargetFile($0.url, isBundled: $0.type != .source && $0.type != .header)
      },
      under: context.xcodeProject.directoryURL,
      fallback: nil,
      strata: try context.tool(named: "StrataPluginTool").url,
      workFolder: context.pluginWorkDirectoryURL,
      target: target.displayName
    )
  }
}
#endif
