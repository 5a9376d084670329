import Foundation
import StrataTestSupport
import Testing

/// A library preloaded into `strata` (`LD_PRELOAD`) that refuses to open one file with `EPERM`,
/// as iOS refuses a file protected by Data Protection while the device is locked: the file's
/// metadata stays readable and its permissions allow the open, yet `open(2)` fails. The file is
/// named by `STRATA_TEST_PROTECTED_FILE` (its exact path, as strata and SQLite open it).
enum ProtectedFileShim {
  static let source = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <stdarg.h>
    #include <stdlib.h>
    #include <string.h>

    static int refused(const char *path) {
      const char *protected = getenv("STRATA_TEST_PROTECTED_FILE");
      return path && protected && strcmp(path, protected) == 0;
    }

    #define SHIM(name, ...) \\
      typedef int (*name##_fn)(__VA_ARGS__); \\
      static name##_fn real_##name;

    #define MODE(flags) \\
      mode_t mode = 0; \\
      if (flags & (O_CREAT | O_TMPFILE)) { va_list a; va_start(a, flags); \\
        mode = va_arg(a, mode_t); va_end(a); }

    int open(const char *path, int flags, ...) {
      MODE(flags)
      if (refused(path)) { errno = EPERM; return -1; }
      int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open");
      return real(path, flags, mode);
    }
    int open64(const char *path, int flags, ...) {
      MODE(flags)
      if (refused(path)) { errno = EPERM; return -1; }
      int (*real)(const char *, int, ...) = dlsym(RTLD_NEXT, "open64");
      return real(path, flags, mode);
    }
    int openat(int dir, const char *path, int flags, ...) {
      MODE(flags)
      if (refused(path)) { errno = EPERM; return -1; }
      int (*real)(int, const char *, int, ...) = dlsym(RTLD_NEXT, "openat");
      return real(dir, path, flags, mode);
    }
    int openat64(int dir, const char *path, int flags, ...) {
      MODE(flags)
      if (refused(path)) { errno = EPERM; return -1; }
      int (*real)(int, const char *, int, ...) = dlsym(RTLD_NEXT, "openat64");
      return real(dir, path, flags, mode);
    }
    """

  /// Compiles the shim into `folder/protected.so` and returns its path.
  static func build(
    in folder: TemporaryDirectory,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let source = try folder.write("protected.c", Self.source)
    let library = folder.path("protected.so")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: TestExtension.gcc)
    process.arguments = ["-shared", "-fPIC", "-o", library.path, source.path, "-ldl"]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "gcc failed", sourceLocation: sourceLocation)
    return library.path
  }

  /// The environment that runs `strata` with `file` refused.
  static func environment(library: String, refusing file: URL) -> [String: String] {
    ["LD_PRELOAD": library, "STRATA_TEST_PROTECTED_FILE": file.path]
  }
}
