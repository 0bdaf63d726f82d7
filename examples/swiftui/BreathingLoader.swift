import SwiftUI

/// A loader that breathes: three phases (rest, in, out), each with its own animation, cycled
/// for ever while it is on screen.
struct BreathingLoader: View {
    var body: some View {
        Circle()
            .fill(.teal)
            .frame(width: 60, height: 60)
            .phaseAnimator([0, 1, 2]) { content, phase in
                content
                    .scaleEffect(phase == 1 ? 1.4 : (phase == 2 ? 0.9 : 1))
                    .opacity(phase == 1 ? 0.6 : 1)
            } animation: { phase in
                phase == 1 ? .easeInOut(duration: 0.8) : .spring(duration: 0.5, bounce: 0.4)
            }
    }
}
