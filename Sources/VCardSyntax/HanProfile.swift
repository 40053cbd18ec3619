// The Han script's profile (characters, not letters) and how a language profile's script maps to the
// detector's, apart from the detector's scoring.
import Foundation

extension LanguageProfile.Script {
    var asScript: CharsetDetector.Script {
        switch self {
        case .latin: .latin
        case .cyrillic: .cyrillic
        case .greek: .greek
        case .hebrew: .hebrew
        case .han: .han
        }
    }
}

/// Japanese and Chinese text by character class: kana, frequent ideographs of names and addresses, other ideographs.
struct HanProfile: Sendable {
    let frequent: Set<Unicode.Scalar>
    /// As `LanguageProfile.prior`.
    let prior: Double
    /// Per character, for hiragana, katakana and half-width katakana.
    let hiragana: Double
    let katakana: Double
    let halfwidthKana: Double

    static let all = [
        HanProfile(
            frequent: LanguageProfiles.japaneseKanji, prior: log(0.04), hiragana: 0.004, katakana: 0.0015,
            halfwidthKana: 0.002),
        HanProfile(
            frequent: LanguageProfiles.simplifiedHan, prior: log(0.03), hiragana: 1e-7, katakana: 1e-7,
            halfwidthKana: 1e-8),
        HanProfile(
            frequent: LanguageProfiles.traditionalHan, prior: log(0.01), hiragana: 1e-7, katakana: 1e-7,
            halfwidthKana: 1e-8),
    ]

    func probability(_ scalar: Unicode.Scalar) -> Double {
        let v = scalar.value
        switch v {
        case 0x3041...0x309F: return hiragana
        case 0x30A0...0x30FF: return katakana
        case 0xFF66...0xFF9F: return halfwidthKana
        case 0x4E00...0x9FFF: return frequent.contains(scalar) ? 0.003 : 0.00005
        default: return 0.000001
        }
    }
}
