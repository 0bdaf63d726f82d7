import CZlib

/// zlib, the one place choreo calls it: PNG chunk checksums and the deflate stream of a PNG's
/// image data.
enum Zlib {
    static func crc(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    /// A zlib stream of `bytes`: level 1 with the run-length strategy (`Z_RLE`).
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, 1, Z_DEFLATED, 15, 8, Z_RLE, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return [] }
        defer { deflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return [] }
        out.removeSubrange(Int(stream.total_out)...)
        return out
    }
}
