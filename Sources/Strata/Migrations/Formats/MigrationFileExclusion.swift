#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which files of a migrations folder a run leaves out on purpose, and which files it refuses
/// to skip silently.
///
/// A file that carries a version (`00005_seed.go`, `0006_backfill.py`, `7_x.sql.gz`) but is not
/// SQL strata can run is a step of the folder's own tool (goose runs Go migrations compiled into
/// the app, other tools run scripts): skipping it would leave the database without that step,
/// so it is an error unless a pattern excludes it. Files without a version (`README.md`,
/// `atlas.sum`, `.keep`) are not migrations and are ignored, as before.
package struct MigrationFileExclusion: Sendable, Hashable {
  /// The patterns: `*` matches any run of characters, `?` one character, anything else itself.
  package let patterns: [String]

  /// Leave out the files whose name (or folder-and-name, as messages show it) matches one of
  /// `patterns`, such as `*.go`, `00005_*` or `00005_seed.go`.
  package init(_ patterns: [String] = []) { self.patterns = patterns }

  /// True when a pattern matches the file's name, or its path as messages show it.
  func excludes(name: String, shown: String) -> Bool {
    patterns.contains {
      Self.matches($0, name) || Self.matches($0, shown)
    }
  }

  /// True when `name` carries a migration version (leading digits, then `_` or `.`, with an
  /// extension after) but is not a `.sql` file: what strata must not skip silently.
  package static func isUnrunnableMigration(_ name: String) -> Bool {
    guard !MigrationParser.isSQLName(name) else { return false }
    let digits = name.prefix { $0.isASCII && $0.isNumber }
    let rest = name.dropFirst(digits.count)
    guard !digits.isEmpty, let separator = rest.first, separator == "_" || separator == "." else {
      return false
    }
    guard let dot = rest.lastIndex(of: "."), rest.index(after: dot) != rest.endIndex else {
      return false
    }
    return true
  }

  /// Glob matching of `*` and `?`, by `fnmatch(3)`. No `FNM_PATHNAME` and no `FNM_PERIOD`: a
  /// `*` or `?` matches a `/` and a leading `.` too, so `*.go` matches `migrations/5_a.go` as
  /// messages show it. `FNM_NOESCAPE`, and each `[` written as the class `[[]`: a backslash and
  /// a bracket are themselves, as patterns have no escapes and no character classes. Run under
  /// a UTF-8 locale on this thread only (`uselocale`), so that `?` is one character of a
  /// non-ASCII name rather than one of its bytes.
  package static func matches(_ pattern: String, _ text: String) -> Bool {
    // A C string ends at NUL: a pattern holding one would match on its first part alone.
    guard !pattern.utf8.contains(0), !text.utf8.contains(0) else { return false }
    let literal =
      pattern.contains("[")
      ? pattern.split(separator: "[", omittingEmptySubsequences: false).joined(separator: "[[]")
      : pattern
    var previous: locale_t?
    if let utf8Locale { previous = uselocale(utf8Locale) }
    defer { if let previous { uselocale(previous) } }
    return fnmatch(literal, text, FNM_NOESCAPE) == 0
  }
}

/// A UTF-8 `LC_CTYPE` locale, made once, that `matches` makes current on its own thread for
/// the one call (the process's locale is the app's and stays untouched); nil where the system
/// has none, and then `?` matches one byte of a non-ASCII name.
private nonisolated(unsafe) let utf8Locale: locale_t? =
  newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) ?? newlocale(LC_CTYPE_MASK, "UTF-8", nil)
