/// Auto Layout, for the cases animation code is written with: equalities between a view's
/// anchors (`NSLayoutAnchor`, `NSLayoutConstraint(item:attribute:…)`) and its superview's,
/// a sibling's, or a constant. A layout pass (`layoutIfNeeded()`, the end of a setup method or
/// of a run-loop turn) sets each constrained view's frame from them, so the classic
/// `constant = …; UIView.animate { view.layoutIfNeeded() }` animates the frames it changes.
/// Inequalities, priorities below required and other attributes are counted and left out, with
/// one note.
extension ImportEvaluator {
    static let anchorType = "NSLayoutAnchor"
    static let constraintType = "NSLayoutConstraint"

    /// The attributes, by the names `NSLayoutAnchor` properties and `NSLayoutConstraint.Attribute`
    /// cases have, and Objective-C's raw values (`NSLayoutAttributeLeft` is 1 … `CenterY` 10).
    static let attributes = [
        "left", "right", "top", "bottom", "leading", "trailing", "width", "height", "centerX", "centerY",
    ]

    /// `view.centerXAnchor`: an anchor of a view (a layout guide is its view's bounds).
    func anchor(of view: Value, _ name: String) -> Value? {
        guard name.hasSuffix("Anchor") else { return nil }
        let attribute = String(name.dropLast("Anchor".count))
        let object = InstanceObject(typeName: Self.anchorType)
        object.fields["item"] = view
        object.fields["attribute"] = .string(attribute)
        return allocate(.instance(object))
    }

    /// `safeAreaLayoutGuide`, `layoutMarginsGuide`, `readableContentGuide`: the view itself,
    /// with no insets (no window, no status bar here).
    static let layoutGuides: Set<String> = ["safeAreaLayoutGuide", "layoutMarginsGuide", "readableContentGuide"]

    /// `anchor.constraint(equalTo:constant:)` and the rest; `nil` when `target` is no anchor.
    func anchorMethod(_ target: Value, _ name: String, _ arguments: Arguments, _ position: SourcePosition)
        throws(ImportStop) -> Value?
    {
        guard let anchor = instance(target), anchor.typeName == Self.anchorType else { return nil }
        // Swift's `constraint(equalTo:…)`, Objective-C's `constraintEqualToAnchor:…`.
        let spelled = (name + " " + arguments.labels.compactMap { $0 }.joined(separator: " ")).lowercased()
        let relation =
            spelled.contains("greaterthan")
            ? "greaterThanOrEqual" : spelled.contains("lessthan") ? "lessThanOrEqual" : "equal"
        let values = arguments.items.map(\.value)
        var other: InstanceObject?
        if case .object? = values.first, let given = instance(values.first!), given.typeName == Self.anchorType {
            other = given
        }
        let constant = try double(
            arguments.first(
                "constant", "equalToConstant", "greaterThanOrEqualToConstant",
                "lessThanOrEqualToConstant") ?? (other == nil ? values.first : nil) ?? .number(0), position)
        let multiplier = try double(arguments["multiplier"] ?? .number(1), position)
        return makeConstraint(
            item: anchor.fields["item"] ?? .null, attribute: anchor.fields["attribute"] ?? .null,
            relation: relation, to: other?.fields["item"], attribute: other?.fields["attribute"],
            multiplier: multiplier, constant: constant, position)
    }

    /// `NSLayoutConstraint(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)`.
    func layoutConstraint(_ arguments: Arguments, _ position: SourcePosition) throws(ImportStop) -> Value {
        let values = arguments.items.map(\.value)
        guard values.count >= 7 else { throw stop(position, "NSLayoutConstraint needs its seven arguments") }
        let relation: String
        switch values[2] {
        case .enumCase(let name): relation = name
        case .integer(let raw): relation = raw < 0 ? "lessThanOrEqual" : raw > 0 ? "greaterThanOrEqual" : "equal"
        default: relation = "equal"
        }
        let second: Value? = if case .null = values[3] { nil } else { values[3] }
        return makeConstraint(
            item: values[0], attribute: values[1], relation: relation, to: second, attribute: values[4],
            multiplier: try double(values[5], position), constant: try double(values[6], position), position)
    }

    func makeConstraint(
        item: Value, attribute: Value, relation: String, to other: Value?, attribute otherAttribute: Value?,
        multiplier: Double, constant: Double, _ position: SourcePosition
    ) -> Value {
        let object = InstanceObject(typeName: Self.constraintType)
        object.fields["firstItem"] = item
        object.fields["firstAttribute"] = .string(Self.attributeName(attribute) ?? "")
        object.fields["relation"] = .string(relation)
        object.fields["secondItem"] = other ?? .null
        object.fields["secondAttribute"] = .string(otherAttribute.flatMap(Self.attributeName) ?? "")
        object.fields["multiplier"] = .number(multiplier)
        object.fields["constant"] = .number(constant)
        object.fields["isActive"] = .bool(false)
        let value = allocate(.instance(object))
        constraints.append(value)
        if firstConstraint == nil { firstConstraint = position }
        return value
    }

    static func attributeName(_ value: Value) -> String? {
        switch value {
        case .enumCase(let name), .string(let name): return attributes.contains(name) ? name : nil
        case .integer(let raw) where (1...attributes.count).contains(raw): return attributes[raw - 1]
        default: return nil
        }
    }

    /// `NSLayoutConstraint.activate(_:)`, `deactivate(_:)`, `view.addConstraint(s)`,
    /// `removeConstraint(s)`: each constraint's `isActive`.
    func activate(_ list: Value, _ active: Bool) {
        let items: [Value] = if case .array(let elements) = list { elements } else { [list] }
        for item in items {
            guard let object = instance(item), object.typeName == Self.constraintType else { continue }
            object.fields["isActive"] = .bool(active)
        }
    }

    // MARK: The layout pass

    /// Sets the frame of every view an active constraint places (superviews before the views in
    /// them, twice, so that a view placed from a sibling sees the sibling placed).
    func solveConstraints(_ position: SourcePosition) throws(ImportStop) {
        var active: [InstanceObject] = []
        for value in constraints {
            // `isActive` in Swift, `active` in Objective-C.
            guard let object = instance(value),
                [object.fields["isActive"], object.fields["active"]].contains(where: { $0.map(isTrue) == true })
            else { continue }
            active.append(object)
        }
        guard !active.isEmpty else { return }
        var placed: [Int: [InstanceObject]] = [:]
        var order: [Int] = []
        for constraint in active {
            guard case .object(let index)? = constraint.fields["firstItem"], layer(.object(index)) != nil,
                case .string(let attribute)? = constraint.fields["firstAttribute"], !attribute.isEmpty,
                case .string("equal")? = constraint.fields["relation"]
            else {
                ignoredConstraints.insert(ObjectIdentifier(constraint))
                continue
            }
            if placed[index] == nil { order.append(index) }
            placed[index, default: []].append(constraint)
        }
        order.sort { depth(of: $0) < depth(of: $1) }
        for _ in 0..<2 {
            for index in order { try place(index, placed[index] ?? [], position) }
        }
    }

    private func isTrue(_ value: Value) -> Bool {
        switch value {
        case .bool(let b): b
        case .integer(let i): i != 0
        default: false
        }
    }

    private func depth(of index: Int) -> Int {
        var depth = 0
        var current = index
        while case .layer(let layer) = heap[current], let parent = layer.parent, depth < 256 {
            depth += 1
            current = parent
        }
        return depth
    }

    /// A view's frame as its superview sees it.
    private func frame(_ index: Int, _ position: SourcePosition) throws(ImportStop) -> (Double, Double, Double, Double)
    {
        guard case .layer(let layer) = heap[index] else { return (0, 0, 0, 0) }
        if layer.isCanvas {
            if canvasSize == nil {
                // Constraints to the screen's view: the scene's canvas is that screen.
                warn(
                    position,
                    "the view controller's view has the screen's size, not known here: the import takes \(format(screen.width)) × \(format(screen.height)) points"
                )
                canvasSize = (screen.width, screen.height)
            }
            let (w, h) = canvasSize ?? (screen.width, screen.height)
            return (0, 0, w, h)
        }
        guard case .rect(let x, let y, let w, let h) = try layerMember(.object(index), "frame", position) else {
            return (0, 0, 0, 0)
        }
        return (x, y, w, h)
    }

    /// Where a view's origin is in the canvas (frames added up; transforms left out).
    private func origin(_ index: Int, _ position: SourcePosition) throws(ImportStop) -> (Double, Double) {
        var x = 0.0
        var y = 0.0
        var current: Int? = index
        var steps = 0
        while let at = current, case .layer(let layer) = heap[at], !layer.isCanvas, steps < 256 {
            let f = try frame(at, position)
            x += f.0
            y += f.1
            current = layer.parent
            steps += 1
        }
        return (x, y)
    }

    /// The value of `attribute` of `item` in the coordinates of `superview`'s bounds.
    private func edge(_ item: Int, _ attribute: String, in superview: Int?, _ position: SourcePosition)
        throws(ImportStop)
        -> Double
    {
        let f = try frame(item, position)
        var (x, y) = (0.0, 0.0)
        if case .layer(let layer) = heap[item], !layer.isCanvas, item != superview {
            let o = try origin(item, position)
            let s = try superview.map { (s: Int) throws(ImportStop) in try origin(s, position) } ?? (0, 0)
            (x, y) = (o.0 - s.0, o.1 - s.1)
        }
        switch attribute {
        case "left", "leading": return x
        case "right", "trailing": return x + f.2
        case "top": return y
        case "bottom": return y + f.3
        case "centerX": return x + f.2 / 2
        case "centerY": return y + f.3 / 2
        case "width": return f.2
        case "height": return f.3
        default: return 0
        }
    }

    private func place(_ index: Int, _ list: [InstanceObject], _ position: SourcePosition) throws(ImportStop) {
        guard case .layer(let layer) = heap[index] else { return }
        let superview = layer.parent
        var values: [String: Double] = [:]
        for constraint in list {
            guard case .string(let attribute)? = constraint.fields["firstAttribute"] else { continue }
            let multiplier = constraint.fields["multiplier"]?.number ?? 1
            let constant = constraint.fields["constant"]?.number ?? 0
            var value = constant
            if case .object(let other)? = constraint.fields["secondItem"],
                case .string(let otherAttribute)? = constraint.fields["secondAttribute"], !otherAttribute.isEmpty
            {
                value = try edge(other, otherAttribute, in: superview, position) * multiplier + constant
            }
            let key = attribute == "left" ? "leading" : attribute == "right" ? "trailing" : attribute
            values[key] = value
        }
        let current = try frame(index, position)
        // A label's or a titled button's own size where no constraint gives one (its content
        // hugs it: UIKit's intrinsicContentSize, below the required constraints).
        let natural = intrinsicSize(index)
        func axis(
            _ start: String, _ end: String, _ center: String, _ size: String, _ x: Double, _ w: Double,
            _ content: Double?
        ) -> (Double, Double) {
            var length = values[size] ?? content ?? w
            if values[size] == nil, let a = values[start], let b = values[end] { length = b - a }
            if values[size] == nil, values[start] == nil, let c = values[center], let b = values[end] {
                length = 2 * (b - c)
            }
            let origin = values[start] ?? values[end].map { $0 - length } ?? values[center].map { $0 - length / 2 } ?? x
            return (origin, length)
        }
        let (x, w) = axis("leading", "trailing", "centerX", "width", current.0, current.2, natural?.width)
        let (y, h) = axis("top", "bottom", "centerY", "height", current.1, current.3, natural?.height)
        guard
            abs(x - current.0) > 1e-9 || abs(y - current.1) > 1e-9 || abs(w - current.2) > 1e-9
                || abs(h - current.3) > 1e-9
        else { return }
        try setMember(.object(index), "frame", .rect(x, y, w, h), position)
    }

    /// The one note about Auto Layout, at the first constraint: what was solved, what was left out.
    func noteConstraints() {
        guard let first = firstConstraint else { return }
        let ignored = ignoredConstraints.count
        note(
            first,
            "Auto Layout: \(constraints.count) constraint(s) made; equalities between anchors are solved into frames "
                + "at each layout pass (layoutIfNeeded, after viewDidLoad, at the end of each turn)"
                + (ignored > 0
                    ? "; \(ignored) inequality or other constraint(s) ignored, their views' frames used" : ""))
    }
}
