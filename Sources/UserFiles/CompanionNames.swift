#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names of the files vcf keeps beside a target: its lock, its temporary files, its backups.
///
/// Each is derived from a bounded stem of the target's name, so a target whose name is near the system's
/// 255-byte limit still has room for them: a name of up to 64 bytes is its own stem; a longer one is cut to
/// 47 bytes and followed by `~` and 16 hex digits of a hash of the whole name, so two long names that share
/// a beginning still get different stems.
enum CompanionNames {
    static let maxPlainStem = 64

    /// The stem for a target named `name`.
    static func stem(_ name: [UInt8]) -> [UInt8] {
        guard name.count > maxPlainStem else { return name }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return Array(name.prefix(47)) + [UInt8(ascii: "~")]
            + Array((String(repeating: "0", count: 16 - hex.count) + hex).utf8)
    }

    /// `.STEM.vcf-lock`.
    static func lock(for name: [UInt8]) -> [UInt8] {
        [UInt8(ascii: ".")] + stem(name) + Array(".vcf-lock".utf8)
    }

    /// What every temporary file for `name` begins with: `.STEM.vcf-tmp-`.
    static func temporaryPrefix(for name: [UInt8]) -> [UInt8] {
        [UInt8(ascii: ".")] + stem(name) + Array(".vcf-tmp-".utf8)
    }

    /// A new temporary name for `name`: the prefix, this process's id, and ten random letters and digits
    /// (about 51 bits), `.contacts.vcf.vcf-tmp-4242-k3v9q0a7zt`.
    static func temporary(for name: [UInt8]) -> [UInt8] {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        let random = (0..<10).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return temporaryPrefix(for: name) + Array("\(getpid())-".utf8) + random
    }

    /// The process id in a temporary name of `name`, when the name has exactly the form `temporary` gives.
    static func processOfTemporary(_ candidate: [UInt8], for name: [UInt8]) -> pid_t? {
        let prefix = temporaryPrefix(for: name)
        guard candidate.count > prefix.count, candidate.starts(with: prefix) else { return nil }
        let rest = candidate[prefix.count...]
        guard let dash = rest.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let digits = rest[..<dash]
        let random = rest[(dash + 1)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            random.count == 10,
            random.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }),
            let pid = pid_t(String(decoding: digits, as: UTF8.self)), pid > 0
        else { return nil }
        return pid
    }

    /// The backup names for `name`, in the order they are tried: `NAME.bak`, then `NAME.bak.2`, `NAME.bak.3`...
    static func backup(for name: [UInt8], number: Int) -> [UInt8] {
        name + Array((number == 1 ? ".bak" : ".bak.\(number)").utf8)
    }
}
