/// The colour names a scene accepts (`systemGreen`, `white`), the importer too.
package enum NamedColors {
    /// UIColor's named colours as `#RRGGBBAA`: the system colours as iOS 17 draws them in light
    /// mode, and the fixed ones (`UIColor.red` is pure red, `gray` is 50 % white).
    package static let table: [String: String] = [
        "systemRed": "#FF3B30FF", "systemOrange": "#FF9500FF", "systemYellow": "#FFCC00FF",
        "systemGreen": "#34C759FF", "systemMint": "#00C7BEFF", "systemTeal": "#30B0C7FF", "systemCyan": "#32ADE6FF",
        "systemBlue": "#007AFFFF", "systemIndigo": "#5856D6FF", "systemPurple": "#AF52DEFF",
        "systemPink": "#FF2D55FF", "systemBrown": "#A2845EFF", "systemGray": "#8E8E93FF", "systemGray2": "#AEAEB2FF",
        "systemGray3": "#C7C7CCFF", "systemGray4": "#D1D1D6FF", "systemGray5": "#E5E5EAFF",
        "systemGray6": "#F2F2F7FF", "systemBackground": "#FFFFFFFF", "secondarySystemBackground": "#F2F2F7FF",
        "label": "#000000FF", "secondaryLabel": "#3C3C4399", "separator": "#3C3C434A",
        "black": "#000000FF", "white": "#FFFFFFFF", "clear": "#00000000", "red": "#FF0000FF", "green": "#00FF00FF",
        "blue": "#0000FFFF", "cyan": "#00FFFFFF", "magenta": "#FF00FFFF", "yellow": "#FFFF00FF",
        "orange": "#FF8000FF", "purple": "#800080FF", "brown": "#996633FF", "gray": "#808080FF",
        "darkGray": "#555555FF", "lightGray": "#AAAAAAFF",
    ]

    /// A `#RRGGBBAA` colour's components, 0…1, red to alpha; nil for another spelling.
    package static func components(_ hex: String) -> [Double]? {
        let digits = Array(hex.dropFirst())
        guard hex.first == "#", digits.count == 8 else { return nil }
        var result: [Double] = []
        for i in stride(from: 0, to: 8, by: 2) {
            guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
            result.append(Double(byte) / 255)
        }
        return result
    }
}
