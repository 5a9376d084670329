import Foundation
import PackagePlugin

/// Keeps an app target's template database in step with its `migrations/` folder at build
/// time (docs/build-plugin.md).
///
/// - A target without a committed template gets one built: `strata template` writes
///   `template.sqlite3` into the plugin's work folder, and SwiftPM bundles it as a resource
///   (`Bundle.module`, at the bundle's top level). A changed migration file rebuilds it.
/// - A target that commits its template (`seeds/template.sqlite3` or `template.sqlite3`) gets
///   it checked: `strata template --check` fails the build, naming what is stale and the
///   command that rebuilds it.
@main
struct StrataTemplatePlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
    guard let module = target as? SourceModuleTarget else { return [] }
    // `directoryURL` needs tools version 6.1; this package is 6.0.
    let folder = URL(fileURLWithPath: "\(module.directory)", isDirectory: true)
    let migrations = folder.appending(path: "migrations")
    return try TemplateCommands(
      strata: try context.tool(named: "StrataPluginTool").url,
      migrations: migrations,
      committedTemplate: TemplateCommands.committedTemplate(in: folder),
      workFolder: context.pluginWorkDirectoryURL,
      target: target.name
    ).commands()
  }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension StrataTemplatePlugin: XcodeBuildToolPlugin {
  /// An Xcode app target: its `migrations` folder is the folder (a folder reference added to
  /// the target) that holds its migration files.
  func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
    let files = target.inputFiles.map(\.url)
    guard
      let migrations = files.lazy
        .map({ $0.deletingLastPathComponent() })
        .first(where: { $0.lastPathComponent == "migrations" })
    else {
      Diagnostics.error(
        "\(target.displayName): strata's template plugin found no migrations folder among the "
          + "target's files; add the migrations folder to the target (as a folder reference)"
      )
      return []
    }
    let committed = files.first { $0.lastPathComponent == "template.sqlite3" }
    return try TemplateCommands(
      strata: try context.tool(named: "StrataPluginTool").url,
      migrations: migrations,
      committedTemplate: committed,
      workFolder: context.pluginWorkDirectoryURL,
      target: target.displayName
    ).commands()
  }
}
#endif
