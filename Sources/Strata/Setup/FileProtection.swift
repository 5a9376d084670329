import Foundation

/// The Data Protection class a setup gives the database's folder and the template's copy, so
/// that the database, its journal and everything SQLite creates beside it are encrypted as the
/// app needs (on Apple platforms; elsewhere there is no such thing and it changes nothing).
///
/// iOS's default for an app's files is `completeUntilFirstUserAuthentication`, which lets a
/// background launch read the database once the device was unlocked after a restart. With
/// `complete`, the database cannot be opened or read while the device is locked: an app that
/// works in the background (a download, a notification, a widget's refresh) then meets
/// `DatabaseOpenError.protectedDataUnavailable` and must wait for the device to be unlocked.
public enum FileProtection: String, Hashable, Sendable, CaseIterable {
  /// Readable only while the device is unlocked.
  case complete
  /// A file open when the device locks stays readable; a new one can still be created (SQLite
  /// creates its journal) but not opened again until the device is unlocked.
  case completeUnlessOpen
  /// Readable once the device was unlocked after it started (iOS's default for app files).
  case completeUntilFirstUserAuthentication
  /// Always readable (Apple's `FileProtectionType.none`; named apart from `Optional.none`, which
  /// `fileProtection = .none` would otherwise mean).
  case unprotected

  /// Gives the file or folder at `url` this class, unless it has it already or its volume has
  /// no Data Protection (a Mac's external disk, Linux): then nothing is written. A folder's
  /// class becomes that of every file created in it afterwards.
  ///
  /// - Throws: the system's error (`CocoaError`) when the class cannot be set.
  func apply(to url: URL) throws {
    #if canImport(Darwin)
    let volume = try? url.resourceValues(forKeys: [.volumeSupportsFileProtectionKey])
    if volume?.volumeSupportsFileProtection == false { return }
    let manager = FileManager.default
    let current = try? manager.attributesOfItem(atPath: url.path)[.protectionKey]
    if let current = current as? FileProtectionType, current == fileProtectionType { return }
    try manager.setAttributes([.protectionKey: fileProtectionType], ofItemAtPath: url.path)
    #endif
  }

  #if canImport(Darwin)
  private var fileProtectionType: FileProtectionType {
    switch self {
    case .complete: .complete
    case .completeUnlessOpen: .completeUnlessOpen
    case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
    case .unprotected: .none
    }
  }
  #endif
}
