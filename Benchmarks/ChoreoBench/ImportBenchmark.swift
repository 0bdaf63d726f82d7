import ChoreoService
import Dispatch
import Foundation

/// `choreo-bench --import`: the importer's own cost on a 2,000-line Swift source (a view
/// controller that makes 80 views and animates each in four ways, with completions, delayed
/// blocks, keyframes and transactions), as `choreo import` pays it: the helper process
/// `choreo-import` (beside this binary, release build) started, the source parsed, lowered and
/// evaluated, the result written. The baseline in the same run is the same helper on an empty
/// source: what starting the process and loading SwiftSyntax cost, whatever the source.
enum ImportBenchmark {
    /// Views of the generated source: 80 make 2,000 lines.
    static let views = 80

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

    /// Runs the helper on `source` as `choreo import` and the server do (``HelperProcess``):
    /// the wall time in milliseconds, and the phases it reports (`--timing`: parse and lower,
    /// evaluate, write).
    static func run(_ helper: String, _ source: String) -> (wall: Double, phases: [Double]) {
        let start = DispatchTime.now().uptimeNanoseconds
        let outcome = HelperProcess.run(
            helper, ["--language", "swift", "--timing"], input: Array(source.utf8), deadline: 60, outputLimit: 64 << 20)
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        guard outcome.ending == .exited(0), outcome.output.count > 100 else {
            FileHandle.standardError.write(Data("choreo-import failed (\(outcome.ending))\n".utf8))
            exit(1)
        }
        // "timing: parse and lower P ms, evaluate E ms, write W ms"
        let report = String(decoding: outcome.errorOutput, as: UTF8.self)
        let phases = report.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        return (elapsed, phases)
    }

    /// The toolchain's own parser on the same file (`swiftc -parse`, the whole process, started
    /// the same way), for scale.
    static func swiftcParse(_ source: String) -> Double? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("choreo-bench-import.swift")
        guard (try? source.write(to: file, atomically: true, encoding: .utf8)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(at: file) }
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let swiftc = path else { return nil }
        var times: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome = HelperProcess.run(
                swiftc, ["-parse", file.path], input: [], deadline: 60, outputLimit: 1 << 20)
            guard outcome.ending == .exited(0) else { return nil }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return times.sorted()[times.count / 2]
    }

    static func run() {
        let helper = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("choreo-import").path
        guard FileManager.default.isExecutableFile(atPath: helper) else {
            FileHandle.standardError.write(Data("no \(helper): make build-release installs it\n".utf8))
            exit(1)
        }
        let big = source(views: views)
        let lineCount = big.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        let empty = "import UIKit\nlet x = 1\nprint(x)\n"
        _ = run(helper, empty)
        _ = run(helper, big)
        var floor: [Double] = []
        var full: [Double] = []
        var parse: [Double] = []
        var evaluate: [Double] = []
        for _ in 0..<9 {
            floor.append(run(helper, empty).wall)
            let measured = run(helper, big)
            full.append(measured.wall)
            if measured.phases.count == 3 {
                parse.append(measured.phases[0])
                evaluate.append(measured.phases[1])
            }
        }
        func median(_ values: [Double]) -> Double { values.isEmpty ? 0 : values.sorted()[values.count / 2] }
        func tenth(_ value: Double) -> Double { (value * 10).rounded() / 10 }
        var result: [String: Any] = [
            "benchmark": "import",
            "lines": lineCount,
            "bytes": big.utf8.count,
            "runs": full.count,
            "import_ms_median": tenth(median(full)),
            "import_ms_max": tenth(full.max()!),
            "empty_source_ms_median": tenth(median(floor)),
            "parse_and_lower_ms_median": tenth(median(parse)),
            "evaluate_ms_median": tenth(median(evaluate)),
        ]
        if let swiftc = swiftcParse(big) { result["swiftc_parse_process_ms_median"] = tenth(swiftc) }
        let data = try! JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }
}
