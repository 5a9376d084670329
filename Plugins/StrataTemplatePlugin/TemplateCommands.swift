import Foundation
import PackagePlugin

/// The build command for one target: build the template, or check the committed one.
struct TemplateCommands {
  /// The `strata` executable this package builds.
  let strata: URL
  /// The target's migrations folder.
  let migrations: URL
  /// The template the target commits, if any: checked, never written.
  let committedTemplate: URL?
  /// The plugin's work folder for this target.
  let workFolder: URL
  /// The target's name, for messages.
  let target: String

  /// The templates a target may commit, where `strata template` and `DatabaseSetup` look.
  static func committedTemplate(in folder: URL) -> URL? {
    ["seeds/template.sqlite3", "template.sqlite3"]
      .map { folder.appending(path: $0) }
      .first { FileManager.default.fileExists(atPath: $0.path) }
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
    let inputs = try migrationFiles()
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
          ],
          inputFiles: inputs + [committedTemplate],
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
          "--output", output.path,
        ],
        inputFiles: inputs,
        outputFiles: [output]
      )
    ]
  }

  /// Every file under the migrations folder, sorted: a change to any rebuilds the template.
  private func migrationFiles() throws -> [URL] {
    let found = FileManager.default.enumerator(
      at: migrations,
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
