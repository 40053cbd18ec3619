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

    /// Each name to the indexes of the groups it is in.
    private static let membership: [String: [Int]] = {
        var map: [String: [Int]] = [:]
        for (index, group) in groups.enumerated() {
            for name in group { map[TextFolding.fold(name), default: []].append(index) }
        }
        return map
    }()

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
    static func isKnown(_ name: String) -> Bool { isASCII(name) && known.contains(name) }

    /// The table is all ASCII: any other name is looked up without hashing it (hashing text outside ASCII
    /// normalises it first, which costs more than the lookup).
    /// (Read from the contiguous bytes: walking `utf8` of a small string decodes it again at every byte, and this
    /// runs for both names of every candidate pair.)
    private static func isASCII(_ name: String) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { bytes in !bytes.contains { $0 >= 0x80 } }
            ?? !name.utf8.contains { $0 >= 0x80 }
    }

    /// Whether `a` and `b` (folded) can name the same person.
    static func areEquivalent(_ a: String, _ b: String) -> Bool {
        guard isASCII(a), isASCII(b), let ga = membership[a], let gb = membership[b] else { return false }
        return ga.contains { gb.contains($0) }
    }

    /// The formal name of the first group `name` is in (`bob` -> `robert`), or the name itself.
    static func root(_ name: String) -> String {
        guard isASCII(name), let index = membership[name]?.first else { return name }
        return groups[index][0]
    }
}
