// The declaration is all this target provides: see include/LibFuzzerDriver.h.
