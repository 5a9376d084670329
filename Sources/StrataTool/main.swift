// Foundation is imported for its link: in a static release build (docs/decisions.md, "A
// release build of the CLI is static"), `main`'s import names the static libraries Foundation
// needs (CoreFoundation, ICU).
import Foundation
import StrataCLI

// The `strata` product.
CommandLineTool.main()
