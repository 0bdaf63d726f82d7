import SwiftUI

/// A card that jumps up when tapped and back when tapped again. Tapped again while it still
/// moves, the new spring starts from where the card is, as fast as it goes: no jump, no stop.
/// Try `choreo import InterruptedSpring.swift --tap Move@0.5 --tap Move@0.7`.
struct InterruptedSpring: View {
    @State private var raised = false

    var body: some View {
        VStack(spacing: 40) {
            RoundedRectangle(cornerRadius: 16)
                .fill(.indigo)
                .frame(width: 160, height: 100)
                .scaleEffect(raised ? 1.1 : 1)
                .offset(y: raised ? -120 : 0)
            Button("Move") {
                withAnimation(.snappy(duration: 0.6, extraBounce: 0.1)) {
                    raised.toggle()
                }
            }
        }
    }
}
