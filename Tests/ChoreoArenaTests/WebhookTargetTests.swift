import ChoreoArena
import ChoreoFormat
import ChoreoJSON
import Testing

/// Where a webhook may point: control characters, link-local and other never-allowed
/// addresses however they are written, loopback by default, private ranges on opt-in.
struct WebhookTargetTests {
    static func problem(_ url: String, allowPrivate: Bool = false) -> String? {
        WebhookTarget.urlProblem(url, allowPrivate: allowPrivate)
    }

    @Test func controlCharactersAreRefusedAnywhere() {
        for url in [
            "http://127.0.0.1:9000/hook\r\nX-Injected: 1", "http://127.0.0.1:9000/ho\nok", "http://127.0.0.1/\thook",
            "http://127.0.0.1/\u{0}", "http://127.0.0.1/\u{7F}", "http://example.com\r/", "http://exa\u{1B}mple.com/",
        ] {
            #expect(Self.problem(url)?.contains("control character") == true, "\(url.debugDescription)")
        }
        #expect(Self.problem("http://127.0.0.1:9000/hook%0D%0A") == nil)
    }

    @Test func linkLocalIsRefusedHoweverWritten() {
        for url in [
            "http://169.254.169.254/latest/meta-data/", "http://169.254.0.1:80/", "http://[fe80::1]/",
            "http://[FE80::1]:8080/", "http://[febf::1]/", "http://[::ffff:169.254.169.254]/",
            "http://[::ffff:a9fe:a9fe]/", "http://[::169.254.169.254]/", "http://[64:ff9b::a9fe:a9fe]/",
            "http://2852039166/", "http://0xA9FEA9FE/", "http://0xa9fea9fe/", "http://0251.0376.0251.0376/",
            "http://169.254.43518/", "http://0xa9.0xfe.0xa9.0xfe/", "http://169.16689662/", "http://169.254.169.254./",
            "http://user:pass@169.254.169.254/", "HTTP://169.254.169.254/",
        ] {
            let problem = Self.problem(url, allowPrivate: true)
            #expect(problem?.contains("link-local") == true, "\(url): \(problem ?? "allowed")")
        }
        #expect(Self.problem("http://[fe80::1%25eth0]/", allowPrivate: true)?.contains("zone") == true)
    }

    @Test func unspecifiedBroadcastMulticastAreRefused() {
        for url in [
            "http://0.0.0.0:9000/", "http://0/", "http://[::]/", "http://255.255.255.255/", "http://0xffffffff/",
            "http://224.0.0.1/", "http://[ff02::1]/", "http://[::ffff:0.0.0.0]/", "http://240.0.0.1/",
        ] {
            #expect(Self.problem(url, allowPrivate: true)?.contains("never allowed") == true, "\(url)")
        }
    }

    @Test func loopbackAndPublicAreAllowedPrivateNeedsTheOptIn() {
        for url in [
            "http://127.0.0.1:9000/hook", "http://localhost:9000/", "http://[::1]:9000/", "http://127.1/",
            "http://2130706433/", "http://[::ffff:127.0.0.1]/", "https://hooks.example.com/choreo",
            "https://ntfy.sh/alerts", "http://8.8.8.8/", "http://[2001:db8::1]/", "http://1e100.net/",
        ] {
            #expect(Self.problem(url) == nil, "\(url): \(Self.problem(url) ?? "")")
        }
        for url in [
            "http://10.0.0.5/", "http://172.16.0.1/", "http://172.31.255.255/", "http://192.168.1.10:8080/",
            "http://100.64.0.1/", "http://[fd00::1]/", "http://[fc00::1]/", "http://[::ffff:10.1.2.3]/",
            "http://0x0a000001/", "http://012.0.0.1/",
        ] {
            #expect(Self.problem(url)?.contains("allowPrivateTargets") == true, "\(url)")
            #expect(Self.problem(url, allowPrivate: true) == nil, "\(url)")
        }
        #expect(Self.problem("http://172.32.0.1/") == nil && Self.problem("http://192.169.0.1/") == nil)
    }

    @Test func malformedHostsAreRefused() {
        for url in [
            "ftp://example.com/", "http://", "http:///path", "http://[fe80::1/", "http://256.1.1.1/",
            "http://1.2.3.4.5/",
            "http://08.1.2.3/", "http://a@b@169.254.169.254/", "http://evil\\@169.254.169.254/", "http://host:99999/",
            "http://host:x/", "http://ex ample.com/", "http://[1::2::3]/", "http://[12345::]/",
        ] {
            #expect(Self.problem(url, allowPrivate: true) != nil, "\(url)")
        }
    }

    @Test func addressesParseAsTheCLibraryReadsThem() {
        #expect(WebhookTarget.ipv4("2852039166") == [169, 254, 169, 254])
        #expect(WebhookTarget.ipv4("0xA9FEA9FE".lowercased()[...]) == [169, 254, 169, 254])
        #expect(WebhookTarget.ipv4("0251.0376.0251.0376") == [169, 254, 169, 254])
        #expect(WebhookTarget.ipv4("127.1") == [127, 0, 0, 1])
        #expect(WebhookTarget.ipv4("1.2.65535") == [1, 2, 255, 255])
        #expect(WebhookTarget.ipv4("1.2.65536") == nil && WebhookTarget.ipv4("4294967296") == nil)
        #expect(WebhookTarget.ipv6("::1") == Array(repeating: 0, count: 15) + [1])
        #expect(WebhookTarget.ipv6("::ffff:1.2.3.4") == Array(repeating: 0, count: 10) + [255, 255, 1, 2, 3, 4])
        #expect(WebhookTarget.ipv6("1:2:3:4:5:6:7:8")?.count == 16 && WebhookTarget.ipv6("1:2:3:4:5:6:7") == nil)
        // The socket's bytes at delivery: the same classes.
        #expect(WebhookTarget.classify([169, 254, 169, 254]) == .linkLocal)
        #expect(WebhookTarget.classify([0xFE, 0x80] + Array(repeating: 0, count: 13) + [1]) == .linkLocal)
        #expect(WebhookTarget.classify(Array(repeating: 0, count: 10) + [255, 255, 169, 254, 169, 254]) == .linkLocal)
        #expect(
            WebhookTarget.classify([127, 0, 0, 1]) == .loopback
                && WebhookTarget.classify([10, 0, 0, 1]) == .privateRange)
        #expect(WebhookTarget.refusal(.loopback, address: [127, 0, 0, 1], allowPrivate: false) == nil)
        #expect(WebhookTarget.refusal(.linkLocal, address: [169, 254, 169, 254], allowPrivate: true) != nil)
    }

    @Test func theChannelFieldIsReadAndWritten() throws {
        func decode(_ text: String) throws -> ([FieldError], AlertConfiguration) {
            var errors: [FieldError] = []
            let alerts = AlertConfigurationCodec.decode(
                try JSONParser.parse(Array(text.utf8)), path: "$", names: [], errors: &errors)
            return (errors, alerts)
        }
        let (refused, _) = try decode(#"{"channels": [{"name": "lan", "url": "http://192.168.1.10/hook"}]}"#)
        #expect(refused.map(\.path) == ["$.channels[0].url"])
        let (none, allowed) = try decode(
            #"{"channels": [{"name": "lan", "url": "http://192.168.1.10/hook", "allowPrivateTargets": true}]}"#)
        #expect(none.isEmpty && allowed.channels.first?.allowPrivateTargets == true)
        var again: [FieldError] = []
        #expect(
            AlertConfigurationCodec.decode(
                AlertConfigurationCodec.encode(allowed), path: "$", names: [], errors: &again)
                == allowed && again.isEmpty)
        let (metadata, _) = try decode(
            #"{"channels": [{"name": "m", "url": "http://169.254.169.254/", "allowPrivateTargets": true}]}"#)
        #expect(metadata.first?.message.contains("link-local") == true)
        let (flag, _) = try decode(#"{"channels": [{"name": "m", "url": "http://x/", "allowPrivateTargets": 1}]}"#)
        #expect(flag.map(\.path) == ["$.channels[0].allowPrivateTargets"])
    }
}
