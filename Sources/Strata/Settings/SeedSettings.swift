import Foundation

/// The seed options of the settings file: `[seeds]` for every seed file, `[seeds."FILE"]` for
/// one file (named as in the seeds folder, such as `penguins.csv`), field by field over the
/// defaults.
package struct SeedSettings: Hashable, Sendable {
  /// `[seeds]`: the options of every seed file.
  package var defaults: SeedFormatSettings
  /// `[seeds."FILE"]`: one file's options, by its name in the seeds folder.
  package var files: [String: SeedFormatSettings]
  /// The line of each file's section, for errors.
  var lines: [String: Int] = [:]
  /// The settings file, as errors name it.
  var path = ProjectSettings.fileName

  /// Seed settings with these defaults and per-file options.
  package init(
    defaults: SeedFormatSettings = SeedFormatSettings(),
    files: [String: SeedFormatSettings] = [:]
  ) {
    self.defaults = defaults
    self.files = files
  }

  /// `file`'s format: strata's defaults, then `[seeds]`, then the file's own section, then
  /// `overrides` (the options given for one run), each field set by the last that sets it.
  /// Standard input has no file name: only `[seeds]` and `overrides` apply to it.
  package func format(
    of file: SeedFile,
    overrides: SeedFormatSettings = SeedFormatSettings()
  )
    -> SeedFileFormat
  {
    var format = defaults.applied(to: file.format)
    if !file.isStandardInput, let own = files[file.url.lastPathComponent] {
      format = own.applied(to: format)
    }
    return overrides.applied(to: format)
  }

  /// `files` with their formats set (see `format(of:overrides:)`).
  package func applied(
    to files: [SeedFile],
    overrides: SeedFormatSettings = SeedFormatSettings()
  ) -> [SeedFile] {
    files.map { file in
      var file = file
      file.format = format(of: file, overrides: overrides)
      return file
    }
  }

  /// Checks that every file the settings name is in the seeds folder `folder` (nil: there is
  /// none) or among `files`, before anything is loaded.
  ///
  /// - Throws: `SettingsError.unknownSeedFile` for the first named file that is in neither.
  package func checkNamedFiles(
    existIn folder: URL?,
    folderDisplayPath: String? = nil,
    besides files: [SeedFile] = []
  ) throws {
    let given = Set(files.filter { !$0.isStandardInput }.map(\.url.lastPathComponent))
    let named = self.files.keys.sorted { (lines[$0] ?? 0, $0) < (lines[$1] ?? 0, $1) }
    for name in named where !given.contains(name) {
      let inFolder = folder.map {
        FileManager.default.fileExists(atPath: $0.appendingPathComponent(name).path)
      }
      if inFolder != true {
        throw SettingsError.unknownSeedFile(
          path: path,
          line: lines[name] ?? 1,
          file: name,
          folder: folderDisplayPath ?? folder?.path ?? "the seeds folder"
        )
      }
    }
  }
}

/// Some of a seed file's options: each one set replaces that field of the format, the others
/// are left as they are (nil: not set).
package struct SeedFormatSettings: Hashable, Sendable {
  /// `null`: unquoted fields that mean NULL.
  package var nullTokens: [String]?
  /// `delimiter`: the character between fields.
  package var delimiter: Character?
  /// `encoding`: the file's text encoding.
  package var encoding: SeedEncoding?
  /// `columns`: headers that differ from their column's name, as CSV header → column.
  package var columns: [String: String]?
  /// `reload`: a changed file of a table without a key replaces the rows it loaded before
  /// (see `SeedFileFormat.reload`); one file's setting, refused in `[seeds]`.
  package var reload: Bool?

  /// Options that set the given fields and leave the others.
  package init(
    nullTokens: [String]? = nil,
    delimiter: Character? = nil,
    encoding: SeedEncoding? = nil,
    columns: [String: String]? = nil,
    reload: Bool? = nil
  ) {
    self.reload = reload
    self.nullTokens = nullTokens
    self.delimiter = delimiter
    self.encoding = encoding
    self.columns = columns
  }

  /// `format` with the fields these options set replaced.
  package func applied(to format: SeedFileFormat) -> SeedFileFormat {
    var format = format
    if let nullTokens { format.nullTokens = nullTokens }
    if let delimiter { format.delimiter = delimiter }
    if let encoding { format.encoding = encoding }
    if let columns { format.columns = columns }
    if let reload { format.reload = reload }
    return format
  }
}
