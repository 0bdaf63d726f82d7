import ChoreoEngine

/// What every frame writes, laid out flat for the encoder's inner loop: per layer its key and
/// its cells, per cell its key bytes and how it is sampled.
///
/// Frames are encoded on every core at once; reading nested Swift arrays there would retain
/// and release shared buffers for every layer, and threads contend on those counts. These
/// tables are read in place and never touch a reference count.
final class FrameTables: Sendable {
    /// One property (or the transition, or the particles) written for a layer.
    struct Cell: Sendable {
        /// The members that are not a key path.
        enum Special: Sendable {
            case transition, particles
        }

        /// `"name":` in `keyBytes`.
        let key: Range<Int>
        /// nil for the `transition` and `particles` members.
        let keyPath: KeyPath?
        let special: Special?
        /// The cell's track in the sampling program, −1 when it is sampled generically.
        let track: Int
    }

    let keyBytes: FrozenBuffer<UInt8>
    let cells: FrozenBuffer<Cell>
    /// Per layer: its cells (empty for layers not selected).
    let layerCells: FrozenBuffer<Range<Int>>
    /// Per layer: `"id":` in `keyBytes`.
    let layerKeys: FrozenBuffer<Range<Int>>
    let selected: FrozenBuffer<Bool>

    init(keyBytes: [UInt8], cells: [Cell], layerCells: [Range<Int>], layerKeys: [Range<Int>], selected: [Bool]) {
        self.keyBytes = FrozenBuffer(keyBytes)
        self.cells = FrozenBuffer(cells)
        self.layerCells = FrozenBuffer(layerCells)
        self.layerKeys = FrozenBuffer(layerKeys)
        self.selected = FrozenBuffer(selected)
    }

    deinit {
        keyBytes.free()
        cells.free()
        layerCells.free()
        layerKeys.free()
        selected.free()
    }
}
