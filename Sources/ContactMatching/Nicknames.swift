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

    /// Whether `a` and `b` (folded) can name the same person.
    static func areEquivalent(_ a: String, _ b: String) -> Bool {
        guard let ga = membership[a], let gb = membership[b] else { return false }
        return ga.contains { gb.contains($0) }
    }

    /// The formal name of the first group `name` is in (`bob` -> `robert`), or the name itself.
    static func root(_ name: String) -> String {
        guard let index = membership[name]?.first else { return name }
        return groups[index][0]
    }
}
