import Foundation
import Testing

extension Tag {
    /// Suites that take tens of seconds of CPU in a debug build (thousands of chunkings,
    /// whole corpora): the full tier runs them, the fast tier skips them.
    @Tag static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Skipped in the fast tier: `STREAMRENDER_FAST=1 swift test --skip EndToEndTests`
    /// runs everything else in under a minute (`swift test` runs all of it).
    static var fullTierOnly: Self {
        .enabled(if: ProcessInfo.processInfo.environment["STREAMRENDER_FAST"] == nil,
                 "slow: skipped in the fast tier (STREAMRENDER_FAST is set)")
    }
}
