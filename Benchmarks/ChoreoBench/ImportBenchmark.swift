import Dispatch
import Foundation

/// `choreo-bench --import`: the importer's own cost on a 2,000-line Swift source (a view
/// controller that makes 100 views and animates each in four ways, with completions, delayed
/// blocks, keyframes and transactions), as `choreo import` pays it: the helper process
/// `choreo-import` (beside this binary, release build) started, the source parsed, lowered and
/// evaluated, the result written. The baseline in the same run is the same helper on an empty
/// source: what starting the process and loading SwiftSyntax cost, whatever the source.
enum ImportBenchmark {
    static func source(views: Int) -> String {
        var lines = [
            "import UIKit", "", "final class StressViewController: UIViewController {",
        ]
        for i in 0..<views { lines.append("    private let card\(i) = UIView()") }
        lines += ["", "    override func viewDidLoad() {", "        super.viewDidLoad()"]
        for i in 0..<views {
            lines += [
                "        card\(i).frame = CGRect(x: \(i % 10 * 36), y: \(i / 10 * 60), width: 30, height: 50)",
                "        card\(i).backgroundColor = UIColor(red: \(Double(i % 7) / 7), green: 0.5, blue: 0.8, alpha: 1)",
                "        card\(i).layer.cornerRadius = \(i % 5 * 2)",
                "        view.addSubview(card\(i))",
            ]
        }
        lines += [
            "    }", "", "    override func viewDidAppear(_ animated: Bool) {", "        super.viewDidAppear(animated)",
        ]
        for i in 0..<views { lines.append("        animate\(i)(delay: \(Double(i) * 0.05))") }
        lines.append("    }")
        for i in 0..<views {
            lines += [
                "",
                "    func animate\(i)(delay: TimeInterval) {",
                "        UIView.animate(withDuration: 0.4, delay: delay, options: [.curveEaseOut], animations: {",
                "            self.card\(i).transform = CGAffineTransform(scaleX: 1.2, y: 1.2).rotated(by: .pi / 8)",
                "            self.card\(i).alpha = 0.6",
                "        }) { finished in",
                "            guard finished else { return }",
                "            UIView.animate(withDuration: 0.3, delay: 0, usingSpringWithDamping: 0.6, initialSpringVelocity: 0.4) {",
                "                self.card\(i).transform = .identity",
                "            }",
                "        }",
                "        DispatchQueue.main.asyncAfter(deadline: .now() + 1.5 + delay) {",
                "            let fade = CABasicAnimation(keyPath: \"opacity\")",
                "            fade.fromValue = 0.6",
                "            fade.toValue = 1",
                "            fade.duration = 0.25",
                "            self.card\(i).layer.add(fade, forKey: \"fade\")",
                "        }",
                "    }",
            ]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the helper on `source` and returns the wall time in milliseconds.
    static func run(_ helper: String, _ source: String) -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper)
        process.arguments = ["--language", "swift"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        let start = DispatchTime.now().uptimeNanoseconds
        try? process.run()
        input.fileHandleForWriting.write(Data(source.utf8))
        try? input.fileHandleForWriting.close()
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard process.terminationStatus == 0, answer.count > 100 else {
            FileHandle.standardError.write(Data("choreo-import failed (\(process.terminationStatus))\n".utf8))
            exit(1)
        }
        return elapsed
    }

    static func run() {
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("choreo-import").path
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            FileHandle.standardError.write(Data("no \(helper): make build-release installs it\n".utf8))
            exit(1)
        }
        let big = source(views: 100)
        let lineCount = big.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let empty = "import UIKit\nlet x = 1\nprint(x)\n"
        _ = run(helper, empty)
        _ = run(helper, big)
        var floor: [Double] = []
        var full: [Double] = []
        for _ in 0..<9 {
            floor.append(run(helper, empty))
            full.append(run(helper, big))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let result: [String: Any] = [
            "benchmark": "import",
            "lines": lineCount,
            "bytes": big.utf8.count,
            "runs": full.count,
            "import_ms_median": (median(full) * 10).rounded() / 10,
            "import_ms_max": (full.max()! * 10).rounded() / 10,
            "empty_source_ms_median": (median(floor) * 10).rounded() / 10,
            "source_work_ms_median": ((median(full) - median(floor)) * 10).rounded() / 10,
        ]
        let data = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
