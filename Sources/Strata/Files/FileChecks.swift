import Foundation

/// Whether `path` names an existing directory.
func isDirectory(atPath path: String) -> Bool {
  var isDirectory: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    && isDirectory.boolValue
}

/// Removes leftovers of interrupted writes: files in `folder` named `prefix…suffix` and not
/// modified for `age` seconds (a write in progress is younger). A `kill -9` between copying and
/// linking a template, for instance, leaves a template-sized file behind.
func removeStaleFiles(in folder: URL, prefix: String, suffixes: [String], olderThan age: Double) {
  guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else {
    return
  }
  let now = Date()
  for name in names where name.hasPrefix(prefix) && suffixes.contains(where: name.hasSuffix) {
    let path = folder.appendingPathComponent(name).path
    guard let modified = try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate],
      let date = modified as? Date, now.timeIntervalSince(date) > age
    else { continue }
    try? FileManager.default.removeItem(atPath: path)
  }
}
