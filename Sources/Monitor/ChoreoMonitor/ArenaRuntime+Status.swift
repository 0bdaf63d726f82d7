import ChoreoArena
import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoProbe
import Dispatch
import Foundation
import Synchronization

/// `GET /v1/arena`: the nodes' health and visual state, and the round, as values or a table.
extension ArenaRuntime {
    /// `GET /v1/arena`: every node's health and visual state, and the round.
    public func status(now: Double = Date().timeIntervalSince1970) -> ArenaStatus {
        let health = prober.snapshot()
        let round = currentRound
        var frame: JSONObject?
        var elapsed = 0.0
        if let round {
            elapsed = min(max(now - round.started, 0), round.duration)
            var query = SamplingQuery()
            query.times = [SceneTime.quantize(elapsed)]
            query.properties = ["opacity", "transform", "borderColor", "backgroundColor"]
            if let plan = try? RenderPlan.make(timeline: round.timeline, query: query) {
                // The frame's values, read through the typed frame API (no JSON round trip).
                var visitor = PresentationCollector(timeline: round.timeline)
                plan.frames.visit(query.times![0], cursor: plan.frames.makeCursor(), &visitor)
                frame = JSONObject(visitor.layers)
            }
        }
        let nowMs = Int64((now * 1000).rounded())
        let nodes = health.map { node in
            ArenaStatus.Node(
                health: node,
                visual: ArenaStatus.Visual(
                    state: visualState(node, round: round, at: elapsed), presentation: frame?[node.name]),
                maintenance: inMaintenance(node.name, atMs: nowMs))
        }
        let roundState = round.map { round in
            ArenaStatus.RoundState(
                id: round.id, started: round.started, running: now - round.started < round.duration,
                elapsed: SceneTime.quantize(elapsed), duration: round.duration, order: round.order,
                champion: round.champion)
        }
        return ArenaStatus(nodes: nodes, round: roundState, leader: isLeader, now: now)
    }

    /// The node's arena state: while a round runs, the last state the round gave it by now;
    /// between rounds, its live health (a champion that has gone down since shows offline; the
    /// round's result stays in `round`).
    func visualState(_ node: NodeHealth, round: Round?, at elapsed: Double) -> String {
        if let round, elapsed < round.duration,
            let last = round.states[node.name]?.last(where: { $0.time <= elapsed })
        {
            return last.state
        }
        return node.status == .down ? "offline" : "idle"
    }

    /// `GET /v1/arena/nodes/{name}`: the node's health now (the edge answers 200 while it is
    /// up, 503 otherwise, for load balancers and uptime checkers); nil for an unknown node.
    public func node(_ name: String) -> NodeHealth? {
        prober.snapshot().first { $0.name == name }
    }

    /// `GET /v1/arena?format=text`: a compact table for terminals.
    public func statusText(now: Double = Date().timeIntervalSince1970) -> String {
        let health = prober.snapshot()
        let round = currentRound
        let elapsed = round.map { min(max(now - $0.started, 0), $0.duration) } ?? 0
        func pad(_ text: String, _ width: Int) -> String {
            text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
        }
        let nameWidth = max(18, (health.map(\.name.count).max() ?? 0) + 2)
        var lines = [
            pad("NODE", nameWidth) + pad("STATUS", 10) + pad("LATENCY", 9) + pad("MEDIAN", 9) + pad("HTTP", 6)
                + pad("UPTIME", 8) + pad("STATE", 10) + "REASON"
        ]
        let nowMs = Int64((now * 1000).rounded())
        for node in health {
            let latency = node.shownLatencyMs.map { "\(Int($0.rounded())) ms" } ?? "-"
            let median = (node.status == .down ? nil : node.medianLatencyMs).map { "\(Int($0.rounded())) ms" } ?? "-"
            let uptime = node.uptimeRatio.map { String(format: "%.1f%%", $0 * 100) } ?? "-"
            lines.append(
                pad(node.name, nameWidth) + pad(node.status.rawValue, 10) + pad(latency, 9) + pad(median, 9)
                    + pad(node.lastHTTPStatus.map(String.init) ?? "-", 6) + pad(uptime, 8)
                    + pad(
                        inMaintenance(node.name, atMs: nowMs) ? "maint." : visualState(node, round: round, at: elapsed),
                        10)
                    + (node.lastReason ?? "-"))
        }
        if let round {
            let phase = now - round.started < round.duration ? "running" : "finished"
            lines.append(
                "round \(round.id) \(phase) \(String(format: "%.1f", elapsed)) s of \(String(format: "%.1f", round.duration)) s, "
                    + (round.champion.map { "champion \($0)" } ?? "no champion"))
        } else {
            lines.append("no round yet")
        }
        if store.coordination != nil {
            lines.append(isLeader ? "this replica leads: it probes" : "this replica follows the leader's probes")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A frame's values as JSON values, per layer id: what `GET /v1/arena` shows of each node.
struct PresentationCollector: FrameVisitor {
    let timeline: Timeline
    var layers: [(String, JSONValue)] = []
    private var current: [(String, JSONValue)] = []

    init(timeline: Timeline) { self.timeline = timeline }

    mutating func beginLayer(_ layer: Int) { current = [] }

    mutating func lanes(_ column: Int, _ keyPath: KeyPath, _ lanes: UnsafePointer<Double>) {
        current.append((keyPath.description, Self.json(Value(lanes: lanes, kind: keyPath.property.kind))))
    }

    mutating func value(_ column: Int, _ keyPath: KeyPath, _ value: Value) {
        current.append((keyPath.description, Self.json(value)))
    }

    mutating func transition(_ column: Int, _ state: TransitionState) {}
    mutating func particles(_ column: Int, _ particles: [Particle]) {}

    mutating func endLayer(_ layer: Int) { layers.append((timeline.layers[layer].id, .object(JSONObject(current)))) }

    /// A value in the scene format's output form.
    static func json(_ value: Value) -> JSONValue {
        func numbers(_ list: [Double]) -> JSONValue { .array(list.map { .number($0) }) }
        switch value {
        case .number(let n): return .number(n)
        case .point(let p), .size(let p): return numbers([p.x, p.y])
        case .rect(let r): return numbers([r.origin.x, r.origin.y, r.size.x, r.size.y])
        case .color(let c): return numbers([c.red, c.green, c.blue, c.alpha])
        case .transform(let m): return numbers(m.elements)
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .string(text)
        case .path(let path): return .string(path.svgPathData)
        }
    }
}
