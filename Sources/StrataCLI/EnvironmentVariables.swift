import Foundation
import Strata

/// The process's environment, as Foundation's `ProcessInfo` reads it: taken once, when a
/// command first asks for a variable, and kept for the run. `ProcessInfo.environment` builds a
/// dictionary of every variable each time it is read (about 0.3 ms the first time, with
/// `ProcessInfo` itself), so it is read at most once, and never by what reads no variable
/// (`strata --version`, help).
struct EnvironmentVariables {
  /// The variables, read on first use; shared by the copies of a context.
  private final class Storage {
    lazy var variables = ProcessInfo.processInfo.environment
  }

  private let storage = Storage()

  /// The variable's value, or nil when it is not set. (An empty value is returned as it is:
  /// each caller says what an empty one means, most often "not set".)
  subscript(name: String) -> String? {
    storage.variables[name]
  }

  /// The variables the library reads to find the default database location (the documents
  /// folder: `HOME` and the XDG user directories).
  var forDefaultLocation: [String: String] {
    var variables: [String: String] = [:]
    for name in DatabaseLocation.documentsVariables { variables[name] = self[name] }
    return variables
  }
}
