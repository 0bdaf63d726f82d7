/// SwiftUI's alignment of a view in a larger space: `Alignment` (`.topLeading` …), and for a
/// stack the cross axis only (`HorizontalAlignment` of a `VStack`, `VerticalAlignment` of an
/// `HStack`). Left to right: leading is the left.
public struct SwiftUIAlignment: Sendable, Equatable {
    /// Where the view sits in the free space: 0 leading (top), 0.5 the centre, 1 trailing
    /// (bottom).
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let center = SwiftUIAlignment(x: 0.5, y: 0.5)

    /// SwiftUI's names for `Alignment`'s values.
    public static let names: [String: SwiftUIAlignment] = [
        "center": .center, "leading": .init(x: 0, y: 0.5), "trailing": .init(x: 1, y: 0.5),
        "top": .init(x: 0.5, y: 0), "bottom": .init(x: 0.5, y: 1), "topLeading": .init(x: 0, y: 0),
        "topTrailing": .init(x: 1, y: 0), "bottomLeading": .init(x: 0, y: 1), "bottomTrailing": .init(x: 1, y: 1),
    ]
}

/// `.frame(width:height:alignment:)` or `.frame(minWidth:idealWidth:maxWidth:minHeight:
/// idealHeight:maxHeight:alignment:)`: the two frames SwiftUI has. A side not given is the
/// child's.
public struct SwiftUIFrame: Sendable, Equatable {
    public var width: SwiftUIExpression?
    public var height: SwiftUIExpression?
    public var minWidth: SwiftUIExpression?
    public var idealWidth: SwiftUIExpression?
    public var maxWidth: SwiftUIExpression?
    public var minHeight: SwiftUIExpression?
    public var idealHeight: SwiftUIExpression?
    public var maxHeight: SwiftUIExpression?
    public var alignment: SwiftUIAlignment

    public init(
        width: SwiftUIExpression? = nil, height: SwiftUIExpression? = nil, alignment: SwiftUIAlignment = .center
    ) {
        self.width = width
        self.height = height
        self.alignment = alignment
    }

    /// Whether it is the flexible frame (`minWidth:…maxHeight:`).
    public var isFlexible: Bool {
        [minWidth, idealWidth, maxWidth, minHeight, idealHeight, maxHeight].contains { $0 != nil }
    }
}

/// `.padding(_:)`, `.padding(_:_:)`, `.padding(EdgeInsets)`: the space added on each side.
public struct SwiftUIInsets: Sendable, Equatable {
    public var top: SwiftUIExpression
    public var leading: SwiftUIExpression
    public var bottom: SwiftUIExpression
    public var trailing: SwiftUIExpression

    public init(
        top: SwiftUIExpression, leading: SwiftUIExpression, bottom: SwiftUIExpression, trailing: SwiftUIExpression
    ) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// SwiftUI's default padding on iOS, points: `.padding()`.
    public static let systemLength = 16.0
}

/// SwiftUI's layout of a scene's views for one state (docs/semantics.md, "SwiftUI layout"):
/// the parent proposes a size, the child answers with the size it takes, the parent places it
/// (`Layout.sizeThatFits(proposal:subviews:cache:)` and `placeSubviews(in:proposal:subviews:
/// cache:)`). Layout modifiers wrap the view in the order written, each a layout of its own:
/// `.frame`, `.padding`, `.position`. A proposal's side is a length, `.infinity` (as large as
/// the view can be) or nil (its ideal size), as `ProposedViewSize`.
struct SwiftUILayoutPass {
    typealias Size = (width: Double, height: Double)
    typealias Proposal = (width: Double?, height: Double?)

    let views: [(view: SwiftUIView, parent: Int?)]
    let children: [[Int]]
    let values: [String: SwiftUIStateValue]
    /// Each view's layout modifiers (their indices among its modifiers), innermost first.
    let wrappers: [[Int]]
    let present: [Bool]
    /// Sizes already answered, by view, wrapper level and proposal.
    var sizes: [Key: Size] = [:]
    /// Each view's layer: its box, origin in its parent's layer's space.
    var boxes: [(x: Double, y: Double, width: Double, height: Double)]

    struct Key: Hashable {
        let view: Int
        let level: Int
        let width: Double?
        let height: Double?
    }

    /// The space SwiftUI puts between two views of a stack when its `spacing` is nil.
    static let defaultSpacing = 8.0
    /// A shape's ideal size (what it answers a nil proposal with), points.
    static let shapeIdealSize = 10.0
    /// A `Spacer`'s `minLength` when nil: the system spacing.
    static let spacerMinLength = 8.0

    init(views: [(view: SwiftUIView, parent: Int?)], values: [String: SwiftUIStateValue]) {
        self.views = views
        self.values = values
        var children = Array(repeating: [Int](), count: views.count)
        for (index, entry) in views.enumerated() {
            if let parent = entry.parent { children[parent].append(index) }
        }
        self.children = children
        wrappers = views.map { entry in
            entry.view.modifiers.indices.filter { index in
                switch entry.view.modifiers[index] {
                case .frame, .padding, .position: true
                default: false
                }
            }
        }
        present = views.map { $0.view.isPresent(values) }
        boxes = Array(repeating: (0, 0, 0, 0), count: views.count)
    }

    func number(_ expression: SwiftUIExpression?) -> Double? {
        guard let expression else { return nil }
        if case .number(let n) = expression.value(values) { return n }
        return 0
    }

    /// Lays out the roots in `canvas`, each centred in it, and every view below them.
    mutating func run(canvas: Size) {
        for (index, entry) in views.enumerated() where entry.parent == nil {
            let proposal: Proposal = (canvas.width, canvas.height)
            let size = size(index, level: wrappers[index].count, proposal)
            place(index, at: ((canvas.width - size.width) / 2, (canvas.height - size.height) / 2), proposal, size)
        }
    }

    // MARK: Sizing

    /// The size view `index` takes for `proposal` with its first `level` layout modifiers.
    mutating func size(_ index: Int, level: Int, _ proposal: Proposal) -> Size {
        let key = Key(view: index, level: level, width: proposal.width, height: proposal.height)
        if let known = sizes[key] { return known }
        let result: Size
        if level == 0 {
            result = baseSize(index, proposal)
        } else {
            switch views[index].view.modifiers[wrappers[index][level - 1]] {
            case .frame(let frame):
                let inner = innerProposal(frame, proposal)
                let child = size(index, level: level - 1, inner)
                result = frameSize(frame, proposal, child)
            case .padding(let insets):
                let (h, v) = insetTotals(insets)
                let child = size(
                    index, level: level - 1,
                    (proposal.width.map { max(0, $0 - h) }, proposal.height.map { max(0, $0 - v) }))
                result = (child.width + h, child.height + v)
            case .position:
                // A positioned view takes all it is offered (`position(x:y:)`).
                let child = size(index, level: level - 1, proposal)
                result = (proposal.width ?? child.width, proposal.height ?? child.height)
            default:
                result = size(index, level: level - 1, proposal)
            }
        }
        sizes[key] = result
        return result
    }

    func insetTotals(_ insets: SwiftUIInsets) -> (Double, Double) {
        (
            (number(insets.leading) ?? 0) + (number(insets.trailing) ?? 0),
            (number(insets.top) ?? 0) + (number(insets.bottom) ?? 0)
        )
    }

    /// What a frame proposes its child (Apple's `frame(minWidth:…)`: the proposal limited by the
    /// constraints, an ideal side in place of an unspecified one; a fixed side as it is).
    func innerProposal(_ frame: SwiftUIFrame, _ proposal: Proposal) -> Proposal {
        guard frame.isFlexible else {
            return (number(frame.width) ?? proposal.width, number(frame.height) ?? proposal.height)
        }
        func side(_ given: Double?, _ low: Double?, _ ideal: Double?, _ high: Double?) -> Double? {
            guard var value = given ?? ideal else { return nil }
            if let high { value = min(value, high) }
            if let low { value = max(value, low) }
            return value
        }
        return (
            side(proposal.width, number(frame.minWidth), number(frame.idealWidth), number(frame.maxWidth)),
            side(proposal.height, number(frame.minHeight), number(frame.idealHeight), number(frame.maxHeight))
        )
    }

    /// The frame's own size around a child of size `child` (Apple's documentation of
    /// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`): with
    /// no constraint on a side, the child's; with both, the proposal clamped to them; with a
    /// minimum, a proposal smaller than the child clamped to it; with a maximum, a proposal
    /// larger than the child clamped to it; else the child's.
    func frameSize(_ frame: SwiftUIFrame, _ proposal: Proposal, _ child: Size) -> Size {
        guard frame.isFlexible else {
            return (number(frame.width) ?? child.width, number(frame.height) ?? child.height)
        }
        func side(_ offered: Double?, _ low: Double?, _ ideal: Double?, _ high: Double?, _ child: Double) -> Double {
            guard low != nil || high != nil else { return child }
            let offered = offered ?? ideal ?? child
            if let low, let high { return max(low, min(high, offered)) }
            if let low, offered < child { return max(low, offered) }
            if let high, offered > child { return min(high, offered) }
            if let low { return max(low, child) }
            if let high { return min(high, child) }
            return child
        }
        return (
            side(proposal.width, number(frame.minWidth), number(frame.idealWidth), number(frame.maxWidth), child.width),
            side(
                proposal.height, number(frame.minHeight), number(frame.idealHeight), number(frame.maxHeight),
                child.height)
        )
    }

    /// The size of the view itself, its layout modifiers aside.
    mutating func baseSize(_ index: Int, _ proposal: Proposal) -> Size {
        let view = views[index].view
        switch view.shape {
        case .rectangle, .roundedRectangle, .circle, .capsule:
            // A shape takes what it is offered (`Shape.sizeThatFits`).
            return (proposal.width ?? Self.shapeIdealSize, proposal.height ?? Self.shapeIdealSize)
        case .text:
            var font = 17.0
            for case .font(let value) in view.modifiers { font = max(1, number(value) ?? 17) }
            let measured = SwiftUIView.textSize(view.text ?? "", fontSize: font)
            return (measured.0, measured.1)
        case .spacer:
            let length = view.minLength ?? Self.spacerMinLength
            switch stackAxis(of: views[index].parent) {
            case .horizontal?: return (max(length, proposal.width ?? length), 0)
            case .vertical?: return (0, max(length, proposal.height ?? length))
            case nil: return (proposal.width ?? length, proposal.height ?? length)
            }
        case .stack:
            // choreo's container: as large as it is offered, its children offered its size.
            return (proposal.width ?? Self.shapeIdealSize, proposal.height ?? Self.shapeIdealSize)
        case .zstack:
            var size: Size = (0, 0)
            for child in children[index] where present[child] {
                let s = self.size(child, level: wrappers[child].count, proposal)
                size = (max(size.width, s.width), max(size.height, s.height))
            }
            return size
        case .vstack, .hstack:
            let sizes = distribute(index, proposal).map(\.size)
            let vertical = view.shape == .vstack
            let main = sizes.map { vertical ? $0.height : $0.width }.reduce(0, +) + spacing(index)
            let cross = sizes.map { vertical ? $0.width : $0.height }.max() ?? 0
            return vertical ? (cross, main) : (main, cross)
        }
    }

    enum Axis { case horizontal, vertical }

    func stackAxis(of parent: Int?) -> Axis? {
        guard let parent else { return nil }
        switch views[parent].view.shape {
        case .hstack: return .horizontal
        case .vstack: return .vertical
        default: return nil
        }
    }

    /// The spacing a stack's present children take together.
    func spacing(_ index: Int) -> Double {
        let count = children[index].filter { present[$0] }.count
        return (views[index].view.spacing ?? Self.defaultSpacing) * Double(max(0, count - 1))
    }

    /// A stack's children with the sizes it gives them (`HStack`/`VStack`): the space left after
    /// the spacing is offered to the least flexible child first — flexibility being how much
    /// more it takes offered everything than offered nothing — each offered an equal share of
    /// what remains.
    mutating func distribute(_ index: Int, _ proposal: Proposal) -> [(child: Int, proposal: Proposal, size: Size)] {
        let vertical = views[index].view.shape == .vstack
        let present = children[index].filter { self.present[$0] }
        let offered = vertical ? proposal.height : proposal.width
        func along(_ length: Double?) -> Proposal {
            vertical ? (proposal.width, length) : (length, proposal.height)
        }
        func main(_ size: Size) -> Double { vertical ? size.height : size.width }
        guard let offered else {
            // Asked for its ideal size: each child's.
            return present.map { ($0, along(nil), size($0, level: wrappers[$0].count, along(nil))) }
        }
        var flexibility: [Int: Double] = [:]
        for child in present {
            let least = main(size(child, level: wrappers[child].count, along(0)))
            let most = main(size(child, level: wrappers[child].count, along(.infinity)))
            flexibility[child] = most == .infinity ? .infinity : most - least
        }
        let order = present.enumerated().sorted { a, b in
            let (fa, fb) = (flexibility[a.element]!, flexibility[b.element]!)
            return fa != fb ? fa < fb : a.offset < b.offset
        }
        var remaining = offered - spacing(index)
        var given: [Int: (Proposal, Size)] = [:]
        for (rank, entry) in order.enumerated() {
            let share = max(0, remaining / Double(order.count - rank))
            let size = size(entry.element, level: wrappers[entry.element].count, along(share))
            given[entry.element] = (along(share), size)
            remaining -= main(size)
        }
        return present.map { ($0, given[$0]!.0, given[$0]!.1) }
    }

    // MARK: Placing

    /// Places view `index`, whose outermost box (`size`, for `proposal`) has its origin at
    /// `origin` in its parent's layer's space: through its layout modifiers, outermost first, to
    /// the view itself; then its children.
    mutating func place(_ index: Int, at origin: (Double, Double), _ proposal: Proposal, _ size: Size) {
        let view = views[index].view
        var origin = origin
        var size = size
        var proposal = proposal
        // The layer is the view's own box, or (a stack's or a text's) the box its background is
        // drawn in: the one at the point the `.background` is written.
        let backgroundIndex = view.modifiers.lastIndex { if case .background = $0 { true } else { false } }
        var layerBox: (x: Double, y: Double, width: Double, height: Double)?
        for level in stride(from: wrappers[index].count, to: 0, by: -1) {
            let modifierIndex = wrappers[index][level - 1]
            if let backgroundIndex, modifierIndex < backgroundIndex, layerBox == nil {
                layerBox = (origin.0, origin.1, size.width, size.height)
            }
            switch view.modifiers[modifierIndex] {
            case .frame(let frame):
                let inner = innerProposal(frame, proposal)
                let child = self.size(index, level: level - 1, inner)
                origin = (
                    origin.0 + (size.width - child.width) * frame.alignment.x,
                    origin.1 + (size.height - child.height) * frame.alignment.y
                )
                (size, proposal) = (child, inner)
            case .padding(let insets):
                let (h, v) = insetTotals(insets)
                origin = (origin.0 + (number(insets.leading) ?? 0), origin.1 + (number(insets.top) ?? 0))
                proposal = (proposal.width.map { max(0, $0 - h) }, proposal.height.map { max(0, $0 - v) })
                size = self.size(index, level: level - 1, proposal)
            case .position(let x, let y):
                let child = self.size(index, level: level - 1, proposal)
                origin = (
                    origin.0 + (number(x) ?? 0) - child.width / 2, origin.1 + (number(y) ?? 0) - child.height / 2
                )
                size = child
            default: break
            }
        }
        let own = (x: origin.0, y: origin.1, width: size.width, height: size.height)
        let layer = layerBox ?? own
        boxes[index] = layer
        // Children are placed in the layer's space.
        let inside = (own.x - layer.x, own.y - layer.y)
        switch view.shape {
        case .vstack, .hstack:
            let vertical = view.shape == .vstack
            let gap = view.spacing ?? Self.defaultSpacing
            var along = 0.0
            for (child, offered, childSize) in distribute(index, proposal) {
                let cross =
                    vertical
                    ? (own.width - childSize.width) * view.alignment.x
                    : (own.height - childSize.height) * view.alignment.y
                let at = vertical ? (cross, along) : (along, cross)
                place(child, at: (inside.0 + at.0, inside.1 + at.1), offered, childSize)
                along += (vertical ? childSize.height : childSize.width) + gap
            }
            placeAbsent(index, inside, own)
        case .zstack, .stack:
            // A ZStack offers each child what it was offered; choreo's stack offers its size.
            let offered: Proposal = view.shape == .stack ? (own.width, own.height) : proposal
            for child in children[index] {
                let childSize = self.size(child, level: wrappers[child].count, offered)
                let alignment = view.shape == .stack ? SwiftUIAlignment.center : view.alignment
                place(
                    child,
                    at: (
                        inside.0 + (own.width - childSize.width) * alignment.x,
                        inside.1 + (own.height - childSize.height) * alignment.y
                    ), offered, childSize)
            }
        default: break
        }
    }

    /// A stack's children an `if` leaves out: placed as a `ZStack` would (they are hidden
    /// until inserted, and then placed with their siblings).
    mutating func placeAbsent(
        _ index: Int, _ inside: (Double, Double), _ own: (x: Double, y: Double, width: Double, height: Double)
    ) {
        for child in children[index] where !present[child] {
            let offered: Proposal = (own.width, own.height)
            let childSize = size(child, level: wrappers[child].count, offered)
            place(
                child,
                at: (inside.0 + (own.width - childSize.width) / 2, inside.1 + (own.height - childSize.height) / 2),
                offered, childSize)
        }
    }
}
