import Foundation

/// The seed files' names (`*.csv`, `*.tsv`, each maybe `.gz`) directly in a seeds folder (hidden files and folders skipped), each
/// checked by `folderFileProblem`; every failure is a `SeedError`, never a raw system error.
func seedFileNames(in directory: URL, shown: String, followSymlinks: Bool) throws -> [String] {
  func failure(_ file: String, _ reason: String) -> SeedError {
    .malformed(file: file, CSVError(.readFailed, line: 1, column: 1, detail: reason))
  }
  switch checkFolder(atPath: directory.path) {
  case .listable: break
  case .missing: throw SeedError.directoryNotFound(path: shown)
  case .unusable(let reason): throw SeedError.folderUnusable(path: shown, reason: reason)
  }
  let names: [String]
  do {
    names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
  } catch {
    throw SeedError.folderUnusable(
      path: shown,
      reason: "the folder cannot be listed (\((error as NSError).localizedFailureReason ?? "?"))"
    )
  }
  return try names.filter { name in
    guard !name.hasPrefix("."), SeedFile.isSeedFileName(name) else { return false }
    if pathStatus(atPath: directory.appendingPathComponent(name).path) == .directory {
      return false
    }
    if let problem = folderFileProblem(
      folder: directory.path,
      name: name,
      followSymlinks: followSymlinks
    ) {
      throw failure(shown.hasSuffix("/") ? shown + name : shown + "/" + name, problem)
    }
    return true
  }
}
