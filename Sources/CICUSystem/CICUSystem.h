// Intentionally empty. This system-library target exists only so SwiftPM asks
// pkg-config (icu-uc) for ICU's compiler and linker flags. ICU's own headers are
// included by Sources/CICU/shim.c alone: a Swift module that imports Foundation
// must never see <unicode/*.h> (it clashes with Foundation's bundled ICU).
