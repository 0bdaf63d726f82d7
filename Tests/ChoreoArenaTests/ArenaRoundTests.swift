import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import Testing

/// The arena round as a scene: the order, the seed's event timeline, the champion, reduce motion.
struct ArenaRoundTests {
    static let seedNodes: [ArenaStanding] = [
        ("web-server-01", "10.0.0.11"), ("web-server-02", "10.0.0.12"), ("api-server-01", "10.0.0.21"),
        ("db-server-01", "10.0.0.31"), ("cache-server-01", "10.0.0.41"), ("gateway-server-01", "10.0.0.51"),
    ].map { ArenaStanding(name: $0.0, ip: $0.1, status: .up, latencyMs: 20) }

    static func timeline(_ standings: [ArenaStanding], _ settings: ArenaRoundSettings = ArenaRoundSettings()) throws
        -> Timeline
    {
        var writer = JSONWriter()
        writer.value(ArenaRound.scene(standings, settings: settings))
        let (scene, _) = try SceneDecoder.decode(bytes: writer.bytes)
        return try SceneRunner.run(scene)
    }

    static func times(_ timeline: Timeline, _ match: (Event.Kind) -> Bool) -> [Double] {
        timeline.events.filter { match($0.kind) }.map(\.time)
    }

    @Test func theSeedsTimeline() throws {
        let timeline = try Self.timeline(Self.seedNodes)
        for (i, node) in Self.seedNodes.enumerated() {
            let t = Double(i) * 1.2
            #expect(
                Self.times(timeline) { $0 == .stateChanged(layer: node.name, state: "fighting") }
                    == [SceneTime.quantize(t)], "\(node.name) fighting")
            #expect(
                Self.times(timeline) {
                    $0 == .animationDidStop(layer: node.name, key: "battleAnimation", finished: true)
                }
                    == [SceneTime.quantize(t + 0.6)], "\(node.name) battle stop")
            #expect(
                Self.times(timeline) { $0 == .stateChanged(layer: node.name, state: "defeated") }
                    == [SceneTime.quantize(t + 1.0)], "\(node.name) defeated")
        }
        let champion = "gateway-server-01"
        #expect(Self.times(timeline) { $0 == .stateChanged(layer: champion, state: "champion") } == [7.0])
        #expect(
            Self.times(timeline) { $0 == .animationDidStop(layer: champion, key: "championBounce", finished: true) }
                == [7.8])
        #expect(Self.times(timeline) { $0 == .layerAdded(layer: "confetti") } == [7.0])
        #expect(Self.times(timeline) { $0 == .layerRemoved(layer: "confetti") } == [9.0])
        // The group clips its children (seed 000's own pitfall), and the confetti does not linger.
        #expect(timeline.diagnostics.filter { $0.code == .groupClipped }.count == 12)
        #expect(!timeline.diagnostics.contains { $0.code == .emitterNotRemoved })
        // The crown has dropped in and the champion stands at full size.
        let crown = timeline.layerIndex["\(champion)/crown"]!
        let maps = timeline.timeMaps(at: 9, shape: timeline.shape(at: 9))
        #expect(
            timeline.presentationValue(layer: crown, keyPath: KeyPath("opacity")!, at: 9, map: maps[crown])
                == .number(1))
        let node = timeline.layerIndex[champion]!
        #expect(
            timeline.presentationValue(layer: node, keyPath: KeyPath("transform.scale.x")!, at: 9, map: maps[node])
                == .number(1))
    }

    @Test func theWeakestFightsFirstAndTheHealthiestIsCrowned() {
        let standings = [
            ArenaStanding(name: "a", status: .up, latencyMs: 30), ArenaStanding(name: "b", status: .down),
            ArenaStanding(name: "c", status: .degraded, latencyMs: 500),
            ArenaStanding(name: "d", status: .up, latencyMs: 80),
            ArenaStanding(name: "e", status: .up, latencyMs: 30), ArenaStanding(name: "f", status: .pending),
        ]
        #expect(ArenaRound.order(standings).map(\.name) == ["b", "f", "c", "d", "a", "e"])
        #expect(ArenaRound.champion(standings)?.name == "e")
    }

    /// A node that fails one probe in three (67 % up) does not beat one at 100 % by being
    /// 0.2 ms faster: uptime comes before latency.
    @Test func uptimeComesBeforeLatency() {
        let standings = [
            ArenaStanding(name: "steady", status: .up, latencyMs: 1.4, uptime: 1),
            ArenaStanding(name: "flaky", status: .up, latencyMs: 1.2, uptime: 2.0 / 3),
        ]
        #expect(ArenaRound.order(standings).map(\.name) == ["flaky", "steady"])
        #expect(ArenaRound.champion(standings)?.name == "steady")
        // At equal uptime, the faster wins.
        let even = standings.map { ArenaStanding(name: $0.name, status: .up, latencyMs: $0.latencyMs, uptime: 0.9) }
        #expect(ArenaRound.champion(even)?.name == "flaky")
    }

    /// The standing a node's probes give: uptime over its last 100 probes (an old failure
    /// forgotten), the median and 90th percentile of its last 100 answers (one slow answer does
    /// not decide); and the percentile breaks a tie of medians.
    @Test func standingsScoreAWindow() {
        let probe = ArenaConfiguration.Probe()
        func node(_ name: String, _ latencies: [Double?]) -> NodeHealth {
            var health = NodeHealth(name: name, ip: "", url: "http://x/")
            for (index, latency) in latencies.enumerated() {
                let verdict = latency == nil ? ProbeVerdict(.failed, "timeout") : ProbeVerdict(.up)
                health.record(
                    verdict, ProbeResult(status: latency == nil ? 0 : 200, latencyMs: latency ?? 0), at: Double(index),
                    probe: probe)
            }
            return health
        }
        // Failed once, 150 probes ago: a perfect window.
        let recovered = node("recovered", [nil] + Array(repeating: 10, count: 150))
        #expect(recovered.standing.uptime == 1 && recovered.uptimeRatio! < 1)
        // Always answers at 10 ms but the newest answer took 80 ms: its median stays 10.
        let spike = node("spike", Array(repeating: 10, count: 99) + [80])
        #expect(spike.standing.latencyMs == 10 && spike.standing.latencyP90Ms == 10)
        // Same median, a slower tail: loses to the steady one.
        let tail = node("tail", Array(repeating: 10, count: 80) + Array(repeating: 40, count: 20))
        #expect(tail.standing.latencyMs == 10 && tail.standing.latencyP90Ms! > 10)
        // spike and recovered tie (uptime 1, 10 ms, 10 ms): the configured order decides.
        #expect(
            ArenaRound.order([tail.standing, spike.standing, recovered.standing]).map(\.name)
                == ["tail", "spike", "recovered"])
        #expect(ArenaRound.order([spike.standing, tail.standing]).map(\.name) == ["tail", "spike"])
    }

    @Test func noNodeUpNoChampion() throws {
        let standings = [ArenaStanding(name: "x", status: .down), ArenaStanding(name: "y", status: .degraded)]
        #expect(ArenaRound.champion(standings) == nil)
        let timeline = try Self.timeline(standings)
        #expect(!timeline.events.contains { if case .stateChanged(_, "champion") = $0.kind { true } else { false } })
        #expect(timeline.events.contains { $0.kind == .marker(name: "no champion: no node is up") })
        // Down nodes start grey (offline) and still take their turn first.
        #expect(Self.times(timeline) { $0 == .stateChanged(layer: "x", state: "fighting") } == [0])
    }

    @Test func reduceMotionOnlyFadesAndChangesState() throws {
        let timeline = try Self.timeline(Self.seedNodes, ArenaRoundSettings(reduceMotion: true))
        #expect(!timeline.animations.contains { $0.key == "battleAnimation" || $0.key == "championBounce" })
        #expect(!timeline.events.contains { $0.kind == .layerAdded(layer: "confetti") })
        #expect(Self.times(timeline) { $0 == .stateChanged(layer: "gateway-server-01", state: "champion") } == [7.0])
        #expect(timeline.animations.allSatisfy { $0.typeName == "transition" })
    }

    @Test func standingsAreValidated() {
        let document: JSONValue = [
            "standings": [
                ["name": "arena", "status": "up"], ["name": "a", "status": "sleepy", "latencyMs": -1],
                ["name": "a", "status": "up", "extra": 1],
            ],
            "round": ["stagger": 0],
        ]
        do {
            _ = try StandingsDecoder.decode(document)
            Issue.record("accepted")
        } catch {
            let paths = error.errors.map(\.path)
            for expected in [
                "$.standings[0].name", "$.standings[1].status", "$.standings[1].latencyMs", "$.standings[2].name",
                "$.standings[2].extra", "$.round.stagger",
            ] {
                #expect(paths.contains(expected), "\(expected) in \(paths)")
            }
        }
    }

    /// A control character in a node's name is refused (a NUL cut `db\0x` to `db` in storage,
    /// writing its probes into another node's history), in standings and configurations alike.
    @Test func controlCharactersInNamesAreRefused() throws {
        for name in ["db\u{0}x", "tab\there", "del\u{7F}", "c1\u{85}"] {
            let standings: JSONValue = ["standings": [["name": .string(name), "status": "up"]]]
            #expect(throws: ValidationFailure.self) { try StandingsDecoder.decode(standings) }
            let configuration: JSONValue = [
                "nodes": [["name": .string(name), "url": "http://127.0.0.1:9/health", "ip": "10.0.0.1"]]
            ]
            do {
                _ = try ArenaConfigurationCodec.decode(configuration)
                Issue.record("\(name.debugDescription) accepted")
            } catch {
                #expect(error.errors.contains { $0.path == "$.nodes[0].name" && $0.message.contains("control") })
            }
        }
        #expect(StandingsDecoder.controlCharacter(in: "db\u{0}x") == "U+0000")
        #expect(StandingsDecoder.controlCharacter(in: "ünïcode ok 👑") == nil)
    }
}
