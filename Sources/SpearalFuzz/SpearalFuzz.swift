// libFuzzer target for the Spearal decoder.
//
// Build with libFuzzer and AddressSanitizer (from the package root):
//
//   swift build -c debug --scratch-path .build-fuzz --product SpearalFuzz \
//     -Xswiftc -sanitize=fuzzer,address -Xswiftc -DSPEARAL_FUZZING
//
// (`--scratch-path` keeps the instrumented build away from `.build`; in a package whose other
// dependencies cannot be fetched again, drop it and expect `.build/debug` to rebuild afterwards.)
//
// Run, e.g. for 60 seconds (the corpus directory is optional and grows as coverage is found):
//
//   mkdir -p .fuzz-corpus && .build-fuzz/debug/SpearalFuzz .fuzz-corpus -max_total_time=60 -max_len=4096
//
// Without those flags (`swift build`, `swift run SpearalFuzz <files>`) the same executable replays
// the given files through the same checks, which is how a crash found by the fuzzer is reproduced.
//
// SwiftPM renames an executable's entry point and links `main` to it, which hides libFuzzer's own
// `main`; so in fuzzing builds our entry point hands control to libFuzzer's `LLVMFuzzerRunDriver`.
import Foundation
import Spearal

/// A Codable shape that matches some beans, to exercise the bridge on fuzzed input.
private struct FuzzPerson: Codable {
    var id: Int?
    var name: String?
    var tags: [String]?
    var scores: [String: Double]?
    var when: Date?
    var blob: Data?
}

/// Decodes one input; whatever decodes must re-encode, decode again, print and map onto Codable.
@_cdecl("LLVMFuzzerTestOneInput")
public func spearalFuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let decoder = SpearalDecoder(options: SpearalDecodingOptions(maxDepth: 48))
    guard let value = try? decoder.decodeValue(from: data) else { return 0 }
    defer { value.dismantle() }
    guard let reencoded = try? SpearalEncoder().encodeValue(value) else {
        fatalError("a decoded value must re-encode: \(value)")
    }
    guard let again = try? decoder.decodeValue(from: reencoded) else {
        fatalError("re-encoded bytes must decode: \(value)")
    }
    again.dismantle()
    _ = SpearalPrinter().print(value)
    _ = try? decoder.decode(FuzzPerson.self, fromValue: value)
    _ = try? decoder.decode([FuzzPerson].self, fromValue: value)
    return 0
}

#if SPEARAL_FUZZING
/// libFuzzer's driver (C ABI: pointers and an int, passed the same way by Swift on x86-64 and arm64).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif

@main
enum SpearalFuzz {
    static func main() throws {
        #if SPEARAL_FUZZING
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(runFuzzerDriver(&argc, &argv, spearalFuzzTestOneInput))
        #else
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            print("usage: SpearalFuzz <input files> (replay); see the top of SpearalFuzz.swift to fuzz")
            return
        }
        for path in paths {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            _ = bytes.withUnsafeBufferPointer { spearalFuzzTestOneInput($0.baseAddress, $0.count) }
            print("replayed \(path) (\(bytes.count) bytes)")
        }
        #endif
    }
}
