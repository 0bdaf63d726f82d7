import ChoreoJSON

/// A round of the server arena as a scene for choreo's own engine (seed 000): nodes are
/// challenged one by one, the weakest first, and the healthiest is crowned.
///
/// The scene reproduces the seed's code: node layers whose ids are the node names with the
/// states `idle`, `fighting`, `defeated`, `champion` (and `offline`, grey, for nodes down from
/// the start); each battle is the `battleAnimation` group inside a transaction whose
/// completion removes the animations and runs the 0.4 s defeat block, whose completion sets
/// `defeated`; node *i* starts `stagger × i` seconds in; the champion is reset, set
/// `champion`, bounced under `championBounce`, crowned with a spring, and celebrated by a
/// `confetti` emitter layer removed 2 s later.
public enum ArenaRound {
    /// Weakest first: down, then pending, then degraded, then up from the slowest; ties keep
    /// the configured order. The last is the healthiest.
    public static func order(_ standings: [ArenaStanding]) -> [ArenaStanding] {
        func rank(_ status: ArenaStanding.Status) -> Int {
            switch status {
            case .down: 0
            case .pending: 1
            case .degraded: 2
            case .up: 3
            }
        }
        return standings.enumerated().sorted { a, b in
            let (ra, rb) = (rank(a.element.status), rank(b.element.status))
            if ra != rb { return ra < rb }
            if a.element.status == .up {
                // Up nodes: the lower uptime over the window first, then the slower median, then
                // the slower 90th percentile (a node that fails one probe in three does not beat
                // one that never fails by being a little faster).
                let (ua, ub) = (a.element.uptime ?? 1, b.element.uptime ?? 1)
                if ua != ub { return ua < ub }
                let (la, lb) = (a.element.latencyMs ?? 0, b.element.latencyMs ?? 0)
                if la != lb { return la > lb }
                let (pa, pb) = (a.element.latencyP90Ms ?? 0, b.element.latencyP90Ms ?? 0)
                if pa != pb { return pa > pb }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The champion: the healthiest node, if it is up.
    public static func champion(_ standings: [ArenaStanding]) -> ArenaStanding? {
        guard let last = order(standings).last, last.status == .up else { return nil }
        return last
    }

    // The seed's layout: cards of 110 × 70 in rows of three, 20 apart, from y = 160.
    static let stageWidth = 430.0
    static let card = (width: 110.0, height: 70.0, gap: 20.0, top: 160.0)

    static func frame(_ index: Int) -> (x: Double, y: Double) {
        let total = card.width * 3 + card.gap * 2
        let left = (stageWidth - total) / 2
        return (
            left + Double(index % 3) * (card.width + card.gap), card.top + Double(index / 3) * (card.height + card.gap)
        )
    }

    // The seed's UIKit system colours.
    static let green = "#34C759"
    static let red = "#FF3B30"
    static let pink = "#FF2D55"
    static let gray = "#8E8E93"
    static let gray6 = "#F2F2F7"
    static let orange = "#FF9500"
    static let yellow = "#FFCC00"
    static let white = "#FFFFFF"

    /// The round's scene. Nodes appear in the configured order; they fight in ``order(_:)``.
    public static func scene(_ standings: [ArenaStanding], settings: ArenaRoundSettings = ArenaRoundSettings())
        -> JSONValue
    {
        let fighters = order(standings)
        let champion = champion(standings)
        var nodes: [JSONValue] = []
        for (index, standing) in standings.enumerated() {
            nodes.append(nodeLayer(standing, at: frame(index)))
        }
        let rows = (standings.count + 2) / 3
        let height = card.top + Double(rows) * (card.height + card.gap) + 100
        var entries: [JSONValue] = []
        for (index, node) in fighters.enumerated() {
            let isLast = index == fighters.count - 1
            let crowned = isLast && champion != nil
            entries.append(
                [
                    "at": .number(Double(index) * settings.stagger),
                    "do": .array(
                        battle(node, crowned: crowned, settings: settings, position: position(of: node, in: standings))),
                ])
        }
        if champion == nil {
            let end = Double(max(fighters.count - 1, 0)) * settings.stagger + 1
            entries.append(["at": .number(end), "do": [["mark": "no champion: no node is up"]]])
        }
        let title = champion.map { "arena round: \($0.name) is champion" } ?? "arena round: no champion"
        return [
            "name": .string(title),
            "layers": [
                [
                    "id": "arena", "frame": [0, 0, .number(stageWidth), .number(height)],
                    "sublayers": .array(nodes),
                ]
            ],
            "script": .array(entries),
        ]
    }

    static func position(of standing: ArenaStanding, in standings: [ArenaStanding]) -> (x: Double, y: Double) {
        let index = standings.firstIndex { $0.name == standing.name } ?? 0
        let origin = frame(index)
        return (origin.x + card.width / 2, origin.y + card.height / 2)
    }

    static func nodeLayer(_ standing: ArenaStanding, at origin: (x: Double, y: Double)) -> JSONValue {
        let offline = standing.status == .down
        let name = standing.name
        return [
            "id": .string(name),
            "frame": [.number(origin.x), .number(origin.y), .number(card.width), .number(card.height)],
            "cornerRadius": 12, "borderWidth": 2,
            "borderColor": .string(offline ? gray : green), "backgroundColor": .string(offline ? gray6 : white),
            "opacity": offline ? 0.6 : 1,
            "states": [
                "idle": ["borderColor": .string(green), "backgroundColor": .string(white)],
                "fighting": ["borderColor": .string(red), "backgroundColor": .string(pink)],
                "defeated": ["borderColor": .string(gray), "backgroundColor": .string(gray6)],
                "champion": ["borderColor": .string(orange), "backgroundColor": .string(yellow)],
                "offline": ["borderColor": .string(gray), "backgroundColor": .string(gray6), "opacity": 0.6],
            ],
            "sublayers": [
                [
                    "id": .string("\(name)/name"), "type": "text", "frame": [0, 10, .number(card.width), 20],
                    "string": .string(name), "fontSize": 14, "alignmentMode": "center", "foregroundColor": "#000000",
                ],
                [
                    "id": .string("\(name)/ip"), "type": "text", "frame": [0, 32, .number(card.width), 16],
                    "string": .string(standing.ip), "fontSize": 11, "alignmentMode": "center",
                    "foregroundColor": .string(gray),
                ],
                [
                    "id": .string("\(name)/crown"), "type": "text",
                    "frame": [.number(card.width / 2 - 20), -22, 40, 30], "string": "\u{1F451}", "fontSize": 24,
                    "alignmentMode": "center", "opacity": 0,
                ],
            ],
        ]
    }

    /// One node's battle, its defeat, and for the champion its crowning.
    static func battle(
        _ node: ArenaStanding, crowned: Bool, settings: ArenaRoundSettings, position: (x: Double, y: Double)
    ) -> [JSONValue] {
        let name = JSONValue.string(node.name)
        let defeated: [JSONValue] =
            [["setState": [node.name: "defeated"]]]
            + (crowned ? crowning(node, settings: settings, position: position) : [])
        if settings.reduceMotion {
            // State changes and cross-fades only.
            return [
                ["setState": [node.name: "fighting"]],
                [
                    "after": 0.6,
                    "do": [
                        [
                            "transition": [
                                "layer": name, "duration": 0.4, "options": ["transitionCrossDissolve"],
                                "changes": [node.node: ["opacity": 0.3]], "completion": .array(defeated),
                            ]
                        ]
                    ],
                ],
            ]
        }
        let group: JSONValue = [
            "type": "group", "key": "battleAnimation", "duration": 0.6, "timingFunction": "easeInEaseOut",
            "fillMode": "forwards", "removedOnCompletion": false,
            "animations": [
                [
                    "type": "basic", "keyPath": "transform.scale", "fromValue": 1, "toValue": 1.15, "duration": 0.2,
                    "autoreverses": true, "repeatCount": 2,
                ],
                [
                    "type": "basic", "keyPath": "transform.rotation.z", "fromValue": -0.08, "toValue": 0.08,
                    "duration": 0.1, "autoreverses": true, "repeatCount": 6,
                ],
            ],
        ]
        return [
            ["setState": [node.name: "fighting"], "animated": true, "duration": 0.25],
            [
                "transaction": [
                    "name": .string("battle \(node.name)"),
                    "do": [["add": group, "layer": name]],
                    "completion": [
                        ["removeAll": name],
                        [
                            "animate": [
                                "name": .string("defeat \(node.name)"), "duration": 0.4,
                                "changes": [node.node: ["transform": ["scale": [0.1, 0.1, 1]], "opacity": 0.3]],
                                "completion": .array(defeated),
                            ]
                        ],
                    ],
                ]
            ],
        ]
    }

    /// The seed's `playChampionAnimationForNode:`.
    static func crowning(_ node: ArenaStanding, settings: ArenaRoundSettings, position: (x: Double, y: Double))
        -> [JSONValue]
    {
        let name = JSONValue.string(node.name)
        let crown = "\(node.name)/crown"
        if settings.reduceMotion {
            return [
                ["set": [node.node: ["transform": "identity", "opacity": 1]]],
                ["setState": [node.name: "champion"]],
                [
                    "transition": [
                        "layer": .string(crown), "duration": 0.25, "options": ["transitionCrossDissolve"],
                        "changes": [crown: ["opacity": 1]],
                    ]
                ],
                ["mark": .string("champion \(node.name)")],
            ]
        }
        return [
            ["removeAll": name],
            ["set": [node.node: ["transform": "identity", "opacity": 1]]],
            ["setState": [node.name: "champion"], "animated": true, "duration": 0.25],
            ["set": [crown: ["opacity": 0, "transform": ["translate": [0, -20]]]]],
            [
                "animate": [
                    "name": "crown", "duration": 0.5, "spring": ["dampingRatio": 0.5, "initialVelocity": 0.8],
                    "changes": [crown: ["opacity": 1, "transform": "identity"]],
                ]
            ],
            [
                "add": [
                    "type": "keyframe", "key": "championBounce", "keyPath": "transform.scale",
                    "values": [1, 1.3, 0.95, 1.15, 1], "keyTimes": [0, 0.25, 0.5, 0.75, 1], "duration": 0.8,
                    "removedOnCompletion": false, "fillMode": "forwards",
                ],
                "layer": name,
            ],
            [
                "addLayer": [
                    "id": "confetti", "type": "emitter", "emitterPosition": [.number(position.x), .number(position.y)],
                    "emitterShape": "point", "emitterSize": [4, 4], "seed": 0,
                    "emitterCells": [
                        [
                            "name": "confetti", "birthRate": 30, "lifetime": 2, "velocity": 80, "velocityRange": 30,
                            "emissionRange": .number(2 * Double.pi), "scale": 0.08, "scaleRange": 0.04,
                            "color": .string(orange), "contents": [16, 16],
                        ]
                    ],
                ],
                "parent": "arena",
            ],
            ["mark": .string("champion \(node.name)")],
            ["after": 2, "do": [["removeLayer": "confetti"]]],
        ]
    }
}

extension ArenaStanding {
    /// The node's name as a JSON object key.
    var node: String { name }
}
