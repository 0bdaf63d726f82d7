import SwiftUI

/// A notification badge that pulses for ever once it appears, and fades out when dismissed.
/// The completion of the pulse never runs: a repeating animation never completes
/// (choreo says so: completion-never-runs).
struct PulsingBadge: View {
    @State private var pulsing = false
    @State private var dismissed = false

    var body: some View {
        ZStack {
            Circle()
                .fill(.red)
                .frame(width: 44, height: 44)
                .scaleEffect(pulsing ? 1.25 : 1)
                .opacity(dismissed ? 0 : 1)
        }
        .onAppear {
            withAnimation(.easeInOut(duration: 0.8).repeatForever(autoreverses: true)) {
                pulsing = true
            } completion: {
                dismissed = true
            }
        }
        .onTapGesture {
            withAnimation(.easeOut(duration: 0.3)) {
                dismissed = true
            }
        }
    }
}
