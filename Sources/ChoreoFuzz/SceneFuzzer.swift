import ChoreoEngine
import ChoreoFormat
import ChoreoJSON
import ChoreoRaster

/// A structure-aware scene fuzzer: seeded mutations of example scenes (numbers pushed to their
/// extremes, members dropped or grafted from elsewhere, arrays grown and shrunk, values of the
/// wrong kind, names taken from other scenes), each run in process through the decoder, the
/// runner and the sampler. The same seed gives the same mutants.
///
/// A crash kills the process that runs it; the caller writes each mutant somewhere before
/// running it, so the one that crashed is left there to become a regression scene.
package struct SceneFuzzer {
    /// What one mutant came to.
    package enum Verdict: Sendable, Equatable {
        /// Refused with field errors: not JSON, not a scene, or over a limit.
        case rejected
        /// Run and sampled.
        case rendered
    }

    private let corpus: [JSONValue]
    /// Member names and strings seen in the corpus: what a mutant renames things to.
    private let names: [String]
    private var state: UInt64

    /// Numbers a mutant puts in place of another: edges of every range choreo checks.
    static let extremes: [Double] = [
        0, -0.0, -1, 1, 0.5, 1.0 / 3, 1e-12, Double.leastNonzeroMagnitude, 1e-300, 2, 7, 59.999, 100, 3599.999, 3600,
        3601, 1e6,
        9_007_199_254_740_994, 1e19, 1e300, -1e300, 1.7976931348623157e308, -3600, 360, 10_000, 100_001,
    ]

    package init(corpus: [JSONValue], seed: UInt64) {
        self.corpus = corpus
        state = seed
        var names: Set<String> = []
        func harvest(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for (key, member) in object.members {
                    names.insert(key)
                    harvest(member)
                }
            case .array(let items): items.forEach(harvest)
            case .string(let text) where text.utf8.count <= 40: names.insert(text)
            default: break
            }
        }
        corpus.forEach(harvest)
        self.names = names.sorted()
    }

    /// SplitMix64: the next 64 random bits.
    private mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// The next mutant: a corpus scene with one to four mutations.
    package mutating func mutant() -> JSONValue {
        var document = corpus[below(corpus.count)]
        for _ in 0...below(4) {
            let target = below(Self.nodeCount(document))
            var counter = 0
            document = mutate(document, target: target, counter: &counter)
        }
        return document
    }

    /// The mutant's bytes (the document as a client would send it).
    package static func bytes(_ document: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.value(document)
        return writer.bytes
    }

    static func nodeCount(_ value: JSONValue) -> Int {
        switch value {
        case .object(let object): 1 + object.members.reduce(0) { $0 + nodeCount($1.value) }
        case .array(let items): 1 + items.reduce(0) { $0 + nodeCount($1) }
        default: 1
        }
    }

    /// Rebuilds `value`, mutating the node whose preorder index is `target`.
    private mutating func mutate(_ value: JSONValue, target: Int, counter: inout Int) -> JSONValue {
        let index = counter
        counter += 1
        if index == target { return mutateNode(value) }
        switch value {
        case .object(let object):
            var result = JSONObject()
            for (key, member) in object.members {
                result[key] = mutate(member, target: target, counter: &counter)
            }
            return .object(result)
        case .array(let items):
            return .array(items.map { mutate($0, target: target, counter: &counter) })
        default:
            return value
        }
    }

    /// A graft: some subtree of some corpus scene.
    private mutating func graft() -> JSONValue {
        var node = corpus[below(corpus.count)]
        for _ in 0..<below(6) {
            switch node {
            case .object(let object) where object.count > 0: node = object.members[below(object.count)].value
            case .array(let items) where !items.isEmpty: node = items[below(items.count)]
            default: return node
            }
        }
        return node
    }

    private mutating func mutateNode(_ value: JSONValue) -> JSONValue {
        switch (value, below(8)) {
        case (.number, 0...3): return .number(Self.extremes[below(Self.extremes.count)])
        case (.number(let n), 4): return .number(n * Double(below(2000) - 1000))
        case (.object(var object), 0...2) where object.count > 0:
            object[object.keys[below(object.count)]] = nil
            return .object(object)
        case (.object(var object), 3...4):
            object[names[below(names.count)]] = graft()
            return .object(object)
        case (.array(var items), 0...2) where !items.isEmpty:
            let item = items[below(items.count)]
            for _ in 0..<(1 + below(3)) { items.insert(item, at: below(items.count + 1)) }
            return .array(items)
        case (.array(var items), 3) where !items.isEmpty:
            items.remove(at: below(items.count))
            return .array(items)
        case (.string, 0...3): return .string(names[below(names.count)])
        default:
            switch below(6) {
            case 0: return .null
            case 1: return .bool(below(2) == 0)
            case 2: return .string(names[below(names.count)])
            case 3: return .number(Self.extremes[below(Self.extremes.count)])
            case 4: return .array([graft()])
            default: return graft()
            }
        }
    }

    /// Runs a mutant as `POST /v1/render?times=…` would: decode, run, sample four times, encode;
    /// then draws one frame as `format=png` would, scaled to at most 96 pixels a side.
    package static func execute(_ bytes: [UInt8]) -> Verdict {
        let scene: Scene
        do {
            scene = try SceneDecoder.decode(bytes: bytes).scene
        } catch {
            return .rejected
        }
        var query = SamplingQuery()
        query.times = [0, 0.25, 1, 2.5]
        do {
            let plan = try RenderPlan.make(scene: scene, query: query)
            _ = ResponseEncoder.json(plan, threads: 1)
            if plan.timeline.layers.count <= 200 {
                let natural = FrameRenderer(timeline: plan.timeline)
                let side = max(natural.size.x, natural.size.y, 1)
                let renderer = FrameRenderer(timeline: plan.timeline, scale: min(1, 96 / side))
                _ = renderer.draw(at: 0.25).png()
            }
            return .rendered
        } catch {
            return .rejected
        }
    }
}
