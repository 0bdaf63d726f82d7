import ChoreoJSON

/// The dotLottie container (`.lottie`): a ZIP archive holding `manifest.json` and the Lottie
/// animation as `animations/ID.json`, as the dotLottie players (dotlottie-web, dotlottie-ios,
/// dotlottie-android, ThorVG) open it. The entries are stored, not deflated: the archive is
/// the Lottie file's bytes with a few headers around them, and every ZIP reader takes it.
enum DotLottie {
    /// The archive of one animation named `id`: its manifest says whether a player should loop
    /// it (a seamless repeating scene, ``LoopSpan``).
    static func archive(animation: [UInt8], id: String, loop: Bool) -> [UInt8] {
        var manifest = JSONWriter()
        manifest.value(
            .object(
                JSONObject([
                    ("version", "1"), ("generator", "choreo"), ("author", "choreo"),
                    (
                        "animations",
                        .array([
                            .object(
                                JSONObject([
                                    ("id", .string(id)), ("loop", .bool(loop)), ("autoplay", true), ("speed", 1),
                                    ("direction", 1),
                                ]))
                        ])
                    ),
                ])))
        return zip([("manifest.json", manifest.bytes), ("animations/\(id).json", animation)])
    }

    /// An animation id a dotLottie player takes (letters, digits, `-` and `_`): the scene's
    /// name with anything else as `-`, or `animation`.
    static func id(_ name: String?) -> String {
        let kept = String(
            (name ?? "").unicodeScalars.prefix(64).map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
                    ? Character(scalar) : "-"
            })
        let trimmed = kept.split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
        return trimmed.isEmpty ? "animation" : trimmed
    }

    /// A ZIP archive of stored entries (method 0), each with its CRC-32, and the central
    /// directory after them (APPNOTE 6.3: local headers, central headers, end record). The
    /// time is the DOS epoch, so that one scene's archive is the same bytes every time.
    static func zip(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func u16(_ v: Int, into bytes: inout [UInt8]) {
            bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF)]
        }
        func u32(_ v: UInt32, into bytes: inout [UInt8]) {
            bytes += [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
        }
        for entry in entries {
            let name = Array(entry.name.utf8)
            let crc = crc32(entry.bytes)
            let size = UInt32(entry.bytes.count)
            let offset = UInt32(out.count)
            // Version 2.0, no flags, stored, 1980-01-01 00:00.
            func common(into bytes: inout [UInt8]) {
                u16(20, into: &bytes)
                u16(0, into: &bytes)
                u16(0, into: &bytes)
                u16(0, into: &bytes)
                u16(0x21, into: &bytes)
                u32(crc, into: &bytes)
                u32(size, into: &bytes)
                u32(size, into: &bytes)
                u16(name.count, into: &bytes)
                u16(0, into: &bytes)
            }
            u32(0x0403_4B50, into: &out)
            common(into: &out)
            out += name
            out += entry.bytes
            u32(0x0201_4B50, into: &central)
            u16(20, into: &central)
            common(into: &central)
            u16(0, into: &central)
            u16(0, into: &central)
            u16(0, into: &central)
            u32(0, into: &central)
            u32(offset, into: &central)
            central += name
        }
        let directory = UInt32(out.count)
        out += central
        u32(0x0605_4B50, into: &out)
        u16(0, into: &out)
        u16(0, into: &out)
        u16(entries.count, into: &out)
        u16(entries.count, into: &out)
        u32(UInt32(central.count), into: &out)
        u32(directory, into: &out)
        u16(0, into: &out)
        return out
    }

    /// CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected), as ZIP checks an entry.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
