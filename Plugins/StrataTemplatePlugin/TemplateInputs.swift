import Foundation

/// Where a target's `migrations` folder is, and its committed template, read from the files the
/// build system lists for the target: SwiftPM's `SourceModuleTarget.sourceFiles`, Xcode's
/// `XcodeTarget.inputFiles` (docs/build-plugin.md). Both plugin entry points go through here.
///
/// Foundation only, and no file system but the `exists` it is given: a test cannot import a
/// plugin, so `PluginTemplateInputsTests` (Tests/StrataCLITests) compiles this very file with
/// `swiftc`, beside a driver of its own, and runs it on the file lists Xcode makes.
enum TemplateInputs {
  /// The folder the plugin looks for.
  static let folderName = "migrations"
  /// The template `strata template` writes and `DatabaseSetup` copies.
  static let templateName = "template.sqlite3"

  /// One of the target's files, as the build system lists it.
  struct TargetFile: Equatable {
    /// Its absolute path: a file, or a folder listed as one resource.
    var url: URL
    /// Whether the build copies it into the bundle (a resource), rather than compiling it or
    /// leaving it out.
    var isBundled: Bool

    init(_ url: URL, isBundled: Bool = true) {
      self.url = url
      self.isBundled = isBundled
    }
  }

  /// How the target lists its migrations folder, which says how it ends up in the bundle.
  enum Listing: Equatable {
    /// As the folder itself: SwiftPM's `.copy("migrations")`; in Xcode a folder reference, or a
    /// folder of a synchronized folder whose Build Rules say Apply Once to Folder. The bundle
    /// has the folder.
    case folder
    /// As the files inside it, each one bundled: SwiftPM's `.process("migrations")`; in Xcode a
    /// group, or a synchronized folder (Xcode 16) applying its rules to each file. The files
    /// land loose at the top of the bundle, without their folder (their paths inside the
    /// folder, sorted).
    case flattened([String])
    /// As files inside it that the build does not bundle (SwiftPM's unhandled files).
    case notBundled
  }

  /// What `migrationsFolder(among:under:)` found.
  enum FolderSearch: Equatable {
    /// One migrations folder, and how it is listed.
    case found(URL, Listing)
    /// None among the files.
    case notFound
    /// More than one (sorted): the plugin builds one template per target.
    case ambiguous([URL])
  }

  /// The target's migrations folder: a listed file named `migrations` (the folder itself), or
  /// the nearest folder named `migrations` that holds a listed file (a file directly inside it,
  /// or in a folder inside it, as diesel's `<version>/up.sql`). Only folders below `root` (the
  /// target's folder, or the Xcode project's) count, so that a project that happens to sit in a
  /// folder named `migrations` is not taken for one; for a file outside `root` only its own
  /// folder counts.
  static func migrationsFolder(among files: [TargetFile], under root: URL) -> FolderSearch {
    let rootParts = root.standardizedFileURL.pathComponents
    var candidates: [Candidate] = []
    func candidate(_ path: String) -> Int {
      if let index = candidates.firstIndex(where: { $0.url.path == path }) { return index }
      candidates.append(Candidate(url: URL(fileURLWithPath: path, isDirectory: true)))
      return candidates.count - 1
    }
    for file in files {
      let url = file.url.standardizedFileURL
      if url.lastPathComponent == folderName {
        candidates[candidate(url.path)].isListed = true
        continue
      }
      let parts = url.pathComponents
      let isInside = parts.count > rootParts.count && parts.starts(with: rootParts)
      // The folders that may be the migrations folder: those below the root, or the file's own.
      let lowest = max(isInside ? rootParts.count : parts.count - 2, 1)
      guard parts.count - 2 >= lowest,
        let index = (lowest...(parts.count - 2)).last(where: { parts[$0] == folderName })
      else { continue }
      let found = candidate(NSString.path(withComponents: Array(parts[...index])))
      let inner = parts[(index + 1)...].joined(separator: "/")
      if file.isBundled { candidates[found].bundled.append(inner) }
    }
    guard let only = candidates.first else { return .notFound }
    guard candidates.count == 1 else {
      return .ambiguous(candidates.map(\.url).sorted { $0.path < $1.path })
    }
    if only.isListed { return .found(only.url, .folder) }
    if !only.bundled.isEmpty { return .found(only.url, .flattened(only.bundled.sorted())) }
    return .found(only.url, .notBundled)
  }

  /// A folder named `migrations` among the target's files, and how its files are listed.
  private struct Candidate {
    var url: URL
    var isListed = false
    var bundled: [String] = []
  }

  /// The template the target commits, checked and never written: `seeds/template.sqlite3`, else
  /// `template.sqlite3`, in the folder that holds `migrations` (where `strata template` writes
  /// it); else a listed file named `template.sqlite3` (an Xcode target's file anywhere).
  static func committedTemplate(
    besides migrations: URL,
    among files: [TargetFile],
    exists: (URL) -> Bool
  ) -> URL? {
    let holder = migrations.standardizedFileURL.deletingLastPathComponent()
    let besides = ["seeds/\(templateName)", templateName].map {
      holder.appendingPathComponent($0, isDirectory: false)
    }
    if let found = besides.first(where: exists) { return found }
    return files.map(\.url.standardizedFileURL)
      .filter { $0.lastPathComponent == templateName }
      .min { $0.path < $1.path }
  }
}
