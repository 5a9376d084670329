import Foundation
import StrataTestSupport
import Testing

/// A tiny SQLite extension built with gcc for a test: `half(x)` through the default entry
/// point (`sqlite3_half_init`, which SQLite derives from the file name `half.so`), and
/// `quarter(x)` through a second entry point, `strata_quarter_init`.
enum TestExtension {
  static let gcc = "/usr/bin/gcc"

  static let source = """
    #include <sqlite3ext.h>
    SQLITE_EXTENSION_INIT1
    static void half(sqlite3_context *c, int n, sqlite3_value **v) {
      sqlite3_result_double(c, sqlite3_value_double(v[0]) / 2);
    }
    static void quarter(sqlite3_context *c, int n, sqlite3_value **v) {
      sqlite3_result_double(c, sqlite3_value_double(v[0]) / 4);
    }
    int sqlite3_half_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
      SQLITE_EXTENSION_INIT2(api);
      return sqlite3_create_function(db, "half", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, 0,
                                     half, 0, 0);
    }
    int strata_quarter_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
      SQLITE_EXTENSION_INIT2(api);
      return sqlite3_create_function(db, "quarter", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, 0,
                                     quarter, 0, 0);
    }
    """

  /// Compiles the extension into `folder/half.so` and returns its path.
  static func build(
    in folder: TemporaryDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    try sharedLibrary("half", from: Self.source, in: folder, sourceLocation: sourceLocation)
  }

  /// Compiles C `source` with gcc into `folder/NAME.so` (linking `libraries`) and returns its
  /// path; a failed compile is the test's failure.
  static func sharedLibrary(
    _ name: String,
    from source: String,
    linking libraries: [String] = [],
    in folder: TemporaryDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let file = try folder.write("\(name).c", source)
    let library = folder.path("\(name).so")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gcc)
    process.arguments = ["-shared", "-fPIC", "-o", library.path, file.path] + libraries
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "gcc failed", sourceLocation: sourceLocation)
    return library.path
  }
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only where gcc and SQLite's extension header are installed.
  static var canBuildExtensions: Self {
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: TestExtension.gcc)
        && FileManager.default.fileExists(atPath: "/usr/include/sqlite3ext.h"),
      "no gcc or no sqlite3ext.h"
    )
  }
}
