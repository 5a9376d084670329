// Foundation is imported for its link: see Package.swift.
import Foundation
import StrataCLI

// The `strata` product: linked statically in a Linux release build (Package.swift).
CommandLineTool.main()
