import Foundation
import PackagePlugin

/// The build command for one target: build the template, or check the committed one.
struct TemplateCommands {
  /// The strata version of this plugin, passed to the tool (`--expect-version`), which refuses
  /// to run as another version: a prebuilt tool must be the strata the app links. Equal to
  /// `strataVersion` of StrataArguments (the plugin cannot import it; `PluginVersionTests`).
  static let strataVersion = "0.6.0"
  /// The tool that builds or checks the template (`StrataPluginTool`).
  let strata: URL
  /// The target's migrations folder.
  let migrations: URL
  /// The template the target commits, if any: checked, never written.
  let committedTemplate: URL?
  /// The plugin's work folder for this target.
  let workFolder: URL
  /// The target's name, for messages.
  let target: String

  /// The commands for a target whose files are `files` (under `root`: the target's folder, or
  /// the Xcode project's), shared by the SwiftPM and the Xcode entry points: the migrations
  /// folder and the committed template are found by `TemplateInputs`, and a folder whose files
  /// are bundled loose (not as a folder) is warned about, as the app would fail to find it at
  /// launch. `fallback`: the folder to use when none is among the files (SwiftPM's
  /// `<target>/migrations`, which the plugin always read).
  static func commands(
    for files: [TemplateInputs.TargetFile],
    under root: URL,
    fallback: URL?,
    strata: URL,
    workFolder: URL,
    target: String
  ) throws -> [Command] {
    let migrations: URL
    switch TemplateInputs.migrationsFolder(among: files, under: root) {
    case .found(let folder, let listing):
      migrations = folder
      if case .flattened(let loose) = listing {
        Diagnostics.warning(flattenedWarning(folder, loose: loose, target: target))
      }
    case .notFound:
      guard let fallback else {
        Diagnostics.error(
          "\(target): strata's template plugin found no \(TemplateInputs.folderName) folder "
            + "among the target's files; add the folder to the target as a folder reference "
            + "(or, in a synchronized folder, set its Build Rules to Apply Once to Folder)"
        )
        return []
      }
      migrations = fallback
    case .ambiguous(let folders):
      Diagnostics.error(
        "\(target): strata's template plugin found more than one \(TemplateInputs.folderName) "
          + "folder among the target's files (" + folders.map(\.path).joined(separator: ", ")
          + "); it builds one template per target: keep one in the target"
      )
      return []
    }
    return try TemplateCommands(
      strata: strata,
      migrations: migrations,
      committedTemplate: TemplateInputs.committedTemplate(besides: migrations, among: files) {
        FileManager.default.fileExists(atPath: $0.path)
      },
      workFolder: workFolder,
      target: target
    ).commands()
  }

  /// What a target whose migration files are bundled one by one is told: they land loose in
  /// the bundle, where `DatabaseSetup.resource("migrations", …)` finds no folder
  /// (`SetupError.folderFlattened`). The template is still built.
  static func flattenedWarning(_ folder: URL, loose: [String], target: String) -> String {
    let shown = loose.prefix(3).joined(separator: ", ") + (loose.count > 3 ? ", …" : "")
    return "\(target): the files of \(folder.path) (\(shown)) are bundled one by one, so they "
      + "land loose at the top of the bundle, without their \(folder.lastPathComponent) folder, "
      + "and DatabaseSetup.resource(\"\(folder.lastPathComponent)\", in: bundle) will not find "
      + "it at launch. Bundle the folder itself: in Package.swift, .copy instead of .process; in "
      + "Xcode, a folder reference, or in a synchronized folder select the folder and set File "
      + "inspector > Build Rules to Apply Once to Folder"
  }

  func commands() throws -> [Command] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: migrations.path, isDirectory: &isFolder),
      isFolder.boolValue
    else {
      Diagnostics.error(
        "\(target): strata's template plugin needs a migrations folder at \(migrations.path)"
      )
      return []
    }
    let inputs = try files(under: migrations)
    let (releaseArguments, releaseInputs) = try releaseCheck()
    if let committedTemplate {
      // The stamp is an empty Swift file: an output the build must produce (SwiftPM runs a
      // command only for its outputs), and one that adds nothing to the target.
      let stamp = workFolder.appending(path: "StrataTemplateCheck.swift")
      return [
        .buildCommand(
          displayName: "Checking \(committedTemplate.lastPathComponent) of \(target) against "
            + "its migrations",
          executable: strata,
          arguments: [
            "template", "--check", "--quiet", "--migrations", migrations.path,
            "--output", committedTemplate.path, "--stamp", stamp.path,
            "--expect-version", Self.strataVersion,
          ] + releaseArguments,
          inputFiles: inputs + [committedTemplate] + releaseInputs + [strata],
          outputFiles: [stamp]
        )
      ]
    }
    // The output's folder is named by the migrations' content: a changed migration gives a
    // new path, never an old template that `strata template` rightly refuses to replace.
    let output = workFolder.appending(path: "template-\(try fingerprint(of: inputs))")
      .appending(path: "template.sqlite3")
    try FileManager.default.createDirectory(
      at: output.deletingLastPathComponent(),
      withIntermediateDirectories: true
    )
    return [
      .buildCommand(
        displayName: "Building template.sqlite3 of \(target) from its migrations",
        executable: strata,
        arguments: [
          "template", "--quiet", "--force", "--migrations", migrations.path,
          "--output", output.path, "--expect-version", Self.strataVersion,
        ] + releaseArguments,
        // The tool too: a prebuilt one replaced reruns the step.
        inputFiles: inputs + releaseInputs + [strata],
        outputFiles: [output]
      )
    ]
  }

  /// With earlier releases' templates in `releases/` beside `migrations`, the arguments that
  /// have the tool launch each as the app would (with `seeds/` and `strata.toml` there, when
  /// present), and the files that rerun it (docs/build-plugin.md).
  private func releaseCheck() throws -> (arguments: [String], inputs: [URL]) {
    let holder = migrations.deletingLastPathComponent()
    var inputs = try files(under: holder.appending(path: "releases"))
    guard inputs.contains(where: { $0.pathExtension == "sqlite3" }) else { return ([], []) }
    var arguments = ["--releases", holder.appending(path: "releases").path]
    for (flag, name) in [("--seeds", "seeds"), ("--settings", "strata.toml")] {
      let url = holder.appending(path: name)
      guard FileManager.default.fileExists(atPath: url.path) else { continue }
      arguments += [flag, url.path]
      inputs += flag == "--seeds" ? try files(under: url) : [url]
    }
    return (arguments, inputs)
  }

  /// Every file under `folder`, sorted: a change to any reruns the command (none when the
  /// folder is missing).
  private func files(under folder: URL) throws -> [URL] {
    let found = FileManager.default.enumerator(
      at: folder,
      includingPropertiesForKeys: [.isRegularFileKey]
    )
    var files: [URL] = []
    while let url = found?.nextObject() as? URL {
      if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// FNV-1a (64 bits) of the files' names and contents, in hex.
  private func fingerprint(of files: [URL]) throws -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ bytes: some Sequence<UInt8>) {
      for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01b3
      }
    }
    for file in files {
      mix(Array(file.path.utf8) + [0])
      mix(try Data(contentsOf: file))
      mix([0])
    }
    return String(hash, radix: 16)
  }
}
