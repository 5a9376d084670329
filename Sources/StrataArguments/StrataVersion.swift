/// The version of this strata: `strata --version`, and what the build plugin's tool checks a
/// prebuilt copy of itself against (the plugin cannot import it, so it holds the same string,
/// which `PluginVersionTests` keeps equal to this one).
public let strataVersion = "0.6.0"
