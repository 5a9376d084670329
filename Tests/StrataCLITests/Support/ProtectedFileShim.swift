import Foundation
import StrataTestSupport
import Testing

/// A library preloaded into `strata` (`LD_PRELOAD`) that refuses to open one file with `EPERM`,
/// as iOS refuses a file protected by Data Protection while the device is locked: the file's
/// metadata stays readable and its permissions allow the open, yet `open(2)` fails. The file is
/// named by `STRATA_TEST_PROTECTED_FILE` (its exact path, as strata and SQLite open it). With
/// `STRATA_TEST_PROTECTED_READS=1` the open succeeds and every read of the file fails instead,
/// as on a device that locked while the file was open.
enum ProtectedFileShim {
  static let source = """
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <stdarg.h>
    #include <stdlib.h>
    #include <string.h>

    #include <stdio.h>
    #include <sys/types.h>
    #include <unistd.h>

    static int named(const char *path) {
      const char *protected = getenv("STRATA_TEST_PROTECTED_FILE");
      return path && protected && strcmp(path, protected) == 0;
    }
    static int readsOnly(void) { return getenv("STRATA_TEST_PROTECTED_READS") != NULL; }
    static int refused(const char *path) { return !readsOnly() && named(path); }
    static int refusedRead(int fd) {
      if (!readsOnly()) return 0;
      char link[64], path[4096];
      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(link, path, sizeof path - 1);
      if (n <= 0) return 0;
      path[n] = 0;
      return named(path);
    }

    ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
      if (refusedRead(fd)) { errno = EPERM; return -1; }
      ssize_t (*real)(int, void *, size_t, off_t) = dlsym(RTLD_NEXT, "pread");
      return real(fd, buf, count, offset);
    }
    ssize_t pread64(int fd, void *buf, size_t count, off_t offset) {
      if (refusedRead(fd)) { errno = EPERM; return -1; }
      ssize_t (*real)(int, void *, size_t, off_t) = dlsym(RTLD_NEXT, "pread64");
      return real(fd, buf, count, offset);
    }
    ssize_t read(int fd, void *buf, size_t count) {
      if (refusedRead(fd)) { errno = EPERM; return -1; }
      ssize_t (*real)(int, void *, size_t) = dlsym(RTLD_NEXT, "read");
      return real(fd, buf, count);
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
    try TestExtension.sharedLibrary(
      "protected",
      from: Self.source,
      linking: ["-ldl"],
      in: folder,
      sourceLocation: sourceLocation
    )
  }

  /// The environment that runs `strata` with `file` refused: its opens, or with `readsOnly`
  /// its reads.
  static func environment(
    library: String,
    refusing file: URL,
    readsOnly: Bool = false
  ) -> [String: String] {
    var environment = ["LD_PRELOAD": library, "STRATA_TEST_PROTECTED_FILE": file.path]
    if readsOnly { environment["STRATA_TEST_PROTECTED_READS"] = "1" }
    return environment
  }
}
