import Strata

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment, read one variable at a time with `getenv`. Foundation's
/// `ProcessInfo.environment` builds a dictionary of every variable first, which took a fifth of
/// the time `strata --version` takes.
struct EnvironmentVariables {
  /// The variable's value, or nil when it is not set.
  subscript(name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The variables the library reads to find the default database location (the documents
  /// folder: `HOME` and the XDG user directories).
  var forDefaultLocation: [String: String] {
    var variables: [String: String] = [:]
    for name in DatabaseLocation.documentsVariables { variables[name] = self[name] }
    return variables
  }
}
