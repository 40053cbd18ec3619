import Foundation

/// Letter statistics of the languages whose text reaches vCard files in legacy character sets, for
/// `CharsetDetector`. Our own tables, written from the languages' well-known letter frequencies: each lists the
/// letters outside ASCII with roughly how many of every thousand letters of ordinary text (names, addresses,
/// notes) they are, and the share of ASCII letters. They need not be exact: they only have to make the right
/// reading of a byte far more likely than the wrong readings, which put rare letters, symbols and case changes
/// in the middle of words.
struct LanguageProfile: Sendable {
    /// The script of the language's letters outside ASCII.
    enum Script: Sendable { case latin, cyrillic, greek, hebrew, han }

    let name: String
    let script: Script
    /// Per mille of letters, keyed by the lower-case letter.
    let letters: [Unicode.Scalar: Double]
    /// The share of letters that are ASCII (A-Z), per mille.
    let asciiLetters: Double
    /// How likely, as a log, a card in a legacy charset is in this language: English, German and French
    /// exports are far more common than Icelandic ones, so a reading as Icelandic needs more letters for it.
    let prior: Double
    /// The log-probability of one ASCII letter.
    let logASCIILetter: Double
    /// A letter of the language's script it does not list, and a letter of another script.
    static let logUnlistedLetter = log(0.05 / 1000)
    static let logForeignLetter = log(0.005 / 1000)

    init(_ name: String, _ script: Script, ascii: Double? = nil, prior: Double, _ table: String) {
        self.name = name
        self.script = script
        self.prior = log(prior)
        var letters: [Unicode.Scalar: Double] = [:]
        // "é 19 è 2.7 ..." pairs.
        let parts = table.split(whereSeparator: { $0 == " " || $0 == "\n" })
        var index = 0
        while index + 1 < parts.count {
            if let scalar = parts[index].unicodeScalars.first, let value = Double(parts[index + 1]) {
                letters[scalar] = value
            }
            index += 2
        }
        self.letters = letters
        let asciiLetters = ascii ?? max(1000 - letters.values.reduce(0, +), 1)
        self.asciiLetters = asciiLetters
        logASCIILetter = log(asciiLetters / 26_000)
    }
}

enum LanguageProfiles {
    /// Every profile of an alphabetic script.
    static let all: [LanguageProfile] = latin + cyrillic + [greek, hebrew]

    /// Every letter some profile lists, lower case, each once: the index of a letter in this list is its id.
    static let letters: [Unicode.Scalar] = Set(all.flatMap(\.letters.keys)).sorted { $0.value < $1.value }

    static let letterIDs: [Unicode.Scalar: Int] = Dictionary(
        uniqueKeysWithValues: letters.enumerated().map { ($1, $0) })

    static let count = all.count
    static let priors: [Double] = all.map(\.prior)
    static let logASCIILetters: [Double] = all.map(\.logASCIILetter)
    static let scripts: [CharsetDetector.Script] = all.map(\.script.asScript)

    /// For each profile of `all`, the log-probability of each letter by id (one it does not list: as unlisted,
    /// or foreign when of another script), row after row, so scoring indexes an array instead of hashing.
    static let logByID: [Double] = all.flatMap { profile in
        letters.map { letter in
            if let perMille = profile.letters[letter] { return log(perMille / 1000) }
            let own = CharsetDetector.Script(letter) == profile.script.asScript
            return own ? LanguageProfile.logUnlistedLetter : LanguageProfile.logForeignLetter
        }
    }

    static let latin: [LanguageProfile] = [
        LanguageProfile("English", .latin, ascii: 999, prior: 0.2, "é 0.3"),
        LanguageProfile(
            "French", .latin, prior: 0.08,
            "é 19 è 2.7 ê 2.2 à 4.9 â 0.5 ç 0.8 ù 0.6 û 0.6 î 0.5 ï 0.05 ô 0.2 ë 0.1 œ 0.1"),
        LanguageProfile("German", .latin, prior: 0.1, "ä 5.8 ö 3.0 ü 6.5 ß 3.1 é 0.1"),
        LanguageProfile("Spanish", .latin, prior: 0.07, "á 5 é 4.3 í 7 ó 8.3 ú 1.7 ñ 3.1 ü 0.1"),
        LanguageProfile(
            "Portuguese", .latin, prior: 0.04, "á 3.7 â 0.7 ã 7.3 à 0.4 ç 5.3 é 3.4 ê 4.5 í 1.3 ó 3 ô 0.6 õ 0.4 ú 1.1"),
        LanguageProfile("Italian", .latin, prior: 0.05, "à 6 è 2.6 é 0.3 ì 1 ò 1.2 ù 1.7"),
        LanguageProfile("Dutch", .latin, prior: 0.03, "ë 0.2 é 0.4 ï 0.1 ö 0.05 è 0.05"),
        LanguageProfile("Danish and Norwegian", .latin, prior: 0.02, "æ 8.7 ø 9.4 å 12 é 0.1"),
        LanguageProfile("Swedish", .latin, prior: 0.02, "å 13.4 ä 18 ö 13.1 é 0.2"),
        LanguageProfile("Finnish", .latin, prior: 0.01, "ä 36 ö 4.4 å 0.1"),
        LanguageProfile(
            "Icelandic", .latin, prior: 0.002, "á 18 é 6.5 í 15.7 ó 9.9 ú 6.4 ý 2.3 þ 4.5 ð 43.9 æ 8.6 ö 7.8"),
        LanguageProfile("Polish", .latin, prior: 0.04, "ą 9.9 ć 4 ę 11 ł 18 ń 2 ó 8.5 ś 6.6 ź 0.6 ż 8.3"),
        LanguageProfile(
            "Czech", .latin, prior: 0.03,
            "á 8.7 č 4.6 ď 0.2 é 6.3 ě 12.2 í 8.4 ň 0.7 ó 0.2 ř 3.8 š 6.9 ť 0.4 ú 0.6 ů 2.2 ý 3 ž 10"),
        LanguageProfile(
            "Slovak", .latin, prior: 0.01,
            "á 20 ä 0.1 č 4.6 ď 0.8 é 5.8 í 12 ĺ 0.1 ľ 3.3 ň 0.9 ó 0.9 ô 0.8 ŕ 0.04 š 9 ť 3.6 ú 2.5 ý 3.2 ž 7"),
        LanguageProfile("Hungarian", .latin, prior: 0.02, "á 34 é 26 í 7 ó 8.5 ö 6.6 ő 7.2 ú 2 ü 1.8 ű 1.1"),
        LanguageProfile("Croatian and Slovenian", .latin, prior: 0.02, "č 11 ć 7 đ 4 š 6 ž 5"),
        LanguageProfile("Romanian", .latin, prior: 0.01, "ă 18 â 6 î 9 ș 7 ț 9 ş 7 ţ 9"),
        LanguageProfile("Turkish", .latin, prior: 0.02, "ç 11 ğ 11 ı 51 ö 8 ş 17 ü 18"),
        LanguageProfile(
            "Baltic", .latin, prior: 0.01, "ā 40 č 3 ē 17 ģ 1 ī 17 ķ 2 ļ 4 ņ 4 š 5 ū 5 ž 2 ą 6 ę 2 ė 6 į 5 ų 4"),
    ]

    static let cyrillic: [LanguageProfile] = [
        LanguageProfile(
            "Russian", .cyrillic, ascii: 50, prior: 0.08,
            """
            о 109.7 е 84.5 а 80.1 и 73.5 н 67 т 62.6 с 54.7 р 47.3 в 45.4 л 44 к 34.9 м 32.1 д 29.8 п 28.1 у 26.2 \
            я 20.1 ы 19 ь 17.4 г 17 з 16.5 б 15.9 ч 14.4 й 12.1 х 9.7 ж 9.4 ш 7.3 ю 6.4 ц 4.8 щ 3.6 э 3.2 ф 2.6 \
            ъ 0.4 ё 1.5
            """),
        LanguageProfile(
            "Ukrainian", .cyrillic, ascii: 50, prior: 0.02,
            """
            о 94 а 72 н 65 и 61 і 57 в 54 т 50 е 49 р 47 с 42 к 36 у 34 д 33 л 32 п 29 м 29 я 20 з 21 ь 17 г 16 \
            б 16 ч 12 х 12 й 9 ц 10 ж 8 ю 8 ї 6 ш 7 є 4 щ 4 ф 2 ґ 0.2
            """),
        LanguageProfile(
            "Bulgarian", .cyrillic, ascii: 50, prior: 0.01,
            """
            а 91 о 87 и 85 е 84 н 68 т 66 р 55 с 52 в 44 л 40 к 38 д 33 п 31 м 30 я 22 з 19 ъ 18 г 16 б 14 ч 13 \
            у 11 ж 7 ц 7 ш 6 х 5 щ 4 ю 2 ф 1 й 1 ь 0.3
            """),
        LanguageProfile(
            "Serbian", .cyrillic, ascii: 50, prior: 0.01,
            """
            а 115 и 98 о 90 е 85 н 60 р 50 с 49 т 45 ј 45 у 42 в 38 к 37 д 35 п 29 л 28 м 30 з 16 г 16 б 15 ч 11 \
            ш 10 њ 5 ц 8 ћ 6 ж 6 х 3 љ 3 ђ 1 џ 0.5 ф 0.5
            """),
    ]

    static let greek = LanguageProfile(
        "Greek", .greek, ascii: 50, prior: 0.02,
        """
        α 100 ο 80 ι 72 ε 70 τ 75 σ 55 ς 20 ν 65 η 45 υ 35 ρ 45 π 38 κ 38 μ 32 λ 28 ω 12 γ 16 δ 14 θ 12 χ 10 \
        φ 7 β 6 ξ 5 ζ 4 ψ 1.5 ά 17 έ 14 ή 11 ί 16 ό 15 ύ 8 ώ 6 ϊ 0.2 ϋ 0.1 ΐ 0.05 ΰ 0.02
        """)

    static let hebrew = LanguageProfile(
        "Hebrew", .hebrew, ascii: 50, prior: 0.01,
        """
        י 110 ו 105 ה 87 ל 74 א 63 ר 56 ת 53 ב 48 מ 46 ש 43 ע 33 נ 30 ם 25 ד 26 כ 24 ח 22 ק 21 פ 16 ן 15 ס 12 \
        ג 12 ט 12 צ 10 ז 8 ך 6 ף 3 ץ 2
        """)

    /// Frequent characters of Japanese names, places and addresses (kanji; kana are scored by class).
    static let japaneseKanji: Set<Unicode.Scalar> = Set(
        """
        佐藤鈴木高橋田中渡辺伊藤山本中村小林加藤吉田山田口松井上木村清水崎森阿部池橋下石川島前藤原岡後長谷近斎坂遠青\
        西福太三浦野野村上川口原大小和子郎一二三四五六七八九十百千万円年月日時分東京都大阪府北海道県市区町村丁目番地号\
        新宿渋谷港品川横浜名古屋神戸福岡札幌仙台広島京都奈良千葉埼玉静岡株式会社有限合同事務所営業部課長様殿電話携帯自\
        宅勤務先住所郵便番氏名花美恵愛幸正明博和宏健太翔大輝翼陽菜結衣咲優真由紀子代江香里奈沙織直樹誠治茂夫雄男女学校\
        院病科店館駅前通本町南北中央丸内外内田村松竹梅桜菊雪月光風海空星石金銀銅鉄林森谷沢池浜島橋坂岩瀬野原田畑
        """.unicodeScalars.filter { $0.value >= 0x3400 })

    /// Frequent simplified Chinese characters of names, places and addresses.
    static let simplifiedHan: Set<Unicode.Scalar> = Set(
        """
        王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔\
        钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤小明华伟芳娜秀英\
        敏静丽强磊军洋勇艳杰涛超霞平刚桂兰玲红梅飞鹏辉建国志文俊德云海波宇浩佳晨思雨欣怡子涵轩北京上海广州深圳天津重\
        庆南成都武汉杭西安沈阳大连青岛苏州市省区县镇乡村街道路号楼室单元栋层弄巷中心公司有限责任集团科技电话手机邮箱\
        地址部门经理总监主任先生女士学校医院银行东南西北新华人民路街大道花园小区
        """.unicodeScalars.filter { $0.value >= 0x3400 })

    /// Frequent traditional Chinese characters of names, places and addresses.
    static let traditionalHan: Set<Unicode.Scalar> = Set(
        """
        王李張劉陳楊黃趙吳周徐孫馬朱胡郭何高林羅鄭梁謝宋唐許韓馮鄧曹彭曾蕭田董袁潘於蔣蔡余杜葉程蘇魏呂丁任沈姚盧姜崔\
        鍾譚陸汪范金石廖賈夏韋付方白鄒孟熊秦邱江尹薛段雷侯龍史陶黎賀顧毛郝龔邵萬錢嚴武戴莫孔向湯小明華偉芳娜秀英敏靜\
        麗強磊軍洋勇艷傑濤超霞平剛桂蘭玲紅梅飛鵬輝建國志文俊德雲海波宇浩佳晨思雨欣怡美淑惠珍雅婷君怡臺台北市新竹高雄\
        中桃園基隆香港九龍灣仔區縣鄉鎮村里鄰路街段巷弄號樓室大道公司有限股份集團科技電話手機信箱地址部門經理總監主任\
        先生女士學校醫院銀行東南西北信義忠孝仁愛和平民生復興中山中正光明
        """.unicodeScalars.filter { $0.value >= 0x3400 })
}
