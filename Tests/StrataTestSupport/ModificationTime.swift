#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs `write`, then puts the file's access and modification times back to the nanosecond, as
/// `touch -r` or an archive would: only its change time (which no user can set) still says it
/// was written. Foundation's `setAttributes` keeps microseconds, so a test of the change time
/// through it would also pass on the nanoseconds it lost.
public func keepingModificationTime(ofFileAt path: String, _ write: () throws -> Void) throws {
  var before = stat()
  guard stat(path, &before) == 0 else { throw POSIXTimeError(path: path) }
  try write()
  #if canImport(Darwin)
  var times = [before.st_atimespec, before.st_mtimespec]
  #else
  var times = [before.st_atim, before.st_mtim]
  #endif
  guard utimensat(AT_FDCWD, path, &times, 0) == 0 else { throw POSIXTimeError(path: path) }
}

public struct POSIXTimeError: Error {
  public let path: String
}
