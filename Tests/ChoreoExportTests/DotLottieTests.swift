import ChoreoEngine
import ChoreoExport
import ChoreoFormat
import Foundation
import Testing

/// The dotLottie container: a ZIP of `manifest.json` and the Lottie file, read back entry by
/// entry from its central directory as a ZIP reader does.
@Suite struct DotLottieTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("examples")

    /// The stored entries of a ZIP archive by name, each checked against its CRC-32.
    static func entries(_ bytes: [UInt8]) throws -> [String: [UInt8]] {
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        let end = try #require(
            (0...(bytes.count - 22)).reversed().first { u32($0) == 0x0605_4B50 }, "no end of central directory")
        var at = u32(end + 16)
        var found: [String: [UInt8]] = [:]
        for _ in 0..<u16(end + 10) {
            #expect(u32(at) == 0x0201_4B50)
            #expect(u16(at + 10) == 0, "stored")
            let crc = UInt32(u32(at + 16))
            let size = u32(at + 20)
            let nameLength = u16(at + 28)
            let name = String(decoding: bytes[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            let local = u32(at + 42)
            #expect(u32(local) == 0x0403_4B50)
            let start = local + 30 + u16(local + 26) + u16(local + 28)
            let data = Array(bytes[start..<(start + size)])
            #expect(crc32(data) == crc, "\(name)'s CRC-32")
            found[name] = data
            at += 46 + nameLength + u16(at + 30) + u16(at + 32)
        }
        return found
    }

    /// CRC-32 as zlib computes it, written apart from the exporter's.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    @Test func theContainerHoldsTheManifestAndTheLottieFile() throws {
        #expect(Self.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        let bytes = try Array(Data(contentsOf: Self.examples.appendingPathComponent("three-ball-loader.json")))
        let timeline = try SceneRunner.run(try SceneDecoder.decode(bytes: bytes).scene)
        let options = ExportOptions(format: .dotlottie, fps: 30)
        let archive = try Exporter.export(timeline, options: options, name: "three-ball loader")
        #expect(archive.contentType == "application/zip")
        let entries = try Self.entries(archive.bytes)
        #expect(Set(entries.keys) == ["manifest.json", "animations/three-ball-loader.json"])
        let manifestBytes = try #require(entries["manifest.json"])
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(manifestBytes)) as? [String: Any])
        let animations = try #require(manifest["animations"] as? [[String: Any]])
        #expect(manifest["version"] as? String == "1")
        #expect(animations.count == 1 && animations[0]["id"] as? String == "three-ball-loader")
        // The loader repeats from 0 with a period of 1.4 s: seamless, so looped.
        #expect(animations[0]["loop"] as? Bool == true)
        #expect(archive.report.loop?.seamless == true)
        // The animation is the Lottie export's file, but for its report's format.
        let lottie = try Exporter.export(
            timeline, options: ExportOptions(format: .lottie, fps: 30), name: "three-ball loader")
        let inner = String(decoding: try #require(entries["animations/three-ball-loader.json"]), as: UTF8.self)
        let expected = String(decoding: lottie.bytes, as: UTF8.self)
            .replacingOccurrences(of: "\"format\":\"lottie\"", with: "\"format\":\"dotlottie\"")
        #expect(inner == expected)
        // Its last frame is the period's end: 1.4 s at 30 fps.
        let document = try #require(try JSONSerialization.jsonObject(with: Data(lottie.bytes)) as? [String: Any])
        #expect(document["op"] as? Double == 42)
    }
}
