import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An independent QR reader for tests: Debian's `zbarimg` (zbar-tools). Tests that need it are skipped, with a
/// message saying so, when it is not installed.
public enum QRReader {
    /// The `zbarimg` executable, if installed.
    public static let zbarimg: String? = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// ImageMagick's `convert`, to rasterise SVG; /usr/local/bin/convert on this machine is another program.
    public static let imageMagick: String? = {
        let path = "/usr/bin/convert"
        guard FileManager.default.isExecutableFile(atPath: path),
            let version = try? run(path, ["-version"]), version.status == 0,
            String(decoding: version.out, as: UTF8.self).contains("ImageMagick")
        else { return nil }
        return path
    }()

    /// The bytes of the one QR code in the image at `path`, exactly as encoded (`--raw`: no character set
    /// guessing), or, with `raw` false, as zbar converts them to UTF-8 (it honours an ECI designator and
    /// guesses without one). nil when zbar finds no code.
    public static func decode(imageAt path: String, raw: Bool = true) throws -> [UInt8]? {
        guard let zbarimg else { return nil }
        let result = try run(zbarimg, ["-q", "--nodbus"] + (raw ? ["--raw"] : []) + [path])
        guard result.status == 0 else { return nil }
        var out = result.out
        // zbarimg ends each symbol with a newline of its own.
        if out.last == 0x0A { out.removeLast() }
        if !raw, out.starts(with: Array("QR-Code:".utf8)) { out.removeFirst(8) }
        return out
    }

    /// Decodes a bitmap (true is dark), drawn `scale` pixels a module, written as a PGM file.
    public static func decode(bitmap: [[Bool]], scale: Int = 4, raw: Bool = true) throws -> [UInt8]? {
        let path = temporaryPath("pgm")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(pgm(bitmap, scale: scale)).write(to: URL(fileURLWithPath: path))
        return try decode(imageAt: path, raw: raw)
    }

    /// Decodes image bytes (PNG, or SVG when ImageMagick is there to rasterise it).
    public static func decode(image: [UInt8], extension ext: String, raw: Bool = true) throws -> [UInt8]? {
        let path = temporaryPath(ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(image).write(to: URL(fileURLWithPath: path))
        guard ext == "svg" else { return try decode(imageAt: path, raw: raw) }
        guard let imageMagick else { return nil }
        let png = temporaryPath("png")
        defer { try? FileManager.default.removeItem(atPath: png) }
        guard try run(imageMagick, [path, png]).status == 0 else { return nil }
        return try decode(imageAt: png, raw: raw)
    }

    /// A binary PGM (P5) of `bitmap`, dark as black, with no border of its own.
    public static func pgm(_ bitmap: [[Bool]], scale: Int) -> [UInt8] {
        let height = bitmap.count * scale
        let width = (bitmap.first?.count ?? 0) * scale
        var out = Array("P5\n\(width) \(height)\n255\n".utf8)
        for row in bitmap {
            var line: [UInt8] = []
            for dark in row { line += [UInt8](repeating: dark ? 0 : 255, count: scale) }
            for _ in 0..<scale { out += line }
        }
        return out
    }

    /// A fresh path in the temporary directory.
    public static func temporaryPath(_ ext: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vcf-qr-\(UUID().uuidString).\(ext)").path
    }

    /// Runs a program to completion, returning its exit status and standard output.
    public static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, out: [UInt8]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](data))
    }

    /// Runs a program that may leave a daemon behind (`tmux new-session` starts a server) with its standard
    /// streams on /dev/null, and waits for the program alone. Foundation's `Process` would wait for the daemon
    /// too, which inherits a descriptor it watches. Returns the wait status, or -1 when it cannot start.
    public static func runLeavingDaemon(_ program: String, _ arguments: [String]) -> Int32 {
        var pid: pid_t = 0
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        guard posix_spawn(&pid, program, &actions, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status
    }
}

/// Reads a half-block drawing of a QR code back into modules: what a test needs to check the terminal output,
/// whether printed plainly or captured from a terminal with its colour codes (`tmux capture-pane -e`).
public enum HalfBlockReader {
    /// A colour the drawing set, as a scanner sees it; nil is the terminal's default.
    typealias Shade = Bool?

    /// The bitmap (true is dark) of the drawing's lines: from the first line made only of block characters
    /// and spaces to the line before the first that is not. Each cell takes its colours from the SGR codes
    /// before it; where none are set, the terminal is taken to be light on dark, the one a drawing without
    /// colour is made for.
    public static func bitmap(_ text: String) -> [[Bool]] {
        var foreground: Shade = nil
        var background: Shade = nil
        var rows: [[Bool]] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var top: [Bool] = []
            var bottom: [Bool] = []
            var isDrawing = true
            var scalars = Array(line.unicodeScalars)[...]
            while isDrawing, let scalar = scalars.popFirst() {
                if scalar == "\u{1B}" {
                    // A CSI sequence: parameters, then one final byte; only SGR (m) matters here.
                    guard scalars.first == "[" else { continue }
                    scalars = scalars.dropFirst()
                    var parameters = ""
                    while let next = scalars.first, !(0x40...0x7E).contains(next.value) {
                        parameters.unicodeScalars.append(next)
                        scalars = scalars.dropFirst()
                    }
                    if scalars.popFirst() == "m" { apply(parameters, foreground: &foreground, background: &background) }
                    continue
                }
                let ink = foreground ?? false
                let paper = background ?? true
                switch scalar {
                case "█": (top, bottom) = (top + [ink], bottom + [ink])
                case "▀": (top, bottom) = (top + [ink], bottom + [paper])
                case "▄": (top, bottom) = (top + [paper], bottom + [ink])
                case " ": (top, bottom) = (top + [paper], bottom + [paper])
                case "\r": break
                default: isDrawing = false
                }
            }
            if isDrawing && !top.isEmpty {
                rows.append(top)
                rows.append(bottom)
            } else if !rows.isEmpty {
                break
            }
        }
        return rows
    }

    /// Applies SGR parameters: resets, the 16 colours, 256 colours (`38;5;N`) and true colour (`38;2;R;G;B`).
    private static func apply(_ parameters: String, foreground: inout Shade, background: inout Shade) {
        var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
        if codes.isEmpty { codes = [0] }
        while let code = codes.popFirst() {
            switch code {
            case 0:
                foreground = nil
                background = nil
            case 30...37, 90...97: foreground = code == 30 || code == 90
            case 40...47, 100...107: background = code == 40 || code == 100
            case 39: foreground = nil
            case 49: background = nil
            case 38, 48:
                var dark = false
                if codes.first == 5, codes.count >= 2 {
                    let n = codes[codes.startIndex + 1]
                    dark = n == 0 || n == 8 || n == 16 || (232...243).contains(n)
                    codes = codes.dropFirst(2)
                } else if codes.first == 2, codes.count >= 4 {
                    dark = codes.dropFirst().prefix(3).reduce(0, +) < 3 * 128
                    codes = codes.dropFirst(4)
                }
                if code == 38 { foreground = dark } else { background = dark }
            default: break
            }
        }
    }
}
