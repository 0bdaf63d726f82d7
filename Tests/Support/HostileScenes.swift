import Foundation

/// Scenes that cost much for their size, shared by the unit and live tests that check they are
/// refused before the work.
public enum HostileScenes {
    /// A SwiftUI view with five repeating keyframe tracks of `keyframes` keyframes each
    /// `duration` long, `views` of them: each track a group of an animation a keyframe.
    public static func keyframeAnimators(views: Int, keyframes: Int, duration: Double) -> String {
        let properties = ["offset.x", "offset.y", "scaleEffect", "rotationEffect", "opacity"]
        let list = (0..<views).map { view in
            let tracks = properties.map { property in
                let base = property == "scaleEffect" || property == "opacity" ? 1.0 : 0.0
                let keys = (0..<keyframes).map {
                    #"{"linear": \#(base + Double($0 % 2) * 0.5), "duration": \#(duration)}"#
                }
                return
                    #"{"property": "\#(property)", "initial": \#(base), "keyframes": [\#(keys.joined(separator: ","))]}"#
            }
            return #"""
                {"id": "v\#(view)", "shape": "rectangle", "modifiers": [{"frame": {"width": 20, "height": 20}},
                 {"position": {"x": \#(10 + view * 20), "y": 50}},
                 {"keyframeAnimator": {"repeating": true, "tracks": [\#(tracks.joined(separator: ","))]}}]}
                """#
        }
        return
            #"{"canvas": {"width": 320, "height": 200}, "swiftui": {"state": {}, "views": [\#(list.joined(separator: ","))]}}"#
    }
}
