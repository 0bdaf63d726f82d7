/// An index stored in 32 bits (the arrays it points into are far smaller), for records held
/// by the ten thousand or read in sweeps: a compiled program's tracks, pieces and ops, and an
/// attached animation's leaves.
@propertyWrapper
struct Index32: Sendable {
    private var stored: Int32

    init(wrappedValue: Int) { stored = Int32(wrappedValue) }

    var wrappedValue: Int {
        get { Int(stored) }
        set { stored = Int32(newValue) }
    }
}
