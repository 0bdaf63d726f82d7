import SwiftUI

/// A toggle drawn by hand: the knob springs across and the track changes colour, both under
/// one `.animation(_:value:)`; a tap on the toggle flips it.
struct SpringToggle: View {
    @State private var isOn = false

    var body: some View {
        ZStack {
            Capsule()
                .fill(isOn ? Color.green : Color(.systemGray))
                .frame(width: 120, height: 64)
            Circle()
                .fill(.white)
                .frame(width: 56, height: 56)
                .offset(x: isOn ? 28 : -28)
        }
        .frame(width: 160, height: 100)
        .animation(.spring(duration: 0.5, bounce: 0.3), value: isOn)
        .onTapGesture {
            isOn.toggle()
        }
    }
}
