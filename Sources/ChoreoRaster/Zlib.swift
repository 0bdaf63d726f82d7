import CZlib

/// zlib, the one place choreo calls it: PNG chunk checksums and the deflate stream of a PNG's
/// image data.
enum Zlib {
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// A zlib stream of `bytes` at `level` (1 fastest … 9 smallest).
    static func deflate(_ bytes: [UInt8], level: Int32) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { return [] }
        out.removeSubrange(Int(size)...)
        return out
    }
}
