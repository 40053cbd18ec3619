// Over 400 lines on purpose: one seeded generator whose steps draw from one random stream in a fixed order
// (changing the order changes every byte); people, names, slips and card shapes are in their own files.

/// Which of a person's values a card shows.
struct Fields: OptionSet, Sendable {
    let rawValue: UInt32

    static let personal0 = Fields(rawValue: 1 << 0)
    static let personal1 = Fields(rawValue: 1 << 1)
    static let workEmail = Fields(rawValue: 1 << 2)
    static let mobile = Fields(rawValue: 1 << 3)
    static let homePhone = Fields(rawValue: 1 << 4)
    static let switchboard = Fields(rawValue: 1 << 5)
    static let homeAddress = Fields(rawValue: 1 << 6)
    static let workAddress = Fields(rawValue: 1 << 7)
    static let familyEmail = Fields(rawValue: 1 << 8)
    static let birthday = Fields(rawValue: 1 << 9)
    static let title = Fields(rawValue: 1 << 10)
    static let org = Fields(rawValue: 1 << 11)
    static let middle = Fields(rawValue: 1 << 12)

    /// The values that belong to one person only: a duplicate always repeats one of them.
    static let identifiers: Fields = [.personal0, .personal1, .workEmail, .mobile]
    /// Every field, in a fixed order (for deterministic iteration).
    static let ordered: [Fields] = [
        .personal0, .personal1, .workEmail, .mobile, .homePhone, .switchboard, .homeAddress, .workAddress,
        .familyEmail, .birthday, .title, .org, .middle,
    ]
}

/// How an incoming duplicate's name and values differ from what the existing card says.
struct Variation {
    var given: String?
    /// A family name written differently (a typo on an unlinked duplicate).
    var family: String?
    var familyFirst = false
    /// Given and family exchanged in N, and FN "Family Given": a form filled the wrong way round.
    var swapNames = false
    var dropAccents = false
    /// 0 as stored, 1 upper case, 2 capitalised after start, `.` and `@`.
    var emailCase = 0
    var extraEmail: String?
    var extraPhone: Phone?
    /// A mobile number the existing card does not know.
    var mobile: Phone?
    var title: String?
    /// The home address as copied (abbreviations, no ZIP, city in capitals), instead of the household's own.
    var address: Address?
    /// The birthday as copied (day and month swapped), instead of the person's own.
    var birthday: Birthday?
    /// How the birthday is written, when not in the card's client's own format.
    var birthdayFormat: DateFormat?
}

/// One card: which fields it shows, and in which client's dialect.
struct CardPlan {
    var fields: Fields
    var shape: Shape
    var phoneFormat: Int
    var uid: String?
    var note: String?
    var categories: [String] = []
    var nickname: String?
    var variation = Variation()
}

/// Builds the world, the existing book and the incoming cards, in that order, from one seed.
struct Generator {
    private let options: SyntheticBook.Options
    private var world: World
    private var random: SplitMix64
    private var existingCount = 0
    /// Fields an existing card must show because a trap was built against them.
    private var forced: [Fields] = []
    private var anchorUsed: [Bool] = []
    private var existingPlans: [CardPlan] = []
    private var incoming: [(person: Int, kind: SyntheticBook.Kind, forced: Fields)] = []
    /// The stream of the unlinked duplicates' choices, forked apart so that without them `random` draws exactly
    /// what it drew before they existed.
    private var unlinkedRandom: SplitMix64
    /// Existing people exported again as unlinked duplicates, who therefore are never ordinary duplicates.
    private var unlinked: [Bool] = []
    /// The stream of the traps without identifiers, and of the unlinked duplicates' later slips (moved house,
    /// birthday typos, the street in the extended address): forked last, so every other stream is unchanged.
    private var trapRandom: SplitMix64
    private var slipRandom: SplitMix64
    /// Incoming people whose card shows no email, phone or UID (the traps without identifiers).
    private var bare = Set<Int>()

    init(_ options: SyntheticBook.Options) {
        self.options = options
        var root = SplitMix64(seed: options.seed)
        let expected = max(0, options.existingPeople) + max(0, options.incomingNew) + max(0, options.traps)
        world = World(random: root.fork(), expectedPeople: expected)
        random = root.fork()
        // Forked after the others, so the world and `random` get the seeds they always had.
        unlinkedRandom = root.fork()
        trapRandom = root.fork()
        slipRandom = root.fork()
    }

    mutating func run() -> SyntheticBook {
        makeExistingPeople(max(0, options.existingPeople))
        makeTraps(max(0, options.traps))
        makeNewPeople(max(0, options.incomingNew))
        makeUnlinked(max(0, options.unlinkedDuplicates))
        makeUnlinkedTraps(max(0, options.unlinkedTraps))
        planExistingCards()

        // The existing book, in shuffled order.
        var order = Array(0..<existingCount)
        random.shuffle(&order)
        var writer = CardWriter(countryCode: options.countryCode, capacity: existingCount * 520 + 1024)
        var existingPeople = [Int]()
        existingPeople.reserveCapacity(existingCount)
        for index in order {
            writer.write(content(index, existingPlans[index]))
            existingPeople.append(world.persons[index].id)
        }
        let existingText = writer.text

        // Duplicates: distinct existing people, each exported once more by some other service. Unlinked people
        // are left out, as each person appears at most once in the incoming book.
        var pool = (0..<existingCount).filter { !unlinked[$0] }
        let duplicates = min(max(0, options.incomingDuplicates), pool.count)
        for slot in 0..<duplicates {
            pool.swapAt(slot, slot + random.below(pool.count - slot))
            incoming.append((pool[slot], .duplicate, []))
        }
        random.shuffle(&incoming)

        var incomingWriter = CardWriter(countryCode: options.countryCode, capacity: incoming.count * 480 + 1024)
        var incomingPeople = [Int]()
        var incomingKinds = [SyntheticBook.Kind]()
        incomingPeople.reserveCapacity(incoming.count)
        incomingKinds.reserveCapacity(incoming.count)
        for entry in incoming {
            let plan =
                switch entry.kind {
                case .duplicate: duplicatePlan(entry.person)
                case .unlinked: unlinkedPlan(entry.person)
                default:
                    bare.contains(entry.person)
                        ? barePlan(entry.person, kind: entry.kind) : standardPlan(entry.person, forced: entry.forced)
                }
            incomingWriter.write(content(entry.person, plan))
            incomingPeople.append(world.persons[entry.person].id)
            incomingKinds.append(entry.kind)
        }
        return SyntheticBook(
            existing: existingText, incoming: incomingWriter.text, existingPeople: existingPeople,
            incomingPeople: incomingPeople, incomingKinds: incomingKinds)
    }

    // MARK: People

    /// Singles and couples; couples share a home phone and address, often a family name, sometimes an email.
    private mutating func makeExistingPeople(_ count: Int) {
        while world.persons.count < count {
            let firstSex: Sex = random.chance(50) ? .male : .female
            let (firstGiven, family) = world.drawName(firstSex)
            if count - world.persons.count >= 2 && random.chance(14) {
                let home = world.newHousehold(family: family, phonePercent: 75, addressPercent: 92)
                if random.chance(55) { world.ensureFamilyEmail(home) }
                _ = world.newPerson(household: home, sex: firstSex, given: firstGiven, family: family)
                let sex: Sex = random.chance(92) ? (firstSex == .male ? .female : .male) : firstSex
                var partner = world.drawName(sex)
                while partner.given == firstGiven { partner = world.drawName(sex) }
                _ = world.newPerson(
                    household: home, sex: sex, given: partner.given,
                    family: random.chance(75) ? family : partner.family)
            } else {
                let home = world.newHousehold(family: family, phonePercent: 35, addressPercent: 65)
                _ = world.newPerson(household: home, sex: firstSex, given: firstGiven, family: family)
            }
        }
        existingCount = world.persons.count
        forced = Array(repeating: [], count: existingCount)
        anchorUsed = Array(repeating: false, count: existingCount)
        unlinked = Array(repeating: false, count: existingCount)
    }

    /// People who are not in the existing book; some borrow the name of someone who is.
    private mutating func makeNewPeople(_ count: Int) {
        for _ in 0..<count {
            var sex: Sex = random.chance(50) ? .male : .female
            var (given, family) = world.drawName(sex)
            if existingCount > 0 && random.chance(15) {
                let model = world.persons[random.below(existingCount)]
                sex = model.sex
                given = model.given
                family = model.family
            }
            let home = world.newHousehold(family: family, phonePercent: 35, addressPercent: 65)
            let person = world.newPerson(household: home, sex: sex, given: given, family: family)
            incoming.append((person, .new, []))
        }
    }

    /// Existing people to export again with none of their identifiers, chosen among those no trap is built on;
    /// each gets a birthday or home address to be recognised by, which their existing card is made to show.
    private mutating func makeUnlinked(_ count: Int) {
        guard count > 0 else { return }
        var candidates = (0..<existingCount).filter { !anchorUsed[$0] }
        for slot in 0..<min(count, candidates.count) {
            candidates.swapAt(slot, slot + unlinkedRandom.below(candidates.count - slot))
            let index = candidates[slot]
            unlinked[index] = true
            // 70% of people have a birthday; giving one to half of the rest puts it on ~85% of unlinked people, as
            // the birthday is the strongest evidence a matcher without identifiers has.
            if world.persons[index].birthday == nil && unlinkedRandom.chance(50) {
                let year = unlinkedRandom.int(1945...2004)
                let month = unlinkedRandom.int(1...12)
                world.persons[index].birthday = Birthday(
                    year: year, month: month,
                    day: unlinkedRandom.int(1...World.days(month, year)))
            }
            // Without a birthday, an address is all the card could be recognised by besides the name.
            let home = world.persons[index].household
            if world.persons[index].birthday == nil && world.households[home].address == nil {
                world.households[home].address = world.newAddress()
            }
            forced[index].formUnion([.homeAddress, .birthday])
            incoming.append((index, .unlinked, []))
        }
    }

    // MARK: Traps without identifiers

    /// Twins, parents and children (half of them Jr. or Sr.) and colleagues whose cards carry no email, phone
    /// or UID: the people a name, address and birthday matcher must keep apart.
    private mutating func makeUnlinkedTraps(_ count: Int) {
        for slot in 0..<count {
            switch slot % 10 {
            case 0, 1, 2, 3: twinTrap()
            case 4, 5, 6: parentChildTrap()
            default: bareColleagueTrap()
            }
        }
    }

    /// Whether two names are one name written with or without accents or capitals.
    static func sameName(_ a: String, _ b: String) -> Bool {
        Folding.dropAccents(a).lowercased() == Folding.dropAccents(b).lowercased()
    }

    /// An existing person no other trap or unlinked duplicate uses, chosen from `trapRandom`.
    private mutating func bareAnchor(_ eligible: (Person) -> Bool) -> Int? {
        guard existingCount > 0 else { return nil }
        for _ in 0..<400 {
            let index = trapRandom.below(existingCount)
            if !anchorUsed[index] && !unlinked[index] && eligible(world.persons[index]) {
                anchorUsed[index] = true
                return index
            }
        }
        return nil
    }

    private mutating func ensureBareHome(_ index: Int) {
        let home = world.persons[index].household
        if world.households[home].address == nil { world.households[home].address = world.newAddress() }
        if world.persons[index].birthday == nil {
            let year = trapRandom.int(1945...2004)
            let month = trapRandom.int(1...12)
            world.persons[index].birthday = Birthday(
                year: year, month: month, day: trapRandom.int(1...World.days(month, year)))
        }
        forced[index].formUnion([.homeAddress, .birthday])
    }

    /// Another child of the same parents born the same day: same family name, home and birthday, another given name.
    private mutating func twinTrap() {
        guard let index = bareAnchor({ $0.suffix == nil && $0.prefix == nil }) else { return }
        ensureBareHome(index)
        let model = world.persons[index]
        let sex: Sex = trapRandom.chance(50) ? .male : .female
        // Another name than anyone's at that home: a twin is told apart by the given name.
        let household = world.persons.filter { $0.household == model.household }.map(\.given)
        var given = world.drawGiven(sex)
        while household.contains(where: { Self.sameName(given, $0) }) { given = world.drawGiven(sex) }
        let person = world.newPerson(
            household: model.household, sex: sex, given: given, family: model.family, employer: .none,
            maySuffix: false)
        world.persons[person].middle = nil
        world.persons[person].prefix = nil
        world.persons[person].birthday = model.birthday
        bare.insert(person)
        incoming.append((person, .twin, []))
    }

    /// A parent or child of the same name at the same home, born decades apart; half the time the younger is
    /// "Jr." (or the elder "Sr.").
    private mutating func parentChildTrap() {
        guard let index = bareAnchor({ $0.suffix == nil && $0.prefix == nil && $0.sex == .male }) else { return }
        ensureBareHome(index)
        let model = world.persons[index]
        let older = trapRandom.chance(50)
        let person = world.newPerson(
            household: model.household, sex: .male, given: model.given, family: model.family, employer: .none,
            maySuffix: false)
        world.persons[person].middle = model.middle
        world.persons[person].prefix = nil
        if trapRandom.chance(50) { world.persons[person].suffix = older ? "Sr." : "Jr." }
        var birthday = model.birthday!
        birthday.year += older ? -trapRandom.int(22...34) : trapRandom.int(22...34)
        birthday.day = min(birthday.day, World.days(birthday.month, birthday.year))
        world.persons[person].birthday = birthday
        forced[index].insert(.middle)
        bare.insert(person)
        incoming.append((person, older ? .father : .son, []))
    }

    /// Someone else at the same organisation, with a name of their own.
    private mutating func bareColleagueTrap() {
        guard let index = bareAnchor({ $0.company != nil }) else { return }
        let model = world.persons[index]
        let sex: Sex = trapRandom.chance(50) ? .male : .female
        // Another name than the model's, and than anyone's at the company (that would be a namesake).
        let colleagues = world.persons.filter { $0.company == model.company }
        var (given, family) = world.drawName(sex)
        while Self.sameName(family, model.family) || Self.sameName(given, model.given)
            || colleagues.contains(where: { Self.sameName($0.given, given) && Self.sameName($0.family, family) })
        {
            (given, family) = world.drawName(sex)
        }
        let home = world.newHousehold(family: family, phonePercent: 0, addressPercent: 65)
        let person = world.newPerson(
            household: home, sex: sex, given: given, family: family, employer: .at(model.company!),
            maySuffix: false)
        forced[index].insert(.org)
        bare.insert(person)
        incoming.append((person, .colleague, []))
    }

    /// A card with the name and what the trap is built on (home and birthday, or organisation), and no email,
    /// phone or UID of anyone's.
    private mutating func barePlan(_ index: Int, kind: SyntheticBook.Kind) -> CardPlan {
        let person = world.persons[index]
        var fields: Fields = kind == .colleague ? [.org, .birthday, .homeAddress] : [.homeAddress, .birthday]
        if person.middle != nil { fields.insert(.middle) }
        fields.formIntersection(available(person))
        let shape = Shape.draw(&trapRandom)
        return CardPlan(fields: fields, shape: shape, phoneFormat: trapRandom.below(6), uid: nil)
    }

    // MARK: Traps

    private mutating func makeTraps(_ count: Int) {
        let colleagues = count * 25 / 100
        let spouses = count * 20 / 100
        let sons = count * 12 / 100
        let fathers = count * 12 / 100
        let namesakes = count - colleagues - spouses - sons - fathers
        for _ in 0..<colleagues { colleagueTrap() }
        for _ in 0..<spouses { spouseTrap() }
        for _ in 0..<sons { sonTrap() }
        for _ in 0..<fathers { fatherTrap() }
        for index in 0..<namesakes { namesakeTrap(sameOrganisation: index % 3 == 0) }
    }

    /// An unused existing person that `eligible` accepts: random probes, then a scan.
    private mutating func anchor(_ eligible: (Person, Household) -> Bool) -> Int? {
        guard existingCount > 0 else { return nil }
        func fits(_ index: Int, _ world: World) -> Bool {
            let person = world.persons[index]
            return eligible(person, world.households[person.household])
        }
        for _ in 0..<200 {
            let index = random.below(existingCount)
            if !anchorUsed[index] && fits(index, world) {
                anchorUsed[index] = true
                return index
            }
        }
        let start = random.below(existingCount)
        for step in 0..<existingCount {
            let index = (start + step) % existingCount
            if !anchorUsed[index] && fits(index, world) {
                anchorUsed[index] = true
                return index
            }
        }
        return nil
    }

    private mutating func colleagueTrap() {
        guard let index = anchor({ person, _ in person.company != nil }) else { return }
        let model = world.persons[index]
        let sex: Sex = random.chance(50) ? .male : .female
        var (given, family) = world.drawName(sex)
        while family == model.family || given == model.given { (given, family) = world.drawName(sex) }
        let home = world.newHousehold(family: family, phonePercent: 35, addressPercent: 65)
        let person = world.newPerson(
            household: home, sex: sex, given: given, family: family,
            employer: .at(model.company!))
        world.ensureWorkEmail(person)
        forced[index].formUnion([.org, .switchboard, .workAddress, .workEmail])
        incoming.append((person, .colleague, [.org, .workEmail, .switchboard, .workAddress]))
    }

    private mutating func spouseTrap() {
        var found = anchor({ _, home in home.members == 1 })
        if found == nil { found = anchor({ _, _ in true }) }
        guard let index = found else { return }
        let model = world.persons[index]
        let home = model.household
        world.ensureHome(home)
        world.ensureFamilyEmail(home)
        let sex: Sex = random.chance(90) ? (model.sex == .male ? .female : .male) : model.sex
        var given = world.drawGiven(sex)
        while given == model.given { given = world.drawGiven(sex) }
        let person = world.newPerson(
            household: home, sex: sex, given: given, family: model.family,
            employer: .notAt(model.company))
        forced[index].formUnion([.homePhone, .homeAddress, .familyEmail])
        incoming.append((person, .spouse, [.homePhone, .homeAddress, .familyEmail]))
    }

    private mutating func namesakeTrap(sameOrganisation: Bool) {
        let found = anchor({ person, _ in
            person.middle == nil && person.suffix == nil && person.prefix == nil
                && (!sameOrganisation || person.company != nil)
        })
        guard let index = found else { return }
        let model = world.persons[index]
        let home = world.newHousehold(family: model.family, phonePercent: 35, addressPercent: 65)
        let employer: Employer = sameOrganisation ? .at(model.company!) : .notAt(model.company)
        let person = world.newPerson(
            household: home, sex: model.sex, given: model.given, family: model.family,
            employer: employer, maySuffix: false)
        world.persons[person].middle = nil
        world.persons[person].prefix = nil
        if sameOrganisation {
            world.ensureWorkEmail(person)
            if world.persons[index].birthday == nil {
                world.persons[index].birthday = world.birthday(years: 1950...2000)
            }
            world.persons[person].birthday = world.birthday(years: 1950...2000)
            forced[index].formUnion([.org, .birthday, .workEmail])
            incoming.append((person, .namesake, [.org, .workEmail, .birthday]))
        } else {
            incoming.append((person, .namesake, []))
        }
        while let theirs = world.persons[person].birthday, theirs == world.persons[index].birthday {
            world.persons[person].birthday = world.birthday(years: 1945...2004)
        }
    }

    private mutating func sonTrap() {
        let found = anchor({ person, _ in person.sex == .male && person.suffix == nil && person.prefix == nil })
        guard let index = found else { return }
        if let year = world.persons[index].birthday?.year, year <= 1975 {
        } else {
            world.persons[index].birthday = world.birthday(years: 1945...1975)
        }
        relativeTrap(of: index, suffix: "Jr.", yearOffset: random.int(22...34), kind: .son)
    }

    private mutating func fatherTrap() {
        let found = anchor({ person, _ in person.sex == .male && person.suffix == nil && person.prefix == nil })
        guard let index = found else { return }
        world.persons[index].suffix = "Jr."
        if let year = world.persons[index].birthday?.year, (1965...1995).contains(year) {
        } else {
            world.persons[index].birthday = world.birthday(years: 1965...1995)
        }
        relativeTrap(
            of: index, suffix: random.chance(50) ? "Sr." : nil, yearOffset: -random.int(22...34),
            kind: .father)
    }

    /// A son or father: the same full name but the suffix, the same home, a birthday in another year.
    private mutating func relativeTrap(of index: Int, suffix: String?, yearOffset: Int, kind: SyntheticBook.Kind) {
        let model = world.persons[index]
        world.ensureHome(model.household)
        let person = world.newPerson(
            household: model.household, sex: .male, given: model.given, family: model.family,
            employer: .notAt(model.company), maySuffix: false)
        world.persons[person].middle = model.middle
        world.persons[person].prefix = nil
        world.persons[person].suffix = suffix
        if world.persons[person].mobile == nil { world.persons[person].mobile = world.newMobile() }
        var birthday = world.birthday(years: 2001...2001)
        birthday.year = model.birthday!.year + yearOffset
        birthday.day = min(birthday.day, World.days(birthday.month, birthday.year))
        world.persons[person].birthday = birthday
        let shown: Fields = [.homePhone, .homeAddress, .birthday, .middle, .mobile]
        forced[index].formUnion([.homePhone, .homeAddress, .birthday, .middle])
        incoming.append((person, kind, shown))
    }

    // MARK: Plans

    private func available(_ person: Person) -> Fields {
        var fields: Fields = []
        if !person.personalEmails.isEmpty { fields.insert(.personal0) }
        if person.personalEmails.count > 1 { fields.insert(.personal1) }
        if person.workEmail != nil { fields.insert(.workEmail) }
        if person.mobile != nil { fields.insert(.mobile) }
        let home = world.households[person.household]
        if home.homePhone != nil { fields.insert(.homePhone) }
        if home.address != nil { fields.insert(.homeAddress) }
        if home.familyEmail != nil { fields.insert(.familyEmail) }
        if person.company != nil { fields.formUnion([.org, .switchboard, .workAddress]) }
        if person.title != nil { fields.insert(.title) }
        if person.birthday != nil { fields.insert(.birthday) }
        if person.middle != nil { fields.insert(.middle) }
        return fields
    }

    /// A full card as the person's own address book would hold it.
    private mutating func standardFields(_ person: Person, forced: Fields) -> Fields {
        let available = available(person)
        let percent: [Int] = [95, 85, 90, 97, 85, 55, 80, 30, 85, 100, 85, 97, 85]
        var fields: Fields = []
        for (field, chance) in zip(Fields.ordered, percent) where available.contains(field) && random.chance(chance) {
            fields.insert(field)
        }
        fields.formUnion(forced.intersection(available))
        if fields.isDisjoint(with: .identifiers) {
            let candidates = Fields.ordered.filter { Fields.identifiers.contains($0) && available.contains($0) }
            fields.insert(random.pick(candidates))
        }
        return fields
    }

    private mutating func standardPlan(_ index: Int, forced: Fields) -> CardPlan {
        let person = world.persons[index]
        let shape = Shape.draw(&random)
        var plan = CardPlan(
            fields: standardFields(person, forced: forced), shape: shape,
            phoneFormat: random.below(6), uid: shape.hasUID ? uuid(shape) : nil)
        if random.chance(20) { plan.note = random.pick(Pools.notes) }
        if random.chance(15) {
            plan.categories = [random.pick(Pools.categories)]
            if random.chance(40) {
                let second = random.pick(Pools.categories)
                if second != plan.categories[0] { plan.categories.append(second) }
            }
        }
        if let nickname = Pools.nicknames[person.given], random.chance(6) { plan.nickname = nickname }
        // Some addresses were typed with capitals ("John.Smith@Acme.com"); a duplicate may then have them lower case.
        if random.chance(5) { plan.variation.emailCase = 2 }
        return plan
    }

    private mutating func planExistingCards() {
        existingPlans.reserveCapacity(existingCount)
        for index in 0..<existingCount {
            existingPlans.append(standardPlan(index, forced: forced[index]))
        }
    }

    /// The same person exported by another service: a subset of their values, one identifier the existing card
    /// has, and the variations real exports show.
    private mutating func duplicatePlan(_ index: Int) -> CardPlan {
        let person = world.persons[index]
        let existing = existingPlans[index]
        let available = available(person)
        let shared = Fields.ordered.filter { Fields.identifiers.contains($0) && existing.fields.contains($0) }
        var fields: Fields = [random.pick(shared)]
        for field in Fields.ordered where field != .middle && available.contains(field) && random.chance(55) {
            fields.insert(field)
        }
        // A middle initial on one side only, half the time.
        let existingMiddle = existing.fields.contains(.middle)
        if person.middle != nil && (random.chance(50) ? !existingMiddle : existingMiddle) { fields.insert(.middle) }

        var shape = Shape.draw(&random)
        var uid: String? = nil
        // About 45% of existing cards carry a UID; re-importing 55% of those keeps the UID on ~25% of duplicates.
        if existing.uid != nil && random.chance(55) {
            shape = existing.shape  // re-import: the same service, the same UID
            uid = existing.uid
        } else if shape.hasUID {
            uid = uuid(shape)
        }
        var plan = CardPlan(
            fields: fields, shape: shape, phoneFormat: (existing.phoneFormat + 1 + random.below(5)) % 6,
            uid: uid)
        var variation = Variation()
        if let nickname = Pools.nicknames[person.given], random.chance(30) {
            variation.given = nickname
        } else if random.chance(7) {
            variation.given = String(person.given.prefix(1)) + "."
        }
        variation.familyFirst = random.chance(10)
        variation.dropAccents = !Folding.isASCII(person.given + person.family) && random.chance(60)
        if random.chance(20) { variation.emailCase = 1 + random.below(2) }
        if random.chance(12) {
            let local =
                Folding.localPart(person.given) + "." + Folding.localPart(person.family) + "." + String(person.tag)
            variation.extraEmail = local + "@" + Pools.extraProvider
        }
        if random.chance(12) { variation.extraPhone = world.newMobile() }
        if person.company != nil && random.chance(8) {
            var title = random.pick(Pools.titles)
            while title == person.title { title = random.pick(Pools.titles) }
            variation.title = title
        }
        plan.variation = variation
        if existing.note != nil && random.chance(40) {
            plan.note = existing.note
        } else if random.chance(15) {
            plan.note = random.pick(Pools.extraNotes)
        }
        if !existing.categories.isEmpty && random.chance(30) { plan.categories = existing.categories }
        return plan
    }

    /// The same person as typed in by hand or kept by a service that never saw their identifiers: the name,
    /// a birthday or home address (or both), and no email, phone or UID of the existing card, with the slips of
    /// copying. The choices are drawn from `unlinkedRandom`; only the UID, the fresh mobile and the written style
    /// come from the streams every card uses. Rates are of the cards a variation can apply to (a nickname needs
    /// a name that has one, a day and month swap a day of 12 or less, and so on).
    private mutating func unlinkedPlan(_ index: Int) -> CardPlan {
        let person = world.persons[index]
        let existing = existingPlans[index]
        let available = available(person)
        let recognisable = available.intersection([.birthday, .homeAddress])
        var fields: Fields = []
        // Birthday and home address 75% each, and always one of them: the name alone proves nothing.
        if recognisable.contains(.birthday) && unlinkedRandom.chance(75) { fields.insert(.birthday) }
        if recognisable.contains(.homeAddress) && unlinkedRandom.chance(75) { fields.insert(.homeAddress) }
        if fields.isEmpty {
            fields.insert(
                recognisable == [.birthday, .homeAddress]
                    ? (unlinkedRandom.chance(50) ? .birthday : .homeAddress) : recognisable)
        }
        if available.contains(.org) && unlinkedRandom.chance(30) { fields.insert(.org) }
        // The middle initial as the existing card has it: the variations to measure are the ones listed below.
        if existing.fields.contains(.middle) { fields.insert(.middle) }

        // A client of its own, and a UID of its own when that client writes one: never the existing card's.
        let shape = Shape.draw(&unlinkedRandom)
        var plan = CardPlan(
            fields: fields, shape: shape, phoneFormat: unlinkedRandom.below(6),
            uid: shape.hasUID ? uuid(shape) : nil)
        var variation = Variation()
        // 70% without any email; otherwise one at the provider no existing card uses, unique by the person's tag.
        if unlinkedRandom.chance(30) {
            let local =
                Folding.localPart(person.given) + "." + Folding.localPart(person.family) + "." + String(person.tag)
            variation.extraEmail = local + "@" + Pools.extraProvider
        }
        // 20% with a mobile, always a number nobody else has.
        if unlinkedRandom.chance(20) { variation.mobile = world.newMobile() }

        // Names. A nickname for 12% of the given names that have one; otherwise the initial alone 4%.
        var given = person.given
        if let nickname = Pools.nicknames[person.given], unlinkedRandom.chance(12) {
            given = nickname
        } else if unlinkedRandom.chance(4) {
            given = String(person.given.prefix(1)) + "."
        }
        // A typo in 10% of given names (as written, so a nickname can carry it) and 20% of family names, among
        // those of 4 letters or more: family names are typed from hearing more often than given names.
        if unlinkedRandom.chance(10) && Slips.letterCount(given) >= 4, let typo = Slips.typo(given, &unlinkedRandom) {
            given = typo
        }
        if given != person.given { variation.given = given }
        if unlinkedRandom.chance(20) && Slips.letterCount(person.family) >= 4,
            let typo = Slips.typo(person.family, &unlinkedRandom)
        {
            variation.family = typo
        }
        // 6% of forms were filled the wrong way round; accents dropped as often as on ordinary duplicates.
        variation.swapNames = unlinkedRandom.chance(6)
        variation.dropAccents = !Folding.isASCII(person.given + person.family) && unlinkedRandom.chance(60)

        // The home address as copied: the street type spelled out or abbreviated in 50% of the streets that have
        // one, the ZIP left out 15%, the city in capitals 10%.
        if fields.contains(.homeAddress), var address = world.households[person.household].address {
            if Slips.canVaryAbbreviation(address.street) && unlinkedRandom.chance(50) {
                address.street = Slips.abbreviationVaried(address.street, &unlinkedRandom)
            }
            if unlinkedRandom.chance(15) { address.zip = "" }
            if unlinkedRandom.chance(10) { address.city = address.city.uppercased() }
            variation.address = address
        }
        // The birthday as copied: in the other date format than the client's own 30%, without the year 5%, day and
        // month swapped 2% of the dates where both are 12 or less and differ (elsewhere the swap is no date).
        if fields.contains(.birthday), var birthday = person.birthday {
            if unlinkedRandom.chance(30) { variation.birthdayFormat = shape.basicDates ? .extended : .basic }
            if unlinkedRandom.chance(5) { variation.birthdayFormat = .noYear }
            if birthday.day <= 12 && birthday.day != birthday.month && unlinkedRandom.chance(2) {
                swap(&birthday.day, &birthday.month)
                variation.birthday = birthday
            }
        }
        // Later slips, from their own stream: a birthday one digit off or with two digits transposed (8%), a
        // move to another house (10%), the street written in the extended-address field (8%).
        if fields.contains(.birthday), variation.birthday == nil, let birthday = person.birthday,
            slipRandom.chance(8)
        {
            variation.birthday = Slips.birthdayTypo(birthday, transposed: slipRandom.chance(50), &slipRandom)
        }
        if fields.contains(.homeAddress) {
            if slipRandom.chance(10) {
                variation.address = world.newAddress()
            } else if slipRandom.chance(9) {
                var address = variation.address ?? world.households[person.household].address
                address?.inExtended = true
                variation.address = address
            }
        }
        plan.variation = variation
        return plan
    }

    // MARK: Content

    private mutating func content(_ index: Int, _ plan: CardPlan) -> CardContent {
        let person = world.persons[index]
        let home = world.households[person.household]
        let fields = plan.fields
        let variation = plan.variation
        var card = CardContent(shape: plan.shape, phoneFormat: plan.phoneFormat, style: random.next())
        var given = variation.given ?? person.given
        var family = variation.family ?? person.family
        if variation.dropAccents {
            given = Folding.dropAccents(given)
            family = Folding.dropAccents(family)
        }
        if variation.swapNames { swap(&given, &family) }
        card.given = given
        card.family = family
        card.middle = fields.contains(.middle) ? person.middle ?? "" : ""
        card.prefix = person.prefix ?? ""
        card.suffix = person.suffix ?? ""
        let middle = card.middle.isEmpty ? "" : " " + card.middle + "."
        if variation.familyFirst {
            card.formattedName = family + ", " + given + middle
        } else {
            var name = card.prefix.isEmpty ? "" : card.prefix + " "
            name += given + middle + " " + family
            if !card.suffix.isEmpty { name += " " + card.suffix }
            card.formattedName = name
        }
        card.includeN = plan.shape != .vcard4 || card.style & 6 != 0
        card.uid = plan.uid
        card.nickname = plan.nickname
        if fields.contains(.org), let company = person.company { card.org = world.companies[company].name }
        card.title = variation.title ?? (fields.contains(.title) ? person.title : nil)

        func email(_ address: String) -> String {
            switch variation.emailCase {
            case 1: return address.uppercased()
            case 2:
                var out = ""
                var capital = true
                for character in address {
                    out += capital ? character.uppercased() : String(character)
                    capital = character == "." || character == "@"
                }
                return out
            default: return address
            }
        }
        if fields.contains(.personal0) { card.emails.append((email(person.personalEmails[0]), .home)) }
        if fields.contains(.personal1) { card.emails.append((email(person.personalEmails[1]), .home)) }
        if fields.contains(.workEmail), let work = person.workEmail { card.emails.append((email(work), .work)) }
        if fields.contains(.familyEmail), let shared = home.familyEmail { card.emails.append((email(shared), .family)) }
        if let extra = variation.extraEmail { card.emails.append((email(extra), .other)) }

        if fields.contains(.mobile), let mobile = person.mobile { card.phones.append((mobile, .cell)) }
        if fields.contains(.homePhone), let phone = home.homePhone { card.phones.append((phone, .home)) }
        if fields.contains(.switchboard), let company = person.company {
            card.phones.append((world.companies[company].switchboard, .work))
        }
        if let mobile = variation.mobile { card.phones.append((mobile, .cell)) }
        if let extra = variation.extraPhone { card.phones.append((extra, .other)) }

        if fields.contains(.homeAddress), let address = variation.address ?? home.address {
            card.addresses.append((address, .home))
        }
        if fields.contains(.workAddress), let company = person.company {
            card.addresses.append((world.companies[company].address, .work))
        }
        if fields.contains(.birthday) { card.birthday = variation.birthday ?? person.birthday }
        card.birthdayFormat = variation.birthdayFormat
        card.note = plan.note
        card.categories = plan.categories
        if plan.shape == .outlook || plan.shape == .vcard4 {
            let month = random.int(1...12)
            card.revision =
                String(random.int(2019...2024)) + Digits.padded(month, 2)
                + Digits.padded(random.int(1...28), 2) + "T" + Digits.padded(random.below(24), 2)
                + Digits.padded(random.below(60), 2) + Digits.padded(random.below(60), 2) + "Z"
        }
        return card
    }

    /// A version-4 UUID from the seeded stream: upper case for Apple, a urn:uuid for vCard 4.0.
    private mutating func uuid(_ shape: Shape) -> String {
        let high = (random.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
        let low = (random.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        let upper = shape == .apple
        let text =
            Digits.hex(high >> 32, 8, uppercase: upper) + "-" + Digits.hex((high >> 16) & 0xFFFF, 4, uppercase: upper)
            + "-" + Digits.hex(high & 0xFFFF, 4, uppercase: upper) + "-" + Digits.hex(low >> 48, 4, uppercase: upper)
            + "-" + Digits.hex(low & 0xFFFF_FFFF_FFFF, 12, uppercase: upper)
        return upper ? text : "urn:uuid:" + text
    }
}
