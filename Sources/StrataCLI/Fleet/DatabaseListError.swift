import Strata
import StrataArguments
import StrataDqlite

/// What is wrong with `--databases`: nothing is opened or changed.
package enum DatabaseListError: StrataError {
  case noMatch(pattern: String)
  case unreadableList(path: String)
  /// An argument without `*` or `?` names a file that belongs to another database.
  case namedSidecar(path: String, reason: String)
  /// A line of a list names a file that belongs to another database.
  case listedSidecar(list: String, line: Int, path: String, reason: String)
  /// Every file a pattern matches belongs to another database (shown paths, reasons).
  case onlySidecars(pattern: String, files: [(path: String, reason: String)])
  /// A dqlite cluster's address, as an argument (`line` nil) or a list's line.
  case cluster(address: String, list: String?, line: Int?)

  package var message: String {
    switch self {
    case .noMatch(let pattern):
      "no file matches --databases \(quotedArgument(pattern)); nothing was opened"
    case .unreadableList(let path):
      "cannot read the database list \(quotedArgument(path)); nothing was opened"
    case .namedSidecar(let path, let reason):
      "--databases \(quotedArgument(path)) is \(reason), not a database; nothing was opened"
    case .listedSidecar(let list, let line, let path, let reason):
      "\(list):\(line): \(quotedArgument(path)) is \(reason), not a database; nothing was opened"
    case .onlySidecars(let pattern, let files):
      "--databases \(quotedArgument(pattern)) matches only files that belong to other "
        + "databases: \(files.map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")); "
        + "nothing was opened"
    case .cluster(let address, let list, let line):
      (list.map { "\($0):\(line ?? 0): " } ?? "--databases ")
        + "\(quotedArgument(address)) is a dqlite cluster's database; --databases runs over "
        + "database files only; nothing was opened"
    }
  }

  package var help: String {
    switch self {
    case .noMatch:
      "Quote the pattern so that strata expands it: * and ? match within a folder name, ** "
        + "any number of folders, and hidden names only a pattern part starting with a dot."
    case .cluster:
      "Run the command with --database for the cluster, and --databases for the files."
    case .unreadableList:
      "Give @FILE as a readable text file with one database path per line."
    case .namedSidecar, .listedSidecar:
      "Name the database itself. SQLite keeps a -journal, -wal and -shm file beside a "
        + "database, and strata its backups and damaged copies: a database made in one would "
        + "be read back into its own database, so strata never takes one for a database."
    case .onlySidecars:
      "Match the databases themselves (such as 'tenants/*.sqlite3'): a pattern leaves out "
        + "-journal, -wal and -shm files, strata's backups and damaged copies."
    }
  }
}
