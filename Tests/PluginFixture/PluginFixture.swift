import Foundation

/// A target as an app has it: `migrations/` bundled with `.copy`, and `template.sqlite3`
/// built from them by strata's build plugin at build time.
public enum PluginFixture {
  /// The target's resource bundle: the migrations folder and the built template.
  public static var bundle: Bundle { .module }
}
