import CZlib
import Dispatch
import Foundation
import Synchronization

/// zlib, the one place choreo calls it: PNG chunk checksums and the deflate stream of a PNG's
/// image data.
enum Zlib {
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// A zlib stream of `parts` joined in order, each deflated on its own (in parallel) at level
    /// 1 with the run-length strategy (`Z_RLE`): every part but the last ends on a byte
    /// boundary (`Z_SYNC_FLUSH`), so the raw streams concatenate into one, as pigz does; the
    /// checksum is combined from the parts'. The bytes depend only on the parts, not on the
    /// threads.
    static func deflate(_ parts: [[UInt8]], level: Int32 = 1, strategy: Int32 = Z_RLE) -> [UInt8] {
        let results = Results(count: parts.count)
        DispatchQueue.concurrentPerform(iterations: parts.count) { index in
            let deflated = raw(parts[index], last: index == parts.count - 1, level: level, strategy: strategy)
            let checksum = parts[index].withUnsafeBufferPointer {
                adler32(1, $0.baseAddress, uInt($0.count))
            }
            results.store((deflated, checksum, parts[index].count), at: index)
        }
        var out: [UInt8] = [0x78, 0x01]
        var checksum: uLong = 1
        for (bytes, adler, length) in results.values {
            out += bytes
            checksum = adler32_combine(checksum, adler, off_t(length))
        }
        let value = UInt32(truncatingIfNeeded: checksum)
        out += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        return out
    }

    /// One part as raw deflate data (no header or checksum).
    private static func raw(_ bytes: [UInt8], last: Bool, level: Int32, strategy: Int32) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, -15, 8, strategy, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.deflate(&stream, last ? Z_FINISH : Z_SYNC_FLUSH)
            }
        }
        guard status == (last ? Z_STREAM_END : Z_OK) else { return [] }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }

    /// The parts' results, each stored once by the thread that made it.
    private final class Results: Sendable {
        private let slots: Mutex<[([UInt8], uLong, Int)?]>
        init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
        func store(_ value: ([UInt8], uLong, Int), at index: Int) { slots.withLock { $0[index] = value } }
        var values: [([UInt8], uLong, Int)] { slots.withLock { $0.map { $0! } } }
    }
}
