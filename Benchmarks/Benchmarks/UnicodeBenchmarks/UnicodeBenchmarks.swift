import Benchmark
import BenchmarkSupport
@_spi(Benchmarks) import StreamRender

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        maxDuration: .seconds(5),
        maxIterations: 50
    )

    Benchmark("Segmentation+width ASCII-heavy 1MB (grapheme)") { benchmark in
        let input = Corpus.asciiHeavy1MB
        benchmark.startMeasurement()
        blackHole(Corpus.segmentAndMeasure(input))
    }
    Benchmark("Segmentation+width ASCII-heavy 1MB (wcwidth)") { benchmark in
        let input = Corpus.asciiHeavy1MB
        benchmark.startMeasurement()
        blackHole(Corpus.segmentAndMeasure(input, policy: .wcwidth))
    }
    Benchmark("Segmentation+width ASCII-heavy 1MB ICU only") { benchmark in
        let input = Corpus.asciiHeavy1MB
        benchmark.startMeasurement()
        blackHole(Corpus.segmentAndMeasure(input, fastPath: false))
    }
    Benchmark("Segmentation+width CJK-emoji-heavy 1MB (grapheme)") { benchmark in
        let input = Corpus.cjkEmojiHeavy1MB
        benchmark.startMeasurement()
        blackHole(Corpus.segmentAndMeasure(input))
    }
    Benchmark("Line breaks ASCII-heavy 1MB") { benchmark in
        let input = Corpus.asciiHeavy1MB
        let breaker = LineBreaker()
        benchmark.startMeasurement()
        blackHole(Corpus.lineBreaks(input, breaker: breaker))
    }
    Benchmark("Line breaks CJK-emoji-heavy 1MB") { benchmark in
        let input = Corpus.cjkEmojiHeavy1MB
        let breaker = LineBreaker()
        benchmark.startMeasurement()
        blackHole(Corpus.lineBreaks(input, breaker: breaker))
    }
}
