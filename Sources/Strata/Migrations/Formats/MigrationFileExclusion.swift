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

  /// Glob matching of `*` and `?` over characters (grapheme clusters), by backtracking over
  /// the last `*`: `*` matches any run, `?` exactly one character, anything else itself (no
  /// classes, no escapes). `*` and `?` match a `/` and a leading dot too, so `*.go` matches
  /// `migrations/5_a.go` as messages show it. Not `fnmatch(3)`: glibc's (2.36) lets a `?`
  /// match one byte of a multibyte character even under a UTF-8 locale, so `1_??.go` would
  /// exclude `1_é.go` (docs/decisions.md, "Issue 32: display, the plugin's tool…").
  package static func matches(_ pattern: String, _ text: String) -> Bool {
    let (pattern, text) = (Array(pattern), Array(text))
    var (p, t) = (0, 0)
    var star: (p: Int, t: Int)?
    while t < text.count {
      if p < pattern.count, pattern[p] == "*" {
        star = (p, t)
        p += 1
      } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if let last = star {
        p = last.p + 1
        t = last.t + 1
        star = (last.p, last.t + 1)
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
