import SwiftUI

/// A photo card that opens into a detail view and closes again: the two are different views
/// sharing a matchedGeometryEffect id, so the opening one grows out of the thumbnail and the
/// closing one shrinks back into it; the close button pops in with a transition of its own.
struct HeroCard: View {
    @Namespace private var hero
    @State private var expanded = false

    var body: some View {
        ZStack {
            if expanded {
                RoundedRectangle(cornerRadius: 24)
                    .fill(.indigo)
                    .matchedGeometryEffect(id: "card", in: hero)
                    .frame(width: 340, height: 460)
                    .position(x: 196, y: 300)
                Circle()
                    .fill(.white)
                    .frame(width: 36, height: 36)
                    .position(x: 330, y: 110)
                    .transition(.scale.combined(with: .opacity))
            } else {
                RoundedRectangle(cornerRadius: 12)
                    .fill(.indigo)
                    .matchedGeometryEffect(id: "card", in: hero)
                    .frame(width: 120, height: 120)
                    .position(x: 100, y: 160)
            }
        }
        .onTapGesture {
            withAnimation(.spring(duration: 0.45, bounce: 0.2)) {
                expanded.toggle()
            }
        }
    }
}
