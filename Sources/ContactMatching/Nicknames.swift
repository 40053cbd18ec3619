/// Common English given-name nicknames: each group is one name and the short forms people use for it.
enum Nicknames {
    /// Groups, the formal name first. A short form may belong to several (`alex`, `chris`, `sam`).
    static let groups: [[String]] = [
        ["robert", "bob", "bobby", "rob", "robbie", "bert"], ["william", "bill", "billy", "will", "willy", "liam"],
        ["elizabeth", "liz", "lizzie", "beth", "betty", "betsy", "eliza", "libby"], ["james", "jim", "jimmy", "jamie"],
        ["katherine", "kate", "kathy", "katie", "kat", "kay"], ["catherine", "cathy", "kate", "katie", "cat"],
        ["michael", "mike", "mikey", "mick"], ["thomas", "tom", "tommy"], ["richard", "rick", "ricky", "dick", "rich"],
        ["margaret", "peggy", "maggie", "meg", "marge", "margie", "greta"], ["anthony", "tony"],
        ["alexander", "alex", "al", "sandy", "xander"], ["alexandra", "alex", "sandra", "sandy", "lexi"],
        ["christopher", "chris", "kit"], ["christine", "chris", "tina", "chrissy"], ["christina", "chris", "tina"],
        ["jennifer", "jen", "jenny", "jenn"], ["daniel", "dan", "danny"], ["joseph", "joe", "joey"],
        ["samuel", "sam", "sammy"], ["samantha", "sam", "sammy"], ["matthew", "matt"], ["nicholas", "nick", "nicky"],
        ["steven", "steve"], ["stephen", "steve"], ["andrew", "andy", "drew"], ["benjamin", "ben", "benny"],
        ["patricia", "pat", "patty", "trish"], ["patrick", "pat", "paddy"], ["susan", "sue", "susie"],
        ["david", "dave", "davy"], ["edward", "ed", "eddie", "ted", "ned"], ["charles", "charlie", "chuck"],
        ["henry", "hank", "harry"], ["harold", "harry", "hal"], ["john", "jack", "johnny"], ["jonathan", "jon"],
        ["lawrence", "larry"], ["nathaniel", "nate", "nat"], ["nathan", "nate"], ["ronald", "ron", "ronnie"],
        ["timothy", "tim", "timmy"], ["victoria", "vicky", "tori"], ["abigail", "abby"], ["rebecca", "becky", "becca"],
        ["cynthia", "cindy"], ["deborah", "debbie", "deb"], ["jessica", "jess", "jessie"], ["kimberly", "kim"],
        ["amanda", "mandy"], ["pamela", "pam"], ["gregory", "greg"], ["jeffrey", "jeff"], ["gerald", "jerry"],
        ["kenneth", "ken", "kenny"], ["leonard", "len", "leo"], ["philip", "phil"], ["raymond", "ray"],
        ["russell", "russ"], ["stanley", "stan"], ["walter", "walt"], ["frederick", "fred", "freddie"],
        ["albert", "al", "bert"], ["alfred", "al", "fred", "alfie"], ["donald", "don", "donnie"],
        ["douglas", "doug"], ["francis", "frank"], ["franklin", "frank"], ["eugene", "gene"], ["jacob", "jake"],
        ["joshua", "josh"], ["louis", "lou"], ["maximilian", "max"], ["mitchell", "mitch"], ["oliver", "ollie"],
        ["peter", "pete"], ["zachary", "zach", "zack"], ["theodore", "ted", "teddy", "theo"],
        ["dorothy", "dot", "dottie"], ["eleanor", "ellie", "nora"], ["barbara", "barb", "babs"],
        ["jacqueline", "jackie"], ["judith", "judy"], ["valerie", "val"], ["virginia", "ginny"],
        ["josephine", "jo", "josie"], ["frances", "fran"], ["theresa", "terry", "tess"], ["terence", "terry"],
        ["gabriel", "gabe"], ["gabrielle", "gabby"], ["vincent", "vince", "vinny"], ["dominic", "dom"],
        ["isabella", "bella", "izzy"], ["isabel", "bella", "izzy"], ["madeline", "maddie"], ["natalie", "nat"],
        ["sophia", "sophie"], ["olivia", "liv"], ["emily", "em", "emmy"], ["allison", "ally"], ["cameron", "cam"],
        ["johannes", "hans", "jan"], ["josé", "pepe"], ["francisco", "paco", "pancho"], ["alejandro", "alex", "alejo"],
        ["guillermo", "memo"], ["ignacio", "nacho"], ["wolfgang", "wolf"], ["friedrich", "fritz"],
    ]

    /// Every name in the table, formal and short: names people are really called, which a typo rarely makes.
    static let known: Set<String> = Set(groups.joined()).union(similarNames)

    /// Given names that differ from another common name by a letter or two (Anna and Anne, Mario and Maria,
    /// Jean and Joan): a pair of them is two people, even though Jaro-Winkler rates them alike.
    static let similarNames: Set<String> = [
        "ann", "anna", "anne", "annie", "hanna", "hannah", "maria", "mario", "marie", "mary", "marion", "marina",
        "jean", "joan", "joanne", "joanna", "johanna", "jana", "jane", "janet", "janine", "daniela", "daniella",
        "danielle", "gabriel", "gabriela", "gabrielle", "carl", "karl", "carla", "karla", "carol", "carole",
        "caroline", "carolina", "paul", "paula", "pauline", "paulo", "louise", "luis", "luisa", "eric", "erica",
        "erik", "erika", "francesca", "francesco", "alan", "allan", "allen", "ellen", "helen", "helena", "elena",
        "julia", "julie", "julian", "juliana", "julio", "adrian", "adriana", "adrienne", "christian", "christiane",
        "kristina", "kristen", "kirsten", "sara", "sarah", "lena", "lina", "nina", "dana", "diana", "diane",
        "dean", "jan", "jonas", "jonah", "ivan", "ivana", "petra", "pietro", "andrea", "andreas", "andre",
        "michelle", "michel", "michela", "emily", "emilia", "emil", "emma", "ella", "ava", "eva", "eve",
        "lucas", "luca", "lucia", "lucy", "leon", "leona", "leo", "lea", "leah", "mark", "marc", "marco",
        "marcus", "markus", "martin", "martina", "justin", "justine", "simon", "simone", "kevin", "karen",
        "laura", "lauren", "laurence", "aaron", "ryan", "brian", "bryan", "ian", "sean", "shaun", "shawn",
        "john", "joe", "jose", "josef", "joseph", "rose", "rosa", "rosie", "ruth", "grace", "olivia", "oliver",
        "sophia", "sofia", "sophie", "isabel", "isabella", "isabelle", "amelia", "emilie", "noah", "nora",
    ]

    /// Whether `name` (folded) is a given name the table knows.
    static func isKnown(_ name: String) -> Bool { lookUp(name).isKnown }

    /// Whether `a` and `b` (folded) can name the same person.
    static func areEquivalent(_ a: String, _ b: String) -> Bool { lookUp(a).isEquivalent(to: lookUp(b)) }

    /// What the table says of one name, looked up once for several questions (a pair's given names are asked
    /// both whether they are nicknames of one name and whether both are known names).
    /// Match keys keep one for each part of a card's name, so it is small: the groups and whether it is known
    /// (a name the table lacks is in no group, which no other name shares).
    struct Lookup: Sendable {
        fileprivate var groups: (UInt64, UInt64)

        /// `isKnown(name)`.
        let isKnown: Bool

        /// `areEquivalent(name, other's name)`.
        func isEquivalent(to other: Lookup) -> Bool {
            groups.0 & other.groups.0 != 0 || groups.1 & other.groups.1 != 0
        }
    }

    /// The table's answers about `name` (folded).
    static func lookUp(_ name: String) -> Lookup {
        let entry = entry(name)
        return Lookup(groups: entry?.groups ?? (0, 0), isKnown: entry?.isKnown ?? false)
    }

    /// The formal name of the first group `name` is in (`bob` -> `robert`), or the name itself.
    static func root(_ name: String) -> String { root(name, lookUp(name)) }

    /// `root(name)` with `name` looked up already.
    static func root(_ name: String, _ lookup: Lookup) -> String {
        let groups = lookup.groups
        guard groups != (0, 0) else { return name }
        let index = groups.0 != 0 ? groups.0.trailingZeroBitCount : 64 + groups.1.trailingZeroBitCount
        return self.groups[index][0]
    }

    // MARK: The table packed

    // The lookups run for the given names of nearly every candidate pair of a merge or dedupe, most of them names
    // the table does not hold. Every name in it is ASCII and at most `longest` bytes, so a name is packed into two
    // integers (its bytes and its length) and found in an open-addressing table by integer compares, without
    // hashing a String; a name that cannot be packed (longer, or not ASCII) is in no group and not known, as the
    // table's `String` keys could not equal it either.

    /// What the table says of one name: the groups it is in (bit `i` for `groups[i]`) and whether it is `known`.
    fileprivate struct Entry {
        var key: (UInt64, UInt64) = (0, 0)
        var groups: (UInt64, UInt64) = (0, 0)
        var isKnown = false
    }

    /// Names longer than this many bytes are packed into no key.
    private static let longest = 15

    /// `name`'s bytes in the first integer and the rest with the length in the top byte of the second; nil for
    /// an empty name, a longer one than `longest`, or one with a byte outside ASCII.
    private static func packed(_ name: String) -> (UInt64, UInt64)? {
        if let key = name.utf8.withContiguousStorageIfAvailable(packed) { return key }
        return Array(name.utf8).withUnsafeBufferPointer(packed)
    }

    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64)? {
        guard !bytes.isEmpty, bytes.count <= longest, let base = bytes.baseAddress else { return nil }
        // The bytes copied into the two integers whole (little-endian: byte i is bits 8i of the pair), then
        // tested for ASCII together.
        var key: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &key) { $0.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        key = (UInt64(littleEndian: key.0), UInt64(littleEndian: key.1))
        guard (key.0 | key.1) & 0x8080_8080_8080_8080 == 0 else { return nil }
        return (key.0, key.1 | UInt64(bytes.count) << 56)
    }

    /// The slot a key's search starts at.
    private static func start(_ key: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: (key.0 &* 0x9E37_79B9_7F4A_7C15 ^ key.1 &* 0xC2B2_AE3D_27D4_EB4F) >> 54)
    }

    /// 1,024 slots (the table holds a few hundred names); an empty slot has the key (0, 0), which no name packs to.
    private static let table: [Entry] = {
        precondition(groups.count <= 128, "a group's bit must fit the two integers")
        var table = [Entry](repeating: Entry(), count: 1 << 10)
        func update(_ name: String, _ change: (inout Entry) -> Void) {
            // (A name no lookup can pack cannot be looked up: it needs no slot.)
            guard let key = packed(name) else { return }
            var slot = start(key)
            while table[slot].key != (0, 0) && table[slot].key != key { slot = (slot + 1) & (table.count - 1) }
            table[slot].key = key
            change(&table[slot])
        }
        for (index, group) in groups.enumerated() {
            for name in group {
                update(TextFolding.fold(name)) {
                    if index < 64 { $0.groups.0 |= 1 << index } else { $0.groups.1 |= 1 << (index - 64) }
                }
            }
        }
        for name in known { update(name) { $0.isKnown = true } }
        return table
    }()

    /// The table's entry for `name`, nil when it holds nothing of it.
    private static func entry(_ name: String) -> Entry? {
        guard let key = packed(name) else { return nil }
        let table = self.table
        var slot = start(key)
        while true {
            let entry = table[slot]
            if entry.key == key { return entry }
            if entry.key == (0, 0) { return nil }
            slot = (slot + 1) & (table.count - 1)
        }
    }
}
