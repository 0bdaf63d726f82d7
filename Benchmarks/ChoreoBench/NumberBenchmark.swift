import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoTestSupport
import Foundation

/// `choreo-bench --numbers`: how fast choreo writes numbers, against the floors it could have.
///
/// The same 10 million doubles, written one after another with a comma after each into a
/// growing byte buffer, one core, best of three, CPU time:
/// - choreo's writer (`JSONWriter.number`: ``ShortestDecimal``'s digits laid out as
///   `description` lays them out), and the same at `precision=9`;
/// - the standard library's formatter as choreo used it before (`Double.write(to:)` into a text
///   stream that appends its ASCII), and `description` (a String per number, appended);
/// - the C library's `snprintf("%.17g")` and `snprintf("%.9g")`, from a C program
///   (Benchmarks/numbers/printf.c) given the same doubles.
/// choreo's bytes, the formatter's and `description`'s are compared: they must be the same
/// (the values are not integers, which choreo writes bare and `description` with `.0`). The
/// `%.17g` text is longer (17 digits for every number); its bytes are reported beside.
///
/// Then the JSON encoder: the frames of the rlottie workload (1,000 layers × 600 frames,
/// position, opacity and `transform.scale`: sampling and writing) encoded on one thread, in
/// bytes per second, against `memcpy` of the same bytes (wall time for both, best of runs).
enum NumberBenchmark {
    static let count = 10_000_000

    /// Values like the ones a render writes: positions in points with fractions, eased values
    /// between 0 and 1, and a spread of magnitudes from 10^-6 to 10^6; none an integer.
    static func values() -> [Double] {
        var generator = SplitMix64(seed: 0xD1_6175)
        var values: [Double] = []
        values.reserveCapacity(count)
        while values.count < count {
            let unit = Double(generator.next() >> 11) / Double(1 << 53)
            let value: Double
            switch generator.next() % 3 {
            case 0: value = unit * 400
            case 1: value = unit
            default: value = unit * pow(10, Double(Int(generator.next() % 13) - 6))
            }
            if value != value.rounded() { values.append(generator.next() & 1 == 0 ? value : -value) }
        }
        return values
    }

    static func run() throws -> [(String, String)] {
        let values = values()
        var outputs: [String: [UInt8]] = [:]
        var buffer = [UInt8](repeating: 0, count: count * 26)
        func measure(_ name: String, _ write: (inout [UInt8]) -> Void) throws -> Double {
            var fastest = Double.infinity
            for _ in 0..<3 {
                // A buffer whose pages are touched already, as the C driver's are.
                var bytes = buffer
                buffer = []
                bytes.removeAll(keepingCapacity: true)
                let seconds = try RlottieBenchmark.cpuSeconds { write(&bytes) }
                fastest = min(fastest, seconds)
                outputs[name] = bytes.withUnsafeBufferPointer { Array($0) }
                buffer = bytes
            }
            return fastest
        }
        let choreo = try measure("choreo") { bytes in
            var writer = JSONWriter(capacity: 0)
            swap(&writer.bytes, &bytes)
            for value in values {
                writer.number(value)
                writer.byte(UInt8(ascii: ","))
            }
            swap(&writer.bytes, &bytes)
        }
        let choreo9 = try measure("choreo9") { bytes in
            var writer = JSONWriter(capacity: 0)
            swap(&writer.bytes, &bytes)
            writer.significantDigits = 9
            for value in values {
                writer.number(value)
                writer.byte(UInt8(ascii: ","))
            }
            swap(&writer.bytes, &bytes)
        }
        let formatter = try measure("formatter") { bytes in
            var sink = ASCIISink(bytes: [])
            swap(&sink.bytes, &bytes)
            for value in values {
                value.write(to: &sink)
                sink.bytes.append(UInt8(ascii: ","))
            }
            swap(&sink.bytes, &bytes)
        }
        let description = try measure("description") { bytes in
            for value in values {
                bytes.append(contentsOf: value.description.utf8)
                bytes.append(UInt8(ascii: ","))
            }
        }
        // The C library's, from C (a Swift call through `withVaList` boxes its argument and
        // would double the figure): Benchmarks/numbers/printf.c built with `cc -O2`.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "choreo-bench-numbers-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let driver = try RlottieBenchmark.buildDriver("numbers/printf.c", into: directory)
        let valuesFile = directory.appendingPathComponent("values.bin")
        try values.withUnsafeBytes { try Data($0).write(to: valuesFile) }
        func printf(_ format: String) throws -> (seconds: Double, bytes: Int) {
            let run = try RlottieBenchmark.shell(driver, [valuesFile.path, format])
            guard run.status == 0, let seconds = RlottieBenchmark.number(run.output, "seconds"),
                let bytes = RlottieBenchmark.number(run.output, "bytes")
            else { throw BenchError("the printf driver failed: \(run.output)") }
            return (seconds, Int(bytes))
        }
        let printf17 = try printf("%.17g")
        let printf9 = try printf("%.9g")
        guard outputs["choreo"] == outputs["formatter"], outputs["choreo"] == outputs["description"] else {
            throw BenchError("choreo's digits differ from the standard library's")
        }

        // The JSON encoder on one thread, against memcpy of its bytes.
        let (scene, _) = try SceneDecoder.decode(bytes: Array(RlottieBenchmark.scene.utf8))
        let query = try SamplingQuery.parse(
            RlottieBenchmark.query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts[1]))
            })
        let plan = try RenderPlan.make(scene: scene, query: query)
        var encoded: [UInt8] = []
        // Wall time on one thread for both (a copy of 60 MB is shorter than the CPU clock's tick).
        let encoder = RlottieBenchmark.best(3) {
            encoded = ResponseEncoder.jsonFrames(plan, range: 0..<plan.times.count, threads: 1)
        }
        var copy = [UInt8](repeating: 0, count: encoded.count)
        let memcpyBest = RlottieBenchmark.best(5) {
            copy.withUnsafeMutableBytes { target in
                encoded.withUnsafeBytes { source in _ = memcpy(target.baseAddress!, source.baseAddress!, source.count) }
            }
        }
        guard copy == encoded else { throw BenchError("the copy differs") }

        func nanoseconds(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1e9 / Double(count)) }
        func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f", a / b) }
        return [
            ("numbers", "\(count)"),
            ("choreo_shortest_ns_per_number", nanoseconds(choreo)),
            ("stdlib_formatter_ns_per_number", nanoseconds(formatter)),
            ("swift_description_ns_per_number", nanoseconds(description)),
            ("printf_17g_ns_per_number", nanoseconds(printf17.seconds)),
            ("choreo_precision_9_ns_per_number", nanoseconds(choreo9)),
            ("printf_9g_ns_per_number", nanoseconds(printf9.seconds)),
            ("choreo_over_stdlib_formatter", ratio(formatter, choreo)),
            ("choreo_over_swift_description", ratio(description, choreo)),
            ("choreo_over_printf_17g", ratio(printf17.seconds, choreo)),
            ("choreo_precision_9_over_printf_9g", ratio(printf9.seconds, choreo9)),
            ("choreo_bytes", "\(outputs["choreo"]?.count ?? 0)"),
            ("printf_17g_bytes", "\(printf17.bytes)"),
            ("choreo_precision_9_bytes", "\(outputs["choreo9"]?.count ?? 0)"),
            ("printf_9g_bytes", "\(printf9.bytes)"),
            ("same_bytes_as_description", "true"),
            ("json_encoder_bytes", "\(encoded.count)"),
            ("json_encoder_mb_per_second", String(format: "%.1f", Double(encoded.count) / encoder / 1e6)),
            ("memcpy_mb_per_second", String(format: "%.1f", Double(encoded.count) / max(memcpyBest, 1e-6) / 1e6)),
            ("json_encoder_over_memcpy", String(format: "%.4f", memcpyBest / encoder)),
        ]
    }

    /// The text stream choreo gave the standard library's formatter before it had its own
    /// digits: each number's ASCII appended to the buffer.
    struct ASCIISink: TextOutputStream {
        var bytes: [UInt8]

        mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
    }
}
