// swift-tools-version: 6.0
// The self-test of .ci/availability-check and .ci/privacy-manifest-check: code that each check
// must flag, and code that it must let through. Built by the self-tests in a scratch folder of
// their own; never a dependency of anything.
import PackageDescription

let package = Package(
  name: "availability-fixture",
  platforms: [
    .macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1),
  ],
  targets: [
    .target(name: "AvailabilityFixture"),
    .target(name: "PrivacyFixture", resources: [.copy("PrivacyInfo.xcprivacy")]),
  ]
)
