/// Where an alert channel's webhook may point (docs/security.md, "Webhook targets"): checked on
/// the URL when a configuration is read, and on every address libcurl connects to when a
/// delivery is sent (a host name that resolves to a refused address is refused there).
///
/// * Never: a URL holding a control character (U+0000…U+001F, U+007F), and addresses that are
///   link-local (169.254.0.0/16, fe80::/10: the cloud metadata service lives there),
///   unspecified (0.0.0.0/8, `::`), multicast (224.0.0.0/4, ff00::/8) or reserved
///   (240.0.0.0/4, the broadcast 255.255.255.255 included).
/// * By default: public addresses and loopback (127.0.0.0/8, `::1`, `localhost`).
/// * With the channel's `allowPrivateTargets`: also private ranges (10.0.0.0/8,
///   172.16.0.0/12, 192.168.0.0/16, the shared 100.64.0.0/10, fc00::/7, the old site-local
///   fec0::/10).
///
/// IPv4 written as libcurl and the C library would read it (`2852039166`, `0xA9FEA9FE`,
/// `0251.0376.0251.0376`, `169.254.43518`) and IPv4 inside IPv6 (`::ffff:169.254.169.254`,
/// `::169.254.169.254`, NAT64's `64:ff9b::a9fe:a9fe`) are judged by the IPv4 address they
/// name.
public enum WebhookTarget {
    /// What kind of address a target is.
    public enum AddressClass: String, Sendable, Equatable {
        case publicAddress = "public"
        case loopback
        case privateRange = "private"
        case linkLocal = "link-local"
        case unspecified
        case multicast
        case reserved
    }

    /// The longest URL a channel may have, bytes.
    public static let maxURLBytes = 2_000

    /// Why `url` may not be a channel's webhook, or nil when it may: an `http` or `https` URL
    /// with a host, no control character anywhere, and a literal address (if it has one) the
    /// policy allows (`allowPrivate` adds the private ranges).
    public static func urlProblem(_ url: String, allowPrivate: Bool) -> String? {
        let bytes = Array(url.utf8)
        guard bytes.count <= maxURLBytes else { return "must be at most \(maxURLBytes) bytes" }
        if let index = bytes.firstIndex(where: { $0 < 0x20 || $0 == 0x7F }) {
            let byte = bytes[index]
            let hex = String(byte, radix: 16, uppercase: true)
            return
                "must not contain a control character (U+\(String(repeating: "0", count: 4 - hex.count))\(hex) at byte \(index)): encode it, as %0D%0A"
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else { return "must be an http or https URL" }
        let rest = lower.drop(while: { $0 != "/" }).dropFirst(2)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("\\") { return "must not contain a backslash before its path" }
        let at = authority.split(separator: "@", omittingEmptySubsequences: false)
        guard at.count <= 2 else { return "must have at most one @ before its host (user information, then host)" }
        let hostAndPort = at.last ?? ""
        let host: Substring
        var port: Substring = ""
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return "must close its IPv6 address with ]" }
            host = hostAndPort[hostAndPort.index(after: hostAndPort.startIndex)..<close]
            let after = hostAndPort[hostAndPort.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "must have only a port after its IPv6 address" }
                port = after.dropFirst()
            }
        } else {
            let parts = hostAndPort.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            port = parts.count > 1 ? parts[1] : ""
        }
        if host.isEmpty { return "must name a host" }
        if !port.isEmpty {
            guard port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let number = Int(port),
                (1...65_535).contains(number)
            else { return "must have a port from 1 to 65535" }
        }
        let address: [UInt8]
        if hostAndPort.hasPrefix("[") {
            if host.contains("%") { return "must not name an IPv6 zone (%): a zone is a link's, and links are refused" }
            guard let parsed = ipv6(host) else { return "must hold a valid IPv6 address in [ ]" }
            address = parsed
        } else {
            let allowed = host.utf8.allSatisfy {
                $0 >= 0x80 || $0 == 45 || $0 == 46 || $0 == 95 || (48...57).contains($0) || (97...122).contains($0)
            }
            guard allowed else { return "must name a host: letters, digits, -, _ and ., or an IP address" }
            let name = host.hasSuffix(".") ? host.dropLast() : host
            if name == "localhost" || name.hasSuffix(".localhost") { return nil }
            guard looksNumeric(name) else { return nil }
            guard let parsed = ipv4(name) else { return "must name a host: \(host) is not a valid IPv4 address" }
            address = parsed
        }
        return refusal(classify(address), address: address, allowPrivate: allowPrivate)
    }

    /// Why an address of the class `kind` may not be delivered to, or nil when it may.
    public static func refusal(_ kind: AddressClass, address: [UInt8], allowPrivate: Bool) -> String? {
        let text = describe(address)
        switch kind {
        case .publicAddress, .loopback: return nil
        case .privateRange:
            return allowPrivate
                ? nil
                : "targets \(text), a private address: set \"allowPrivateTargets\": true on the channel to allow private ranges"
        case .linkLocal:
            return "targets \(text), a link-local address (169.254.0.0/16, fe80::/10), which is never allowed"
        case .unspecified: return "targets \(text), an unspecified address (0.0.0.0/8, ::), which is never allowed"
        case .multicast: return "targets \(text), a multicast address, which is never allowed"
        case .reserved:
            return "targets \(text), a reserved or broadcast address (240.0.0.0/4), which is never allowed"
        }
    }

    /// The class of an IPv4 (4 bytes) or IPv6 (16 bytes) address; IPv4 inside IPv6 (mapped,
    /// compatible, NAT64) is its IPv4 address's.
    public static func classify(_ address: [UInt8]) -> AddressClass {
        if address.count == 4 { return classifyIPv4(address) }
        guard address.count == 16 else { return .reserved }
        let head = Array(address[0..<12])
        if head == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] { return classifyIPv4(Array(address[12...])) }
        if head.allSatisfy({ $0 == 0 }) {
            let tail = Array(address[12...])
            if tail == [0, 0, 0, 0] { return .unspecified }
            if tail == [0, 0, 0, 1] { return .loopback }
            return classifyIPv4(tail)
        }
        if head == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return classifyIPv4(Array(address[12...])) }
        if address[0] == 0xFE && address[1] & 0xC0 == 0x80 { return .linkLocal }
        if address[0] == 0xFE && address[1] & 0xC0 == 0xC0 { return .privateRange }
        if address[0] & 0xFE == 0xFC { return .privateRange }
        if address[0] == 0xFF { return .multicast }
        return .publicAddress
    }

    static func classifyIPv4(_ a: [UInt8]) -> AddressClass {
        switch (a[0], a[1]) {
        case (0, _): .unspecified
        case (127, _): .loopback
        case (169, 254): .linkLocal
        case (10, _), (172, 16...31), (192, 168), (100, 64...127): .privateRange
        case (224...239, _): .multicast
        case (240...255, _): .reserved
        default: .publicAddress
        }
    }

    /// An address as people write it: dotted IPv4, or IPv6 groups in hex.
    public static func describe(_ address: [UInt8]) -> String {
        if address.count == 4 { return address.map { String($0) }.joined(separator: ".") }
        guard address.count == 16 else { return "an address" }
        return stride(from: 0, to: 16, by: 2).map {
            String(UInt16(address[$0]) << 8 | UInt16(address[$0 + 1]), radix: 16)
        }
        .joined(separator: ":")
    }

    /// Whether a host is meant as an IPv4 address: its last label is a number (decimal, or
    /// hex with `0x`), as the URL standard decides; then it must parse as one.
    static func looksNumeric(_ host: Substring) -> Bool {
        let last = host.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        guard let first = last.utf8.first, (48...57).contains(first) else { return false }
        if last.hasPrefix("0x") { return last.utf8.dropFirst(2).allSatisfy { hexValue($0) != nil } }
        return last.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// IPv4 as `inet_aton` and libcurl read it: one to four parts, each decimal, hex (`0x`) or
    /// octal (a leading `0`); the last part fills the bytes left (`127.1`, `2852039166`).
    public static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var values: [UInt64] = []
        for part in parts {
            var digits = part
            var radix: UInt64 = 10
            if digits.hasPrefix("0x") {
                radix = 16
                digits = digits.dropFirst(2)
            } else if digits.count > 1 && digits.hasPrefix("0") {
                radix = 8
                digits = digits.dropFirst()
            }
            guard !digits.isEmpty, digits.count <= 32 else { return nil }
            var value: UInt64 = 0
            for byte in digits.utf8 {
                guard let digit = hexValue(byte), UInt64(digit) < radix else { return nil }
                value = value * radix + UInt64(digit)
                guard value <= 0xFFFF_FFFF else { return nil }
            }
            values.append(value)
        }
        let last = values.removeLast()
        guard values.allSatisfy({ $0 <= 255 }), last < UInt64(1) << (8 * UInt64(4 - values.count)) else { return nil }
        var address = values.map { UInt8($0) }
        for index in stride(from: 3 - values.count, through: 0, by: -1) {
            address.append(UInt8((last >> (8 * UInt64(index))) & 0xFF))
        }
        return address
    }

    /// An ASCII hex digit's value.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }

    /// An IPv6 address (RFC 4291 §2.2: hex groups, one `::`, an IPv4 tail) as 16 bytes.
    public static func ipv6(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        func groups(_ part: Substring, ipv4Tail: Bool) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if ipv4Tail && index == pieces.count - 1 && piece.contains(".") {
                    let dotted = piece.split(separator: ".", omittingEmptySubsequences: false)
                    guard dotted.count == 4 else { return nil }
                    var bytes: [UInt16] = []
                    for byte in dotted {
                        guard !byte.isEmpty, byte.utf8.count <= 3, byte.utf8.allSatisfy({ (48...57).contains($0) }),
                            let value = UInt16(byte), value <= 255
                        else { return nil }
                        bytes.append(value)
                    }
                    result += [bytes[0] << 8 | bytes[1], bytes[2] << 8 | bytes[3]]
                } else {
                    guard !piece.isEmpty, piece.utf8.count <= 4, piece.utf8.allSatisfy({ hexValue($0) != nil }),
                        let value = UInt16(piece, radix: 16)
                    else { return nil }
                    result.append(value)
                }
            }
            return result
        }
        let gaps = text.ranges(of: "::")
        let words: [UInt16]
        switch gaps.count {
        case 0:
            guard let all = groups(text, ipv4Tail: true), all.count == 8 else { return nil }
            words = all
        case 1:
            guard let front = groups(text[..<gaps[0].lowerBound], ipv4Tail: false),
                let back = groups(text[gaps[0].upperBound...], ipv4Tail: true), front.count + back.count <= 7
            else { return nil }
            words = front + Array(repeating: 0, count: 8 - front.count - back.count) + back
        default: return nil
        }
        return words.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    }
}
