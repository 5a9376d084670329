import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's modification time, by `stat`: a required-reason API (file timestamps), which
/// PrivacyInfo.xcprivacy must declare.
public func modificationSeconds(_ path: String) -> Int? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  #if canImport(Darwin)
  return Int(info.st_mtimespec.tv_sec)
  #else
  return Int(info.st_mtim.tv_sec)
  #endif
}

/// Seconds since boot: only Apple platforms compile the call (system boot time, found by text),
/// and only Linux the `statvfs` (disk space, which Apple never runs, so not declared).
public func uptimeOrFreeBlocks() -> Double {
  #if canImport(Darwin)
  return ProcessInfo.processInfo.systemUptime
  #else
  var info = statvfs()
  guard statvfs("/", &info) == 0 else { return 0 }
  return Double(info.f_bfree)
  #endif
}
