/// One layer's per-property state, by ``LayerProperty/ordinal``: the model history a
/// `CALayer` keeps for each property it was given, the animations attached to each key path.
///
/// Sparse: a layer sets or animates a few of its ~40 properties, so only those take room, in
/// ordinal order, and a layer that touches none holds no storage at all. (Dense arrays of
/// every property cost 1.3 KB a layer: 13 MB for 10,000 layers.) Lookups scan the few
/// entries a layer has.
struct PropertySlots<Element: Sendable>: Sendable {
    private var entries: [(ordinal: UInt8, element: Element)] = []

    init() {}

    /// The element for a property ordinal, nil where the layer has none.
    subscript(ordinal: Int) -> Element? {
        @inline(__always) get {
            for entry in entries where Int(entry.ordinal) == ordinal { return entry.element }
            return nil
        }
        set {
            let (found, position) = find(ordinal)
            switch (found, newValue) {
            case (true, let value?): entries[position].element = value
            case (true, nil): entries.remove(at: position)
            case (false, let value?): entries.insert((UInt8(ordinal), value), at: position)
            case (false, nil): break
            }
        }
    }

    /// The element for a property ordinal, `defaultValue` stored first where there is none;
    /// modified in place (a history or a list of leaves grows without being copied).
    subscript(ordinal: Int, default defaultValue: @autoclosure () -> Element) -> Element {
        get { self[ordinal] ?? defaultValue() }
        _modify {
            let (found, position) = find(ordinal)
            if !found { entries.insert((UInt8(ordinal), defaultValue()), at: position) }
            yield &entries[position].element
        }
    }

    /// Whether an entry for `ordinal` exists, and where it is or would go.
    private func find(_ ordinal: Int) -> (found: Bool, position: Int) {
        precondition(ordinal >= 0 && ordinal <= Int(UInt8.max), "a property ordinal fits a byte")
        var position = 0
        while position < entries.count && Int(entries[position].ordinal) < ordinal { position += 1 }
        return (position < entries.count && Int(entries[position].ordinal) == ordinal, position)
    }
}
