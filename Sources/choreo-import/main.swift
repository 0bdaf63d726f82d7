import ChoreoImport
import ChoreoJSON
import ChoreoObjCImport
import ChoreoSwiftImport
import Glibc

/// `choreo-import`: the helper process an import runs in. It reads source code on standard
/// input and writes the import's result (`{"scene", "diagnostics", "sourceMap"}`) as JSON on
/// standard output. `choreo import` and `POST /v1/import` start it under limits (address
/// budget, CPU time, no files, no core dumps; the parent adds a wall-clock deadline) and behind
/// walls (``Sandbox``: an empty root, no capabilities, a seccomp filter), so that a parser
/// meeting hostile input can crash or run away without taking the server with it, and reaches
/// no file of the machine.
///
///     choreo-import --language swift|objc [--entry NAME] [--name NAME] [--reduce-motion] [--screen WxH]
///                   [--memory BYTES] [--cpu SECONDS] [--file NAME BYTES]…
///
/// Standard input holds the file imported, then each `--file`'s bytes in order: the files read
/// with it (the rest of its Swift module; Objective-C headers and implementations).

/// A line on standard error.
func complain(_ text: String) {
    let line = Array("choreo-import: \(text)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func limit(_ resource: Int32, _ value: UInt64) {
    var bound = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(value))
    _ = setrlimit(__rlimit_resource_t(UInt32(resource)), &bound)
}

var language: SourceLanguage?
var options = ImportOptions()
var name: String?
/// The import's memory budget (``MemoryWatch``): resident bytes no file backs.
var memory: UInt64 = 256 << 20
var cpu: UInt64 = 10
/// `--timing`: the phases' times on standard error (choreo-bench --import reads them).
var timing = false
/// The files read with the imported one: name and byte count.
var companions: [(name: String, bytes: Int)] = []
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--language": language = arguments.next().flatMap(SourceLanguage.init(rawValue:))
    case "--entry": options.entry = arguments.next()
    case "--name": name = arguments.next()
    case "--reduce-motion": options.reduceMotion = true
    case "--screen":
        guard let screen = arguments.next().flatMap(ImportScreen.parse) else {
            complain("--screen \(ImportScreen.expected)")
            exit(2)
        }
        options.screen = screen
    case "--tap":
        guard let tap = arguments.next().flatMap(ImportTap.parse) else {
            complain("--tap \(ImportTap.expected)")
            exit(2)
        }
        options.taps.append(tap)
    case "--timing": timing = true
    case "--memory": memory = arguments.next().flatMap { UInt64($0) } ?? memory
    case "--cpu": cpu = arguments.next().flatMap { UInt64($0) } ?? cpu
    case "--file":
        guard let name = arguments.next(), let count = arguments.next().flatMap({ Int($0) }), count >= 0 else {
            complain("--file takes a name and a byte count")
            exit(2)
        }
        companions.append((name, count))
    default:
        complain("unknown argument \(argument)")
        exit(2)
    }
}
guard let language else {
    complain("--language swift|objc is required")
    exit(2)
}
// The address space has room for the libraries' mappings beside the budget: the watch stops
// the import at its budget, the limit what outruns the watch.
limit(Int32(RLIMIT_AS.rawValue), memory + (2 << 30))
limit(Int32(RLIMIT_CPU.rawValue), cpu)
limit(Int32(RLIMIT_CORE.rawValue), 0)
// No file may be written. Only when the answer goes to pipes, as `choreo import` and the server
// read it: a file size limit of 0 would also stop an output redirected to a file by hand.
func isPipe(_ fd: Int32) -> Bool {
    var status = stat()
    return fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO
}
if isPipe(1) && isPipe(2) { limit(Int32(RLIMIT_FSIZE.rawValue), 0) }

// The walls go up before the first byte of the source is read, once what they would keep out
// is loaded: libclang for Objective-C (dlopen reads it from disk). A helper that cannot put up
// its required wall reads nothing.
if language == .objc { ObjCFrontEnd.loadLibrary() }
let watched = MemoryWatch.open()
switch Sandbox.enter() {
case .success(let walls):
    let line = Array("walls: \(walls.root); no capabilities; seccomp filter\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
case .failure(let error):
    complain("the import cannot be walled off here: \(error)")
    exit(6)
}
if watched { MemoryWatch.start(budget: Int(clamping: memory)) }

// The source, bounded.
var source: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65536)
while true {
    let count = read(0, &chunk, chunk.count)
    if count <= 0 { break }
    source += chunk[0..<count]
    if source.count > options.limits.sourceBytes {
        complain("the source is larger than \(options.limits.sourceBytes) bytes")
        exit(3)
    }
}
/// Milliseconds on the monotonic clock, for `--timing`.
func milliseconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) * 1000 + Double(now.tv_nsec) / 1e6
}

/// Where the import is, on standard error: a helper that crashes or is killed is reported with
/// the stage it had reached.
func stage(_ name: String) {
    MemoryWatch.enter(name)
    let line = Array("stage: \(name)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let started = milliseconds()
// The imported file first, then the files read with it.
let companionBytes = companions.reduce(0) { $0 + $1.bytes }
guard companionBytes <= source.count else {
    complain("the --file byte counts add up to more than standard input holds")
    exit(2)
}
var files: [(name: String, text: String)] = []
var cursor = source.count - companionBytes
files.append((name ?? "input", String(decoding: source[0..<cursor], as: UTF8.self)))
for companion in companions {
    files.append((companion.name, String(decoding: source[cursor..<(cursor + companion.bytes)], as: UTF8.self)))
    cursor += companion.bytes
}
stage(language == .swift ? "parsing the Swift source" : "parsing the Objective-C source")
var unit = SourceUnit()
switch language {
case .swift:
    // A module's files see each other's declarations.
    for (index, file) in files.enumerated() { unit.join(SwiftFrontEnd.lower(file.text, file: index)) }
case .objc:
    // Each implementation is a translation unit of its own; headers are what they include.
    let headers = files.dropFirst().filter { $0.name.hasSuffix(".h") }
    for (index, file) in files.enumerated() where index == 0 || !file.name.hasSuffix(".h") {
        unit.join(ObjCFrontEnd.lower(file.text, file: index, headers: Array(headers)))
    }
}
let lowered = milliseconds()
stage("evaluating")
let result = Importer.run(unit, options: options, name: name, files: files.map(\.name))
stage("writing the scene")
let evaluated = milliseconds()
var writer = JSONWriter(capacity: 1 << 16)
writer.value(result.json)
writer.byte(UInt8(ascii: "\n"))
if timing {
    complain(
        "timing: parse and lower \(lowered - started) ms, evaluate \(evaluated - lowered) ms, "
            + "write \(milliseconds() - evaluated) ms")
}
let bytes = writer.bytes
var written = 0
while written < bytes.count {
    let n = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
    if n <= 0 { exit(4) }
    written += n
}
exit(0)
