import Foundation

/// Whether `path` names an existing directory.
func isDirectory(atPath path: String) -> Bool {
  var isDirectory: ObjCBool = false
  return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
    && isDirectory.boolValue
}
