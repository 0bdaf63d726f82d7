import SwiftUI

/// A like button that pops: squashed, thrown up with a spring, then settled, with a little
/// lift and wobble, each on a keyframe track of its own, played each time it is liked.
struct LikeHeart: View {
    @State private var likes = 0

    struct Pop {
        var scale = 1.0
        var lift = 0.0
        var wobble = 0.0
    }

    var body: some View {
        Circle()
            .fill(.pink)
            .frame(width: 88, height: 88)
            .keyframeAnimator(initialValue: Pop(), trigger: likes) { content, value in
                content
                    .scaleEffect(value.scale)
                    .rotationEffect(.degrees(value.wobble))
                    .offset(y: value.lift)
            } keyframes: { _ in
                KeyframeTrack(\.scale) {
                    LinearKeyframe(0.8, duration: 0.1)
                    SpringKeyframe(1.3, duration: 0.3, spring: .bouncy)
                    SpringKeyframe(1.0, spring: .bouncy)
                }
                KeyframeTrack(\.lift) {
                    CubicKeyframe(-30, duration: 0.25)
                    CubicKeyframe(0, duration: 0.35)
                }
                KeyframeTrack(\.wobble) {
                    CubicKeyframe(12, duration: 0.15)
                    CubicKeyframe(-8, duration: 0.15)
                    CubicKeyframe(0, duration: 0.2)
                }
            }
            .onTapGesture {
                likes += 1
            }
    }
}
