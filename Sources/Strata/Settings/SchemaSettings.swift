import Foundation

/// The `[schema]` section of the settings file: the schema file the project keeps beside its
/// migrations, so that a reviewer sees each schema change next to the migration that makes it.
///
/// ```toml
/// [schema]
/// file = "schema.sql"
/// ```
///
/// An app's launch never writes it (`DatabaseSetup` reads the section and leaves it alone);
/// `strata migrate`, `rollback`, `init` and `schema` write it, and `strata status` checks it.
package struct SchemaSettings: Hashable, Sendable {
  /// `file`: the schema file's path as written, relative to the settings file's folder; nil
  /// when the project keeps none (the default).
  package var file: String?
  /// The folder `file` is relative to: the settings file's own; nil when the settings were
  /// parsed from text, not read from a file.
  package var folder: URL?

  /// Schema settings naming `file` (nil: no schema file), relative to `folder`.
  package init(file: String? = nil, folder: URL? = nil) {
    self.file = file
    self.folder = folder
  }

  /// Where the schema file is: `file` resolved against `folder`, or against `project` (the
  /// project folder) when the settings were not read from a file; nil when no file is named.
  package func fileURL(inProject project: URL) -> URL? {
    guard let file else { return nil }
    if file.hasPrefix("/") { return URL(fileURLWithPath: file).standardizedFileURL }
    return (folder ?? project).appendingPathComponent(file).standardizedFileURL
  }
}
