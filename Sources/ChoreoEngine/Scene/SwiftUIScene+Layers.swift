/// How SwiftUI views are drawn as layers: each view a layer, each animatable modifier one or
/// two of the layer's key paths (docs/semantics.md, "SwiftUI views").
extension SwiftUIScene {
    /// An animatable value of a view's layer: a key path, the value it has, and where in the
    /// view's modifiers it comes from (which `.animation` modifiers wrap it).
    public struct Channel: Sendable, Equatable {
        public var keyPath: KeyPath
        public var value: Value
        /// The index of the modifier that sets it; the view's modifier count for what the view
        /// itself decides (its size, a child's centred place).
        public var slot: Int
    }

    /// The state's initial values by name.
    public var initialState: [String: SwiftUIStateValue] {
        Dictionary(state.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// Every view with its parent's index, in pre-order (a view before its children).
    public var flattened: [(view: SwiftUIView, parent: Int?)] {
        var result: [(view: SwiftUIView, parent: Int?)] = []
        func visit(_ view: SwiftUIView, _ parent: Int?) {
            result.append((view, parent))
            let index = result.count - 1
            for child in view.children { visit(child, index) }
        }
        for view in views { visit(view, nil) }
        return result
    }

    /// The size a root is offered without a canvas.
    static let defaultSize = 100.0

    /// Every view's channels for the state `values`, in ``flattened`` order: its layer's place
    /// and size from SwiftUI's layout of the views (``SwiftUILayoutPass``, the roots offered the
    /// canvas and centred in it), its effects from its modifiers.
    public func channels(_ values: [String: SwiftUIStateValue], canvas: Canvas?) -> [[Channel]] {
        let views = flattened
        var layout = SwiftUILayoutPass(views: views, values: values)
        layout.run(canvas: canvas.map { ($0.width, $0.height) } ?? (Self.defaultSize, Self.defaultSize))
        var result: [[Channel]] = []
        for (viewIndex, (view, _)) in views.enumerated() {
            var channels: [Channel] = []
            let end = view.modifiers.count
            func number(_ expression: SwiftUIExpression) -> Double {
                if case .number(let n) = expression.value(values) { return n }
                return 0
            }
            var translation = (0.0, 0.0, end)
            var scale = (1.0, 1.0, end)
            var rotation = (0.0, end)
            var opacity = (1.0, end)
            var color: (Value, Int)?
            var backdrop: (Value, Int)?
            var radius: (Double, Int)?
            var blur: (Double, Int)?
            var font: (Double, Int) = (17, end)
            // The view's size comes from its innermost layout modifier (a Text's from its font
            // when it has none); its place from its `.position`, else from its parent.
            var sizeSlot = layout.wrappers[viewIndex].first ?? end
            var positionSlot = end
            // The innermost of each kind decides (a view takes one of each; the scene's reader
            // says so otherwise).
            for (index, modifier) in view.modifiers.enumerated() {
                switch modifier {
                case .position: positionSlot = index
                case .offset(let x, let y): translation = (number(x), number(y), index)
                case .scaleEffect(let x, let y): scale = (number(x), number(y), index)
                case .rotationEffect(let angle): rotation = (number(angle), index)
                case .opacity(let value): opacity = (number(value), index)
                case .fill(let value): color = (value.value(values), index)
                case .background(let value): backdrop = (value.value(values), index)
                case .cornerRadius(let value): radius = (number(value), index)
                case .blur(let value): blur = (number(value), index)
                case .font(let value): font = (max(1, number(value)), index)
                case .frame, .padding, .animation, .keyframeAnimator, .phaseAnimator, .transition,
                    .matchedGeometryEffect:
                    break
                }
            }
            if view.shape == .text, layout.wrappers[viewIndex].isEmpty { sizeSlot = font.1 }
            let box = layout.boxes[viewIndex]
            var width = box.width
            var height = box.height
            if view.shape == .circle {
                // A circle is as wide as the smaller side, centred.
                width = min(box.width, box.height)
                height = width
            }
            if view.shape == .capsule { radius = (min(width, height) / 2, sizeSlot) }
            if view.shape == .circle { radius = (width / 2, sizeSlot) }
            let centre = (box.x + box.width / 2, box.y + box.height / 2)
            channels += [
                Channel(keyPath: KeyPath(.position, .x), value: .number(centre.0), slot: positionSlot),
                Channel(keyPath: KeyPath(.position, .y), value: .number(centre.1), slot: positionSlot),
                Channel(keyPath: KeyPath(.bounds, .sizeWidth), value: .number(width), slot: sizeSlot),
                Channel(keyPath: KeyPath(.bounds, .sizeHeight), value: .number(height), slot: sizeSlot),
                Channel(
                    keyPath: KeyPath(.transform, .translationX), value: .number(translation.0), slot: translation.2),
                Channel(
                    keyPath: KeyPath(.transform, .translationY), value: .number(translation.1), slot: translation.2),
                Channel(keyPath: KeyPath(.transform, .scaleX), value: .number(scale.0), slot: scale.2),
                Channel(keyPath: KeyPath(.transform, .scaleY), value: .number(scale.1), slot: scale.2),
                Channel(keyPath: KeyPath(.transform, .rotationZ), value: .number(rotation.0), slot: rotation.1),
                Channel(keyPath: KeyPath(.opacity), value: .number(opacity.0), slot: opacity.1),
            ]
            if let color {
                // A Text's colour is its glyphs'.
                let property: LayerProperty = view.shape == .text ? .foregroundColor : .backgroundColor
                channels.append(Channel(keyPath: KeyPath(property), value: color.0, slot: color.1))
            }
            if let backdrop {
                channels.append(Channel(keyPath: KeyPath(.backgroundColor), value: backdrop.0, slot: backdrop.1))
            }
            if view.shape == .text {
                channels.append(Channel(keyPath: KeyPath(.fontSize), value: .number(font.0), slot: font.1))
            }
            if let radius {
                channels.append(Channel(keyPath: KeyPath(.cornerRadius), value: .number(radius.0), slot: radius.1))
            }
            if let blur {
                channels.append(Channel(keyPath: KeyPath(.blurRadius), value: .number(max(0, blur.0)), slot: blur.1))
            }
            // What a keyframe animator drives starts at its track's initial value; what a phase
            // animator drives, at its first phase.
            var starts: [(SwiftUIKeyframeAnimator.Property, Double)] = []
            for modifier in view.modifiers {
                switch modifier {
                case .keyframeAnimator(let animator): starts += animator.tracks.map { ($0.property, $0.initial) }
                case .phaseAnimator(let animator):
                    starts += (animator.phases.first ?? []).map { ($0.property, $0.value) }
                default: break
                }
            }
            for (property, value) in starts {
                for keyPath in property.keyPaths {
                    guard let index = channels.firstIndex(where: { $0.keyPath == keyPath }) else { continue }
                    channels[index].value = .number(property.layerValue(value))
                }
            }
            result.append(channels)
        }
        return result
    }

    /// The views' layers at the initial state: roots after the scene's own layers, each with
    /// its sublayers.
    public func layers(canvas: Canvas?) -> [LayerNode] {
        let views = flattened
        let channels = channels(initialState, canvas: canvas)
        var nodes = views.enumerated().map { index, entry in
            var node = LayerNode(id: entry.view.id, type: entry.view.shape == .text ? .text : .layer)
            node.values = Self.modelValues(channels[index])
            if entry.view.shape == .text {
                node.values[.string] = .string(entry.view.text ?? "")
                node.values[.alignmentMode] = .string("center")
                if node.values[.foregroundColor] == nil {
                    node.values[.foregroundColor] = .color(Color(red: 0, green: 0, blue: 0, alpha: 1))
                }
            }
            // A view an `if` leaves out is there, hidden, until it is inserted.
            if !entry.view.isPresent(initialState) { node.values[.hidden] = .bool(true) }
            return node
        }
        // Children into their parents, the last first, so each parent is complete when taken.
        var roots: [LayerNode] = []
        for index in views.indices.reversed() {
            if let parent = views[index].parent {
                nodes[parent].sublayers.insert(nodes[index], at: 0)
            } else {
                roots.insert(nodes[index], at: 0)
            }
        }
        return roots
    }

    /// A layer's model values from its channels: position, bounds, the transform (scale, then
    /// rotation, then translation: Core Animation's order), opacity, colour and corner radius.
    public static func modelValues(_ channels: [Channel]) -> [LayerProperty: Value] {
        var values: [LayerProperty: Value] = [:]
        var position = Point(0, 0)
        var size = Point(0, 0)
        var transform: [KeyPath.Component: Double] = [:]
        for channel in channels {
            guard case .number(let n) = channel.value else {
                values[channel.keyPath.property] = channel.value
                continue
            }
            switch (channel.keyPath.property, channel.keyPath.component) {
            case (.position, .x?): position.x = n
            case (.position, .y?): position.y = n
            case (.bounds, .sizeWidth?): size.x = n
            case (.bounds, .sizeHeight?): size.y = n
            case (.transform, let component?): transform[component] = n
            default: values[channel.keyPath.property] = channel.value
            }
        }
        values[.position] = .point(position)
        values[.bounds] = .rect(Rect(origin: Point(0, 0), size: size))
        values[.transform] = .transform(
            Transform3D.scale(transform[.scaleX] ?? 1, transform[.scaleY] ?? 1, 1)
                .concatenating(.rotation(transform[.rotationZ] ?? 0, x: 0, y: 0, z: 1))
                .concatenating(.translation(transform[.translationX] ?? 0, transform[.translationY] ?? 0, 0)))
        return values
    }
}
