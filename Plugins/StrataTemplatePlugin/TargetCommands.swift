import Foundation
import PackagePlugin

/// Each build system's view of a target turned into `TemplateInputs.TargetFile`s, for both
/// plugins (`StrataTemplatePlugin`, `StrataTemplatePrebuiltPlugin`), which differ only in
/// where `tool` comes from.
extension TemplateCommands {
  /// A package target: its listed files (a `.copy("migrations")` resource is listed as the
  /// folder itself, a `.process("migrations")` one as each file in it), under its folder.
  static func commands(
    forPackageTarget target: Target,
    workFolder: URL,
    tool: URL
  ) throws
    -> [Command]
  {
    // The target's folder: `directoryURL` of the concrete target types, which tools version
    // 6.0 has (the `Target` protocol's needs 6.1, and `directory`'s `Path` is deprecated).
    let folder: URL
    switch target {
    case let swift as SwiftSourceModuleTarget: folder = swift.directoryURL
    case let clang as ClangSourceModuleTarget: folder = clang.directoryURL
    default: return []
    }
    guard let module = target as? SourceModuleTarget else { return [] }
    return try commands(
      for: module.sourceFiles.map {
        TemplateInputs.TargetFile($0.url, isBundled: $0.type == .resource)
      },
      under: folder,
      fallback: folder.appendingPathComponent(TemplateInputs.folderName, isDirectory: true),
      strata: tool,
      workFolder: workFolder,
      target: target.name
    )
  }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

extension TemplateCommands {
  /// An Xcode app target (Build Phases > Run Build Tool Plug-ins): its input files, under the
  /// project's folder. A folder reference is listed as the folder itself; a synchronized
  /// folder (Xcode 16) as each file in it, unless its Build Rules apply once to the folder.
  /// Xcode copies a member file it does not compile into the bundle, so every file but a
  /// source or a header counts as bundled.
  static func commands(
    forXcodeTarget target: XcodeTarget,
    project: URL,
    workFolder: URL,
    tool: URL
  ) throws -> [Command] {
    try commands(
      for: target.inputFiles.map {
        TemplateInputs.TargetFile($0.url, isBundled: $0.type != .source && $0.type != .header)
      },
      under: project,
      fallback: nil,
      strata: tool,
      workFolder: workFolder,
      target: target.displayName
    )
  }
}
#endif
